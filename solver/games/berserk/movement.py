"""Berserk declared movement (seed 003, conservation): a card moves to an adjacent free cell of the board.

The action kind ``move`` (``params: {cell: X}``) is declared like any action: it is
illegal (525.1) unless the card stands in play on a cell adjacent to X
(berserk.movement.adjacent, from the board's geometry) and, when it counts for
conservation, no other card that counts stands on X (berserk.movement.free). When it
resolves the card stands on X and its duty to move ends (berserk.movement).
"""
from __future__ import annotations

from solver.encoding.ruleset import ActionKind
from solver.errors import ScenarioError
from solver.games.berserk.conservation import OBLIGATION, counts, occupied


def mover(spec) -> str:
    """The card that moves: the action's source."""
    if not getattr(spec, "source", None):
        raise ScenarioError("action 'move' needs the moving card as its source")
    return spec.source


def destination(comp, spec) -> str:
    """The cell a move names (a cell of the board)."""
    cell = str(spec.params["cell"])
    if not comp.cells:
        raise ScenarioError("action 'move' needs a board (give the scenario a 'board')")
    if cell not in comp.cells:
        raise ScenarioError(f"action 'move': unknown cell '{cell}'")
    return cell


def move() -> ActionKind:
    """Move the source to the named cell: adjacent to its own (berserk.movement.adjacent), free
    (berserk.movement.free)."""
    def requirements(comp, st, spec):
        rm, card, cell = comp.rm, mover(spec), destination(comp, spec)
        here = [st["cell", card].is_(c) for c in comp.cells if cell in comp.adjacency.get(c, ())]
        next_to = rm.all_of([st["zone", card].is_("play"), rm.any_of(here)])
        taken = rm.all_of([counts(comp, card), occupied(comp, st, cell, card)])
        return [("berserk.movement.adjacent", next_to), ("berserk.movement.free", rm.neg(taken))]

    def apply(comp, tr, spec, when):
        card = mover(spec)
        tr.set(("cell", card), destination(comp, spec), "berserk.movement", when)
        if ("flag", card, OBLIGATION) in comp.domains:
            tr.set(("flag", card, OBLIGATION), 0, "berserk.movement", when)
    return ActionKind(requirements, apply, None)


#: action kind -> its requirements and effect
ACTIONS = {"move": move()}
