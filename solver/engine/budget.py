"""The work budget of one scenario: deterministic work, never seconds.

Every solve made for a scenario (its outcomes, verdicts, cores and their re-checks, the positions of a proof, the
victory analysis) draws on one ``Meter``, in *work units*:

- a CP-SAT solve costs its deterministic time (``CpSolverResponse.deterministic_time``; CP-SAT is given what is left
  as ``max_deterministic_time``, with one worker and a fixed seed) plus ``SOLVE_COST`` (a tiny solve reports no
  deterministic time, yet each one is work: the model is built and copied);
- a node of the victory analysis's explicit search (pure Python: a position expanded, or 256 successor positions
  built, ``solver.victory.search``) costs ``NODE_COST``.

So the same scenario spends the same work on any machine under any load, and the same budget gives the same answer,
``unknown`` included. The budget is ``--timeout`` (``DEFAULT_BUDGET`` units by default). One unit is roughly 2 to 7
seconds of one core for the library's scenarios, about 0.5 for the victory analysis's explicit search, and up to
about 17 for a long CP-SAT victory search (with a combat rule off; model building is paid per solve, not per unit of
deterministic time); ``python -m solver.bench.units`` measures it (README, Budgets).

Wall-clock time is only a safety net, far above any budget (``SAFETY_SECONDS``, ``--safety-limit``): a solve is
also given the seconds left before the safety limit as its wall-clock cap, and an answer stopped by it says
``unknown (wall-clock safety limit)``, never the budget's words.

Importable without ortools (the solver module is imported by the call that solves).
"""
from __future__ import annotations

import time
from collections.abc import Callable

#: work units per scenario when nothing else is said (``--timeout``): 18 times what the heaviest library
#: scenario spends (0.17), and small enough that a scenario that spends it all (under a minute on a quiet core) stays
#: far inside the safety limit even on a machine five times slower or loaded
DEFAULT_BUDGET = 3.0
#: wall-clock seconds per scenario after which it is stopped whatever the budget (an outer safety net only)
SAFETY_SECONDS = 600.0
#: work units charged for each CP-SAT solve on top of its deterministic time
SOLVE_COST = 0.001
#: work units charged for each node of the victory analysis's explicit game tree
NODE_COST = 0.0001
#: the words of an answer stopped by the wall-clock safety net (never said of the budget)
SAFETY_WORDS = "unknown (wall-clock safety limit)"


class Exhausted(Exception):
    """The scenario's budget (or its wall-clock safety limit) is spent: no more work is done for it."""


class Meter:
    """The work spent for one scenario against its budget, and why work stopped (``stopped``)."""

    def __init__(self, budget: float = DEFAULT_BUDGET, safety: float = SAFETY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.safety = safety
        self.spent = 0.0
        self.solves = 0
        self.nodes = 0
        #: None while work may go on; "budget" once the budget ran out; "safety" once the safety limit was reached
        self.stopped: str | None = None
        self._clock = clock
        self._safety_at = clock() + safety  # wall-clock safety net only: no answer reads it

    @property
    def left(self) -> float:
        """Work units left."""
        return self.budget - self.spent

    def _past_safety(self) -> bool:
        return self._clock() >= self._safety_at

    def _may_go_on(self, cost: float) -> bool:
        """Whether work costing ``cost`` may start; records why not."""
        if self.stopped is None and self.left < cost:
            self.stopped = "budget"
        if self.stopped is None and self._past_safety():
            self.stopped = "safety"
        return self.stopped is None

    def solve(self, solver, model) -> int:
        """Run one CP-SAT solve within what is left and charge it; its status (UNKNOWN without solving when nothing
        is left). The solver's other parameters are the caller's."""
        from solver.encoding.cpsat import cp_model

        if not self._may_go_on(SOLVE_COST):
            return cp_model.UNKNOWN
        self.solves += 1
        self.spent += SOLVE_COST
        limit = self.left
        p = solver.parameters
        p.max_deterministic_time = limit
        p.max_time_in_seconds = max(0.001, self._safety_at - self._clock())  # the wall-clock safety net only
        status = solver.solve(model)
        used = solver.response_proto.deterministic_time
        self.spent += used
        if status == cp_model.UNKNOWN and self.stopped is None:
            self.stopped = "safety" if used < limit and self._past_safety() else "budget"
        return status

    def node(self, count: int = 1) -> None:
        """Charge ``count`` nodes of a pure-Python search; Exhausted when nothing is left."""
        if not self._may_go_on(NODE_COST * count):
            raise Exhausted()
        self.nodes += count
        self.spent += NODE_COST * count

    def used(self) -> float:
        """The work spent, rounded as results report it (the same on every machine)."""
        return round(self.spent, 4)

    def why(self) -> str:
        """Why work stopped, in words for a message."""
        if self.stopped == "safety":
            return f"{SAFETY_WORDS}: {self.safety:g} s passed before the work budget ran out"
        return f"the work budget of {self.budget:g} units ran out (--timeout)"


def meter_of(options) -> Meter:
    """The meter of the scenario being checked with ``options`` (``SolverOptions.meter``), or a fresh one from its
    budget when none is set (a model solved on its own)."""
    meter = getattr(options, "meter", None)
    if meter is not None:
        return meter
    return Meter(getattr(options, "budget", DEFAULT_BUDGET), getattr(options, "safety", SAFETY_SECONDS))
