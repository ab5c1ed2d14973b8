"""An independent reference for the rules: a solver-free validator and a brute-force outcome enumerator.

The reference reads the same semantics as the CP-SAT encoding (README "How it
works", DESIGN.md "Semantics", the seed texts) in plain Python, one module per
game, and imports nothing from the encoding (solver.cp, state, derived, compile,
games). ``validate`` says, rule by rule, whether a proposed trace of states obeys
every rule; ``enumerate_traces`` lists every trace the rules allow for a small
scenario. ``solver.reference.differential`` compares both with the checker.
"""
from __future__ import annotations

import importlib

from solver.reference.core import CoreRules, Unsupported

#: games the reference reads; a new game is a module ``solver/reference/<game>.py`` with ``RULES``
GAMES = ("core", "berserk", "riftbound", "ti4", "mtg")


def rules_for(game: str) -> CoreRules:
    """The reference rules of a game; Unsupported for a game without a reference module."""
    if game not in GAMES:
        raise Unsupported(f"no reference reading of the {game} rules yet")
    return importlib.import_module(f"solver.reference.{game}").RULES


from solver.reference.brute import enumerate_traces  # noqa: E402
from solver.reference.validate import Violation, validate  # noqa: E402

__all__ = ["GAMES", "Unsupported", "Violation", "enumerate_traces", "rules_for", "validate"]
