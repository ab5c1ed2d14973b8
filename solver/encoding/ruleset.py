"""The game-agnostic ruleset: core events (declare, resolve, move, effects, turns) as rule clauses.

A game is a subclass that names its zones and rule ids, adds action kinds and
event handlers, and registers its rule texts in ``RULES``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from solver import derived
from solver.compile import ScenarioError
from solver.cp import Lit
from solver.state import NONE, Stage

#: rule id -> one-line description, for every rule of the core.
CORE_RULES = {
    "core.inertia": "Frame axiom: nothing changes zone, controller, cell or value unless a rule says so.",
    "core.static": "A static ability's effect is active exactly while its source is in play.",
    "core.timestamp": "Of conflicting continuous effects, the one applied last wins; when it ends the next latest applies.",
    "core.control": "The controller is the player of the latest applicable control effect, else the default controller.",
    "core.value": "A characteristic takes the value of the winning 'set' effect, else its base value.",
    "core.add": "Applicable 'add' effects add to the characteristic.",
    "core.permission": "An object may perform an action if it has the ability or an effect permits it (and none prohibits it).",
    "core.prohibition": "An effect that prohibits an action forbids it.",
    "core.prohibition_beats_permission": "When one effect permits and another prohibits an action, the prohibition wins.",
    "core.declare": "A declared action whose every requirement holds goes on the stack.",
    "core.illegal": "An action that cannot be declared is illegal and never goes on the stack.",
    "core.resolve": "A stack action whose requirements still hold resolves and its cost is paid.",
    "core.interrupt": "A stack action whose requirements no longer hold is removed without resolving or paying.",
    "core.executing": "An action that is already executing completes; it can no longer be interrupted.",
    "core.move": "A move event puts the object in the named zone and cell.",
    "core.modify": "A modify event changes the attribute by its delta.",
    "core.flag": "A set_flag event sets the flag.",
    "core.effect_begins": "A begin_effect event makes the effect active.",
    "core.effect_ends": "An end_effect event makes the effect inactive.",
    "core.end_of_turn": "At end of turn, 'until end of turn' effects end.",
    "core.next_turn": "When a player's turn begins, that player's 'until your next turn' effects end.",
    "core.begin_turn": "A beginning turn makes its player the active player, who receives priority.",
}

DEFAULT_IDS = {
    "latest": "core.timestamp", "control": "core.control", "value": "core.value", "add": "core.add",
    "permission": "core.permission", "cannot": "core.prohibition",
    "prohibit_beats_permit": "core.prohibition_beats_permission", "static": "core.static",
    "declare": "core.declare", "illegal": "core.illegal", "resolve": "core.resolve", "interrupt": "core.interrupt",
    "executing": "core.executing",
}


@dataclass(frozen=True)
class ActionKind:
    """An action kind: what must hold to declare/resolve it, what it does, what it costs."""

    requirements: Callable  # (comp, stage, action) -> list[(rule_id | None, literal)]
    apply: Callable  # (comp, transition, action, when) -> None
    pay: Callable | None = None  # (comp, transition, action, when) -> None


class Ruleset:
    """Core ruleset: zones, rule ids, core events and generic action handling."""

    game = "core"
    zones: tuple[str, ...] = ("play", "hand", "deck", "graveyard", "exile", "stack", "outside")
    play_zones: tuple[str, ...] = ("play",)
    graveyard = "graveyard"
    #: the zone where declared actions wait to resolve (MTG 'stack', Riftbound 'chain')
    stack_zone = "stack"
    #: object flags the game's rules compute from other state (e.g. Riftbound 'mighty'), not stored
    derived_flags: tuple[str, ...] = ()
    #: zones in which an object no longer exists for the game
    gone_zones: tuple[str, ...] = (NONE, "outside")
    ids: dict[str, str] = DEFAULT_IDS
    rules: dict[str, str] = CORE_RULES
    #: rule-id aliases: alias prefix -> canonical prefix
    aliases: dict[str, str] = {}
    actions: dict[str, ActionKind] = {}

    # -- hooks for games -----------------------------------------------------
    def declare_keys(self, comp) -> None:
        """Add game-specific state variables to ``comp.domains`` (override)."""

    def event_keys(self, comp, event) -> list[tuple]:
        """(key, domain, initial) state variables an event needs (override)."""
        return []

    def created_objects(self, comp, event) -> list:
        """Object slots (ObjInfo) an event may create (override)."""
        return []

    def derived_flag(self, comp, st: Stage, obj: str, name: str) -> Lit:
        """Literal: the computed flag ``name`` (one of ``derived_flags``) holds for ``obj`` at ``st`` (override)."""
        raise NotImplementedError(f"flag '{name}' is not computed by the {self.game} rules")

    def winner_lit(self, comp, st: Stage, player: str) -> Lit:
        """Literal: ``player`` has won at this stage."""
        return st["pstatus", player].is_("won")

    def canonical_rule(self, rule_id: str) -> str:
        """The canonical id of a rule id, resolving aliases."""
        for alias, canon in self.aliases.items():
            if rule_id == alias or rule_id.startswith(alias + "."):
                return canon + rule_id[len(alias):]
        return rule_id

    # -- event dispatch -------------------------------------------------------
    def apply_event(self, comp, event) -> None:
        """Add the stages of one event."""
        handler = getattr(self, f"on_{event.type}", None)
        if handler is None:
            raise NotImplementedError(f"event type '{event.type}' is not part of the {self.game} rules")
        handler(comp, event)

    # -- actions ----------------------------------------------------------------
    def action_kind(self, comp, action_id: str) -> ActionKind:
        """The kind spec of a declared or stacked action."""
        spec = comp.objects[action_id].action
        kind = self.actions.get(spec.kind)
        if kind is None:
            raise NotImplementedError(f"action kind '{spec.kind}' is not part of the {self.game} rules "
                                      f"(known: {', '.join(sorted(self.actions)) or 'none'})")
        return kind

    def requirement_lits(self, comp, st: Stage, action_id: str) -> Lit:
        """Literal: every requirement of the action holds at ``st``; each requirement sits under its rule id."""
        rm = comp.rm
        spec = comp.objects[action_id].action
        reqs = []
        source = getattr(spec, "source", None)
        if source and (comp.effects_on(source, "prohibit", spec.kind) or comp.effects_on(source, "permit", spec.kind)):
            reqs.append(derived.allowed(comp, st, source, spec.kind, default=True))
        for t in spec.targets:
            if t in comp.objects and comp.effects_on(t, "prohibit", "be_targeted"):
                reqs.append(derived.allowed(comp, st, t, "be_targeted", default=True))
        for rule_id, cond in self.action_kind(comp, action_id).requirements(comp, st, spec):
            if rule_id is None:
                reqs.append(cond)
                continue
            r = rm.new_bool(f"s{st.index}:req.{action_id}.{rule_id}")
            rm.implies(rule_id, [r], cond)
            rm.implies(rule_id, [cond], r)
            reqs.append(r)
        return rm.all_of(reqs, f"s{st.index}:legal.{action_id}")

    def on_declare(self, comp, ev) -> None:
        """Declare: a legal action goes on the stack; an illegal one never does."""
        rm = comp.rm
        ok = self.requirement_lits(comp, comp.stage, ev.id)
        with comp.step(f"declare {ev.id}") as tr:
            tr.set(("status", ev.id), "on_stack", self.ids["declare"], ok)
            tr.set(("zone", ev.id), self.stack_zone, self.ids["declare"], ok)
            tr.set(("status", ev.id), "illegal", self.ids["illegal"], rm.neg(ok))
            tr.set(("ctrl", ev.id), ev.actor, self.ids["declare"], ok)

    def _leave_stack(self, comp, tr, action_id: str, status: str, rule: str, when: Lit) -> None:
        tr.set(("status", action_id), status, rule, when)
        tr.set(("zone", action_id), NONE if not comp.objects[action_id].card else self.graveyard, rule, when)

    def on_resolve(self, comp, ev, executing_only: bool = False) -> None:
        """Resolve: requirements are checked again; if they fail the action is interrupted, unpaid."""
        rm, st, a = comp.rm, comp.stage, ev.action
        kind = self.action_kind(comp, a)
        on_stack = st["status", a].is_("on_stack")
        ok = self.requirement_lits(comp, st, a)
        go = rm.all_of([on_stack, ok])
        with comp.step(f"resolve {a}") as tr:
            self._leave_stack(comp, tr, a, "resolved", self.ids["resolve"], go)
            kind.apply(comp, tr, comp.objects[a].action, go)
            if kind.pay:
                kind.pay(comp, tr, comp.objects[a].action, go)
            self._interrupt(comp, tr, a, rm.all_of([on_stack, rm.neg(ok)]))

    def _interrupt(self, comp, tr, action_id: str, when: Lit) -> None:
        """Interrupted: removed from the stack, and its cost is not paid (the source keeps its state)."""
        self._leave_stack(comp, tr, action_id, "interrupted", self.ids["interrupt"], when)
        source = getattr(comp.objects[action_id].action, "source", None)
        for key in self.cost_keys(comp, source):
            tr.keep(key, self.ids["interrupt"], when)

    def cost_keys(self, comp, source: str | None) -> list[tuple]:
        """State keys an action's payment would change (override)."""
        return []

    def on_start_execution(self, comp, ev) -> None:
        """Start executing: last legality check; from now on the action cannot be interrupted."""
        rm, st, a = comp.rm, comp.stage, ev.action
        kind = self.action_kind(comp, a)
        on_stack = st["status", a].is_("on_stack")
        ok = self.requirement_lits(comp, st, a)
        go = rm.all_of([on_stack, ok])
        with comp.step(f"start executing {a}") as tr:
            tr.set(("status", a), "executing", self.ids["resolve"], go)
            tr.set(("zone", a), NONE, self.ids["resolve"], go)
            if kind.pay:
                kind.pay(comp, tr, comp.objects[a].action, go)
            self._interrupt(comp, tr, a, rm.all_of([on_stack, rm.neg(ok)]))

    def on_finish_execution(self, comp, ev) -> None:
        """Finish executing: the effect happens whatever changed meanwhile."""
        st, a = comp.stage, ev.action
        kind = self.action_kind(comp, a)
        running = st["status", a].is_("executing")
        with comp.step(f"finish executing {a}") as tr:
            tr.set(("status", a), "resolved", self.ids["executing"], running)
            kind.apply(comp, tr, comp.objects[a].action, running)

    # -- state events --------------------------------------------------------------
    def on_move(self, comp, ev) -> None:
        """Move an object to a zone (and cell)."""
        if ev.zone not in comp.zones:
            raise ScenarioError(f"move {ev.object}: zone '{ev.zone}' is not a zone of {self.game}")
        with comp.step(f"move {ev.object}") as tr:
            tr.set(("zone", ev.object), ev.zone, "core.move")
            if ("cell", ev.object) in comp.domains:
                tr.set(("cell", ev.object), ev.cell or NONE, "core.move")
            self.moved(comp, tr, ev.object, ev.zone, ev.cell)

    def moved(self, comp, tr, obj: str, zone: str, cell: str | None) -> None:
        """Hook: rules triggered by an object arriving in a zone/cell (override)."""

    def on_modify(self, comp, ev) -> None:
        """Change an attribute by a delta."""
        key = ("attr", ev.object, ev.attribute)
        with comp.step(f"modify {ev.object}.{ev.attribute}") as tr:
            tr.set(key, comp.stage[key] + ev.delta, "core.modify")

    def on_set_flag(self, comp, ev) -> None:
        """Set a flag."""
        with comp.step(f"set {ev.object}.{ev.flag}") as tr:
            tr.set(("flag", ev.object, ev.flag), int(ev.value), "core.flag")

    def on_begin_effect(self, comp, ev) -> None:
        """A new effect starts."""
        eid = ev.effect.id
        with comp.step(f"begin effect {eid}") as tr:
            if ev.effect.duration == "static":
                comp.pending.discard(eid)  # from now on active exactly while its source is in play
                tr.free(("active", eid))
            else:
                tr.set(("active", eid), 1, "core.effect_begins")

    def on_end_effect(self, comp, ev) -> None:
        """An effect ends."""
        with comp.step(f"end effect {ev.effect}") as tr:
            tr.set(("active", ev.effect), 0, "core.effect_ends")

    def on_end_turn(self, comp, ev) -> None:
        """End of turn: 'until end of turn' effects end."""
        with comp.step("end of turn") as tr:
            for eid, e in comp.effects.items():
                if e.duration == "until_end_of_turn":
                    tr.set(("active", eid), 0, "core.end_of_turn")

    def on_begin_turn(self, comp, ev) -> None:
        """A player's turn begins: their 'until your next turn' effects end."""
        with comp.step(f"{ev.player}'s turn begins") as tr:
            for eid, e in comp.effects.items():
                if e.duration == "until_next_turn" and e.until_player == ev.player:
                    tr.set(("active", eid), 0, "core.next_turn")
            tr.set(("turn", "active_player"), ev.player, "core.begin_turn")
            tr.set(("turn", "priority"), ev.player, "core.begin_turn")


def requires_allowed(comp, st: Stage, obj: str, action: str, default: bool = False) -> Lit:
    """Requirement helper: the object may perform/undergo ``action`` (permission vs prohibition)."""
    return derived.allowed(comp, st, obj, action, default)
