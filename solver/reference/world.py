"""The static world of a scenario as the reference reads it: objects, effects, state keys, domains, initial state.

Plain Python over the pydantic scenario; shares no code with the CP-SAT encoding.
A state is a ``dict[str, str]`` keyed like the solver's outcome state ("zone.card",
"attr.card.life", "flag.card.open", "active.effect", "pstatus.alice" ...); Booleans
are "0"/"1" and integers their decimal text.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from models.effects import Effect, Selector
from models.events import BeginEffect, Declare, Modify
from models.expectations import ACTION_STATUSES
from models.scenario import PLAYER_STATUSES, Scenario
from solver.registry import names, reference_for

NONE = "none"
BOOL = ("0", "1")
INT = "int"
TURN_KEYS = ("active_player", "priority", "focus")

State = dict[str, str]
Trace = list[State]


def key(*parts: object) -> str:
    """The state key of a tuple of parts, as the solver names it ("attr.card.life")."""
    return ".".join(str(p) for p in parts)


def b(value: bool) -> str:
    """A Boolean as state text."""
    return "1" if value else "0"


@dataclass
class Obj:
    """Static data of an object: scenario objects and the actions that declare events create."""

    id: str
    owner: str | None
    types: tuple[str, ...]
    card: bool
    spec: object | None  # a Declare event or an ActionSpec: what the action does
    declared: bool = False


@dataclass
class World:
    """Everything about a scenario that no event changes, plus the state keys and their domains."""

    sc: Scenario
    rules: object
    players: list[str] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    adjacency: dict[str, set[str]] = field(default_factory=dict)
    zones: tuple[str, ...] = ()
    objects: dict[str, Obj] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    domains: dict[str, object] = field(default_factory=dict)
    initial: State = field(default_factory=dict)
    static: dict[str, Effect] = field(default_factory=dict)  # key "active.e" -> static effect
    #: key "active.e" of a static effect -> first state it follows its source in (0, or after the event starting it)
    static_from: dict[str, int] = field(default_factory=dict)
    #: effect id -> index of the event that begins it (its place in time)
    begun_at: dict[str, int] = field(default_factory=dict)
    #: objects whose zone visits the rules tell apart (key "since.o": the state after which event its visit began)
    identity: tuple[str, ...] = ()

    #: groups of effect ids whose order no rule fixes (static abilities of cards that entered together)
    open_orders: list[tuple[str, ...]] = field(default_factory=list)

    #: objects whose controller is being read, per state (a "you" that asks for its source's controller)
    asking: dict[int, set[str]] = field(default_factory=dict)

    #: rules the reference applied while computing, when someone is listening (``note``)
    trail: set[str] | None = None

    def note(self, *rules: str) -> None:
        """Record that the reference applied ``rules`` (decided by them, or weighed their conditions), when someone
        keeps a trail."""
        if self.trail is not None:
            self.trail.update(rules)

    def statics(self, stage: int) -> dict[str, Effect]:
        """Static effects that follow their source in state ``stage``: a later-begun one only once it began."""
        return {k: e for k, e in self.static.items() if stage >= self.static_from[k]}

    # -- effects -------------------------------------------------------------
    def order(self, e: Effect, st: State | None = None) -> tuple[int, int, int]:
        """When the effect began: initial effects by timestamp, then each effect an event begins at that event.

        Ties (only between effects that do not contest one characteristic) keep the order of appearance, except in
        an open group (cards that entered together): there the state's ``order.e`` (chosen at the start) ranks
        them. A static ability is applied again when its source comes back (``CoreRules.applied_at``); this order
        decides between effects applied in the same state.
        """
        places = [x.id for x in self.effects]
        place = places.index(e.id)
        rank = st.get(key("order", e.id)) if st is not None else None
        if rank is not None:
            group = next(g for g in self.open_orders if e.id in g)
            place = sorted(places.index(x) for x in group)[int(rank)]
        begun = self.begun_at.get(e.id)
        stamp = -1 if e.timestamp is None else e.timestamp
        return (0, stamp, place) if begun is None else (1, begun, place)

    def began(self, e: Effect) -> int:
        """The state from which the effect exists: 0 for the initial state's, the state after the event beginning it."""
        begun = self.begun_at.get(e.id)
        return 0 if begun is None else begun + 1

    @staticmethod
    def listed(e: Effect) -> list[str]:
        """The objects an effect names one by one (its list of targets, or the ids its selector lists)."""
        return list(e.targets.objects or []) if isinstance(e.targets, Selector) else list(e.targets)

    def targets(self, e: Effect) -> list[str]:
        """Objects the effect may apply to by its static criteria: listed ids, or selector ids and types."""
        if isinstance(e.targets, Selector):
            ids = e.targets.objects or [o for o, info in self.objects.items() if not info.declared]
            types = set(e.targets.types or [])
            return [o for o in ids if o in self.objects and (not types or types & set(self.objects[o].types))
                    and not (e.targets.other and o == e.source)]
        return [t for t in e.targets if t in self.objects]

    def effects_on(self, obj: str, kind: str, what: str | None = None) -> list[Effect]:
        """Effects of ``kind`` that may apply to ``obj`` (about attribute/action/ability ``what``), oldest first."""
        out = [e for e in self.effects if e.kind == kind and obj in self.targets(e)
               and (kind == "control" or (e.attribute or e.action or e.ability) == what)]
        return sorted(out, key=self.order)

    def owner_of(self, obj: str | None) -> str | None:
        """The owner of an object."""
        return self.objects[obj].owner if obj in self.objects else None

    # -- keys --------------------------------------------------------------------
    def add(self, k: str, domain, initial: str) -> None:
        """Declare a state key with its domain and initial value (first declaration wins)."""
        if k not in self.domains:
            self.domains[k] = domain
            self.initial[k] = initial

    def domain(self, k: str, around: int = 0) -> tuple[str, ...]:
        """The values a key may take; integers in a small window that holds every reachable value."""
        dom = self.domains[k]
        if dom == INT:
            lo, hi = self.int_window
            return tuple(str(v) for v in range(lo, hi + 1))
        return dom

    int_window: tuple[int, int] = (0, 0)


class Unsupported(Exception):
    """The scenario uses something this reference does not read (an unknown game, action kind or event type)."""


def rules_for(game: str):
    """The reference rules of a game (its folder's ``reference.py``, through the registry)."""
    if game not in names():
        raise Unsupported(f"no reference reading of the {game} rules")
    return reference_for(game)


def build_world(sc: Scenario, rules) -> World:
    """Read the scenario: objects, effects in timestamp order, every state key with domain and initial value."""
    w = World(sc=sc, rules=rules)
    w.players = [p.id for p in sc.players]
    w.cells = sc.board.all_cells() if sc.board else []
    w.adjacency = sc.board.neighbours() if sc.board else {}
    w.zones = tuple(dict.fromkeys(list(rules.zones) + list(sc.zones) + [NONE]))
    for o in sc.objects:
        w.objects[o.id] = Obj(o.id, o.owner, tuple(o.types), o.card, o.action)
    w.effects = list(sc.effects)
    for i, ev in enumerate(sc.events):
        if isinstance(ev, Declare):
            owner = w.owner_of(ev.source) if ev.source else ev.actor
            w.objects[ev.id] = Obj(ev.id, owner, ("action",), ev.card, ev, declared=True)
        elif isinstance(ev, BeginEffect):
            w.effects.append(ev.effect)
            w.begun_at[ev.effect.id] = i
        for e in rules.created_effects(w, i, ev):  # an effect the game's rules begin at this event
            w.effects.append(e)
            w.begun_at[e.id] = i
    _object_keys(w)
    _player_keys(w)
    _effect_keys(w)
    _expectation_keys(w)
    rules.extra_keys(w)
    _identity_keys(w)
    w.open_orders = _entered_together(w)
    for group in w.open_orders:  # the order chosen at the start is part of the state, as the checker shows it
        for r, eid in enumerate(group):
            w.add(key("order", eid), tuple(str(i) for i in range(len(group))), str(r))
    w.int_window = _window(w)
    return w


def _entered_together(w: World) -> list[tuple[str, ...]]:
    """Static abilities of cards that entered together (one typed timestamp) acting on one characteristic of one
    object: no rule says which applied last (MTG 613.7m leaves it to the active player), so their order is open."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    statics = [e for e in w.sc.effects if e.duration == "static" and e.source and e.timestamp is not None
               and e.kind in ("set", "control", "grant", "remove")]
    for i, a in enumerate(statics):
        for b in statics[i + 1:]:
            same = (a.kind == "control") == (b.kind == "control") and (
                a.kind == "control" or (a.attribute or a.ability) == (b.attribute or b.ability))
            if a.timestamp == b.timestamp and same and set(w.targets(a)) & set(w.targets(b)):
                parent[root(b.id)] = root(a.id)
    groups: dict[str, list[str]] = {}
    for e in statics:
        if e.id in parent:
            groups.setdefault(root(e.id), []).append(e.id)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def orderings(w: World):
    """Set the initial ``order.e`` keys to each order of the open groups in turn (once when none is open); the
    scenario's list order is restored afterwards."""
    saved = {k: v for k, v in w.initial.items() if k.startswith("order.")}
    try:
        for perms in itertools.product(*(itertools.permutations(g) for g in w.open_orders)):
            for perm in perms:
                for r, eid in enumerate(perm):
                    w.initial[key("order", eid)] = str(r)
            yield w
    finally:
        w.initial.update(saved)


def _object_keys(w: World) -> None:
    players = tuple(w.players) + (NONE,)
    cells = tuple(w.cells) + (NONE,)
    by_id = {o.id: o for o in w.sc.objects}
    for oid, info in w.objects.items():
        o = by_id.get(oid)
        w.add(key("zone", oid), w.zones, o.zone if o else NONE)
        w.add(key("ctrl", oid), players, (o.controller or o.owner or NONE) if o else NONE)
        if w.cells:
            w.add(key("cell", oid), cells, (o.cell if o else None) or NONE)
        if info.spec is not None:
            status = (o.status or ("on_stack" if o.zone == "stack" else "unborn")) if o else "unborn"
            w.add(key("status", oid), ACTION_STATUSES, status)
        if o is None:
            continue
        for a, v in o.attributes.items():
            w.add(key("attr", oid, a), INT, str(v))
        for f, v in o.flags.items():
            w.add(key("flag", oid, f), BOOL, b(v))
        for ab in o.abilities:
            w.add(key("ability", oid, ab), BOOL, "1")
        for p, v in o.properties.items():
            w.add(key("prop", oid, p), ("any",), v)


def _player_keys(w: World) -> None:
    players = tuple(w.players) + (NONE,)
    for p in w.sc.players:
        w.add(key("pstatus", p.id), PLAYER_STATUSES, p.status)
        for a, v in p.attributes.items():
            w.add(key("pattr", p.id, a), INT, str(v))
        for f, v in p.flags.items():
            w.add(key("pflag", p.id, f), BOOL, b(v))
    for name in TURN_KEYS:
        w.add(key("turn", name), players, getattr(w.sc.turn, name) or NONE)
    w.add("gflag.showdown", BOOL, b(w.sc.turn.showdown))


def _effect_keys(w: World) -> None:
    later = {eid: i + 1 for eid, i in w.begun_at.items()}  # begun by an event (or by a game's rule at one)
    for e in w.effects:
        k = key("active", e.id)
        w.add(k, BOOL, b(e.active and e.id not in later))
        if e.duration == "static":
            w.static[k] = e
            w.static_from[k] = later.get(e.id, 0)


def _identity_keys(w: World) -> None:
    """400.7 and its kin: the objects whose visits matter get "since.o", the state after which their visit began:
    every source of a static ability (it works anew from its source's new visit) and every object an effect lists."""
    seen: list[str] = []
    for e in w.effects:
        for o in ([e.source] if e.duration == "static" and e.source else []) + w.listed(e):
            if o in w.objects and o not in seen:
                seen.append(o)
    for o in w.rules.told_apart(w):  # what the game's own rules name (MTG: the targets of spells and abilities)
        if o in w.objects and o not in seen:
            seen.append(o)
    w.identity = tuple(seen)
    times = tuple(str(t) for t in range(len(w.sc.events) + 1))
    for o in seen:
        w.add(key("since", o), times, "0")


def _expectation_keys(w: World) -> None:
    for ex in w.sc.expect:
        if ex.object is None:
            continue
        for f in ex.flags:
            w.add(key("flag", ex.object, f), BOOL, "0")


def _window(w: World) -> tuple[int, int]:
    """A window of integers that holds every value an attribute can reach by the events."""
    values = [int(v) for k, v in w.initial.items() if w.domains[k] == INT] or [0]
    steps = sum(abs(ev.delta) for ev in w.sc.events if isinstance(ev, Modify))
    steps += sum(1 for ev in w.sc.events if ev.type in ("resolve", "finish_execution"))
    lo, hi = min(values) - steps - 1, max(values) + steps + 1
    return (lo, hi) if hi - lo <= 400 else (min(values), max(values))
