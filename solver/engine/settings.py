"""What a solve answers and the solver settings: plain data, importable without ortools."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from solver.engine.budget import DEFAULT_BUDGET, SAFETY_SECONDS, Meter


class Answer(Enum):
    """What one solve established."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverOptions:
    """CP-SAT settings used for every solve, and the switches of the faster paths (each changes no answer)."""

    #: work units per scenario, spent by every solve made for it (``solver.engine.budget``; ``--timeout``)
    budget: float = DEFAULT_BUDGET
    #: wall-clock seconds per scenario: an outer safety net only, far above any budget (``--safety-limit``)
    safety: float = SAFETY_SECONDS
    seed: int = 0
    #: off by default: these models are small and built for propagation; presolving them costs
    #: about half the library's time (measured) and every answer is the same either way
    #: (tests/test_solver_settings.py checks both)
    presolve: bool = False
    max_outcomes: int = 32
    #: rule ids switched off: left out of the assumptions, so their clauses relax (rule coverage)
    rules_off: tuple[str, ...] = ()
    #: cone of influence: a state key nothing reads or sets keeps its initial value as a constant, with no variable
    #: and no fact literal (``solver.encoding.state``); off: every key is a variable of stage 0 under its fact
    slicing: bool = True
    #: cores only when asked: for a ``because``, a failing verdict, ``explain`` or ``--why``; off: also for every
    #: ``impossible`` verdict, illegal or interrupted action and contradiction
    lazy_cores: bool = True
    #: shrink a core by deleting blocks of members, divide and conquer (``solver.engine.cores``); off: one deletion
    #: per member
    block_deletion: bool = True
    #: leave out CP-SAT's per-solve symmetry detection, probing and linear relaxation, which cost more than the
    #: search on these small propagation models (``solver.engine.solve``); off: CP-SAT's defaults, except in core
    #: searches and but-for tests, which always run lean (so the cores shown do not depend on this switch)
    lean_search: bool = True
    #: the meter of the scenario being checked (set by ``solver.check.checker.ScenarioCheck``: one per scenario,
    #: shared by its every solve); None: each engine meters its own solves
    meter: Meter | None = field(default=None, compare=False, repr=False)
    #: the victory analysis's proved and refuted answers for the scenario being checked (set with ``meter``: one per
    #: scenario, so the victory check and the claims analyse a position once; ``solver.victory.analysis.analyse``)
    victory_memo: dict | None = field(default=None, compare=False, repr=False)

    @classmethod
    def baseline(cls, **kw) -> "SolverOptions":
        """The path before the speed work (issue 15): every switch above off, for side-by-side benchmarks."""
        return replace(cls(**kw), slicing=False, lazy_cores=False, block_deletion=False, lean_search=False)
