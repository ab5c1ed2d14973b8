"""The game-agnostic ruleset: core events (declare, resolve, move, effects, turns) as rule clauses.

A game is a subclass (``solver/games/<game>/ruleset.py``) that names its zones,
adds action kinds and event handlers, and overrides the methods of the shared
mechanisms to name its own rule ids at the call (``allowed(...,
prohibit_wins="berserk.524.2")``). Rule texts live in each game's ``rules.py``
(the core's in ``solver/games/core/rules.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.errors import NotModelled, ScenarioError
from solver.vocabulary.zones import DeclaredZones
from solver.encoding.cp import Lit
from solver.encoding.state import NONE, Stage

@dataclass(frozen=True)
class ActionKind:
    """An action kind: what must hold to declare/resolve it, what it does, what it costs."""

    requirements: Callable  # (ctx, stage, action) -> list[(rule_id | None, literal)]
    apply: Callable  # (ctx, transition, action, when) -> None
    pay: Callable | None = None  # (ctx, transition, action, when) -> None


class Ruleset:
    """Core ruleset: zones, rule ids, core events and generic action handling."""

    game = "core"
    #: the game's zones and those in play, as its vocabulary declares them (``solver.vocabulary.zones``)
    zones = DeclaredZones()
    play_zones = DeclaredZones(play=True)
    graveyard = "graveyard"
    #: the zone where declared actions wait to resolve (MTG 'stack', Riftbound 'chain')
    stack_zone = "stack"
    #: object flags the game's rules compute from other state (e.g. Riftbound 'mighty'), not stored
    derived_flags: tuple[str, ...] = ()
    #: zones in which an object no longer exists for the game
    gone_zones: tuple[str, ...] = (NONE, "outside")
    actions: dict[str, ActionKind] = {}
    #: card fields no rule of the game reads (its wording): a change to them alone changes no verdict (arbiter diff)
    card_wording: tuple[str, ...] = ("name", "text", "flavour")

    # -- hooks for games -----------------------------------------------------
    def may_receive(self, ctx: RuleContext, st, e) -> object:
        """Literal: a static ability's "you" (``player: source_controller``) may receive control at ``st``:
        true unless a game's rule stops it (MTG 800.4a: not a player who left)."""
        return ctx.rm.true

    def open_order_rule(self) -> str | None:
        """The rule that leaves the order of effects of cards that entered together to a player's choice, or None
        where no rule orders them (either way every order is an outcome)."""
        return None

    def declare_keys(self, ctx: RuleContext) -> None:
        """Add game-specific state variables to ``ctx.domains`` (override)."""

    def event_keys(self, ctx: RuleContext, event) -> list[tuple]:
        """(key, domain, initial) state variables an event needs (override)."""
        return []

    def created_objects(self, ctx: RuleContext, event) -> list:
        """Object slots (ObjInfo) an event may create (override)."""
        return []

    def selects_element(self, ctx: RuleContext, st: Stage, eff, obj: str, element: str) -> Lit:
        """Literal: a selector's ``element`` matches ``obj`` for effect ``eff`` at ``st``; a game without elements
        refuses the word (override)."""
        raise NotModelled(f"effect {eff.id}: selecting by element is not part of the {self.game} rules", "element")

    def created_effects(self, ctx: RuleContext, index: int, event) -> list:
        """Effects the game's rules begin at event ``index`` (inactive until a rule sets them active there, ordered
        at that event like a begun effect: a resolved '[card] loses [text]'); none by default (override)."""
        return []

    def identity_objects(self, ctx: RuleContext) -> list[str]:
        """Objects whose identity per zone visit the game's rules read besides those effects name (override)."""
        return []

    def victory_state(self, ctx: RuleContext, st: Stage) -> dict[str, object]:
        """What the victory analysis reads of the state at ``st`` (its position: effective controllers, values,
        abilities), by state name, for a victory check's proof and a claim alike; none where the game has no
        victory analysis (override)."""
        return {}

    def derived_flag(self, ctx: RuleContext, st: Stage, obj: str, name: str) -> Lit:
        """Literal: the computed flag ``name`` (one of ``derived_flags``) holds for ``obj`` at ``st`` (override)."""
        raise NotModelled(f"flag '{name}' is not computed by the {self.game} rules", name)

    def winner_lit(self, ctx: RuleContext, st: Stage, player: str) -> Lit:
        """Literal: ``player`` has won at this stage."""
        return st["pstatus", player].is_("won")

    # -- continuous effects: the shared mechanisms under the core's rule ids (a game overrides to name its own) --
    def controller(self, ctx: RuleContext, st: Stage, obj: str):
        """The effective controller: core.control over the latest control effect (core.timestamp); none outside the
        game (core.outside)."""
        return derived.controller(ctx, st, obj, latest="core.timestamp", control="core.control",
                                  outside="core.outside")

    def new_objects(self, ctx: RuleContext, tr) -> None:
        """Object identity at every transition: an object that changed zone or attachment is a new object
        (core.new_object; a game overrides to name its own)."""
        derived.new_objects(ctx, tr, rule="core.new_object")

    def value(self, ctx: RuleContext, st: Stage, obj: str, attr: str):
        """The effective value: core.value ('set' effects by core.timestamp) plus core.add."""
        return derived.value(ctx, st, obj, attr, latest="core.timestamp", value="core.value", add="core.add")

    def prop(self, ctx: RuleContext, st: Stage, obj: str, name: str):
        """The effective categorical property: core.value, the latest 'set' effect by core.timestamp."""
        return derived.prop(ctx, st, obj, name, latest="core.timestamp", value="core.value")

    def has_ability(self, ctx: RuleContext, st: Stage, obj: str, ability: str) -> Lit:
        """Has the ability: core.value, the latest grant/remove effect by core.timestamp."""
        return derived.has_ability(ctx, st, obj, ability, latest="core.timestamp", value="core.value")

    def allowed(self, ctx: RuleContext, st: Stage, obj: str, action: str, default: bool = False) -> Lit:
        """May perform ``action``: core.permission, core.prohibition, core.prohibition_beats_permission."""
        return derived.allowed(ctx, st, obj, action, default, permit="core.permission", cannot="core.prohibition",
                               prohibit_wins="core.prohibition_beats_permission")

    def statics(self, ctx: RuleContext, st: Stage) -> None:
        """core.static: a static effect is active exactly while its source is in play."""
        derived.statics(ctx, st, rule="core.static")

    # -- event dispatch -------------------------------------------------------
    def apply_event(self, ctx: RuleContext, event) -> None:
        """Add the stages of one event."""
        handler = getattr(self, f"on_{event.type}", None)
        if handler is None:
            raise NotModelled(f"event type '{event.type}' is not part of the {self.game} rules", event.type)
        handler(ctx, event)

    # -- actions ----------------------------------------------------------------
    def action_kind(self, ctx: RuleContext, action_id: str) -> ActionKind:
        """The kind spec of a declared or stacked action."""
        spec = ctx.objects[action_id].action
        kind = self.actions.get(spec.kind)
        if kind is None:
            raise NotModelled(f"action kind '{spec.kind}' is not part of the {self.game} rules "
                              f"(known: {', '.join(sorted(self.actions)) or 'none'})", spec.kind)
        return kind

    def requirement_lits(self, ctx: RuleContext, st: Stage, action_id: str) -> Lit:
        """Literal: every requirement of the action holds at ``st``; each requirement sits under its rule id."""
        rm = ctx.rm
        spec = ctx.objects[action_id].action
        reqs = []
        source = getattr(spec, "source", None)
        if source and (ctx.effects_on(source, "prohibit", spec.kind) or ctx.effects_on(source, "permit", spec.kind)):
            reqs.append(self.allowed(ctx, st, source, spec.kind, default=True))
        for t in spec.targets:
            if t in ctx.objects and ctx.effects_on(t, "prohibit", "be_targeted"):
                reqs.append(self.allowed(ctx, st, t, "be_targeted", default=True))
        for rule_id, cond in self.action_kind(ctx, action_id).requirements(ctx, st, spec):
            if rule_id is None:
                reqs.append(cond)
                continue
            reqs.append(rm.requirement(rule_id, cond, f"s{st.index}:req.{action_id}.{rule_id}"))
        return rm.all_of(reqs, f"s{st.index}:legal.{action_id}")

    # -- the action lifecycle: shared procedures, each game naming its rules at the call ------------
    def on_declare(self, ctx: RuleContext, ev) -> None:
        """Declare: a legal action goes on the stack (core.declare); an illegal one never does (core.illegal)."""
        self.declare(ctx, ev, legal="core.declare", illegal="core.illegal")

    def on_resolve(self, ctx: RuleContext, ev) -> None:
        """Resolve (core.resolve), or interrupted unpaid when it became illegal (core.interrupt)."""
        self.resolve(ctx, ev, resolves="core.resolve", interrupted="core.interrupt")

    def on_start_execution(self, ctx: RuleContext, ev) -> None:
        """Start executing (core.resolve), or interrupted unpaid when it became illegal (core.interrupt)."""
        self.start_execution(ctx, ev, starts="core.resolve", interrupted="core.interrupt")

    def on_finish_execution(self, ctx: RuleContext, ev) -> None:
        """An executing action completes (core.resolve: the resolution it started)."""
        self.finish_execution(ctx, ev, completes="core.resolve")

    def declare(self, ctx: RuleContext, ev, *, legal: str, illegal: str) -> None:
        """Rule ``legal``: a declared action whose requirements hold goes on the stack; rule ``illegal``: else never."""
        rm = ctx.rm
        ok = self.requirement_lits(ctx, ctx.stage, ev.id)
        with ctx.step(f"declare {ev.id}") as tr:
            tr.set(("status", ev.id), "on_stack", legal, ok)
            tr.set(("zone", ev.id), self.stack_zone, legal, ok)
            tr.set(("status", ev.id), "illegal", illegal, rm.neg(ok))
            tr.set(("ctrl", ev.id), ev.actor, legal, ok)

    def _leave_stack(self, ctx: RuleContext, tr, action_id: str, status: str, rule: str, when: Lit, frame: bool = True) -> None:
        """Rule ``rule``: the action leaves the stack with ``status`` (owning the frame of its status and zone unless
        ``frame`` is false)."""
        tr.set(("status", action_id), status, rule, when, frame)
        tr.set(("zone", action_id), NONE if not ctx.objects[action_id].card else self.graveyard, rule, when, frame)

    def resolve(self, ctx: RuleContext, ev, *, resolves: str, interrupted: str) -> None:
        """Rule ``resolves``: requirements are checked again and the action resolves and is paid;
        rule ``interrupted``: if they fail, it is removed from the stack, unpaid."""
        rm, st, a = ctx.rm, ctx.stage, ev.action
        kind = self.action_kind(ctx, a)
        on_stack = st["status", a].is_("on_stack")
        ok = self.requirement_lits(ctx, st, a)
        go = rm.all_of([on_stack, ok])
        with ctx.step(f"resolve {a}") as tr:
            self._leave_stack(ctx, tr, a, "resolved", resolves, go)
            kind.apply(ctx, tr, ctx.objects[a].action, go)
            if kind.pay:
                kind.pay(ctx, tr, ctx.objects[a].action, go)
            self.interrupt(ctx, tr, a, rm.all_of([on_stack, rm.neg(ok)]), rule=interrupted)

    def interrupt(self, ctx: RuleContext, tr, action_id: str, when: Lit, *, rule: str) -> None:
        """Rule ``rule``: an interrupted action leaves the stack and its cost is not paid (the source keeps its state).

        It is an exception to the step's resolution rule, which owns the frame: an action that never reached the
        stack stays as it is under the resolution rule, not under ``rule``.
        """
        self._leave_stack(ctx, tr, action_id, "interrupted", rule, when, frame=False)
        source = getattr(ctx.objects[action_id].action, "source", None)
        for key in self.cost_keys(ctx, source):
            tr.keep(key, rule, when)

    def cost_keys(self, ctx: RuleContext, source: str | None) -> list[tuple]:
        """State keys an action's payment would change (override)."""
        return []

    def start_execution(self, ctx: RuleContext, ev, *, starts: str, interrupted: str) -> None:
        """Rule ``starts``: last legality check, the action leaves the stack, is paid and cannot be interrupted any more;
        rule ``interrupted``: if the check fails, it is removed, unpaid."""
        rm, st, a = ctx.rm, ctx.stage, ev.action
        kind = self.action_kind(ctx, a)
        on_stack = st["status", a].is_("on_stack")
        ok = self.requirement_lits(ctx, st, a)
        go = rm.all_of([on_stack, ok])
        with ctx.step(f"start executing {a}") as tr:
            tr.set(("status", a), "executing", starts, go)
            tr.set(("zone", a), NONE, starts, go)
            if kind.pay:
                kind.pay(ctx, tr, ctx.objects[a].action, go)
            self.interrupt(ctx, tr, a, rm.all_of([on_stack, rm.neg(ok)]), rule=interrupted)

    def finish_execution(self, ctx: RuleContext, ev, *, completes: str) -> None:
        """Rule ``completes``: an executing action has its effect whatever changed meanwhile."""
        st, a = ctx.stage, ev.action
        kind = self.action_kind(ctx, a)
        running = st["status", a].is_("executing")
        with ctx.step(f"finish executing {a}") as tr:
            tr.set(("status", a), "resolved", completes, running)
            kind.apply(ctx, tr, ctx.objects[a].action, running)

    # -- state events --------------------------------------------------------------
    def on_move(self, ctx: RuleContext, ev) -> None:
        """Move an object to a zone (and cell)."""
        if ev.zone not in ctx.zones:
            raise ScenarioError(f"move {ev.object}: zone '{ev.zone}' is not a zone of {self.game}")
        with ctx.step(f"move {ev.object}") as tr:
            tr.set(("zone", ev.object), ev.zone, "core.move")
            if ("cell", ev.object) in ctx.domains:
                tr.set(("cell", ev.object), ev.cell or NONE, "core.move")
            self.moved(ctx, tr, ev.object, ev.zone, ev.cell)

    def moved(self, ctx: RuleContext, tr, obj: str, zone: str, cell: str | None) -> None:
        """Hook: rules triggered by an object arriving in a zone/cell (override)."""

    def on_modify(self, ctx: RuleContext, ev) -> None:
        """Change an attribute by a delta."""
        key = ("attr", ev.object, ev.attribute)
        with ctx.step(f"modify {ev.object}.{ev.attribute}") as tr:
            tr.set(key, ctx.stage[key] + ev.delta, "core.modify")

    def on_set_flag(self, ctx: RuleContext, ev) -> None:
        """Set a flag."""
        with ctx.step(f"set {ev.object}.{ev.flag}") as tr:
            tr.set(("flag", ev.object, ev.flag), int(ev.value), "core.flag")

    def on_begin_effect(self, ctx: RuleContext, ev) -> None:
        """A new effect starts."""
        eid = ev.effect.id
        with ctx.step(f"begin effect {eid}") as tr:
            if ev.effect.duration == "static":
                ctx.start_static(eid)  # from now on active exactly while its source is in play
                tr.free(("active", eid))
            else:
                tr.set(("active", eid), 1, "core.effect_begins")

    def on_end_effect(self, ctx: RuleContext, ev) -> None:
        """An effect ends."""
        with ctx.step(f"end effect {ev.effect}") as tr:
            tr.set(("active", ev.effect), 0, "core.effect_ends")
            self.effects_end(ctx, tr, [ev.effect])

    def on_end_turn(self, ctx: RuleContext, ev) -> None:
        """End of turn: 'until end of turn' effects end."""
        with ctx.step("end of turn") as tr:
            ending = [eid for eid, e in ctx.effects.items() if e.duration == "until_end_of_turn"]
            for eid in ending:
                tr.set(("active", eid), 0, "core.end_of_turn")
            self.effects_end(ctx, tr, ending)
            self.turn_triggers(ctx, tr, "end_of_turn", ctx.stage["turn", "active_player"])

    def on_begin_turn(self, ctx: RuleContext, ev) -> None:
        """A player's turn begins: their 'until your next turn' effects end."""
        with ctx.step(f"{ev.player}'s turn begins") as tr:
            ending = [eid for eid, e in ctx.effects.items()
                      if e.duration == "until_next_turn" and e.until_player == ev.player]
            for eid in ending:
                tr.set(("active", eid), 0, "core.next_turn")
            self.effects_end(ctx, tr, ending)
            tr.set(("turn", "active_player"), ev.player, "core.begin_turn")
            tr.set(("turn", "priority"), ev.player, "core.begin_turn")
            self.turn_triggers(ctx, tr, "start_of_turn", ev.player)

    def effects_end(self, ctx: RuleContext, tr, effects: list[str]) -> None:
        """Hook: what a game's rules do when ``effects`` end in this step (an end_effect, or their duration ran out),
        read in the state before (``tr.prev``); nothing in the core (override)."""

    def turn_triggers(self, ctx: RuleContext, tr, at: str, player) -> None:
        """Hook: triggered effects of objects at the start or end of a turn (``player``: whose turn, an id or the Cat
        of the active player); a game without them refuses an object's ``triggers`` by its vocabulary (override)."""
