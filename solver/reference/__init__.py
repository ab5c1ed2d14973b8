"""An independent reference for the rules: a solver-free validator and a brute-force outcome enumerator.

The reference reads the same semantics as the CP-SAT encoding (docs/internals.md,
the seed texts) in plain Python and imports nothing from the encoding
(``solver.encoding``, ortools). Each game's reading is its folder's
``reference.py`` (registered as the game's ``reference``); this package holds
the shared parts: the world (``world``), the core rules (``rules``),
``validate`` (does a proposed trace of states obey every rule, rule by rule),
and ``enumerate_traces`` (every trace the rules allow for a small scenario). The
harness comparing both with the checker is ``solver.check.differential``.
"""
from __future__ import annotations

from solver.reference.brute import enumerate_traces
from solver.reference.rules import Unsupported
from solver.reference.validate import Violation, validate
from solver.reference.world import rules_for

__all__ = ["Unsupported", "Violation", "enumerate_traces", "rules_for", "validate"]
