"""Every library expectation can fail: flipping each stated verdict turns it into a failure."""
from __future__ import annotations

from pathlib import Path

import pytest

from models.loader import load_scenario
from solver.run.api import check_scenario

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))
FLIP = {"holds": "impossible", "impossible": "holds", "possible": "holds"}


def flipped(sc):
    """The scenario with every expectation's verdict (or whole-outcome count) negated."""
    out = sc.model_copy(deep=True)
    for ex in out.expect:
        if ex.unique is not None:
            ex.unique = not ex.unique
        elif ex.outcomes is not None:
            ex.outcomes = ex.outcomes + 1
        else:
            ex.verdict = FLIP[ex.verdict]
        ex.because = []
    return out


@pytest.mark.parametrize("path", LIBRARY, ids=[str(p.relative_to(ROOT / "scenarios")) for p in LIBRARY])
def test_flipped_expectations_all_fail(path):
    """A library scenario with negated expectations fails on every one of them."""
    sc = load_scenario(path).scenario
    if not sc.expect:
        pytest.skip("no expectations (claims only)")
    res = check_scenario(flipped(sc), name=str(path))
    assert res.status.value == "fail", res.error
    assert [e.passed for e in res.expectations] == [False] * len(sc.expect), \
        [(e.description, e.verdict.value, e.expected) for e in res.expectations if e.passed]
