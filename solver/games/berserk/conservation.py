"""Berserk conservation (seed 003): two cards on one cell, the later one must move in the next Choice subphase or die.

Symbiotes and equipment do not count, each under its own rule id: they never take
the duty, and a cell they share obliges nobody. The duty is taken on any arrival on
an occupied cell (a forced move, a summon, a revival, an incarnation, a recruit onto a
cell). Declaring another obligatory ability carries the duty over to the player's next
Choice subphase.
"""
from __future__ import annotations

from solver.encoding.state import NONE

#: the duty flag
OBLIGATION = "must_move"


def exemption(comp, obj: str) -> str | None:
    """The rule that exempts the card from conservation, under which its clauses sit: a symbiote
    (berserk.conservation.symbiote) or equipment (berserk.conservation.equipment); None: it counts."""
    types = comp.objects[obj].types
    if "symbiote" in types:
        return "berserk.conservation.symbiote"
    if "equipment" in types:
        return "berserk.conservation.equipment"
    return None


def on_cells(comp) -> list[str]:
    """The cards that can stand on a cell of the board (not declared actions)."""
    return [o for o, info in comp.objects.items() if ("cell", o) in comp.domains and info.action is None]


def counts(comp, obj: str):
    """Literal: the card counts for conservation. A symbiote or equipment does not, under its exemption's rule."""
    rm = comp.rm
    if ("cell", obj) not in comp.domains or comp.objects[obj].action is not None:
        return rm.false
    rule = exemption(comp, obj)
    if rule is None:
        return rm.true
    cache = comp.stages[0].derived
    if ("counts", obj) not in cache:
        lit = rm.new_bool(f"counts.{obj}")
        rm.implies(rule, [], rm.neg(lit))
        cache["counts", obj] = lit
    return cache["counts", obj]


def occupied(comp, st, cell: str, obj: str):
    """Literal: another card that counts for conservation stands on ``cell`` in play at stage ``st``."""
    rm = comp.rm
    return rm.any_of([rm.all_of([st["zone", q].is_("play"), st["cell", q].is_(cell), counts(comp, q)])
                      for q in on_cells(comp) if q != obj])


def obliged(comp) -> list[str]:
    """The cards that carry the duty flag and count for conservation (an exempt card never has the duty)."""
    return [o for o in on_cells(comp) if ("flag", o, OBLIGATION) in comp.domains and exemption(comp, o) is None]


class Conservation:
    """Mixin for the Berserk ruleset: the duty to move, its exemptions, the Choice subphase."""

    def conservation_keys(self, comp) -> None:
        """The duty flag for every card that can stand on a cell and counts for conservation."""
        if not comp.cells:
            return
        for oid in on_cells(comp):
            if exemption(comp, oid) is None:
                info = comp.objects[oid]
                comp.add_key(("flag", oid, OBLIGATION), "bool", bool(info.data and info.data.flags.get(OBLIGATION)))

    def exempt_duties(self, comp, st) -> None:
        """berserk.conservation.symbiote / .equipment: an exempt card never has the duty, at any stage (a starting
        ``must_move: true`` contradicts the rule; an expectation about the duty cannot create it)."""
        for oid in on_cells(comp):
            rule = exemption(comp, oid)
            if rule is not None and ("flag", oid, OBLIGATION) in comp.domains:
                comp.rm.implies(rule, [], comp.rm.neg(st["flag", oid, OBLIGATION]))

    def arrive(self, comp, tr, obj: str, cell: str | None, when=None) -> None:
        """berserk.conservation: a card that counts and arrives in play on a cell where another card that counts
        stands must move away in its controller's next Choice subphase (any placement: moves, summons, recruits)."""
        if cell is None or ("flag", obj, OBLIGATION) not in comp.domains:
            return
        rm = comp.rm
        lands = [counts(comp, obj), occupied(comp, tr.prev, cell, obj)] + ([] if when is None else [when])
        tr.set(("flag", obj, OBLIGATION), 1, "berserk.conservation", rm.all_of(lands))

    def moved(self, comp, tr, obj: str, zone: str, cell: str | None) -> None:
        """A forced move into play onto a cell is an arrival (berserk.conservation)."""
        if zone == "play":
            self.arrive(comp, tr, obj, cell)

    def on_choice_subphase(self, comp, ev) -> None:
        """Choice subphase: an obliged card not moved keeps the duty if another obligatory ability was declared
        (berserk.conservation.carry), else dies (berserk.conservation); ``free`` leaves its move to the solver."""
        rm, st = comp.rm, comp.stage
        with comp.step(f"{ev.player}'s Choice subphase") as tr:
            for oid in obliged(comp):
                key = ("flag", oid, OBLIGATION)
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
        """An undeclared choice: the obliged card dies, or moves to an adjacent cell (berserk.movement.adjacent) where
        no card that counts stands or ends up (berserk.movement.free)."""
        rm, prev, nxt = comp.rm, tr.prev, tr.next
        tr.free(("zone", obj), due, "berserk.conservation")
        tr.free(("cell", obj), due, "berserk.conservation")
        tr.set(("flag", obj, OBLIGATION), 0, "berserk.conservation", due)
        dies, stays = nxt["zone", obj].is_("graveyard"), nxt["zone", obj].is_("play")
        rm.clause("berserk.conservation", [dies, stays], [due])
        rm.implies("berserk.conservation", [due, dies], nxt["cell", obj].is_(NONE))
        for c in comp.cells + [NONE]:  # a card on no cell has no adjacent cell to go to
            rm.clause("berserk.movement.adjacent", [nxt["cell", obj].is_(d) for d in sorted(comp.adjacency.get(c, ()))],
                      [due, stays, prev["cell", obj].is_(c)])
        for q in on_cells(comp):
            if q == obj:
                continue
            for d in comp.cells:
                there = rm.neg(nxt["cell", obj].is_(d))
                rm.implies("berserk.movement.free", [due, stays, counts(comp, q), prev["zone", q].is_("play"),
                                                     prev["cell", q].is_(d)], there)
                # two cards moving at once cannot end up sharing a cell either
                rm.implies("berserk.movement.free", [due, stays, counts(comp, q), nxt["zone", q].is_("play"),
                                                     nxt["cell", q].is_(d)], there)
