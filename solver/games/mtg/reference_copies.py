"""The MTG reference's reading of copies of spells (707.10) and storm (702.40a), and of returning a card from a
graveyard.

Read from the rules: a copy of a spell or ability on the stack is put on the stack, not a card, under the player
who copies it (for storm: whoever cast the storm spell, who controls its trigger), with the original's kind and
parameters and the targets chosen for it (a new target must be legal: 707.10c); it is not put there for a player
who left. Storm: a spell with storm is copied once for each other spell cast before it this turn, so its k-th copy
exists when at least k spells (cards declared since the turn began, whose declaration was legal: their status is
no longer 'unborn' or 'illegal') were cast before it. A copy that leaves the stack ceases to exist (707.10a,
704.5e). Returning a card from a graveyard: only a card still there moves, to its owner's hand or onto the
battlefield under its owner's control (800.4b: not for a player who left).
"""
from __future__ import annotations

from solver.games.mtg.reference_state import in_game
from solver.reference.rules import Step, Unsupported
from solver.reference.world import NONE, State, World, key

NOT_CAST = ("unborn", "illegal")


def is_copy(w: World, o: str) -> bool:
    """The object is a copy a copy event made."""
    return any(ev.type == "copy" and ev.id == o for ev in w.sc.events)


def caster(w: World, ev) -> str:
    """Who puts the copy on the stack: the event's controller, or for storm the storm spell's declarer."""
    if not ev.storm:
        if ev.controller is None:
            raise Unsupported(f"copy {ev.id} without a controller")
        return ev.controller
    decl = [e for e in w.sc.events if e.type == "declare" and e.id == ev.spell]
    if not decl or not decl[0].card or w.sc.events.index(decl[0]) > w.sc.events.index(ev):
        raise Unsupported(f"storm copy {ev.id} of no spell cast before it")
    if ev.controller not in (None, decl[0].actor):
        raise Unsupported(f"storm copy {ev.id}: controller is not the spell's caster")
    return decl[0].actor


def earlier_casts(w: World, spell: str) -> list[str]:
    """The card spells declared before ``spell`` in the same turn (since the last end_turn)."""
    events = w.sc.events
    at = next(i for i, e in enumerate(events) if e.type == "declare" and e.id == spell)
    out: list[str] = []
    for e in reversed(events[:at]):
        if e.type == "end_turn":
            break
        if e.type == "begin_turn":
            raise Unsupported("storm after a begin_turn event (800.4j)")
        if e.type == "declare" and e.card:
            out.append(e.id)
    return out


def number(w: World, ev) -> int:
    """Which storm copy of its spell this is (1 for the first copy event)."""
    return 1 + sum(1 for e in w.sc.events[:w.sc.events.index(ev)] if e.type == "copy" and e.storm and e.spell == ev.spell)


def copy(rules, targets, w: World, prev: State, ev, step: Step) -> None:
    """707.10 (702.40a for storm); 707.10c: new targets legal; not for a player who left."""
    ctrl = caster(w, ev)
    w.note("mtg.707.10", "mtg.800.4d.copy", *(["mtg.702.40a"] if ev.storm else []))
    if ev.storm:
        k = number(w, ev)
        spells = earlier_casts(w, ev.spell)
        if k > len(spells):
            raise Unsupported(f"storm copy {ev.id}: more copies than spells cast before")
        made = prev[key("status", ev.spell)] not in NOT_CAST and \
            sum(prev[key("status", s)] not in NOT_CAST for s in spells) >= k
        gone_rule = "mtg.702.40a"
    else:
        made = prev[key("status", ev.spell)] == "on_stack"
        gone_rule = "mtg.707.10"
    zk, sk = key("zone", ev.id), key("status", ev.id)
    if not made:
        step.set(zk, prev[zk], gone_rule)
        step.set(sk, prev[sk], gone_rule)
        return
    if not in_game(prev, ctrl):
        step.set(zk, prev[zk], "mtg.800.4d.copy")
        step.set(sk, prev[sk], "mtg.800.4d.copy")
        return
    it = targets.item(w, ev.id)
    old = targets.item(w, ev.spell).targets if w.objects[ev.spell].spec is not None else []
    new = [t for t in it.targets if t not in old]
    if new:
        w.note("mtg.707.10c")
    if all(targets.legal(rules, w, prev, it, ctrl, t) for t in new):
        step.set(sk, "on_stack", "mtg.707.10")
        step.set(zk, "stack", "mtg.707.10")
        step.set(key("ctrl", ev.id), ctrl, "mtg.707.10")
    else:
        step.set(sk, "illegal", "mtg.707.10c")


def cease(w: World, step: Step, action: str, status: str, rule: str) -> None:
    """A copy leaving the stack ceases to exist (707.10a)."""
    w.note("mtg.707.10a")
    step.set(key("status", action), status, rule)
    step.set(key("zone", action), NONE, "mtg.707.10a")


def moved(w: World, prev: State, ev, step: Step) -> None:
    """A copy moved anywhere but the stack ceases to exist (704.5e)."""
    w.note("mtg.707.10a")
    step.set(key("zone", ev.object), NONE, "mtg.707.10a")
    if prev[key("status", ev.object)] == "on_stack":
        step.set(key("status", ev.object), "ceased", "mtg.707.10a")


def order(w: World, ev) -> None:
    """405.5: storm copies above the spell resolve first; a resolve of the spell before theirs is not read."""
    at = w.sc.events.index(ev)
    for i, e in enumerate(w.sc.events[:at]):
        if e.type == "copy" and e.storm and e.spell == ev.action and not any(
                x.type == "resolve" and x.action == e.id for x in w.sc.events[i + 1:at]):
            raise Unsupported(f"resolve {ev.action} below its storm copy {e.id}")


def from_graveyard(w: World, st: State, obj: str, to: str) -> list[tuple[str, str, str]]:
    """The changes of returning ``obj`` from a graveyard to ``to`` (hand, or battlefield under its owner)."""
    zk = key("zone", obj)
    if st[zk] != "graveyard":
        return [(zk, st[zk], "mtg.return_from_graveyard.absent")]
    if to == "hand":
        return [(zk, "hand", "mtg.return_from_graveyard")]
    owner = w.owner_of(obj)
    if owner is None:
        return [(zk, "battlefield", "mtg.return_from_graveyard")]
    if in_game(st, owner):
        return [(zk, "battlefield", "mtg.return_from_graveyard"), (key("ctrl", obj), owner, "mtg.return_from_graveyard")]
    return [(zk, st[zk], "mtg.800.4b.enter")]
