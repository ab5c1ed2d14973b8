"""Damage and life: damage dealt to a player lowers their life total (combat: 510.2, other: 120.3a), damage dealt
to a creature is marked on it (120.3e), a player gains or loses life (119.3). A player who left is dealt no combat
damage (800.4e) and no other damage, and neither gains nor loses life (mtg.800.4.absent). Lethal damage and 0
toughness are state-based actions (``checks.py``). With a limited range of influence, damage from a spell or
ability does not reach a player or permanent outside its controller's range (801.10)."""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.games.mtg import influence
from solver.games.mtg.players import in_game, life_key


def event_keys(ctx: RuleContext, ev) -> list[tuple]:
    """The life totals and marked damage a damage or life event changes."""
    if ev.type in ("combat_damage", "gain_life", "lose_life"):
        life_key(ctx, ev.player)
    elif ev.type == "damage":
        if ev.target in ctx.players:
            life_key(ctx, ev.target)
        else:
            creature_damage_key(ctx, ev.target, f"damage from {ev.source}")
    return []


def creature_damage_key(ctx: RuleContext, obj: str, what: str) -> None:
    """Declare the marked damage of a creature that may be dealt damage (it must be a creature with a toughness)."""
    info = ctx.objects.get(obj)
    if info is None or "creature" not in info.types:
        raise ScenarioError(f"{what} to {obj}: only a player or a creature can be dealt damage here")
    if not (("attr", obj, "toughness") in ctx.domains or ctx.effects_on(obj, "set", "toughness")
            or ctx.effects_on(obj, "add", "toughness")):
        raise ScenarioError(f"{what} to creature {obj}, which has no toughness: give it one (704.5g compares its "
                            f"damage with it)")
    ctx.add_key(("attr", obj, "damage"), [-1_000_000, 1_000_000], 0)


def change_life(ctx: RuleContext, player: str, delta: int, rule: str, absent: str, label: str, reach=None) -> None:
    """Rule ``rule``: a player in the game's life changes by ``delta``; rule ``absent``: one who left is unaffected;
    ``reach``: the literal 'the player is within the range of the effect's controller' (801.10: unaffected outside
    it), None when every player is in reach."""
    rm, st = ctx.rm, ctx.stage
    key = ("pattr", player, "life")
    present = in_game(ctx, st, player)
    near = rm.true if reach is None else reach
    with ctx.step(label) as tr:
        tr.set(key, st[key] + delta, rule, rm.all_of([present, near]))
        tr.keep(key, absent, rm.neg(present))
        if reach is not None:
            tr.keep(key, "mtg.801.10", rm.all_of([present, rm.neg(near)]))


def in_reach(ctx: RuleContext, st, ev):
    """Literal: what a spell or ability's damage event hits is within the range of influence of the source's
    controller (801.10; an object through its controller: 801.2d); None when every player is in range or the damage
    is combat damage (attacks, 801.3, are not modelled: combat damage is what happened)."""
    if influence.radius(ctx) is None or ev.combat:
        return None
    subject = ev.target if ev.target in ctx.players else ctx.controller(st, ev.target)
    return influence.controlled_in_range(ctx, st, ctx.controller(st, ev.source), subject)


def damage(ctx: RuleContext, ev) -> None:
    """A source deals damage: a player loses life (510.2 combat, 120.3a other; none to a player who left: 800.4e,
    mtg.800.4.absent); a creature on the battlefield has it marked (120.3e)."""
    label = f"{'combat ' if ev.combat else ''}damage from {ev.source} to {ev.target}"
    reach = in_reach(ctx, ctx.stage, ev)
    if ev.target in ctx.players:
        change_life(ctx, ev.target, -ev.amount, "mtg.510.2" if ev.combat else "mtg.120.3a",
                    "mtg.800.4e" if ev.combat else "mtg.800.4.absent", label, reach)
        return
    rm, st = ctx.rm, ctx.stage
    key = ("attr", ev.target, "damage")
    on = st["zone", ev.target].is_("battlefield")
    with ctx.step(label) as tr:
        tr.set(key, st[key] + ev.amount, "mtg.120.3e", rm.all_of([on, rm.true if reach is None else reach]))
        if reach is not None:
            tr.keep(key, "mtg.801.10", rm.all_of([on, rm.neg(reach)]))
