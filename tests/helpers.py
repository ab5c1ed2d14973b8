"""Small builders for scenarios in tests."""
from __future__ import annotations

import yaml

from models.results import ScenarioResult
from solver.run.api import check_text
from solver.engine.settings import SolverOptions


def scenario(game: str = "berserk", players=("alice", "bob"), **parts) -> dict:
    """A scenario dict with defaults for id, game and players."""
    base = {"id": "t", "game": game, "players": [{"id": p} for p in players]}
    base.update(parts)
    return base


def run(doc: dict, why: bool = False, **options) -> ScenarioResult:
    """Check a scenario dict through the public API (``why``: every verdict's rules, as ``check --why``)."""
    return check_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), "test.yaml",
                      SolverOptions(**options) if options else None, why=why)


def verdicts(res: ScenarioResult) -> list[str]:
    """The verdict of each expectation."""
    return [e.verdict.value for e in res.expectations]


def assert_agrees(sc) -> None:
    """The checker and the solver-free reference agree on a scenario: same outcomes, same verdicts."""
    from solver.check.differential import differential

    cmp = differential(sc)
    assert not cmp.skipped, cmp.skipped
    assert cmp.agree, "\n".join(cmp.problems)
