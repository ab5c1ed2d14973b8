"""The reference reading of the Berserk rules (seeds 002/003): 524.2, 525.1-525.3, 526.1, conservation.

Plain Python over a state dict; shares no code with the encoding (``ruleset.py`` and its modules here).
"""
from __future__ import annotations

from models.effects import Effect, Selector
from models.events import Declare
from solver.games.berserk.reference_squads import ControlVictoryRules
from solver.games.berserk.reference_triggers import TriggerReading
from solver.games.berserk.reference_victory import DecisiveAdvantageReading
from solver.reference.rules import CoreRules, Step, Unsupported
from solver.reference.world import BOOL, INT, NONE, State, World, key

MUST_MOVE = "must_move"
#: action kind -> (flag it changes, value it sets, rule that makes it illegal when already so)
FLAG_ACTIONS = {
    "open": ("open", True, "berserk.525.1.open"),
    "close": ("open", False, "berserk.525.1.close"),
    "reveal": ("revealed", True, "berserk.525.1.reveal"),
    "hide": ("revealed", False, "berserk.525.1.hide"),
}
#: a value a card receives -> the permission 'cannot receive [it]' (525.2) takes away
RECEIVED = {"tokens": "receive_tokens"}
#: action kinds paid for by closing their source (the control, entering and move actions cost nothing)
PAYING = set(FLAG_ACTIONS) | {"accumulate_tokens", "give_token", "lose_ability", "finishing_blow"}


def target(spec) -> str:
    """The card an action is about: its first target, else its source."""
    return spec.targets[0] if spec.targets else spec.source


class BerserkRules(TriggerReading, CoreRules):
    """Berserk: play and auxiliary zones keep static abilities working; actions; conservation."""

    game = "berserk"
    def identity_rule(self) -> str:
        """A card that comes back into play, or is attached again, is imposed anew (seed 003: the last one wins)."""
        return "berserk.conflict.anew"

    # -- conflicting effects: the one applied last wins (berserk.conflict.latest); 524.2, 525.2 ---------
    def controller(self, w: World, st: State, obj: str) -> str:
        """core.control over the control effect applied last."""
        return self.control_by(w, st, obj, latest="berserk.conflict.latest", control="core.control",
                               outside="core.outside")

    def value(self, w: World, st: State, obj: str, attr: str) -> int:
        """core.value over the 'set' effect applied last, plus core.add; 525.2 ("ограничивает её в ... получении
        эффектов (включая численные значения эффектов)"): a card that cannot receive tokens gets none from an
        effect that adds them."""
        return self.value_by(w, st, obj, attr, latest="berserk.conflict.latest", value="core.value", add="core.add",
                             refuses=self.refuses(w, st, obj, attr))

    def refuses(self, w: World, st: State, obj: str, attr: str) -> bool:
        """berserk.525.2: the card may not receive ``attr`` ('cannot receive tokens'), read like give_token reads
        it; a 'set' of that value against such a prohibition has no reading here."""
        perm = RECEIVED.get(attr)
        if perm is None or not (w.effects_on(obj, "prohibit", perm) or w.effects_on(obj, "permit", perm)):
            return False
        if w.effects_on(obj, "set", attr):
            raise Unsupported(f"'{perm}' with an effect that sets {attr}: no reading of 525.2 for it")
        if any(int(a.value) > 0 for a in w.effects_on(obj, "add", attr)):
            w.note("berserk.525.2")
        may, _ = self.allowed_by(w, st, obj, perm, default=True)
        return not may

    def prop(self, w: World, st: State, obj: str, name: str) -> str:
        """core.value over the 'set' effect applied last."""
        return self.prop_by(w, st, obj, name, latest="berserk.conflict.latest", value="core.value")

    def has_ability(self, w: World, st: State, obj: str, ability: str) -> bool:
        """core.value over the grant/remove effect applied last."""
        return self.ability_by(w, st, obj, ability, latest="berserk.conflict.latest", value="core.value")

    def selects_element(self, w: World, st: State, e: Effect, obj: str, element: str) -> bool:
        """berserk.element.selector: "forest creatures". An effect that sets the element sees the element the effects
        on the element applied before it produce (seed 003 orders effects by when they were applied: the printed
        element, then each in that order, the last winning); any other effect sees the card's element now."""
        if e.kind == "control" and any(f.kind == "set" and f.attribute == "element" and isinstance(f.targets, Selector)
                                       and f.targets.controlled_by for f in w.effects):
            raise Unsupported(f"{e.id}: control by element while an element effect chooses by controller (a cycle)")
        if not (e.kind == "set" and e.attribute == "element"):
            return self.prop(w, st, obj, "element") == element
        w.note("berserk.element.selector")

        def when(f: Effect) -> tuple:
            return (self.applied_at(w, st, f), w.order(f, st))
        earlier = [f for f in w.effects_on(obj, "set", "element")
                   if f.id != e.id and when(f) < when(e) and self.applies(w, st, f, obj)]
        seen = str(max(earlier, key=when).value) if earlier else st.get(key("prop", obj, "element"), NONE)
        return seen == element

    def allowed_by(self, w: World, st: State, obj: str, action: str, default: bool = False) -> tuple[bool, str]:
        """'cannot' forbids (berserk.525.2); prohibition beats permission (berserk.524.2). A card needs no
        permission to move (seeds/003: a card on a shared cell must move, unless 'cannot' forbids it)."""
        return self.permission(w, st, obj, action, default or action == "move", permit="core.permission", cannot="berserk.525.2",
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
        if spec is not None and self.payment_keys(w, spec):
            w.note("berserk.payment")

    def event_needs(self, w: World, ev) -> tuple[str, str] | None:
        """Only an action on the stack resolves or starts executing, only an executing one finishes: anything else is
        an error in the scenario (the state key and the value the event needs)."""
        need = {"resolve": "on_stack", "start_execution": "on_stack", "finish_execution": "executing"}.get(ev.type)
        return (key("status", ev.action), need) if need else None

    def on_finish_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """berserk.526.1.executing."""
        self.finish_execution(w, prev, ev, step, completes="berserk.526.1.executing")

    def created_effects(self, w: World, index: int, ev) -> list[Effect]:
        """berserk.525.3.loses: '[card] loses [text]', resolved (or finished) at this event, takes [text] away by an
        effect applied then: the last applied, so it wins over a grant of [text] applied before (seed 003: the effect
        applied last wins) and a later grant gives it back."""
        if ev.type not in ("resolve", "finish_execution") or ev.action not in w.objects:
            return []
        spec = w.objects[ev.action].spec
        eid = f"{ev.action}-loses"
        if spec is None or spec.kind != "lose_ability" or any(e.id == eid for e in w.effects):
            return []
        card = target(spec)
        if card not in w.objects or "ability" not in spec.params:
            return []
        return [Effect(id=eid, source=getattr(spec, "source", None), kind="remove", ability=str(spec.params["ability"]),
                       targets=[card], duration="permanent")]

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
                if info.spec is None:  # an exempt card's flag too: it must stay 0 (stage_checks)
                    data = by_id.get(oid)
                    w.add(key("flag", oid, MUST_MOVE), BOOL, "1" if data and data.flags.get(MUST_MOVE) else "0")

    # -- conservation: who counts ------------------------------------------------------
    def exempt_by(self, w: World, obj: str) -> str | None:
        """The rule exempting a symbiote or equipment from conservation (None: the card counts)."""
        types = w.objects[obj].types
        if "symbiote" in types:
            return "berserk.conservation.symbiote"
        if "equipment" in types:
            return "berserk.conservation.equipment"
        return None

    def placed(self, w: World) -> list[str]:
        """The cards that may stand on a cell (not declared actions)."""
        return [o for o, info in w.objects.items() if info.spec is None] if w.cells else []

    def counts(self, w: World, obj: str) -> bool:
        """Does the card count for conservation? A symbiote or equipment does not (its exemption is noted)."""
        rule = self.exempt_by(w, obj)
        if rule is not None:
            w.note(rule)
        return rule is None

    def taken(self, w: World, st: State, cell: str, obj: str) -> bool:
        """Another card that counts stands on ``cell`` in play (every card on a cell is weighed)."""
        return any([q != obj and self.counts(w, q) and st[key("zone", q)] == "play" and st[key("cell", q)] == cell
                    for q in self.placed(w) if q != obj])

    # -- movement: may this card move to that cell now (seed 003 conservation, 524.2, 525.2) ----------------------
    def can_move(self, w: World, st: State, card: str, cell: str) -> list[tuple[str, bool]]:
        """Whether ``card`` may move to ``cell`` in ``st``, clause by clause with the rule that states it: nothing
        forbids it to move ('Не может [текст]' forbids an action, 525.2; a prohibition beats a permission, 524.2);
        it moves from the cell it stands on in play to an adjacent one (berserk.movement.adjacent); a card that counts
        for conservation does not move where another such card stands (berserk.movement.free). Every way a card
        moves over the board reads this: a declared move, a free Choice subphase, the reach of the combat reading."""
        out = []
        if w.effects_on(card, "prohibit", "move") or w.effects_on(card, "permit", "move"):
            ok, rule = self.allowed_by(w, st, card, "move", default=True)
            out.append((rule, ok))
        here = st[key("cell", card)]
        beside = st[key("zone", card)] == "play" and here != NONE and cell in w.adjacency.get(here, ())
        out.append(("berserk.movement.adjacent", beside))
        out.append(("berserk.movement.free", not (self.counts(w, card) and self.taken(w, st, cell, card))))
        return out

    def may_move(self, w: World, st: State, card: str) -> bool:
        """Nothing forbids the card to move (525.2, 524.2): the part of ``can_move`` that does not depend on the cell."""
        return self.may(w, st, card, "move")

    def may(self, w: World, st: State, card: str, action: str) -> bool:
        """Nothing forbids the card the action (a move, an obligatory ability): 'cannot' (525.2), and a prohibition
        beats a permission or an obligation (524.2)."""
        if not (w.effects_on(card, "prohibit", action) or w.effects_on(card, "permit", action)):
            return True
        return self.allowed_by(w, st, card, action, default=True)[0]

    def declares(self, w: World, st: State, player: str, abilities: list[str]) -> bool:
        """The player declares another obligatory ability: one of ``abilities`` that a card they control in play has
        (a player declares what a card of theirs can do)."""
        if abilities:
            w.note("berserk.conservation.carry")
        return any(info.spec is None and st[key("zone", o)] in self.play_zones and self.controller(w, st, o) == player
                   and self.has_ability(w, st, o, a) and self.may(w, st, o, a)
                   for o, info in w.objects.items() for a in abilities)

    def obliged(self, w: World, obj: str) -> bool:
        """Does the card carry the conservation duty (a card that counts, with the flag)?"""
        return key("flag", obj, MUST_MOVE) in w.domains and self.exempt_by(w, obj) is None

    # -- action kinds -------------------------------------------------------------------
    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """What the kind needs (``own_requirements``) and, for a kind paid by closing its source, that it can be paid:
        525.1 makes an action illegal that cannot be 'оплачено', and closing a closed card is one that cannot."""
        return self.own_requirements(w, st, spec) + self.payment_requirements(w, spec, st)

    def payment_requirements(self, w: World, spec, st: State) -> list[tuple[str, bool]]:
        """berserk.525.1.paid: a paying action whose cost closes its source needs the source open."""
        keys = self.payment_keys(w, spec)
        return [("berserk.525.1.paid", all(st[k] == "1" for k in keys))] if keys else []

    def payment_keys(self, w: World, spec) -> list[str]:
        """The flags the action's payment closes (none: it costs nothing, or its source has no open flag)."""
        if spec.kind not in PAYING or spec.params.get("cost", "close") != "close":
            return []
        return self.cost_keys(w, getattr(spec, "source", None))

    def own_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """525.1 (already so), 525.2 (cannot), 525.3 (loses what it lacks), finishing blow X."""
        kind = spec.kind
        if kind in FLAG_ACTIONS:
            flag, to, rule = FLAG_ACTIONS[kind]
            return [(rule, (st[key("flag", target(spec), flag)] == "1") != to)]
        if kind == "accumulate_tokens":
            ok, rule = self.allowed_by(w, st, spec.source, "accumulate_tokens", default=False)
            return [(rule, ok)]
        if kind == "give_token":
            ok, rule = self.allowed_by(w, st, target(spec), RECEIVED["tokens"], default=True)
            return [(rule, ok)]
        if kind == "lose_ability":
            return [("berserk.525.3", self.has_ability(w, st, target(spec), str(spec.params["ability"])))]
        if kind == "finishing_blow":
            t = target(spec)
            ok = self.value(w, st, t, "life") <= int(spec.params["x"]) and st[key("zone", t)] == "play"
            return [("berserk.card.finishing_blow", ok)]
        if kind == "move":
            card, cell = self._mover(w, spec)
            return self.can_move(w, st, card, cell)
        return super().kind_requirements(w, st, spec)

    @staticmethod
    def _mover(w: World, spec) -> tuple[str, str]:
        """The moving card and the cell a move names."""
        if not spec.source or not w.cells or str(spec.params["cell"]) not in w.cells:
            raise Unsupported("a move needs a source and a cell of the board")
        return spec.source, str(spec.params["cell"])

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
        elif kind == "lose_ability":  # 525.3: the loss is an effect applied now (the latest on that ability)
            action = next(o for o, info in w.objects.items() if info.spec is spec)
            k = key("active", f"{action}-loses")
            if k in w.domains:
                step.set(k, "1", "berserk.525.3.loses")
        elif kind == "finishing_blow":
            step.set(key("zone", t), "graveyard", "berserk.card.finishing_blow")
            if key("cell", t) in w.domains:
                step.set(key("cell", t), NONE, "berserk.cell.leave")  # off play, off its cell
            if key("flag", t, MUST_MOVE) in w.domains:
                step.set(key("flag", t, MUST_MOVE), "0", "berserk.conservation")  # and no duty to move
        elif kind == "move":
            card, cell = self._mover(w, spec)
            step.set(key("cell", card), cell, "berserk.movement")
            if key("flag", card, MUST_MOVE) in w.domains:
                step.set(key("flag", card, MUST_MOVE), "0", "berserk.movement")
        else:
            super().kind_apply(w, st, spec, step)

    def kind_pay(self, w: World, st: State, spec, step: Step) -> None:
        """Paying closes the source, unless the action says it costs nothing (a move costs nothing)."""
        for k in self.payment_keys(w, spec):
            step.set(k, "0", "berserk.payment")

    def cost_keys(self, w: World, source: str | None) -> list[str]:
        """The source's open flag, if it has one."""
        return [key("flag", source, "open")] if source and key("flag", source, "open") in w.domains else []

    # -- conservation ------------------------------------------------------------------
    def stage_checks(self, w: World, st: State, stage: int) -> list[tuple[str, str]]:
        """core.static; and in every state an exempt card has no duty to move (berserk.conservation.symbiote /
        .equipment)."""
        out = super().stage_checks(w, st, stage)
        for oid in self.placed(w):
            rule = self.exempt_by(w, oid)
            if rule is not None and key("flag", oid, MUST_MOVE) in w.domains:
                w.note(rule)
                if st[key("flag", oid, MUST_MOVE)] != "0":
                    out.append((rule, f"{oid} is exempt from conservation but has the duty to move"))
        return out

    def moved(self, w: World, prev: State, obj: str, zone: str, cell: str | None, step: Step) -> None:
        """A forced move into play onto a cell is an arrival; a card moved out of play has no duty to move (the duty
        is to take it off the occupied cell; back in play it is a new card)."""
        if zone == "play":
            self.arrive(w, prev, obj, cell, step)
        elif key("flag", obj, MUST_MOVE) in w.domains:
            step.set(key("flag", obj, MUST_MOVE), "0", "berserk.conservation")

    def arrive(self, w: World, prev: State, obj: str, cell: str | None, step: Step) -> None:
        """A card that counts and arrives in play on a cell where another card that counts stands takes the duty
        to move (any placement)."""
        if cell is None or key("flag", obj, MUST_MOVE) not in w.domains:
            return
        w.note("berserk.conservation", "berserk.movement.free")  # weighed whether or not the cell is occupied
        free = dict(self.can_move(w, prev, obj, cell))["berserk.movement.free"]  # the same clause a move reads
        if not free:
            step.set(key("flag", obj, MUST_MOVE), "1", "berserk.conservation")

    def on_choice_subphase(self, w: World, prev: State, ev, step: Step) -> None:
        """An obliged card (that has not moved) keeps the duty when the player declares another obligatory ability
        that a card of theirs has, else dies; ``free`` leaves its move to a choice."""
        w.note("berserk.conservation", "berserk.conservation.carry")  # weighed for every card that could be due
        carried = self.declares(w, prev, ev.player, ev.obligatory)
        if ev.free and not carried and any(self.obliged(w, o) for o in w.objects):
            w.note("berserk.movement.adjacent", "berserk.movement.free")  # the choice is weighed for each of them
            for q in self.placed(w):
                self.counts(w, q)
        for oid in w.objects:
            if not self.obliged(w, oid):
                continue
            due = prev[key("flag", oid, MUST_MOVE)] == "1" and self.controller(w, prev, oid) == ev.player
            if not due:
                continue
            if carried:
                step.set(key("flag", oid, MUST_MOVE), "1", "berserk.conservation.carry")
                continue
            step.set(key("flag", oid, MUST_MOVE), "0", "berserk.conservation")
            if ev.free:
                self._move_or_die(w, prev, oid, step)
            else:
                step.set(key("zone", oid), "graveyard", "berserk.conservation")
                step.set(key("cell", oid), NONE, "berserk.cell.leave")  # dead: off its cell

    def _move_or_die(self, w: World, prev: State, obj: str, step: Step) -> None:
        """An undeclared choice: the card dies, or stays in play on a cell it may move to from where it stood
        (``can_move``, read in the state before); two cards moving at once never end up on one cell."""
        step.release(key("zone", obj), "berserk.conservation", ["graveyard", "play"])
        step.release(key("cell", obj), "berserk.conservation")
        w.note("berserk.movement.adjacent", "berserk.movement.free")
        self.may_move(w, prev, obj)  # weighed whatever the choice
        others = [q for q in self.placed(w) if q != obj and self.counts(w, q)]

        def dead_or_in_play(nxt: State) -> bool:
            """Dead (in the graveyard) or still in play."""
            return nxt[key("zone", obj)] in ("graveyard", "play")
        step.check("berserk.conservation", dead_or_in_play, f"{obj} dies or stays in play")

        def dead_off_its_cell(nxt: State) -> bool:
            """A card that left play stands on no cell."""
            return nxt[key("zone", obj)] == "play" or nxt[key("cell", obj)] == NONE
        step.check("berserk.cell.leave", dead_off_its_cell, f"{obj}, dead, leaves its cell")

        def allowed_part(rule: str):
            def ok(nxt: State) -> bool:
                """Alive: on a cell ``can_move`` allows it, by this clause."""
                if nxt[key("zone", obj)] != "play":
                    return True
                cell = nxt[key("cell", obj)]
                if cell == NONE:
                    return False
                return all(good for r, good in self.can_move(w, prev, obj, cell) if r == rule)
            return ok
        rules = {"berserk.movement.adjacent", "berserk.movement.free"}
        if w.effects_on(obj, "prohibit", "move") or w.effects_on(obj, "permit", "move"):
            rules |= {self.allowed_by(w, prev, obj, "move", default=True)[1]}
        for rule in sorted(rules):
            step.check(rule, allowed_part(rule), f"{obj} may move to its new cell ({rule})")

        def apart(nxt: State) -> bool:
            """Alive: not on a cell another card that counts ends up on."""
            if nxt[key("zone", obj)] != "play":
                return True
            return nxt[key("cell", obj)] not in {nxt[key("cell", q)] for q in others if nxt[key("zone", q)] == "play"}
        step.check("berserk.movement.free", apart, f"{obj} does not end up on a cell another card moves to")


class BerserkWithControl(ControlVictoryRules, DecisiveAdvantageReading, BerserkRules):
    """Berserk with control, squads and clean victory (532.5.4-532.8, 602.1)."""


RULES = BerserkWithControl()
