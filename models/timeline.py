"""Time order in a scenario: what exists at each event and stage, and the order in which effects apply.

A scenario's events happen in order, so:

- an event may name only objects present at the start or created by an earlier event, and only
  effects of the initial state or begun by an earlier event;
- an expectation ``at`` a stage before an object's creation may say only whether it exists
  (``exists``), or the status of an action not yet declared (``action_status``);
- effects are ordered ("applied last") by when they began: the initial state's effects by their
  typed timestamps, then each effect begun by an event at that event's position. A begun effect's
  timestamp may be left out; a typed one must not contradict that order. A static ability counts
  from when its source last entered (or was attached), which the solver reads from the events: an
  initial static effect whose source enters later may leave its timestamp out;
- two effects of the initial state that contest one characteristic of a possibly-same object
  cannot share a timestamp (list order is no rule): an error naming both, except the static
  abilities of cards that entered together (``entered_together``): their order is open, and every
  order is an outcome (``simultaneous_groups``; MTG 613.7m lets the active player choose it, the
  other games give no rule that orders them).

Each check raises ``ValueError`` with a message naming the items (``events[i]``, ``expect[i]``,
``effects[i]``), the way ``models.scenario.check_references`` does; the loader locates them.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from models.effects import Effect, Selector

#: a models.scenario.Scenario (not imported: the scenario module calls these checks)
Scenario = Any

#: the one object atom an expectation may state before the object is created (an action's only atom,
#: ``action_status``, is always allowed: before its declaration it is ``unborn``)
BEFORE_CREATION = ("exists",)


def check_timeline(sc: Scenario) -> None:
    """Reject what contradicts the order of events: references ahead of time and effect orders that are no order."""
    check_initial_timestamps(sc)
    check_event_times(sc)
    check_expectation_times(sc)
    check_begun_timestamps(sc)
    check_equal_timestamps(sc)


# -- what exists when ---------------------------------------------------------------------------
def creations(sc: Scenario) -> dict[str, int]:
    """Object id -> index of the event that creates it (declares an action, creates a token ...)."""
    return _first_event(sc, "declared_id")


def beginnings(sc: Scenario) -> dict[str, int]:
    """Effect id -> index of the event that begins it."""
    return _first_event(sc, "declared_effect_id")


def _first_event(sc: Scenario, declares: str) -> dict[str, int]:
    """Id -> index of the first event whose ``declares`` method (declared_id, declared_effect_id) names it."""
    out: dict[str, int] = {}
    for i, ev in enumerate(sc.events):
        name = getattr(ev, declares)()
        if name is not None:
            out.setdefault(name, i)
    return out


def _event_objects(ev: Any) -> list[tuple[str, str]]:
    """(kind, id) pairs an event names: its references, and the objects among its declared targets."""
    refs = list(ev.references())
    targets = getattr(ev, "targets", None)
    if isinstance(targets, list):
        refs += [("object", t) for t in targets if isinstance(t, str)]
    return refs


def check_event_times(sc: Scenario) -> None:
    """Each event names only objects and effects that exist when it happens."""
    created, begun = creations(sc), beginnings(sc)
    for i, ev in enumerate(sc.events):
        for kind, ref in _event_objects(ev):
            later = {"object": created, "effect": begun}.get(kind, {}).get(ref)
            if later is None or later < i:
                continue
            what = "is created" if kind == "object" else "begins"
            when = "by this event itself" if later == i else f"only by events[{later}] ({sc.events[later].type})"
            raise ValueError(f"events[{i}] ({ev.type}): {kind} '{ref}' does not exist yet: it {what} {when}; "
                             f"an event may name only what exists at that point")


def check_expectation_times(sc: Scenario) -> None:
    """At a stage before an object's creation an expectation may say only that it does not exist (yet)."""
    created = creations(sc)
    for i, ex in enumerate(sc.expect):
        if ex.at is None:
            continue
        if ex.object is not None and created.get(ex.object, -1) >= ex.at:
            said = [a for a in ex.atom_names() if a in ex.OBJECT_ATOMS and a not in BEFORE_CREATION]
            if said:
                raise ValueError(
                    f"expect[{i}]: at {ex.at}, object '{ex.object}' does not exist yet (events[{created[ex.object]}] "
                    f"creates it); only 'exists' can be said about it there, not {', '.join(map(repr, said))}")
        if ex.attached_to is not None and created.get(ex.attached_to, -1) >= ex.at:
            raise ValueError(f"expect[{i}]: at {ex.at}, object '{ex.attached_to}' does not exist yet "
                             f"(events[{created[ex.attached_to]}] creates it): nothing can be attached to it")


# -- the order of effects -----------------------------------------------------------------------
def check_initial_timestamps(sc: Scenario) -> None:
    """Every effect of the initial state has a timestamp (an effect begun by an event takes its position), except a
    static ability: it counts from when its source enters, which the events order (a source already in play at the
    start needs one: the rules say so, ``solver.encoding.compile``)."""
    for i, e in enumerate(sc.effects):
        if e.timestamp is None and e.duration != "static":
            raise ValueError(f"effects[{i}] (effect {e.id}): missing required field 'timestamp' (an effect of the "
                             f"initial state needs one, unless it is a static ability whose source enters later; an "
                             f"effect begun by an event is ordered by the event)")


def check_begun_timestamps(sc: Scenario) -> None:
    """A typed timestamp on an effect begun by an event must come after every effect that exists before it."""
    before: list[tuple[int, str, str]] = [(e.timestamp, e.id, f"effects[{i}]") for i, e in enumerate(sc.effects)
                                          if e.timestamp is not None]
    for i, ev in enumerate(sc.events):
        eid = ev.declared_effect_id()
        if eid is None:
            continue
        e: Effect = ev.effect
        if e.timestamp is not None:
            latest = max(before, default=None)
            if latest is not None and e.timestamp <= latest[0]:
                raise ValueError(
                    f"events[{i}] ({ev.type}): effect {e.id} has timestamp {e.timestamp}, but it begins after effect "
                    f"{latest[1]} ({latest[2]}, timestamp {latest[0]}): an effect begun by an event applies after "
                    f"every effect before it; leave its timestamp out (the event's position orders it) or make it "
                    f"larger than {latest[0]}")
            before.append((e.timestamp, e.id, f"events[{i}]"))


def contested(e: Effect) -> tuple[str, str] | None:
    """The characteristic an effect decides by 'applied last', or None ('add' sums; permit/prohibit by rule)."""
    if e.kind == "set":
        return ("value", e.attribute or "")
    if e.kind == "control":
        return ("control", "")
    if e.kind in ("grant", "remove"):
        return ("ability", e.ability or "")
    return None


def _same_result(a: Effect, b: Effect) -> bool:
    """Two effects on one characteristic that leave it the same whichever applies last."""
    if a.kind == "set":
        return a.value == b.value
    if a.kind == "control":  # 'source_controller' of two sources may be two players
        return a.player == b.player and (a.player != "source_controller" or a.source == b.source)
    return a.kind == b.kind


def possible_targets(sc: Scenario, e: Effect) -> set[str]:
    """Objects (or players) an effect may apply to by its static criteria: listed ids, or a selector's ids and types."""
    if not isinstance(e.targets, Selector):
        return set(e.targets)
    known = _object_types(sc)
    ids = e.targets.objects if e.targets.objects is not None else list(known)
    types = set(e.targets.types or [])
    return {o for o in ids if not types or o not in known or types & known[o]}


def _object_types(sc: Scenario) -> dict[str, set[str]]:
    """Object id -> its types: the scenario's objects, and those events create (declared actions: 'action')."""
    out = {o.id: set(o.types) for o in sc.objects}
    for ev in sc.events:
        oid = ev.declared_id()
        if oid is not None and oid not in out:
            types = getattr(ev, "types", None)
            out[oid] = set(types) if isinstance(types, list) else ({"action"} if ev.type == "declare" else set())
    return out


def entered_together(a: Effect, b: Effect) -> bool:
    """Two static abilities with the same typed timestamp: their sources entered together, and no list order
    decides which applied last (the rules leave it open, or to a player's choice)."""
    return (a.duration == "static" and b.duration == "static" and a.source is not None and b.source is not None
            and a.timestamp is not None and a.timestamp == b.timestamp)


def _tied_pairs(sc: Scenario):
    """(i, a, j, b, shared objects) for initial effects contesting one characteristic at the same timestamp."""
    by_char: dict[tuple, list[tuple[int, Effect]]] = {}
    for i, e in enumerate(sc.effects):
        char = contested(e)
        if char is not None and e.timestamp is not None:  # without one, it counts from its source's entry
            by_char.setdefault((char, e.timestamp), []).append((i, e))
    for key, group in by_char.items():
        for (i, a), (j, b) in combinations(group, 2):
            if _same_result(a, b):
                continue
            shared = possible_targets(sc, a) & possible_targets(sc, b)
            if shared:
                yield key, i, a, j, b, shared


def check_equal_timestamps(sc: Scenario) -> None:
    """Two initial effects contesting one characteristic of a possibly-same object need different timestamps,
    unless they are the static abilities of cards that entered together (``entered_together``)."""
    for ((what, name), stamp), i, a, j, b, shared in _tied_pairs(sc):
        if entered_together(a, b):
            continue
        char = {"value": f"'{name}'", "control": "control", "ability": f"ability '{name}'"}[what]
        raise ValueError(
            f"effects[{j}] (effect {b.id}) and effects[{i}] (effect {a.id}) have the same timestamp {stamp} "
            f"and both decide {char} of {', '.join(sorted(shared)[:3])}: which applies last would be list "
            f"order, which is no rule; give them different timestamps")


def simultaneous_groups(sc: Scenario) -> list[tuple[str, ...]]:
    """Effect ids whose relative order is open: static abilities of cards that entered together and contest one
    characteristic (connected through such pairs), each group in list order, groups by their first member."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for _key, _i, a, _j, b, _shared in _tied_pairs(sc):
        if entered_together(a, b):
            parent[find(b.id)] = find(a.id)
    order = [e.id for e in sc.effects if e.id in parent]
    groups: dict[str, list[str]] = {}
    for eid in order:
        groups.setdefault(find(eid), []).append(eid)
    return [tuple(g) for g in sorted(groups.values(), key=lambda g: order.index(g[0])) if len(g) > 1]
