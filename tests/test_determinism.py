"""The same verdict on any machine under any load: budgets of deterministic work, wall-clock only as a safety net.

Every solve for a scenario draws on one ``solver.engine.budget.Meter`` (CP-SAT's deterministic time plus counted
solves and tree nodes). Nothing here reads the clock for an assertion: a budget small enough to run out is given,
and the wall-clock safety net is tested with a clock the test drives.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.encoding.cp import RuleModel
from solver.engine.budget import NODE_COST, SAFETY_WORDS, SOLVE_COST, Exhausted, Meter
from solver.engine.settings import Answer, SolverOptions
from solver.engine.solve import Engine
from solver.run.batch import RunOptions, check_job, collect
from solver.run.single import check_file

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "scenarios"
#: a victory analysis (CP-SAT searches and cores), a forced win (the explicit game tree) and a many-step MTG game
FEW = [LIB / "berserk" / "602.1-decisive-advantage-board-flyer-refuted.yaml",
       LIB / "berserk" / "602.1-forced-win-bounded.yaml", LIB / "mtg" / "800.4a-three-leave.yaml"]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _model() -> RuleModel:
    rm = RuleModel()
    x = rm.new_bool("x")
    rm.implies("r.a", [], x)
    return rm


# -- the meter ---------------------------------------------------------------------------------------------------
def test_each_solve_is_charged_its_work():
    """A solve costs SOLVE_COST plus CP-SAT's deterministic time; the meter counts it."""
    engine = Engine(_model(), SolverOptions(budget=1.0))
    assert engine.solve()[0] is Answer.SAT
    assert engine.meter.solves == 1 and engine.meter.spent >= SOLVE_COST and engine.meter.stopped is None


def test_a_budget_spent_gives_unknown_without_solving():
    """Once the budget cannot pay for a solve, every solve is unknown, and says the budget ran out."""
    engine = Engine(_model(), SolverOptions(budget=1.5 * SOLVE_COST))
    assert engine.solve()[0] is Answer.SAT
    assert engine.solve()[0] is Answer.UNKNOWN and engine.solve()[0] is Answer.UNKNOWN
    assert engine.meter.solves == 1 and engine.meter.stopped == "budget"
    assert "work budget of 0.0015 units ran out" in engine.meter.why()


def test_tree_nodes_are_charged_until_the_budget_runs_out():
    """A pure-Python search pays NODE_COST per node; past the budget the meter raises Exhausted."""
    meter = Meter(3.5 * NODE_COST)
    for _ in range(3):
        meter.node()
    with pytest.raises(Exhausted):
        meter.node()
    assert meter.nodes == 3 and meter.stopped == "budget"


def test_the_safety_limit_is_not_the_budget():
    """Past the wall-clock safety limit nothing more is solved, and the answer says so, in other words."""
    clock = Clock()
    meter = Meter(10.0, safety=60.0, clock=clock)
    engine = Engine(_model(), SolverOptions(meter=meter))
    assert engine.solve()[0] is Answer.SAT
    clock.now = 61.0
    assert engine.solve()[0] is Answer.UNKNOWN
    assert meter.stopped == "safety" and meter.why().startswith(SAFETY_WORDS) and "budget" in meter.why()


def test_a_scenario_stopped_by_the_safety_limit_says_so(monkeypatch):
    """A whole check stopped by the safety net is unknown (wall-clock safety limit), never a pass or a failure."""
    clock = Clock()
    import solver.check.checker as checker

    def late_meter(budget, safety):
        meter = Meter(budget, safety, clock=clock)
        clock.now = safety + 1  # the first solve already finds the limit passed
        return meter
    monkeypatch.setattr(checker, "Meter", late_meter)
    res = check_file(FEW[2])
    assert res.status.value == "unknown" and res.error.startswith(SAFETY_WORDS), res.error


# -- budgets decide, the same way every time -----------------------------------------------------------------------
@pytest.mark.parametrize("budget", [1e-9, 0.003, 0.02, 0.06])
@pytest.mark.parametrize("path", FEW, ids=lambda p: p.name)
def test_a_small_budget_gives_unknown_never_a_failure(path, budget):
    """Whatever the budget, a passing scenario passes or is unknown: running out never reads as a failure."""
    res = check_file(path, SolverOptions(budget=budget))
    assert res.status.value in ("pass", "unknown"), [(e.description, e.message) for e in res.expectations]
    assert res.work <= budget + SOLVE_COST + 1e-4


def test_the_default_budget_decides_the_library_with_a_margin():
    """The largest use of the budget in a few of the library's heaviest scenarios is under a fifth of the default."""
    default = SolverOptions().budget
    uses = [check_file(p).work for p in FEW]
    assert max(uses) * 5 <= default, uses


def _records(paths, budget: float) -> str:
    """The records of a batch, timing aside, as one JSON text."""
    recs = [check_job(j.payload(), RunOptions(timeout=budget)) for j in collect(paths)]
    return json.dumps([{k: v for k, v in r.items() if k != "seconds"} for r in recs], sort_keys=True)


@pytest.mark.parametrize("budget", [0.03, 10.0])
def test_another_process_gives_the_same_records(budget):
    """Another process, with another hash seed, gives byte-identical records (unknown and work included)."""
    here = _records(FEW, budget)
    code = ("import json, sys; from pathlib import Path; sys.path.insert(0, 'tests'); "
            "from test_determinism import _records, FEW; print(_records(FEW, %r))" % budget)
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert out.stdout.strip() == here


@pytest.mark.load
def test_a_check_under_load_is_byte_identical_to_a_quiet_one():
    """Four busy processes beside a check change nothing in its report (timing aside): with a budget that decides
    the two victory scenarios and runs out in the third (the MTG one), unknown included (solver.bench.load at a
    small scale; about 20 s)."""
    from solver.bench.load import compare

    # the checks spend 0.0075, 0.0038 and 0.0098 units (arbiter check -f json: "work"): 0.0085 runs out in the third
    r = compare([str(p) for p in FEW], ["--timeout", "0.0085"], busy=4)
    assert r["identical"], r["difference"]
    assert r["exit"] == (1, 1)  # the MTG scenario is unknown within 0.0085 units: the run did not just pass


def test_the_pytest_plugin_uses_the_same_budget(pytester):
    """--arbiter-timeout is the work budget: a tiny one leaves the scenario unknown, a failure (never an error)."""
    (pytester.path / "scenarios").mkdir()
    (pytester.path / "scenarios" / "s.yaml").write_text(FEW[2].read_text(encoding="utf-8"), encoding="utf-8")
    r = pytester.runpytest("-p", "no:cacheprovider", "scenarios", "--arbiter-timeout", "1e-9")
    r.assert_outcomes(failed=1)
    assert "unknown" in r.stdout.str() and "work budget of 1e-09 units ran out" in r.stdout.str()
