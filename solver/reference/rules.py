"""The reference reading of the core rules, in plain Python: derived characteristics, events, expectations.

A rule is read as a constraint between the state before an event (``prev``) and the
state after it (``nxt``): ``Step.set`` names the values a rule allows a key to take,
``Step.free`` releases a key to a choice, ``Step.check`` is a condition on ``nxt``
alone. A key that no rule touches keeps its value (core.inertia).

Sources: docs/internals.md, "How it works" and the seed texts. Nothing here
imports the CP-SAT encoding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from models.effects import Effect, Selector
from models.expectations import Expectation
from solver.reference.world import NONE, TURN_KEYS, State, Unsupported, World, b, key
from solver.registry import vocabulary_for
from solver.vocabulary.zones import DeclaredZones



@dataclass
class Step:
    """What the rules of one event say about the next state."""

    sets: dict[str, list[tuple[str, frozenset]]] = field(default_factory=dict)
    free: dict[str, tuple[str, frozenset | None]] = field(default_factory=dict)
    checks: list[tuple[str, Callable[[State], bool], str]] = field(default_factory=list)
    #: an event read as a procedure of named steps (Riftbound's concede): the state after each step, by its name
    inside: dict[str, State] = field(default_factory=dict)

    def set(self, k: str, value: str, rule: str) -> None:
        """Rule ``rule``: the key takes ``value``."""
        self.sets.setdefault(k, []).append((rule, frozenset([str(value)])))

    def release(self, k: str, rule: str, allowed=None) -> None:
        """Rule ``rule``: the key is a choice (among ``allowed``, default any value of its domain)."""
        self.free[k] = (rule, frozenset(allowed) if allowed is not None else None)

    def check(self, rule: str, predicate: Callable[[State], bool], what: str) -> None:
        """Rule ``rule``: the next state satisfies ``predicate``."""
        self.checks.append((rule, predicate, what))

    def rules(self) -> set[str]:
        """Every rule this step applied: the rules that set, released or constrain a key."""
        out = {rule for options in self.sets.values() for rule, _ in options}
        out |= {rule for rule, _ in self.free.values()}
        return out | {rule for rule, _, _ in self.checks}

    def key_violations(self, k: str, value: str, prev: State) -> list[tuple[str, str]]:
        """(rule, message) for every rule that forbids ``k`` taking ``value`` after this step."""
        if k in self.sets:
            return [(rule, f"{k}={value}, expected {'/'.join(sorted(allowed))}")
                    for rule, allowed in self.sets[k] if value not in allowed]
        if k in self.free:
            rule, allowed = self.free[k]
            return [] if allowed is None or value in allowed else [(rule, f"{k}={value} not among {sorted(allowed)}")]
        if value != prev.get(k):
            return [("core.inertia", f"{k} changed {prev.get(k)} -> {value} but no rule changes it")]
        return []


class CoreRules:
    """The game-agnostic rules: effects precedence, control, permission, actions, core events."""

    game = "core"
    #: the game's zones and those in play, as its vocabulary declares them (``solver.vocabulary.zones``)
    zones = DeclaredZones()
    play_zones = DeclaredZones(play=True)
    graveyard = "graveyard"
    #: the zone where declared actions wait to resolve (Riftbound: "chain")
    stack_zone = "stack"
    gone_zones: tuple[str, ...] = (NONE, "outside")
    # -- hooks ------------------------------------------------------------------
    def may_receive(self, w: World, st: State, e: Effect) -> bool:
        """May a static ability's "you" (its source's controller) receive control in this state? (A game may say
        no: MTG 800.4a, not a player who left.)"""
        return True

    def open_order_rule(self) -> str | None:
        """The rule giving the order of effects of cards that entered together to a player, or None (no rule orders
        them); every order is possible either way."""
        return None

    def extra_keys(self, w: World) -> None:
        """Game-specific state keys (override)."""

    def created_effects(self, w: World, index: int, ev) -> list[Effect]:
        """Effects the game's rules begin at event ``index`` (inactive until a rule makes them active there); none in
        the core (override)."""
        return []

    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """What an action kind needs to be declared or resolved, by rule (override)."""
        raise Unsupported(f"action kind '{spec.kind}' is not part of the {self.game} rules")

    def kind_apply(self, w: World, st: State, spec, step: Step) -> None:
        """What a resolved action does (override)."""
        raise Unsupported(f"action kind '{spec.kind}' is not part of the {self.game} rules")

    def kind_pay(self, w: World, st: State, spec, step: Step) -> None:
        """The cost a resolving action pays (override)."""

    def cost_keys(self, w: World, source: str | None) -> list[str]:
        """Keys the payment would change; an interrupted action leaves them (override)."""
        return []

    def moved(self, w: World, prev: State, obj: str, zone: str, cell: str | None, step: Step) -> None:
        """Rules triggered by an object arriving somewhere (override)."""

    def event_needs(self, w: World, ev) -> tuple[str, str] | None:
        """(state key, value) an event needs in the state before it, or else the scenario is in error (override;
        none by default)."""
        return None

    # -- object identity: one object per zone visit ----------------------------------------
    def identity_rule(self) -> str:
        """The rule by which an object that changes zones (or is attached anew) is a new object (a game names its
        own: MTG 400.7)."""
        return "core.new_object"

    def visit(self, w: World, st: State, obj: str | None) -> int | None:
        """The state after which ``obj``'s current zone visit began (None: no rule tells its visits apart)."""
        k = key("since", obj)
        if obj is None or k not in w.domains:
            return None
        w.note(self.identity_rule())
        return int(st[k])

    def applied_at(self, w: World, st: State, e: Effect) -> int:
        """The state in which the effect was applied: when it began; a static ability not before its source's
        current visit began (a card that comes back, or is attached again, applies it anew)."""
        begun = w.began(e)
        if e.duration != "static":
            return begun
        since = self.visit(w, st, e.source)
        return begun if since is None else max(begun, since)

    def names_visit(self, w: World, st: State, e: Effect, obj: str) -> bool:
        """An effect that lists ``obj`` means the object as it was when the effect was applied: not a later visit
        (a static ability's own source is always itself)."""
        if obj not in w.listed(e) or (e.duration == "static" and obj == e.source):
            return True
        return self.same_since(w, st, obj, self.applied_at(w, st, e))

    def same_since(self, w: World, st: State, obj: str, then: int) -> bool:
        """``obj`` is still the object it was in state ``then``: its current visit began then or before."""
        since = self.visit(w, st, obj)
        return since is None or since <= then

    def told_apart(self, w: World) -> list[str]:
        """Objects whose visits the game's own rules tell apart, besides those effects name (override)."""
        return []

    def renewed(self, w: World, before: State, after: State, now: int) -> dict[str, str]:
        """The "since" of every object whose zone or attachment differs from ``before`` to ``after``: ``now`` (for a
        reading that goes through an event's procedure state by state)."""
        out = {}
        for o in w.identity:
            ks = [k for k in (key("zone", o), key("attach", o)) if k in w.domains]
            w.note(self.identity_rule())
            if any(before.get(k) != after.get(k) for k in ks):
                out[key("since", o)] = str(now)
        return out

    def new_objects(self, w: World, prev: State, ev, step: Step) -> None:
        """An object whose zone or attachment the event changes is a new object from the state after it on."""
        now = next(i for i, x in enumerate(w.sc.events) if x is ev) + 1
        for o in w.identity:
            ks = [k for k in (key("zone", o), key("attach", o)) if k in w.domains]
            if not any(k in step.sets or k in step.free for k in ks):
                continue
            w.note(self.identity_rule())
            sk = key("since", o)
            step.release(sk, self.identity_rule(), {prev[sk], str(now)})

            def renewed(nxt: State, ks=ks, sk=sk) -> bool:
                """A new visit exactly when the zone or the attachment changed."""
                moved = any(nxt[k] != prev[k] for k in ks)
                return nxt[sk] == (str(now) if moved else prev[sk])
            step.check(self.identity_rule(), renewed, f"{o} is a new object exactly when it changed zone")

    # -- derived characteristics -------------------------------------------------
    def applies(self, w: World, st: State, e: Effect, obj: str) -> bool:
        """The effect is active and applies to ``obj`` now (the object it named, not a later visit of it)."""
        if st.get(key("active", e.id)) != "1" or obj not in w.targets(e):
            return False
        if e.kind == "control" and e.player == "source_controller" and not self.may_receive(w, st, e):
            return False
        if st.get(key("released", e.id, obj)) == "1":  # a game rule ended the effect for this object only
            return False
        if not self.names_visit(w, st, e, obj):
            return False
        sel = e.targets
        if isinstance(sel, Selector):
            if sel.zone and st.get(key("zone", obj)) != sel.zone:
                return False
            if sel.controlled_by and not self._controlled_by(w, st, e, obj, sel.controlled_by):
                return False
            if sel.cell and not self._on_cell(w, st, e, obj, sel.cell):
                return False
            if sel.element and not self.selects_element(w, st, e, obj, sel.element):
                return False
        return True

    def selects_element(self, w: World, st: State, e: Effect, obj: str, element: str) -> bool:
        """A selector's ``element`` matches ``obj`` for effect ``e`` (a game with elements reads it; the core has
        none)."""
        raise Unsupported(f"effect {e.id}: selecting by element is not part of the {self.game} rules")

    def _on_cell(self, w: World, st: State, e: Effect, obj: str, cell: str) -> bool:
        """``obj`` is on ``cell`` ('source': on the same board cell as the effect's source)."""
        here = st.get(key("cell", obj), NONE)
        if cell not in ("source", "adjacent"):
            return key("cell", obj) in w.domains and here == cell
        there = st.get(key("cell", e.source), NONE) if e.source else NONE
        if cell == "adjacent":
            return here != NONE and there != NONE and there in w.adjacency.get(here, ())
        return here != NONE and here == there

    def _controlled_by(self, w: World, st: State, e: Effect, obj: str, who: str) -> bool:
        mine = self.controller(w, st, obj)
        if who not in ("source_controller", "source_opponent"):
            return mine == who
        src = self.controller(w, st, e.source)
        if mine == NONE or src == NONE:
            return False
        return (mine == src) == (who == "source_controller")

    # -- the shared mechanisms, each naming the rules it applies (noted on the world's trail) ----------
    def latest_by(self, w: World, st: State, effects: list[Effect], obj: str, *, latest: str) -> Effect | None:
        """Rule ``latest``: of effects on one characteristic, the applicable one applied last (in this state: a static
        ability as of its source's current visit; the scenario's order between effects applied in one state). One
        effect that applies alone is in no conflict: the rule that applies it decides, not ``latest``."""
        live = [e for e in effects if self.applies(w, st, e, obj)]
        if len(live) > 1:
            w.note(latest)
        chooser = self.open_order_rule()
        if chooser and len(live) > 1 and any(key("order", e.id) in st for e in live):
            w.note(chooser)
        return max(live, key=lambda e: (self.applied_at(w, st, e), w.order(e, st))) if live else None

    def control_by(self, w: World, st: State, obj: str, *, latest: str, control: str, outside: str) -> str:
        """Rule ``control``: the latest applicable control effect's player, else the default controller; rule
        ``outside``: an object outside the game has none."""
        w.note(outside)
        effects = w.effects_on(obj, "control")
        if effects:
            w.note(control)
        e = self.latest_by(w, st, effects, obj, latest=latest)
        if st.get(key("zone", obj)) in self.gone_zones:
            return NONE
        if e is None:
            return st[key("ctrl", obj)]
        return self.receiver(w, st, e)

    def receiver(self, w: World, st: State, e: Effect) -> str:
        """Who a control effect gives control to: its player, or for "you" ('source_controller', a static ability's
        controller) whoever controls its source in this state."""
        if e.player != "source_controller":
            return e.player
        asking = w.asking.setdefault(id(st), set())
        if e.source in asking:
            raise Unsupported(f"control effects whose players depend on each other's controllers ({e.id})")
        asking.add(e.source)
        try:
            return self.controller(w, st, e.source)
        finally:
            asking.discard(e.source)

    def value_by(self, w: World, st: State, obj: str, attr: str, *, latest: str, value: str, add: str,
                 refuses: bool = False) -> int:
        """Rule ``value``: base value or the latest 'set'; rule ``add``: plus every applicable 'add' (``refuses``:
        the object receives nothing an 'add' would give it, only what takes away)."""
        sets, adds = w.effects_on(obj, "set", attr), w.effects_on(obj, "add", attr)
        if sets:
            w.note(value)
        if adds:
            w.note(add)
        e = self.latest_by(w, st, sets, obj, latest=latest)
        base = int(e.value) if e else int(st.get(key("attr", obj, attr), "0"))
        return base + sum(int(a.value) for a in adds if self.applies(w, st, a, obj)
                          and not (refuses and int(a.value) > 0))

    def prop_by(self, w: World, st: State, obj: str, name: str, *, latest: str, value: str) -> str:
        """Rule ``value``: the latest 'set' effect's value, else the printed property."""
        sets = w.effects_on(obj, "set", name)
        if sets:
            w.note(value)
        e = self.latest_by(w, st, sets, obj, latest=latest)
        return str(e.value) if e else st.get(key("prop", obj, name), NONE)

    def ability_names(self, w: World, obj: str) -> list[str]:
        """Every ability the object may have: printed on it, or named by a grant effect that may apply to it (a rule
        reading 'each [ability] it has' asks ``has_ability`` of each, never the printed list alone)."""
        printed = {a for o in w.sc.objects if o.id == obj for a in o.abilities}
        return sorted(printed | {e.ability for e in w.effects if e.kind == "grant" and obj in w.targets(e)})

    def ability_by(self, w: World, st: State, obj: str, ability: str, *, latest: str, value: str) -> bool:
        """Rule ``value``: the latest grant/remove effect decides, else the printed abilities."""
        effects = w.effects_on(obj, "grant", ability) + w.effects_on(obj, "remove", ability)
        if effects:
            w.note(value)
        e = self.latest_by(w, st, effects, obj, latest=latest)
        if e is None:
            return st.get(key("ability", obj, ability)) == "1"
        return e.kind == "grant"

    # -- the characteristics under the core's rule ids (a game overrides to name its own) --------------
    def controller(self, w: World, st: State, obj: str) -> str:
        """core.control over core.timestamp; none outside the game (core.outside)."""
        return self.control_by(w, st, obj, latest="core.timestamp", control="core.control", outside="core.outside")

    def value(self, w: World, st: State, obj: str, attr: str) -> int:
        """core.value and core.add over core.timestamp."""
        return self.value_by(w, st, obj, attr, latest="core.timestamp", value="core.value", add="core.add")

    def prop(self, w: World, st: State, obj: str, name: str) -> str:
        """core.value over core.timestamp."""
        return self.prop_by(w, st, obj, name, latest="core.timestamp", value="core.value")

    def has_ability(self, w: World, st: State, obj: str, ability: str) -> bool:
        """core.value over core.timestamp."""
        return self.ability_by(w, st, obj, ability, latest="core.timestamp", value="core.value")

    def allowed(self, w: World, st: State, obj: str, action: str, default: bool = False) -> bool:
        """(ability or default, or a permit) and no prohibit: prohibition beats permission."""
        return self.allowed_by(w, st, obj, action, default)[0]

    def allowed_by(self, w: World, st: State, obj: str, action: str, default: bool = False) -> tuple[bool, str]:
        """Whether the object may act, and the core rule that decides (a game overrides to name its own)."""
        return self.permission(w, st, obj, action, default, permit="core.permission", cannot="core.prohibition",
                               prohibit_wins="core.prohibition_beats_permission")

    def permission(self, w: World, st: State, obj: str, action: str, default: bool, *,
                   permit: str, cannot: str, prohibit_wins: str) -> tuple[bool, str]:
        """Rule ``prohibit_wins`` when a permit and a prohibit both apply, ``cannot`` for a prohibit alone, else
        ``permit``: allowed with the ability (or ``default``) or a permit. A granted ability the card has is a
        permission too: an effect gave it the action (seeds/003's 524.2 example, the Archmage's grant)."""
        if key("ability", obj, action) in w.domains or w.effects_on(obj, "grant", action) \
                or w.effects_on(obj, "remove", action):
            base = self.has_ability(w, st, obj, action)
        else:
            base = default
        permits = any(self.applies(w, st, e, obj) for e in w.effects_on(obj, "permit", action)) or \
            (base and any(self.applies(w, st, e, obj) for e in w.effects_on(obj, "grant", action)))
        prohibits = any(self.applies(w, st, e, obj) for e in w.effects_on(obj, "prohibit", action))
        rule = prohibit_wins if prohibits and permits else cannot if prohibits else permit
        w.note(permit)
        if w.effects_on(obj, "prohibit", action):
            w.note(cannot)
            w.note(prohibit_wins)
        return (not prohibits and (base or permits)), rule

    # -- actions ---------------------------------------------------------------------
    def requirements(self, w: World, st: State, action: str) -> list[tuple[str, bool]]:
        """Every requirement of an action now, with the rule that states it."""
        spec = w.objects[action].spec
        out = []
        source = getattr(spec, "source", None)
        if source and (w.effects_on(source, "prohibit", spec.kind) or w.effects_on(source, "permit", spec.kind)):
            ok, rule = self.allowed_by(w, st, source, spec.kind, default=True)
            out.append((rule, ok))
        for t in spec.targets:
            if t in w.objects and w.effects_on(t, "prohibit", "be_targeted"):
                ok, rule = self.allowed_by(w, st, t, "be_targeted", default=True)
                out.append((rule, ok))
        return out + self.kind_requirements(w, st, spec)

    def legal(self, w: World, st: State, action: str) -> bool:
        """Every requirement holds (each requirement's rule is noted as applied)."""
        reqs = self.requirements(w, st, action)
        for rule, _ in reqs:
            w.note(rule)
        return all(ok for _, ok in reqs)

    def weigh(self, w: World, st: State, spec, apply: bool, pay: bool = True) -> None:
        """Note the rules of what an action would do and pay: their conditions are weighed whether or not it resolves
        (the rules own the frame of what they could change)."""
        scratch = Step()
        if apply:
            self.kind_apply(w, st, spec, scratch)
        if pay:
            self.kind_pay(w, st, spec, scratch)
        w.note(*scratch.rules())

    def _leave_stack(self, w: World, step: Step, action: str, status: str, rule: str) -> None:
        step.set(key("status", action), status, rule)
        step.set(key("zone", action), self.graveyard if w.objects[action].card else NONE, rule)

    def interrupt(self, w: World, prev: State, step: Step, action: str, *, rule: str) -> None:
        """Rule ``rule``: the action leaves the stack interrupted and its cost is not paid."""
        self._leave_stack(w, step, action, "interrupted", rule)
        for k in self.cost_keys(w, getattr(w.objects[action].spec, "source", None)):
            step.set(k, prev[k], rule)

    # -- events -------------------------------------------------------------------------
    def step(self, w: World, prev: State, ev) -> Step:
        """What the rules say about the state after event ``ev``."""
        handler = getattr(self, f"on_{ev.type}", None)
        if handler is None:
            raise Unsupported(f"event type '{ev.type}' is not part of the {self.game} rules")
        step = Step()
        handler(w, prev, ev, step)
        self.new_objects(w, prev, ev, step)
        return step

    def on_declare(self, w: World, prev: State, ev, step: Step) -> None:
        """core.declare / core.illegal."""
        self.declare(w, prev, ev, step, legal="core.declare", illegal="core.illegal")

    def on_resolve(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / core.interrupt."""
        self.resolve(w, prev, ev, step, resolves="core.resolve", interrupted="core.interrupt")

    def on_start_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / core.interrupt."""
        self.start_execution(w, prev, ev, step, starts="core.resolve", interrupted="core.interrupt")

    def on_finish_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve: the resolution it started completes."""
        self.finish_execution(w, prev, ev, step, completes="core.resolve")

    def declare(self, w: World, prev: State, ev, step: Step, *, legal: str, illegal: str) -> None:
        """Rule ``legal``: a legal declaration goes on the stack under its actor's control; rule ``illegal``: an
        illegal one never does."""
        w.note(legal, illegal)
        if self.legal(w, prev, ev.id):
            step.set(key("status", ev.id), "on_stack", legal)
            step.set(key("zone", ev.id), self.stack_zone, legal)
            step.set(key("ctrl", ev.id), ev.actor, legal)
        else:
            step.set(key("status", ev.id), "illegal", illegal)

    def resolve(self, w: World, prev: State, ev, step: Step, *, resolves: str, interrupted: str) -> None:
        """Rule ``resolves``: a stack action that is still legal resolves and is paid for; rule ``interrupted``:
        otherwise it is removed, unpaid."""
        a = ev.action
        w.note(resolves, interrupted)
        legal = self.legal(w, prev, a)  # weighed whatever the status, as the encoding does
        spec = w.objects[a].spec
        self.weigh(w, prev, spec, apply=True)
        if prev[key("status", a)] != "on_stack":
            return
        if legal:
            self._leave_stack(w, step, a, "resolved", resolves)
            self.kind_apply(w, prev, spec, step)
            self.kind_pay(w, prev, spec, step)
        else:
            self.interrupt(w, prev, step, a, rule=interrupted)

    def start_execution(self, w: World, prev: State, ev, step: Step, *, starts: str, interrupted: str) -> None:
        """Rule ``starts``: last legality check, a legal stack action starts executing and is paid for; rule
        ``interrupted``: otherwise it is removed, unpaid."""
        a = ev.action
        w.note(starts, interrupted)
        self.weigh(w, prev, w.objects[a].spec, apply=False)
        if prev[key("status", a)] != "on_stack":
            return
        if self.legal(w, prev, a):
            step.set(key("status", a), "executing", starts)
            step.set(key("zone", a), NONE, starts)
            self.kind_pay(w, prev, w.objects[a].spec, step)
        else:
            self.interrupt(w, prev, step, a, rule=interrupted)

    def finish_execution(self, w: World, prev: State, ev, step: Step, *, completes: str) -> None:
        """Rule ``completes``: an executing action completes whatever changed meanwhile."""
        a = ev.action
        w.note(completes)
        self.weigh(w, prev, w.objects[a].spec, apply=True, pay=False)
        if prev[key("status", a)] == "executing":
            step.set(key("status", a), "resolved", completes)
            self.kind_apply(w, prev, w.objects[a].spec, step)

    def on_move(self, w: World, prev: State, ev, step: Step) -> None:
        """The object goes to the zone and cell."""
        step.set(key("zone", ev.object), ev.zone, "core.move")
        if key("cell", ev.object) in w.domains:
            step.set(key("cell", ev.object), ev.cell or NONE, "core.move")
        self.moved(w, prev, ev.object, ev.zone, ev.cell, step)

    def on_modify(self, w: World, prev: State, ev, step: Step) -> None:
        """The attribute changes by delta."""
        k = key("attr", ev.object, ev.attribute)
        step.set(k, str(int(prev[k]) + ev.delta), "core.modify")

    def on_set_flag(self, w: World, prev: State, ev, step: Step) -> None:
        """The flag takes the value."""
        step.set(key("flag", ev.object, ev.flag), b(ev.value), "core.flag")

    def on_begin_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """The effect becomes active (a static one follows its source instead)."""
        if ev.effect.duration == "static":
            step.release(key("active", ev.effect.id), "core.static")  # from now on it follows its source
        else:
            step.set(key("active", ev.effect.id), "1", "core.effect_begins")

    def on_end_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """The effect becomes inactive."""
        step.set(key("active", ev.effect), "0", "core.effect_ends")
        self.effects_end(w, prev, step, [ev.effect])

    def on_end_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """'Until end of turn' effects end."""
        ending = [e.id for e in w.effects if e.duration == "until_end_of_turn"]
        for eid in ending:
            step.set(key("active", eid), "0", "core.end_of_turn")
        self.effects_end(w, prev, step, ending)
        self.turn_triggers(w, prev, step, "end_of_turn", prev.get("turn.active_player", NONE))

    def on_begin_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """The player's 'until your next turn' effects end; they become active player with priority."""
        ending = [e.id for e in w.effects if e.duration == "until_next_turn" and e.until_player == ev.player]
        for eid in ending:
            step.set(key("active", eid), "0", "core.next_turn")
        self.effects_end(w, prev, step, ending)
        step.set("turn.active_player", ev.player, "core.begin_turn")
        step.set("turn.priority", ev.player, "core.begin_turn")
        self.turn_triggers(w, prev, step, "start_of_turn", ev.player)

    def effects_end(self, w: World, prev: State, step: Step, effects: list[str]) -> None:
        """What a game's rules do when ``effects`` end at this event (read in the state before); nothing in the core
        (override)."""

    def turn_triggers(self, w: World, prev: State, step: Step, at: str, player: str) -> None:
        """Triggered effects at the start or end of ``player``'s turn: none in the core (a game reads them)."""

    # -- every stage ------------------------------------------------------------------
    def static_on(self, w: World, st: State, e: Effect) -> bool:
        """A static effect works in ``st``: its source is in play (a game may add conditions)."""
        return st.get(key("zone", e.source)) in self.play_zones

    def stage_checks(self, w: World, st: State, stage: int) -> list[tuple[str, str]]:
        """Rules that hold within every state: core.static (a game overrides to name its own)."""
        return self.statics_by(w, st, stage, rule="core.static")

    def statics_by(self, w: World, st: State, stage: int, *, rule: str) -> list[tuple[str, str]]:
        """Rule ``rule``: a static effect is active exactly while its source is in play (one that an event begins:
        from that event on)."""
        out = []
        for k, e in w.statics(stage).items():
            w.note(rule)
            want = b(self.static_on(w, st, e))
            if st.get(k) != want:
                out.append((rule, f"{k}={st.get(k)} but its source {e.source} is in {st.get(key('zone', e.source))}"))
        return out

    # -- expectations -------------------------------------------------------------------
    def zone_owner(self, w: World, st: State, obj: str) -> str | None:
        """The player whose zone the object is in: its owner for an owner zone, its controller for a holder zone,
        None for a shared zone (the game's vocabulary says which)."""
        return vocabulary_for(w.sc.game).whose(st[key("zone", obj)], w.owner_of(obj), self.controller(w, st, obj))

    def holds(self, w: World, st: State, ex: Expectation) -> bool:
        """Is every state atom of the expectation true in ``st``?"""
        return all(self.atoms(w, st, ex))

    def atoms(self, w: World, st: State, ex: Expectation):
        o = ex.object
        if o is not None:
            if ex.zone is not None:
                yield st[key("zone", o)] == ex.zone
            if ex.zone_owner is not None:
                yield self.zone_owner(w, st, o) == ex.zone_owner
            if ex.owner is not None:
                yield w.owner_of(o) == ex.owner
            if ex.exists is not None:
                yield (st[key("zone", o)] not in self.gone_zones) == ex.exists
            if ex.controller is not None:
                yield self.controller(w, st, o) == ex.controller
            if ex.cell is not None:
                yield st.get(key("cell", o), NONE) == ex.cell
            if ex.attached_to is not None:
                data = next((x for x in w.sc.objects if x.id == o), None)
                yield ((data.attached_to if data else None) or NONE) == ex.attached_to
            yield from (self.value(w, st, o, a) == v for a, v in ex.attributes.items())
            yield from (self.prop(w, st, o, p) == v for p, v in ex.properties.items())
            yield from ((st[key("flag", o, f)] == "1") == v for f, v in ex.flags.items())
            yield from (self.has_ability(w, st, o, a) == v for a, v in ex.abilities.items())
            yield from (self.allowed(w, st, o, a) == v for a, v in ex.allowed.items())
        if ex.action is not None and ex.action_status is not None:
            yield st[key("status", ex.action)] == ex.action_status
        if ex.effect is not None and ex.effect_active is not None:
            yield (st[key("active", ex.effect)] == "1") == ex.effect_active
        if ex.player is not None:
            if ex.status is not None:
                yield st[key("pstatus", ex.player)] == ex.status
            yield from (int(st[key("pattr", ex.player, a)]) == v for a, v in ex.player_attributes.items())
            yield from ((st[key("pflag", ex.player, f)] == "1") == v for f, v in ex.player_flags.items())
        if ex.turn is not None:
            for name in TURN_KEYS:
                if getattr(ex.turn, name) is not None:
                    yield st[key("turn", name)] == getattr(ex.turn, name)
            if ex.turn.showdown is not None:
                yield (st["gflag.showdown"] == "1") == ex.turn.showdown
        if ex.winner is not None:
            yield st[key("pstatus", ex.winner)] == "won"



