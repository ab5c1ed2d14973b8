"""Copies of spells on the stack (707.10) and storm (702.40a).

A ``copy`` event puts a copy of a spell or ability on the stack: the copy is not a card (707.10), it is controlled
and owned by the player who put it there (the storm spell's caster for a storm copy: 603.3a gives the storm
trigger to the spell's controller), and copies the original's kind and parameters; new targets may be chosen for it
(707.10c: each new one must be legal, an unchanged one need not be). A copy that leaves the stack (it resolves, does
not resolve: 608.2b, or is moved) ceases to exist (mtg.707.10a: 704.5e; it never is in a graveyard); one whose
controller left ceases with 800.4a. Storm (702.40a): the k-th storm copy of a spell exists only if at least k other
spells were cast before it this turn (counted from the events: the ``declare`` events of card spells since the
last ``end_turn`` that put their spell on the stack); it is put on the stack whether or not the original still is
(the copies use its last known information).
"""
from __future__ import annotations

from models.game_events.mtg import copied
from solver.encoding.compile import ObjInfo, ScenarioError
from solver.encoding.context import RuleContext
from solver.encoding.state import NONE
from solver.errors import NotModelled
from solver.games.mtg.players import in_game


def created(ctx: RuleContext, ev) -> list[ObjInfo]:
    """The copy's object slot: not a card, owned by whoever copies it, doing what the original does."""
    spec = copied(ctx.sc, ev)
    if spec is None:
        raise ScenarioError(f"copy {ev.id}: '{ev.spell}' is no spell or ability before it (declare, trigger, copy, "
                            f"or an object with an `action`)")
    return [ObjInfo(ev.id, copier(ctx.sc, ev), ("copy",), False, False, spec, None)]


def is_copy(ctx: RuleContext, obj: str) -> bool:
    """Static: ``obj`` is a copy of a spell or ability (707.10)."""
    return obj in ctx.objects and "copy" in ctx.objects[obj].types and ctx.objects[obj].data is None


def copier(sc, ev) -> str:
    """Who puts the copy on the stack: the given controller, or the storm spell's caster (603.3a); a storm copy
    must be of a spell declared before it."""
    if not ev.storm:
        if ev.controller is None:
            raise ScenarioError(f"copy {ev.id}: give its `controller` (who copies {ev.spell})")
        return ev.controller
    cast = next((e for e in sc.events[:sc.events.index(ev)] if e.type == "declare" and e.id == ev.spell), None)
    if cast is None or not cast.card:
        raise ScenarioError(f"copy {ev.id}: a storm copy is of a spell cast (declared, `card: true`) before it")
    if ev.controller is not None and ev.controller != cast.actor:
        raise ScenarioError(f"copy {ev.id}: controller '{ev.controller}' contradicts 603.3a: the storm trigger is "
                            f"controlled by {cast.actor}, who cast {ev.spell}")
    return cast.actor


def casts_before(sc, spell: str) -> list[int]:
    """Indexes of the ``declare`` events of spells (cards) before ``spell``'s declaration in its turn (since the
    last end_turn); a turn written with begin_turn (800.4j may keep it from beginning) is refused."""
    at = next(i for i, e in enumerate(sc.events) if e.type == "declare" and e.id == spell)
    out = []
    for i in range(at - 1, -1, -1):
        e = sc.events[i]
        if e.type == "end_turn":
            break
        if e.type == "begin_turn":
            raise NotModelled(f"storm of {spell} after a begin_turn event: whether that turn began (800.4j) is not "
                              f"read for 'this turn'", "storm")
        if e.type == "declare" and e.card:
            out.append(i)
    return out


def storm_index(sc, ev) -> int:
    """1 + the number of storm copies of the same spell before this one (events order)."""
    before = sc.events[:sc.events.index(ev)]
    return 1 + sum(1 for e in before if e.type == "copy" and e.storm and e.spell == ev.spell)


def check_storm(ctx: RuleContext, ev) -> int:
    """The copy's storm index, which may not exceed the spells that may have been cast before its spell this turn
    (one copy event per such spell, no more)."""
    k = storm_index(ctx.sc, ev)
    most = len(casts_before(ctx.sc, ev.spell))
    if k > most:
        raise ScenarioError(f"copy {ev.id}: storm copy number {k} of {ev.spell}, but at most {most} other spells "
                            f"were cast before it this turn")
    return k


def cast_this_turn(ctx: RuleContext, spell: str) -> list:
    """Literals: each spell declared before ``spell`` this turn was cast (its declaration put it on the stack)."""
    out = []
    for i in casts_before(ctx.sc, spell):
        d = ctx.sc.events[i].id
        out.append(ctx.stages[ctx.boundaries[i] + 1]["status", d].is_("on_stack"))
    return out


def storm_made(ctx: RuleContext, ev, k: int):
    """Literal (mtg.702.40a): the spell was cast and at least ``k`` other spells were cast before it this turn."""
    rm = ctx.rm
    at = next(i for i, e in enumerate(ctx.sc.events) if e.type == "declare" and e.id == ev.spell)
    cast = ctx.stages[ctx.boundaries[at] + 1]["status", ev.spell].is_("on_stack")
    lits = cast_this_turn(ctx, ev.spell)
    n = rm.new_int(f"s{ctx.stage.index}:storm.{ev.id}", 0, len(lits))
    rm.enforce("mtg.702.40a", rm.model.add(n == sum(lits)))
    return rm.requirement("mtg.702.40a", rm.all_of([cast, rm.int_ge(n, k)]), f"s{ctx.stage.index}:storm.{ev.id}.made")


def copy(rs, ctx: RuleContext, ev) -> None:
    """707.10: the copy goes on the stack under its controller, with legal new targets (707.10c); not if the
    original is not on the stack (a storm copy: unless too few spells were cast, 702.40a), nor for a controller who
    left (800.4d)."""
    from solver.games.mtg import targets
    rm, st = ctx.rm, ctx.stage
    ctrl = copier(ctx.sc, ev)
    it = targets.item(ctx, ev.id)
    if ev.storm:
        made = storm_made(ctx, ev, check_storm(ctx, ev))
    else:
        made = rm.requirement("mtg.707.10", st["status", ev.spell].is_("on_stack"), f"s{st.index}:copy.{ev.id}.of")
    present = in_game(ctx, st, ctrl)
    old = set(targets.item(ctx, ev.spell).targets) if ev.spell in ctx.objects and ctx.objects[ev.spell].action \
        else set()
    new = [targets.legal(ctx, st, it, ctrl, t) for t in it.targets if t not in old]
    ok = rm.requirement("mtg.707.10c", rm.all_of(new), f"s{st.index}:copy.{ev.id}.targets") if new else rm.true
    go = rm.all_of([made, present])
    with ctx.step(f"copy {ev.id}") as tr:
        tr.set(("status", ev.id), "on_stack", "mtg.707.10", rm.all_of([go, ok]))
        tr.set(("zone", ev.id), rs.stack_zone, "mtg.707.10", rm.all_of([go, ok]))
        tr.set(("ctrl", ev.id), ctrl, "mtg.707.10", rm.all_of([go, ok]))
        tr.set(("status", ev.id), "illegal", "mtg.707.10c", rm.all_of([go, rm.neg(ok)]))
        tr.keep(("status", ev.id), "mtg.800.4d.copy", rm.all_of([made, rm.neg(present)]))
        tr.keep(("zone", ev.id), "mtg.800.4d.copy", rm.all_of([made, rm.neg(present)]))
        tr.keep(("status", ev.id), "mtg.702.40a" if ev.storm else "mtg.707.10", rm.neg(made))
        tr.keep(("zone", ev.id), "mtg.702.40a" if ev.storm else "mtg.707.10", rm.neg(made))


def leave_stack(ctx: RuleContext, tr, a: str, status: str, rule: str, when, frame: bool = True) -> None:
    """A copy leaving the stack (rule ``rule`` for its status) ceases to exist (mtg.707.10a: never in a graveyard)."""
    tr.set(("status", a), status, rule, when, frame)
    tr.set(("zone", a), NONE, "mtg.707.10a", when, frame)


def moved(rs, ctx: RuleContext, ev) -> None:
    """A copy moved out of the stack ceases to exist (mtg.707.10a, 704.5e): it leaves no object in that zone."""
    on_stack = ctx.stage["status", ev.object].is_("on_stack")
    with ctx.step(f"move {ev.object}") as tr:
        tr.set(("zone", ev.object), NONE, "mtg.707.10a")
        tr.set(("status", ev.object), "ceased", "mtg.707.10a", on_stack)


def check_order(sc, at: int, action: str) -> None:
    """Copies resolve before the original (405.5: they are above it on the stack): resolving a spell whose storm
    copy (put on the stack before) has no resolve event yet is a located error."""
    for i, e in enumerate(sc.events[:at]):
        if e.type == "copy" and e.storm and e.spell == action and not any(
                x.type == "resolve" and x.action == e.id for x in sc.events[i + 1:at]):
            raise ScenarioError(f"resolve {action}: its storm copy {e.id} is above it on the stack (405.5): resolve "
                                f"the copies first")
