"""The reference reading of the Berserk rules (seeds 002/003): 524.2, 525.1-525.3, 526.1, conservation.

Plain Python over a state dict; shares no code with the encoding (``ruleset.py`` and its modules here).
"""
from __future__ import annotations

from models.events import Declare
from solver.games.berserk.reference_squads import ControlVictoryRules
from solver.reference.rules import CoreRules, Step
from solver.reference.world import BOOL, INT, NONE, State, World, key

NOT_CONSERVED = {"symbiote", "equipment"}
MUST_MOVE = "must_move"
#: action kind -> (flag it changes, value it sets, rule that makes it illegal when already so)
FLAG_ACTIONS = {
    "open": ("open", True, "berserk.525.1.open"),
    "close": ("open", False, "berserk.525.1.close"),
    "reveal": ("revealed", True, "berserk.525.1.reveal"),
    "hide": ("revealed", False, "berserk.525.1.hide"),
}
#: action kinds paid for by closing their source (the control and entering actions cost nothing)
PAYING = set(FLAG_ACTIONS) | {"accumulate_tokens", "give_token", "lose_ability", "finishing_blow"}


def target(spec) -> str:
    """The card an action is about: its first target, else its source."""
    return spec.targets[0] if spec.targets else spec.source


class BerserkRules(CoreRules):
    """Berserk: play and auxiliary zones keep static abilities working; actions; conservation."""

    game = "berserk"
    zones = ("play", "hand", "deck", "graveyard", "auxiliary", "stack", "outside")
    play_zones = ("play", "auxiliary")

    # -- conflicting effects: the one applied last wins (berserk.conflict.latest); 524.2, 525.2 ---------
    def controller(self, w: World, st: State, obj: str) -> str:
        """core.control over the control effect applied last."""
        return self.control_by(w, st, obj, latest="berserk.conflict.latest", control="core.control")

    def value(self, w: World, st: State, obj: str, attr: str) -> int:
        """core.value over the 'set' effect applied last, plus core.add."""
        return self.value_by(w, st, obj, attr, latest="berserk.conflict.latest", value="core.value", add="core.add")

    def prop(self, w: World, st: State, obj: str, name: str) -> str:
        """core.value over the 'set' effect applied last."""
        return self.prop_by(w, st, obj, name, latest="berserk.conflict.latest", value="core.value")

    def has_ability(self, w: World, st: State, obj: str, ability: str) -> bool:
        """core.value over the grant/remove effect applied last."""
        return self.ability_by(w, st, obj, ability, latest="berserk.conflict.latest", value="core.value")

    def allowed_by(self, w: World, st: State, obj: str, action: str, default: bool = False) -> tuple[bool, str]:
        """'cannot' forbids (berserk.525.2); prohibition beats permission (berserk.524.2)."""
        return self.permission(w, st, obj, action, default, permit="core.permission", cannot="berserk.525.2",
                               prohibit_wins="berserk.524.2")

    # -- the action lifecycle: 525.1 illegal, 526.1 interrupted, 526.1 executing --------------------
    def on_declare(self, w: World, prev: State, ev, step: Step) -> None:
        """core.declare / berserk.525.1."""
        self.declare(w, prev, ev, step, legal="core.declare", illegal="berserk.525.1")

    def on_resolve(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / berserk.526.1; the payment (berserk.payment) is weighed whether or not it is made."""
        self.note_payment(w, ev.action)
        self.resolve(w, prev, ev, step, resolves="core.resolve", interrupted="berserk.526.1")

    def on_start_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / berserk.526.1; the payment (berserk.payment) is weighed whether or not it is made."""
        self.note_payment(w, ev.action)
        self.start_execution(w, prev, ev, step, starts="core.resolve", interrupted="berserk.526.1")

    def note_payment(self, w: World, action: str) -> None:
        """An action that pays by closing its source weighs berserk.payment when it would resolve or execute."""
        spec = w.objects[action].spec if action in w.objects else None
        if spec is not None and spec.kind in PAYING and spec.params.get("cost", "close") == "close" \
                and self.cost_keys(w, getattr(spec, "source", None)):
            w.note("berserk.payment")

    def on_finish_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """berserk.526.1.executing."""
        self.finish_execution(w, prev, ev, step, completes="berserk.526.1.executing")

    # -- state keys -------------------------------------------------------------------
    def extra_keys(self, w: World) -> None:
        """Counters and flags the declared actions speak of; the duty to move for cards on cells."""
        for ev in w.sc.events:
            if not isinstance(ev, Declare):
                continue
            obj = ev.source if ev.kind == "accumulate_tokens" else (ev.targets[0] if ev.targets else ev.source)
            if obj is None:
                continue
            if ev.kind in ("accumulate_tokens", "give_token"):
                w.add(key("attr", obj, "tokens"), INT, "0")
            if ev.kind in FLAG_ACTIONS:
                w.add(key("flag", obj, FLAG_ACTIONS[ev.kind][0]), BOOL, "0")
            if ev.kind == "finishing_blow":
                w.add(key("attr", obj, "life"), INT, "0")
        if w.cells:
            by_id = {o.id: o for o in w.sc.objects}
            for oid, info in w.objects.items():
                if info.spec is None and not NOT_CONSERVED & set(info.types):
                    data = by_id.get(oid)
                    w.add(key("flag", oid, MUST_MOVE), BOOL, "1" if data and data.flags.get(MUST_MOVE) else "0")

    def obliged(self, w: World, obj: str) -> bool:
        """Does the card carry the conservation duty flag?"""
        return key("flag", obj, MUST_MOVE) in w.domains

    # -- action kinds -------------------------------------------------------------------
    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """525.1 (already so), 525.2 (cannot), 525.3 (loses what it lacks), finishing blow X."""
        kind = spec.kind
        if kind in FLAG_ACTIONS:
            flag, to, rule = FLAG_ACTIONS[kind]
            return [(rule, (st[key("flag", target(spec), flag)] == "1") != to)]
        if kind == "accumulate_tokens":
            ok, rule = self.allowed_by(w, st, spec.source, "accumulate_tokens", default=False)
            return [(rule, ok)]
        if kind == "give_token":
            ok, rule = self.allowed_by(w, st, target(spec), "receive_tokens", default=True)
            return [(rule, ok)]
        if kind == "lose_ability":
            return [("berserk.525.3", self.has_ability(w, st, target(spec), str(spec.params["ability"])))]
        if kind == "finishing_blow":
            t = target(spec)
            ok = self.value(w, st, t, "life") <= int(spec.params["x"]) and st[key("zone", t)] == "play"
            return [("berserk.card.finishing_blow", ok)]
        return super().kind_requirements(w, st, spec)

    def kind_apply(self, w: World, st: State, spec, step: Step) -> None:
        """The effect the action's text describes."""
        kind, t = spec.kind, target(spec)
        if kind in FLAG_ACTIONS:
            flag, to, _ = FLAG_ACTIONS[kind]
            step.set(key("flag", t, flag), "1" if to else "0", "berserk.action.effect")
        elif kind in ("accumulate_tokens", "give_token"):
            obj = spec.source if kind == "accumulate_tokens" else t
            k = key("attr", obj, "tokens")
            step.set(k, str(int(st[k]) + 1), "berserk.action.effect")
        elif kind == "lose_ability":
            k = key("ability", t, str(spec.params["ability"]))
            if k in w.domains:
                step.set(k, "0", "berserk.action.effect")
        elif kind == "finishing_blow":
            step.set(key("zone", t), "graveyard", "berserk.card.finishing_blow")
            if key("cell", t) in w.domains:
                step.set(key("cell", t), NONE, "berserk.card.finishing_blow")
        else:
            super().kind_apply(w, st, spec, step)

    def kind_pay(self, w: World, st: State, spec, step: Step) -> None:
        """Paying closes the source, unless the action says it costs nothing."""
        for k in self.cost_keys(w, getattr(spec, "source", None)):
            if spec.params.get("cost", "close") == "close":
                step.set(k, "0", "berserk.payment")

    def cost_keys(self, w: World, source: str | None) -> list[str]:
        """The source's open flag, if it has one."""
        return [key("flag", source, "open")] if source and key("flag", source, "open") in w.domains else []

    # -- conservation ------------------------------------------------------------------
    def moved(self, w: World, prev: State, obj: str, zone: str, cell: str | None, step: Step) -> None:
        """A card arriving in play on an occupied cell takes the duty to move."""
        if cell is None or zone != "play" or not self.obliged(w, obj):
            return
        w.note("berserk.conservation")  # weighed whether or not the cell is occupied
        if any(q != obj and self.obliged(w, q) and prev[key("zone", q)] == "play" and prev[key("cell", q)] == cell
               for q in w.objects):
            step.set(key("flag", obj, MUST_MOVE), "1", "berserk.conservation")

    def on_choice_subphase(self, w: World, prev: State, ev, step: Step) -> None:
        """Declared moves happen; an obliged card not moved keeps the duty (another obligation) or dies."""
        w.note("berserk.conservation", "berserk.conservation.carry")  # weighed for every card that could be due
        for oid, cell in ev.moves.items():
            step.set(key("cell", oid), cell, "berserk.movement")
            if self.obliged(w, oid):
                step.set(key("flag", oid, MUST_MOVE), "0", "berserk.conservation")
        for oid in w.objects:
            if not self.obliged(w, oid) or oid in ev.moves:
                continue
            due = prev[key("flag", oid, MUST_MOVE)] == "1" and self.controller(w, prev, oid) == ev.player
            if not due:
                continue
            if ev.obligatory:
                step.set(key("flag", oid, MUST_MOVE), "1", "berserk.conservation.carry")
                continue
            step.set(key("flag", oid, MUST_MOVE), "0", "berserk.conservation")
            if ev.free:
                self._move_or_die(w, prev, oid, step)
            else:
                step.set(key("zone", oid), "graveyard", "berserk.conservation")
                step.set(key("cell", oid), NONE, "berserk.conservation")

    def _move_or_die(self, w: World, prev: State, obj: str, step: Step) -> None:
        """An undeclared choice: the card dies, or stays in play on a free cell adjacent to its own."""
        step.release(key("zone", obj), "berserk.conservation", ["graveyard", "play"])
        step.release(key("cell", obj), "berserk.conservation")
        here = prev[key("cell", obj)]
        taken = {prev[key("cell", q)] for q in w.objects
                 if q != obj and self.obliged(w, q) and prev[key("zone", q)] == "play"} - {NONE}

        def ok(nxt: State) -> bool:
            """Dead and off the board, or in play on a free cell next to its own."""
            zone, cell = nxt[key("zone", obj)], nxt[key("cell", obj)]
            if zone == "graveyard":
                return cell == NONE
            if here != NONE and cell not in w.adjacency.get(here, ()):
                return False
            after = {nxt[key("cell", q)] for q in w.objects
                     if q != obj and self.obliged(w, q) and nxt[key("zone", q)] == "play"}
            return cell not in taken and cell not in after
        step.check("berserk.conservation", ok, f"{obj} dies or moves to a free adjacent cell")


class BerserkWithControl(ControlVictoryRules, BerserkRules):
    """Berserk with control, squads and clean victory (532.5.4-532.8, 602.1)."""


RULES = BerserkWithControl()
