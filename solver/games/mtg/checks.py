"""The check the rules follow every event with (704.3): 610.3 returns, then state-based actions, repeated.

State-based actions are performed simultaneously, as one stage: 704.5a a player with 0 or less life loses,
704.5d a token outside the battlefield ceases to exist, 704.5f a creature with 0 or less toughness and 704.5g a
creature with lethal damage go to their owner's graveyard, 704.5m an Aura attached to nothing on the battlefield
goes to its owner's graveyard, 704.5n an Equipment attached to nothing on the battlefield becomes unattached (it
stays). In a game of three or more, the players who lost then leave (800.4a) within the same check. If anything happened, the check is repeated: the number of rounds is bounded from the scenario
(each round after the first needs a creature, an Aura or a linked card to leave the battlefield, or a token to
cease), so the last round finds nothing more to do.

610.3: a card exiled "until" its exiler leaves the battlefield returns to the battlefield under its owner's
control (610.3c) immediately after the exiler leaves, before any state-based action; 400.7: an object that left
the battlefield keeps no damage (that it is no longer the target of a spell or ability, even if it comes back, is
the core's object identity: ``targets.still_targeted``).
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.encoding.context import RuleContext
from solver.encoding.state import NONE
from solver.games.mtg import leaving, targets, winning
from solver.games.mtg.players import are_opponents, in_game


@dataclass(frozen=True)
class Plan:
    """What a check of this scenario can act on (static), and how many rounds it needs."""

    life: tuple[str, ...]  # players with a life total (704.5a)
    creatures: tuple[str, ...]  # creatures with a toughness (704.5f, 704.5g)
    auras: tuple[str, ...]  # Auras that may be attached (704.5m)
    equipment: tuple[str, ...]  # Equipment that may be attached (704.5n)
    tokens: tuple[str, ...]  # 704.5d
    linked: tuple[str, ...]  # cards an 'until' exile may hold (610.3)
    damaged: tuple[str, ...]  # objects with marked damage (400.7)
    leavers: bool  # a player who loses leaves (three or more players)

    @property
    def rounds(self) -> int:
        """Rounds of state-based actions that reach the point where none applies (0: none can ever apply)."""
        if not (self.life or self.creatures or self.auras or self.equipment or self.tokens or self.linked):
            return 0
        return 1 + len(self.creatures) + len(self.auras) + len(self.linked) + (1 if self.tokens else 0)


def has_toughness(ctx: RuleContext, o: str) -> bool:
    """Static: the object has a toughness (given, or set or changed by an effect)."""
    return ("attr", o, "toughness") in ctx.domains or bool(ctx.effects_on(o, "set", "toughness")
                                                            or ctx.effects_on(o, "add", "toughness"))


def _reductions(ctx: RuleContext) -> dict[str, int | None]:
    """Player or object -> the most its life total or toughness can go down by (damage, life loss) over the
    scenario's events and actions; None when no bound is known (an attribute set by a read, a modify)."""
    out: dict[str, int | None] = {}

    def add(who: str, amount: int | None) -> None:
        """Count ``amount`` more against ``who`` (None: no bound)."""
        if who in out and out[who] is None:
            return
        out[who] = None if amount is None else out.get(who, 0) + amount

    for ev in ctx.sc.events:
        if ev.type in ("combat_damage", "lose_life"):
            add(ev.player, ev.amount)
        elif ev.type == "damage":
            add(ev.target, ev.amount)
        elif ev.type in ("player_information", "count_actions") and ev.into == "life":
            add(ev.reader, None)
        elif ev.type == "modify" and ev.attribute in ("toughness", "damage"):
            add(ev.object, None)
    for a in [o for o, info in ctx.objects.items() if info.action is not None]:
        it = targets.item(ctx, a)
        for part in it.parts:
            amount = int(part.params.get("amount", 0))
            if part.kind in ("damage", "lose_life"):
                for t in part.targets:
                    add(t, amount)
                if part.each is not None:  # you, opponent, player, creature: any of them
                    for t in list(ctx.players) + [o for o, i in ctx.objects.items() if "creature" in i.types]:
                        add(t, amount)
            elif part.kind == "each_opponent_loses_life":
                for q in ctx.players:
                    if any(are_opponents(ctx, c, q) for c in targets.controllers(ctx, a)):
                        add(q, amount)
    return out


def can_lose(ctx: RuleContext, player: str, cut: dict[str, int | None]) -> bool:
    """Static: 704.5a is at stake for the player: their life total starts at 0 or less, or what the scenario can
    lower it by (unbounded: a life total an effect reads into) can take it there. A rule whose condition cannot hold
    owns nothing: a player who cannot reach 0 stays in the game under no 704.5a clause (nor wins or loses by it)."""
    key = ("pattr", player, "life")
    if key not in ctx.domains:
        return False
    most = cut.get(player, 0)
    return most is None or int(ctx.initial[key]) - most <= 0


def can_die(ctx: RuleContext, o: str, cut: dict[str, int | None]) -> bool:
    """Static: 704.5f or 704.5g is at stake for the creature: damage is dealt to it, an effect changes its toughness,
    or it starts with 0 toughness or lethal damage."""
    if ctx.effects_on(o, "set", "toughness") or ctx.effects_on(o, "add", "toughness") or cut.get(o, 0) != 0:
        return True
    tough = int(ctx.initial.get(("attr", o, "toughness"), 0))
    return tough <= 0 or int(ctx.initial.get(("attr", o, "damage"), 0)) >= tough


def plan(ctx: RuleContext) -> Plan:
    """The scenario's check plan: the players and creatures whose life, damage or toughness is at stake."""
    objs = ctx.objects
    cut = _reductions(ctx)
    return Plan(
        life=tuple(p for p in ctx.players if can_lose(ctx, p, cut)),
        creatures=tuple(o for o, i in objs.items() if "creature" in i.types and has_toughness(ctx, o)
                        and can_die(ctx, o, cut)),
        auras=tuple(o for o, i in objs.items() if "aura" in i.types and ("attach", o) in ctx.domains),
        equipment=tuple(o for o, i in objs.items() if "equipment" in i.types and ("attach", o) in ctx.domains),
        tokens=tuple(o for o, i in objs.items() if i.token),
        linked=tuple(o for o in objs if ("until", o) in ctx.domains),
        damaged=tuple(o for o in objs if ("attr", o, "damage") in ctx.domains),
        leavers=len(ctx.players) >= 3,
    )


def check(ctx: RuleContext) -> None:
    """704.3 after an event: returns, then rounds of state-based actions, each followed by returns."""
    p = plan(ctx)
    if not (p.rounds or p.damaged):
        return
    returns(ctx, p)
    for n in range(p.rounds):
        before = ctx.stage
        state_based_actions(ctx, p, first=n == 0)
        if n == 0 and p.life:  # life totals do not change within a check: players lose in round 1
            lost = {q: ctx.rm.all_of([in_game(ctx, before, q), ctx.stage["pstatus", q].is_("lost")])
                    for q in p.life}
            if p.leavers:
                leaving.leave(ctx, lost, "players who lost leave", gone=lost)
            winning.wins(ctx, "players who lost", when=ctx.rm.any_of(list(lost.values())))
        returns(ctx, p)


def returns(ctx: RuleContext, p: Plan) -> None:
    """610.3 (and 610.3c): a card exiled until its exiler leaves returns at once; 400.7: an object that changed zones
    keeps no damage (and is a new object, no longer the one a spell or ability targeted: the core's identity)."""
    if not (p.linked or p.damaged):
        return
    rm, st = ctx.rm, ctx.stage
    with ctx.step("610.3: exiled cards return; 400.7") as tr:
        for o in p.damaged:
            tr.set(("attr", o, "damage"), 0, "mtg.400.7", rm.neg(st["zone", o].is_("battlefield")))
        for x in p.linked:
            in_exile = st["zone", x].is_("exile")
            owner = ctx.owner_of(x)
            owner_in = in_game(ctx, st, owner)
            for s in ctx.domains["until", x]:
                if s == NONE:
                    continue
                linked = st["until", x].is_(s)
                gone = rm.neg(st["zone", s].is_("battlefield"))
                back = rm.all_of([linked, gone, in_exile, owner_in])
                tr.set(("zone", x), "battlefield", "mtg.610.3", back)
                tr.set(("ctrl", x), owner, "mtg.610.3c", back)
                tr.keep(("zone", x), "mtg.800.4b.enter", rm.all_of([linked, gone, in_exile, rm.neg(owner_in)]))
                tr.set(("until", x), NONE, "mtg.610.3", rm.all_of([linked, rm.any_of([gone, rm.neg(in_exile)])]))


def _at_least(rm, a, b, name: str):
    """A literal equal to a >= b (a definition)."""
    lit = rm.new_bool(name)
    rm.model.add(a >= b).only_enforce_if(lit)
    rm.model.add(a < b).only_enforce_if(~lit)
    return lit


def state_based_actions(ctx: RuleContext, p: Plan, first: bool) -> None:
    """One round of state-based actions, performed simultaneously (704.3); players can lose only in the first."""
    rm, st = ctx.rm, ctx.stage
    with ctx.step("state-based actions") as tr:
        for q in p.life if first else ():
            loses = rm.all_of([in_game(ctx, st, q), rm.int_le(st["pattr", q, "life"], 0)])
            tr.set(("pstatus", q), "lost", "mtg.704.5a", loses)
        for o in p.creatures:
            on = st["zone", o].is_("battlefield")
            tough = ctx.value(st, o, "toughness")
            zero = rm.int_le(tough, 0)
            tr.set(("zone", o), ctx.rs.graveyard, "mtg.704.5f", rm.all_of([on, zero]))
            if ("attr", o, "damage") in ctx.domains:
                lethal = _at_least(rm, st["attr", o, "damage"], tough, f"s{st.index}:lethal.{o}")
                tr.set(("zone", o), ctx.rs.graveyard, "mtg.704.5g", rm.all_of([on, rm.neg(zero), lethal]))
        for o in p.auras:
            loose = [rm.all_of([st["attach", o].is_(t), rm.neg(st["zone", t].is_("battlefield"))])
                     for t in ctx.domains["attach", o] if t != NONE]
            cond = rm.all_of([st["zone", o].is_("battlefield"), rm.any_of(loose)])
            tr.set(("zone", o), ctx.rs.graveyard, "mtg.704.5m", cond)
            tr.set(("attach", o), NONE, "mtg.704.5m", cond)
        for o in p.equipment:
            loose = [rm.all_of([st["attach", o].is_(t), rm.neg(st["zone", t].is_("battlefield"))])
                     for t in ctx.domains["attach", o] if t != NONE]
            tr.set(("attach", o), NONE, "mtg.704.5n", rm.all_of([st["zone", o].is_("battlefield"), rm.any_of(loose)]))
        for o in p.tokens:
            stray = rm.neg(st["zone", o].one_of(("battlefield",) + ctx.rs.gone_zones))
            tr.set(("zone", o), NONE, "mtg.704.5d", stray)
