"""Berserk conservation (seed 003): two cards on one cell, the later one must move in the next Choice subphase or die.

Symbiotes and equipment are not counted. Declaring another obligatory ability
carries the duty over to the player's next Choice subphase.
"""
from __future__ import annotations

from solver.encoding.state import NONE

#: types that do not count for conservation
NOT_CONSERVED = {"symbiote", "equipment"}
#: the duty flag
OBLIGATION = "must_move"


class Conservation:
    """Mixin for the Berserk ruleset: the duty to move, the Choice subphase."""

    def conservation_keys(self, comp) -> None:
        """The duty flag for every card that can stand on a cell."""
        if not comp.cells:
            return
        for oid, info in comp.objects.items():
            if ("cell", oid) in comp.domains and not NOT_CONSERVED & set(info.types) and info.action is None:
                comp.add_key(("flag", oid, OBLIGATION), "bool", bool(info.data and info.data.flags.get(OBLIGATION)))

    def moved(self, comp, tr, obj: str, zone: str, cell: str | None) -> None:
        """berserk.conservation: a card arriving on an occupied cell must move away in the next Choice subphase."""
        if cell is None or zone != "play" or ("flag", obj, OBLIGATION) not in comp.domains:
            return
        rm, st = comp.rm, tr.prev
        occupied = [rm.all_of([st["zone", q].is_("play"), st["cell", q].is_(cell)])
                    for q in comp.objects
                    if q != obj and ("flag", q, OBLIGATION) in comp.domains]
        tr.set(("flag", obj, OBLIGATION), 1, "berserk.conservation", rm.any_of(occupied))

    def on_choice_subphase(self, comp, ev) -> None:
        """Choice subphase: obliged cards move if declared, keep the duty if another obligatory ability was declared,
        else die."""
        rm, st = comp.rm, comp.stage
        with comp.step(f"{ev.player}'s Choice subphase") as tr:
            for oid, cell in ev.moves.items():
                tr.set(("cell", oid), cell, "berserk.movement")
                if ("flag", oid, OBLIGATION) in comp.domains:
                    tr.set(("flag", oid, OBLIGATION), 0, "berserk.conservation")
            for oid in comp.objects:
                key = ("flag", oid, OBLIGATION)
                if key not in comp.domains or oid in ev.moves:
                    continue
                due = rm.all_of([st[key], comp.controller(st, oid).is_(ev.player)])
                if ev.obligatory:
                    tr.keep(key, "berserk.conservation.carry", due)
                    continue
                if ev.free:
                    self._move_or_die(comp, tr, oid, due)
                    continue
                tr.set(("zone", oid), "graveyard", "berserk.conservation", due)
                tr.set(("cell", oid), NONE, "berserk.conservation", due)
                tr.set(key, 0, "berserk.conservation", due)

    def _move_or_die(self, comp, tr, obj: str, due) -> None:
        """berserk.conservation, an undeclared choice: the obliged card moves to a free adjacent cell, or dies."""
        rm, prev, nxt = comp.rm, tr.prev, tr.next
        tr.free(("zone", obj), due, "berserk.conservation")
        tr.free(("cell", obj), due, "berserk.conservation")
        tr.set(("flag", obj, OBLIGATION), 0, "berserk.conservation", due)
        dies, stays = nxt["zone", obj].is_("graveyard"), nxt["zone", obj].is_("play")
        rm.clause("berserk.conservation", [dies, stays], [due])
        rm.implies("berserk.conservation", [due, dies], nxt["cell", obj].is_(NONE))
        for c in comp.cells:
            rm.clause("berserk.conservation", [nxt["cell", obj].is_(d) for d in sorted(comp.adjacency.get(c, ()))],
                      [due, stays, prev["cell", obj].is_(c)])
        for q in comp.objects:
            if q == obj or ("flag", q, OBLIGATION) not in comp.domains:
                continue
            for d in comp.cells:
                rm.implies("berserk.conservation", [due, stays, prev["zone", q].is_("play"), prev["cell", q].is_(d)],
                           rm.neg(nxt["cell", obj].is_(d)))
                # two cards moving at once cannot end up sharing a cell either
                rm.implies("berserk.conservation", [due, stays, nxt["zone", q].is_("play"), nxt["cell", q].is_(d)],
                           rm.neg(nxt["cell", obj].is_(d)))
