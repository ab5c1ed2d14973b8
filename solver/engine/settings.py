"""What a solve answers and the solver settings: plain data, importable without ortools."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Answer(Enum):
    """What one solve established."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverOptions:
    """CP-SAT settings used for every solve."""

    time_limit: float = 10.0
    seed: int = 0
    #: off by default: these models are small and built for propagation; presolving them costs
    #: about half the library's time (measured) and every answer is the same either way
    #: (tests/test_solver_settings.py checks both)
    presolve: bool = False
    max_outcomes: int = 32
    #: rule ids switched off: left out of the assumptions, so their clauses relax (rule coverage)
    rules_off: tuple[str, ...] = ()
