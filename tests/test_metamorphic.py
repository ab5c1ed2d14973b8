"""Metamorphic properties: renaming players and objects, reordering objects, or shifting every timestamp by
the same amount changes no verdict and no number of outcomes."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.scenario import Scenario
from solver.run.api import check_scenario
from solver.registry import names

GAMES = names()
from solver.reference.generate import random_doc, rename, reorder_objects, shift_timestamps

EXAMPLES = 25


def _verdicts(doc: dict) -> tuple:
    res = check_scenario(Scenario.model_validate(doc))
    if res.error is not None:  # a located error about an event (Berserk: resolving what is not on the stack)
        where = re.search(r"events\[\d+\] \(\w+\)", res.error)
        assert where, res.error
        return "error", where.group()
    return len(res.outcomes), res.unique, tuple(e.verdict.value for e in res.expectations)


TRANSFORMS = {
    "rename": lambda doc, rng: rename(doc),
    "reorder_objects": reorder_objects,
    "shift_timestamps": lambda doc, rng: shift_timestamps(doc, rng.randint(1, 1000)),
}


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
@pytest.mark.parametrize("game", GAMES)
@settings(derandomize=True, max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_transform_changes_no_verdict(game: str, transform: str, rng) -> None:
    """The checker gives the transformed scenario the same verdicts as the original."""
    doc = random_doc(rng, game)
    assert _verdicts(TRANSFORMS[transform](doc, rng)) == _verdicts(doc)


def test_rename_really_renames() -> None:
    """The renaming touches every id (so the property above is not vacuous)."""
    doc = random_doc(random.Random(3), "berserk")
    renamed = rename(doc)
    assert {p["id"] for p in renamed["players"]}.isdisjoint({p["id"] for p in doc["players"]})
    assert {o["id"] for o in renamed["objects"]}.isdisjoint({o["id"] for o in doc["objects"]})
    Scenario.model_validate(renamed)


def _sliced_verdicts(doc: dict, slicing: bool) -> tuple:
    from solver.engine.settings import SolverOptions
    from solver.run.single import check_scenario

    res = check_scenario(Scenario.model_validate(doc), SolverOptions(slicing=slicing))
    assert "internal error" not in (res.error or ""), res.error
    # a located refusal (resolving what is not on the stack) must be the same on both
    return res.error, len(res.outcomes), res.unique, tuple((e.verdict.value, e.passed) for e in res.expectations)


@pytest.mark.parametrize("game", GAMES)
@settings(derandomize=True, max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_slicing_changes_no_verdict(game: str, rng) -> None:
    """Slicing (objects nobody touches kept as constants) on a reordered scenario gives the verdicts of the full
    model on the original: the cone of influence and the object order change nothing."""
    doc = random_doc(rng, game)
    assert _sliced_verdicts(reorder_objects(doc, rng), True) == _sliced_verdicts(doc, False)
