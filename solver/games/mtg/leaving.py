"""800.4a: players leave a game of three or more, one sentence of the rule per stage.

``leavers`` maps each player who may leave now to the literal "they leave" (read before the procedure): one
player conceding or leaving by an event, or every player a state-based check made lose (704.5a), all at once.
800.4n first, then owned objects leave and control effects end (with 800.4m, 800.4k, 800.4h, 800.4i), then
800.4c, then the leavers' non-card stack objects cease, then what they still control is exiled and the priority
they held passes on.
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.encoding.state import NONE
from solver.games.mtg.players import has_left, in_game, pass_to_next

#: zones in which an object has a controller (for 800.4a exile and 800.4c)
CONTROLLED_ZONES = ("battlefield", "stack", "command")


def controller_is(ctx: RuleContext, st, obj: str, player: str):
    """Literal: the effective controller of ``obj`` is ``player``."""
    return ctx.controller(st, obj).is_(player)


def default_controller_left(ctx: RuleContext, st, obj: str):
    """Literal: the default controller of ``obj`` is a player who has left the game (``has_left``: not its winner,
    800.4c "игрок, контролировавший тот объект по умолчанию покинул игру")."""
    rm = ctx.rm
    return rm.any_of([rm.all_of([st["ctrl", obj].is_(p), has_left(ctx, st, p)]) for p in ctx.players])


def ceased(ctx: RuleContext, tr, o: str, rule: str, when) -> None:
    """A stack object that leaves the stack this way no longer waits to resolve."""
    if ("status", o) in ctx.domains and when is not ctx.rm.false:
        tr.set(("status", o), "ceased", rule, ctx.rm.all_of([when, tr.prev["status", o].is_("on_stack")]))


def leave(ctx: RuleContext, leavers: dict[str, object], label: str, status: tuple[str, str] | None = None,
          gone: dict[str, object] | None = None) -> None:
    """The 800.4a procedure for ``leavers`` (player -> literal: leaves now); ``status``: (value, rule) to give them
    in its first stage, when nothing set it before; ``gone``: player -> literal 'the last two sentences apply to
    them' (default: they are out of the game by then, whenever they left)."""
    before = ctx.stage
    leavers = {p: lit for p, lit in leavers.items() if lit is not ctx.rm.false}
    if not leavers:
        return
    if any("plane" in info.types for info in ctx.objects.values()):
        planar_control_passes(ctx, leavers, label)
    owned_leave_control_ends(ctx, leavers, label, status)
    if control_objects(ctx):
        control_reverts(ctx, before, f"800.4c after {label}")
    stack_ceases(ctx, leavers, label, gone)
    exile_rest(ctx, leavers, label, gone)


def _gone(ctx: RuleContext, st, p: str, gone: dict[str, object] | None):
    """Literal: the last sentences of 800.4a apply to ``p``'s objects at ``st``."""
    return gone[p] if gone is not None else ctx.rm.neg(in_game(ctx, st, p))


def planar_control_passes(ctx: RuleContext, leavers: dict[str, object], label: str) -> None:
    """800.4n: the next player in turn order becomes planar controller before a leaver leaves."""
    rm, st = ctx.rm, ctx.stage
    with ctx.step(f"800.4n: planar control passes ({label})") as tr:
        for o, info in ctx.objects.items():
            if "plane" in info.types:
                for p, leaves in leavers.items():
                    holds = rm.all_of([st["ctrl", o].is_(p), st["zone", o].is_("command"), leaves])
                    pass_to_next(ctx, tr, ("ctrl", o), p, "mtg.800.4n", holds)


def owned_leave_control_ends(ctx: RuleContext, leavers: dict[str, object], label: str, status) -> None:
    """800.4a first sentence: owned objects leave the game (ante excepted: 800.4m); control effects end."""
    rm, st = ctx.rm, ctx.stage
    gone_zones = ctx.rs.gone_zones
    ante = ctx.zone_named("ante")
    with ctx.step(f"800.4a: {label}; owned objects leave, control effects end") as tr:
        for p, leaves in leavers.items():
            if status is not None:
                tr.set(("pstatus", p), status[0], status[1], leaves)
            for o, info in ctx.objects.items():
                if info.owner != p:
                    continue
                zone = st["zone", o]
                here = rm.all_of([leaves, rm.neg(zone.one_of(gone_zones))])
                stays = ["ante"] if info.card else ["ante", "stack"]
                tr.set(("zone", o), "outside", "mtg.800.4a.owned", rm.all_of([here, rm.neg(zone.one_of(stays))]))
                if info.card:
                    ceased(ctx, tr, o, "mtg.800.4a.owned", rm.all_of([here, zone.is_("stack")]))
                if ante:  # 800.4m owns nothing where no object can be in ante (no rule puts one there)
                    tr.keep(("zone", o), "mtg.800.4m", rm.all_of([here, zone.is_("ante")]))
            for eid, e in ctx.effects.items():
                if e.kind == "control" and e.player == p:
                    key = ("ended", eid) if e.duration == "static" else ("active", eid)
                    tr.set(key, 1 if e.duration == "static" else 0, "mtg.800.4a.control_ends", leaves)
                elif e.duration == "until_next_turn" and e.until_player == p:
                    ended = leavers.get(e.player, rm.false) if e.kind == "control" else rm.false
                    tr.keep(("active", eid), "mtg.800.4k", rm.all_of([leaves, rm.neg(ended)]))
            for key in [k for k in ctx.domains if k[0] == "lki" and k[1] == p]:
                tr.set(key, st[("pattr",) + key[1:]], "mtg.800.4h", leaves)
            tr.set(("turn", "active_player"), NONE, "mtg.800.4i", rm.all_of([leaves, st["turn", "active_player"].is_(p)]))


def stack_ceases(ctx: RuleContext, leavers: dict[str, object], label: str, gone=None) -> None:
    """800.4a second sentence: the leavers' non-card objects on the stack cease to exist."""
    rm, st = ctx.rm, ctx.stage
    with ctx.step(f"800.4a: non-card stack objects cease to exist ({label})") as tr:
        for o, info in ctx.objects.items():
            if info.card:
                continue
            cease = rm.any_of([rm.all_of([st["zone", o].is_("stack"), controller_is(ctx, st, o, p),
                                          _gone(ctx, st, p, gone)]) for p in leavers])
            tr.set(("zone", o), NONE, "mtg.800.4a.stack_ceases", cease)
            ceased(ctx, tr, o, "mtg.800.4a.stack_ceases", cease)


def exile_rest(ctx: RuleContext, leavers: dict[str, object], label: str, gone=None) -> None:
    """800.4a third sentence: what the leavers still control is exiled; the priority they held passes on."""
    rm, st = ctx.rm, ctx.stage
    with ctx.step(f"800.4a: what the leavers still control is exiled; priority passes ({label})") as tr:
        for o in ctx.objects:
            exile = rm.any_of([rm.all_of([st["zone", o].one_of(CONTROLLED_ZONES), controller_is(ctx, st, o, p),
                                          _gone(ctx, st, p, gone)]) for p in leavers])
            tr.set(("zone", o), "exile", "mtg.800.4a.exile", exile)
            ceased(ctx, tr, o, "mtg.800.4a.exile", rm.all_of([exile, st["zone", o].is_("stack")]))
        for p in leavers:
            had = rm.all_of([_gone(ctx, st, p, gone), st["turn", "priority"].is_(p)])
            pass_to_next(ctx, tr, ("turn", "priority"), p, "mtg.800.4a.priority", had)


# -- 800.4c: a control effect ends and the default controller left ------------------------
def control_objects(ctx: RuleContext) -> list[str]:
    """Objects some control effect may apply to (static)."""
    return [o for o in ctx.objects if ctx.effects_on(o, "control")]


def static_control(ctx: RuleContext) -> bool:
    """Static: some control effect is a static ability (it ends when its source leaves, by any event)."""
    return any(e.kind == "control" and e.duration == "static" for e in ctx.effects.values())


def control_reverts(ctx: RuleContext, before, label: str) -> None:
    """800.4c: an object whose control effect just ended, with no other, and whose default controller left, is exiled."""
    rm, st = ctx.rm, ctx.stage
    with ctx.step(label) as tr:
        for o in control_objects(ctx):
            effects = ctx.effects_on(o, "control")
            ended = rm.any_of([rm.all_of([derived.applies(ctx, before, e, o), rm.neg(st["active", e.id])])
                               for e in effects])
            cond = rm.all_of([ended, derived.none_applies(ctx, st, effects, o), default_controller_left(ctx, st, o),
                              st["zone", o].one_of(CONTROLLED_ZONES)])
            tr.set(("zone", o), "exile", "mtg.800.4c", cond)
            ceased(ctx, tr, o, "mtg.800.4c", rm.all_of([cond, st["zone", o].is_("stack")]))
