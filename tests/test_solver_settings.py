"""Solver settings change no answer, and every core shown is re-checked on a model built again from scratch.

Scenarios of the rulesets the reference covers run by default; the whole library (every game) runs with
``python -m pytest -m soak tests/test_solver_settings.py``.

- presolve on/off and other random seeds: same outcomes, verdicts and action statuses (guards against
  solver bugs such as wrong cores or lost solutions);
- each core the checker shows (expectation verdicts, contradictions, action legality): keeping all of its
  members keeps the model infeasible, removing any one makes it feasible.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.loader import load_scenario
from models.scenario import Scenario
from solver.check import proofs
from solver.check.checker import ScenarioCheck
from solver.encoding.compile import Compiler, ScenarioError
from solver.engine.solve import Answer, Engine, SolverOptions
from solver.registry import ruleset_for
from solver.registry import names

GAMES = names()
from solver.reference.generate import random_scenario

ROOT = Path(__file__).resolve().parent.parent
#: covered rulesets run in CI; the other games' scenarios are large and run under ``-m soak`` (same checks)
LIBRARY = [pytest.param(p, marks=() if p.parent.name in GAMES else pytest.mark.soak, id=f"{p.parent.name}/{p.name}")
           for p in sorted((ROOT / "scenarios").rglob("*.yaml"))]
SETTINGS = {"presolve-off": SolverOptions(presolve=False), "seed-12345": SolverOptions(seed=12345)}


def _answers(sc: Scenario, opts: SolverOptions) -> tuple:
    try:
        res = ScenarioCheck(sc, options=opts).run()
    except ScenarioError as exc:  # a located error about an event (Berserk: resolving what is not on the stack)
        return ("error", str(exc))
    traces = sorted(tuple(tuple(sorted(st.items())) for st in o.trace) for o in res.outcomes)
    return (res.status.value, res.error, res.outcomes_complete, traces, [e.verdict.value for e in res.expectations],
            [(a.id, a.statuses) for a in res.actions], [(c.verdict, c.passed) for c in res.claims])


@pytest.mark.parametrize("path", LIBRARY)
def test_library_answers_do_not_depend_on_settings(path: Path) -> None:
    """Presolve off, or another seed: the same answers as the defaults."""
    sc = load_scenario(path).scenario
    base = _answers(sc, SolverOptions())
    for name, opts in SETTINGS.items():
        assert _answers(sc, opts) == base, name


@pytest.mark.parametrize("game", GAMES)
@settings(derandomize=True, max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_random_answers_do_not_depend_on_settings(game: str, rng) -> None:
    """The same on random small scenarios."""
    sc = random_scenario(rng, game)
    base = _answers(sc, SolverOptions())
    for name, opts in SETTINGS.items():
        assert _answers(sc, opts) == base, name


# -- cores, re-checked on a fresh model ------------------------------------------------------------
def _fresh(sc: Scenario, query) -> tuple[list, Engine]:
    """The model built again from the scenario, the query literals, and an engine over it."""
    comp = Compiler(sc, ruleset_for(sc.game))
    comp.compile_events()
    proofs.settle(comp)  # the proofs a victory check asks for enter as facts, as in the checker
    extra = query(comp)  # before the engine: building the query may create rule literals
    return extra, Engine(comp.rm, SolverOptions())


def _assert_minimal_core(sc: Scenario, query, members: list[str], what: str) -> None:
    extra, eng = _fresh(sc, query)
    answer, _ = eng.solve(extra, members)
    assert answer is Answer.UNSAT, f"{what}: the core {members} does not exclude it"
    for m in members:
        answer, _ = eng.solve(extra, [x for x in members if x != m])
        assert answer is Answer.SAT, f"{what}: the core {members} is not minimal ({m} is not needed)"


def _shown_cores(sc: Scenario):
    """(what, query builder, member names) for every core the checker shows on this scenario."""
    res = ScenarioCheck(sc, why=True).run()
    out = []
    for e in res.expectations:
        if not (e.rules or e.facts) or e.verdict.value not in ("holds", "impossible"):
            continue
        ex = sc.expect[e.index]
        negate = e.verdict.value == "holds"

        def query(comp, ex=ex, negate=negate):
            """The expectation (or its negation) on the fresh model."""
            lit = comp.expectation_lit(ex)
            return [~lit if negate else lit]
        out.append((f"expect[{e.index}] {e.verdict.value}", query,
                    [f"rule:{r}" for r in e.rules] + [f"fact:{f}" for f in e.facts]))
    if res.contradiction:
        members = [m.replace("rule ", "rule:", 1).replace("fact ", "fact:", 1) for m in res.contradiction]
        out.append(("contradiction", lambda comp: [], members))
    return res, out


@pytest.mark.parametrize("path", LIBRARY)
def test_every_shown_core_is_minimal_and_excludes(path: Path) -> None:
    """Keeping every rule and fact of a shown core keeps the model infeasible; dropping any one makes it feasible."""
    sc = load_scenario(path).scenario
    res, cores = _shown_cores(sc)
    for what, query, members in cores:
        _assert_minimal_core(sc, query, members, what)


@pytest.mark.parametrize("path", LIBRARY)
def test_action_cores_exclude_the_other_statuses(path: Path) -> None:
    """The rules shown for an illegal or interrupted action (with the scenario's facts) exclude every other status."""
    sc = load_scenario(path).scenario
    res = ScenarioCheck(sc, why=True).run()
    for a in res.actions:
        if not a.rules:
            continue
        extra, eng = _fresh(sc, lambda comp, a=a: [~comp.stage["status", a.id].is_(a.statuses[0])])
        names = [f"rule:{r}" for r in a.rules] + [n for n in eng.named if n.startswith("fact:")]
        answer, _ = eng.solve(extra, names)
        assert answer is Answer.UNSAT, f"action {a.id}: rules {a.rules} do not force {a.statuses[0]}"
