"""Berserk conservation (seed 003): two cards on one cell, the later one must move in the next Choice subphase or die.

Symbiotes and equipment do not count, each under its own rule id: they never take
the duty, and a cell they share obliges nobody. The duty is taken on any arrival on
an occupied cell (a forced move, a summon, a revival, an incarnation, a recruit onto a
cell). Declaring another obligatory ability carries the duty over to the player's next
Choice subphase: an ability the player declares is one a card of theirs in play has
(``declared``); naming one no card has carries nothing. Where the card may move is
``movement.can_move``, the one predicate every movement reads.
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.games.berserk.movement import (OBLIGATION, exemption, free_for, leave_play, may, move_or_die, off_the_board,
                                           on_cells)
from solver.games.berserk.vocabulary import OBLIGATORY


def obliged(ctx: RuleContext) -> list[str]:
    """The cards that carry the duty flag (an exempt card's stays false under its exemption's rule)."""
    return [o for o in on_cells(ctx) if ("flag", o, OBLIGATION) in ctx.domains]


class Conservation:
    """Mixin for the Berserk ruleset: the duty to move, its exemptions, the Choice subphase."""

    def conservation_keys(self, ctx: RuleContext) -> None:
        """The duty flag for every card that can stand on a cell (an exempt one's is false under its exemption's
        rule, ``exempt_duties``: left out, a symbiote arriving on a taken cell takes the duty like any card)."""
        if not ctx.cells:
            return
        for oid in on_cells(ctx):
            info = ctx.objects[oid]
            ctx.add_key(("flag", oid, OBLIGATION), "bool", bool(info.data and info.data.flags.get(OBLIGATION)))

    def exempt_duties(self, ctx: RuleContext, st) -> None:
        """berserk.conservation.symbiote / .equipment: an exempt card never has the duty, at any stage (a starting
        ``must_move: true`` contradicts the rule; an expectation about the duty cannot create it)."""
        for oid in on_cells(ctx):
            rule = exemption(ctx, oid)
            if rule is not None and ("flag", oid, OBLIGATION) in ctx.domains:
                ctx.rm.implies(rule, [], ctx.rm.neg(st["flag", oid, OBLIGATION]))

    def arrive(self, ctx: RuleContext, tr, obj: str, cell: str | None, when=None) -> None:
        """berserk.conservation: a card that counts and arrives in play on a cell where another card that counts
        stands must move away in its controller's next Choice subphase (any placement: moves, summons, recruits)."""
        if cell is None or ("flag", obj, OBLIGATION) not in ctx.domains:
            return
        rm = ctx.rm
        lands = [rm.neg(free_for(ctx, tr.prev, obj, cell))] + ([] if when is None else [when])
        tr.set(("flag", obj, OBLIGATION), 1, "berserk.conservation", rm.all_of(lands))

    def moved(self, ctx: RuleContext, tr, obj: str, zone: str, cell: str | None) -> None:
        """A forced move into play onto a cell is an arrival (berserk.conservation); out of play, it ends the duty."""
        if zone == "play":
            self.arrive(ctx, tr, obj, cell)
        else:
            off_the_board(ctx, tr, obj)

    def on_choice_subphase(self, ctx: RuleContext, ev) -> None:
        """Choice subphase: an obliged card not moved keeps the duty if the player declares another obligatory ability
        that a card of theirs in play has (berserk.conservation.carry), else dies (berserk.conservation); ``free``
        leaves its move to the solver, to a cell ``movement.can_move`` allows."""
        rm, st = ctx.rm, ctx.stage
        declared = self.declared(ctx, st, ev.player, ev.obligatory)
        with ctx.step(f"{ev.player}'s Choice subphase") as tr:
            for oid in obliged(ctx):
                key = ("flag", oid, OBLIGATION)
                due = rm.all_of([st[key], ctx.controller(st, oid).is_(ev.player)])
                if declared is not rm.false:
                    tr.keep(key, "berserk.conservation.carry", rm.all_of([due, declared]))
                due = rm.all_of([due, rm.neg(declared)])
                if ev.free:
                    move_or_die(ctx, tr, oid, due)
                    continue
                leave_play(ctx, tr, oid, "graveyard", "berserk.conservation", due)

    def declared(self, ctx: RuleContext, st, player: str, abilities: list[str]):
        """Literal (berserk.conservation.carry): the player declares another obligatory ability: one of ``abilities``
        (each an obligatory ability, the vocabulary says which) that a card they control in play has."""
        rm = ctx.rm
        if not abilities:
            return rm.false
        unknown = [a for a in abilities if a not in OBLIGATORY]
        if unknown:
            raise ScenarioError(f"choice_subphase: '{unknown[0]}' is not an obligatory ability (obligatory: "
                                f"{', '.join(OBLIGATORY)})")
        cards = [o for o, info in ctx.objects.items() if info.action is None]
        has = [rm.all_of([st["zone", o].one_of(ctx.rs.play_zones), ctx.controller(st, o).is_(player),
                          ctx.has_ability(st, o, a), may(ctx, st, o, a)]) for o in cards for a in abilities]
        lit = rm.any_of(has)
        if lit is rm.true or lit is rm.false:
            return lit
        return rm.exception("berserk.conservation.carry", lit, f"s{st.index}:declares.{player}")
