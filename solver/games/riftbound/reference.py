"""The reference reading of the Riftbound concession rules (seed 001), in plain Python.

A concession is one event, read as the seed text's procedure run step by step on
a copy of the state: leave (and who wins), banish, replace battlefields, remove
owned cards, counter, turn/focus/priority holders, passes of focus, passes of
priority. Each step reads the state the previous step left; within a step every
rule reads the state before that step, and two rules giving one key different
values in the same step leave no possible state. The event's rules then fix the
final value of every key a step touched, each under the rule id that set it last.

Shares no code with the encoding (``ruleset.py`` here).
"""
from __future__ import annotations

from models.effects import Effect
from solver.reference.rules import CoreRules, Step
from solver.reference.world import BOOL, INT, NONE, Obj, State, World, b, key

HOLDERS = {"active_player": "riftbound.concede.turn", "focus": "riftbound.concede.focus",
           "priority": "riftbound.concede.priority"}

BOARD = ("base", "battlefield", "runes")
PERMANENTS = {"unit", "gear"}
NOT_BANISHED = {"battlefield", "legend"}
FINALISED = "finalised"
PASSED = {"focus": "passed_focus", "priority": "passed_priority"}


#: the removal steps of a concession after the leaving itself, by name, in order (each ``Procedure.end_step``)
REMOVAL_STEPS = ("removal: banish", "removal: replace battlefields", "removal: remove owned cards",
                 "removal: counter the leaver's chain items", "removal: the leaver stops influencing the game",
                 "removal: turn, focus and priority", "removal: passes of focus", "removal: passes of priority")


class Procedure:
    """A copy of the state that the steps of one event change in turn."""

    def __init__(self, rules: "RiftboundRules", w: World, prev: State, stage: int) -> None:
        self.rules, self.w, self.stage = rules, w, stage
        self.st: State = dict(prev)
        self.last: dict[str, str] = {}  # key -> the rule that set it last
        self.conflicts: list[str] = []
        self._pending: dict[str, list[tuple[str, str]]] = {}
        self.inside: dict[str, State] = {}  # the state after each step, by the step's name

    def set(self, k: str, value: str, rule: str) -> None:
        """In the current step, rule ``rule`` gives key ``k`` the value ``value``."""
        if k not in self.w.domains:
            raise KeyError(k)
        self._pending.setdefault(k, []).append((rule, str(value)))

    def keep(self, k: str, rule: str) -> None:
        """In the current step, rule ``rule`` keeps key ``k`` as it is."""
        self.set(k, self.st[k], rule)

    def end_step(self, name: str) -> None:
        """Apply the step's values (a conflict leaves no state), then static effects follow their sources; the state
        after it is kept under the step's name (``Step.inside``: an expectation's ``step``)."""
        for k, sets in self._pending.items():
            values = {v for _, v in sets}
            if len(values) > 1:
                self.conflicts.append(f"{k} set to {sorted(values)} by {sorted({r for r, _ in sets})}")
            self.st[k] = sets[-1][1]
            self.last[k] = sets[-1][0]
        self._pending = {}
        for k, e in self.w.statics(self.stage).items():
            self.st[k] = b(self.st.get(key("zone", e.source)) in self.rules.play_zones)
        self.inside[name] = dict(self.st)

    def into(self, step: Step, prev: State) -> None:
        """The event's rules: every touched or changed key takes its final value; the states after its steps."""
        step.inside = dict(self.inside)
        statics = self.w.statics(self.stage)
        for k in self.w.domains:
            if k in statics:
                continue
            if k in self.last:
                step.set(k, self.st[k], self.last[k])
        if self.conflicts:
            msg = "; ".join(self.conflicts)
            step.check("riftbound.concede", lambda _nxt: False, f"two rules of one step disagree: {msg}")


class RiftboundRules(CoreRules):
    """Riftbound: conceding, the turn passing, the chain items kill and counter, mighty."""

    game = "riftbound"
    graveyard = "trash"
    stack_zone = "chain"

    # -- values recomputed from what still applies -----------------------------------------------
    def value(self, w: World, st: State, obj: str, attr: str) -> int:
        """riftbound.concede.recompute: base value plus the modifiers that still apply; a unit's power, +1 for each
        battlefield on the board whose text gives the units there +1 and on whose cell it stands (the text's effect
        ends when the battlefield leaves the board: riftbound.concede.effects_end)."""
        v = self.value_by(w, st, obj, attr, latest="core.timestamp", value="riftbound.concede.recompute",
                          add="riftbound.concede.recompute")
        if attr != "power" or "unit" not in w.objects[obj].types or not w.cells:
            return v
        for f, info in w.objects.items():
            if "battlefield" not in info.types:
                continue
            if key("ability", f, "units_here_plus_one") not in w.domains and \
                    not w.effects_on(f, "grant", "units_here_plus_one"):
                continue
            w.note("riftbound.battlefield.units_here_plus_one", "riftbound.concede.effects_end",
                   "riftbound.concede.recompute")
            at = st[key("zone", obj)] == "battlefield" and st.get(key("cell", obj), NONE) != NONE \
                and st.get(key("cell", obj)) == st.get(key("cell", f))
            if st[key("zone", f)] == "battlefield" and at and self.has_ability(w, st, f, "units_here_plus_one"):
                v += 1
        return v

    def prop(self, w: World, st: State, obj: str, name: str) -> str:
        """riftbound.concede.recompute over core.timestamp."""
        return self.prop_by(w, st, obj, name, latest="core.timestamp", value="riftbound.concede.recompute")

    def has_ability(self, w: World, st: State, obj: str, ability: str) -> bool:
        """riftbound.concede.recompute over core.timestamp."""
        return self.ability_by(w, st, obj, ability, latest="core.timestamp", value="riftbound.concede.recompute")

    # -- static data ------------------------------------------------------------------
    def side(self, w: World, player: str) -> str:
        """A player's team, or the player alone in a free-for-all."""
        team = next(p.team for p in w.sc.players if p.id == player)
        return f"team:{team}" if team else f"player:{player}"

    def blank_slots(self, w: World, ev) -> dict[str, str]:
        """Battlefields the conceding side provided -> the object that may replace each."""
        side = self.side(w, ev.player)
        named = set(ev.blank_battlefields.values())
        out = {}
        for o in w.sc.objects:
            if "battlefield" in o.types and o.owner and self.side(w, o.owner) == side and o.id not in named:
                out[o.id] = ev.blank_battlefields.get(o.id, f"{o.id}.blank")
        return out

    def extra_keys(self, w: World) -> None:
        """Pass flags, 'finalised' of chain items, power of units, blank battlefields; the chain is the stack."""
        by_id = {o.id: o for o in w.sc.objects}
        for o in w.sc.objects:
            k = key("status", o.id)
            if o.action is not None and o.status is None and o.zone == self.stack_zone:
                w.initial[k] = "on_stack"
        for p in w.sc.players:
            for flag in PASSED.values():
                w.add(key("pflag", p.id, flag), BOOL, b(p.flags.get(flag, False)))
        for oid, info in w.objects.items():
            if info.spec is not None:
                data = by_id.get(oid)
                w.add(key("flag", oid, FINALISED), BOOL, b(data.flags.get(FINALISED, True) if data else True))
        for oid, info in w.objects.items():
            if "unit" in info.types:
                w.add(key("attr", oid, "power"), INT, "0")
        for e in w.effects:
            if e.kind == "control":
                for oid in w.targets(e):
                    info = w.objects[oid]
                    if info.spec is None and not set(info.types) & NOT_BANISHED:
                        w.add(key("released", e.id, oid), BOOL, "0")
        players = tuple(w.players) + (NONE,)
        for ev in w.sc.events:
            if ev.type != "concede":
                continue
            for old, slot in self.blank_slots(w, ev).items():
                if slot not in w.objects:
                    w.objects[slot] = Obj(slot, None, ("battlefield",), False, None)
                    w.add(key("zone", slot), w.zones, NONE)
                    w.add(key("ctrl", slot), players, NONE)
                    if w.cells:
                        w.add(key("cell", slot), tuple(w.cells) + (NONE,), NONE)
                for ab in by_id[old].abilities:
                    w.add(key("ability", slot, ab), BOOL, "0")

    # -- derived: mighty, static effects ---------------------------------------------------
    def mighty(self, w: World, st: State, obj: str) -> bool:
        """riftbound.mighty: power (after continuous effects) 5 or more."""
        w.note("riftbound.mighty")
        return self.value(w, st, obj, "power") >= 5

    def atoms(self, w: World, st: State, ex):
        if ex.object is not None and "mighty" in ex.flags:
            rest = {f: v for f, v in ex.flags.items() if f != "mighty"}
            yield self.mighty(w, st, ex.object) == ex.flags["mighty"]
            ex = ex.model_copy(update={"flags": rest})
        yield from super().atoms(w, st, ex)

    def stage_checks(self, w: World, st: State, stage: int) -> list[tuple[str, str]]:
        """A card's continuous effect applies exactly while the card is on the board (effects_end)."""
        return self.statics_by(w, st, stage, rule="riftbound.concede.effects_end")

    # -- chain items: kill, counter ---------------------------------------------------------
    def _target(self, spec) -> str:
        return spec.targets[0]

    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """Targets must be legal: kill a unit on the board; counter a spell or ability on the chain."""
        t = self._target(spec)
        if spec.kind == "kill":
            w.note("riftbound.card.kill", "riftbound.concede.owner_zone")  # what it does when it resolves
            return [("riftbound.chain.targets", "unit" in w.objects[t].types and st[key("zone", t)] in BOARD)]
        if spec.kind == "counter":
            w.note("riftbound.card.counter")  # what it does when it resolves
            k = key("status", t)
            return [("riftbound.chain.targets", k in w.domains and st[k] == "on_stack")]
        return super().kind_requirements(w, st, spec)

    def kind_apply(self, w: World, st: State, spec, step) -> None:
        """Kill: to the owner's trash, off the board, the owner's again. Counter: countered, to the trash."""
        t = self._target(spec)
        if spec.kind == "kill":
            step.set(key("zone", t), "trash", "riftbound.card.kill")
            self._off_board(w, step, t, "riftbound.card.kill")
            step.set(key("ctrl", t), w.owner_of(t) or NONE, "riftbound.card.kill")
            self._owners_again(w, step, t)
        elif spec.kind == "counter":
            step.set(key("status", t), "countered", "riftbound.card.counter")
            step.set(key("zone", t), "trash" if w.objects[t].card else NONE, "riftbound.card.counter")
        else:
            super().kind_apply(w, st, spec, step)

    def _off_board(self, w: World, step, obj: str, rule: str) -> None:
        if key("cell", obj) in w.domains:
            step.set(key("cell", obj), NONE, rule)

    # -- players -----------------------------------------------------------------------
    def in_game(self, st: State, p: str) -> bool:
        """The player is still in the game."""
        return st[key("pstatus", p)] == "in_game"

    def next_in_game(self, w: World, st: State, p: str) -> str | None:
        """The first player after ``p`` in turn order still in the game."""
        i, n = w.players.index(p), len(w.players)
        for j in range(1, n):
            q = w.players[(i + j) % n]
            if self.in_game(st, q):
                return q
        return None

    def all_passed(self, w: World, st: State, what: str) -> bool:
        """Every player still in the game has passed focus / priority."""
        return all(not self.in_game(st, p) or st[key("pflag", p, PASSED[what])] == "1" for p in w.players)

    # -- the turn ---------------------------------------------------------------------
    def on_pass_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """Until-end-of-turn effects end; the next player still in the game gets the turn and priority."""
        w.note("riftbound.concede.continue")
        for e in w.effects:
            if e.duration == "until_end_of_turn":
                step.set(key("active", e.id), "0", "core.end_of_turn")
        p = prev["turn.active_player"]
        if p in w.players:
            q = self.next_in_game(w, prev, p)
            if q is not None:
                step.set("turn.active_player", q, "riftbound.concede.continue")
                step.set("turn.priority", q, "riftbound.concede.continue")

    # -- the concession ------------------------------------------------------------------
    def event_needs(self, w: World, ev) -> tuple[str, str] | None:
        """Only a player in the game concedes: conceding again, or after the game is won, is an error in the
        scenario."""
        return (key("pstatus", ev.player), "in_game") if ev.type == "concede" else None

    def on_concede(self, w: World, prev: State, ev, step: Step) -> None:
        """The concession's procedure, step by step, on a copy of the state."""
        w.note("riftbound.concede", "riftbound.concede.team", "riftbound.concede.team_wins",
               "riftbound.concede.last_standing", "riftbound.concede.banish", "riftbound.concede.owner_zone",
               "riftbound.concede.battlefield", "riftbound.concede.battlefield.in_place", "riftbound.concede.blank",
               "riftbound.concede.remove_owned", "riftbound.concede.counter", "riftbound.concede.turn",
               "riftbound.concede.focus", "riftbound.concede.priority", "riftbound.concede.passes.focus",
               "riftbound.concede.passes.priority", "riftbound.chain.restore_priority", "core.interrupt")
        stage = next(i for i, e in enumerate(w.sc.events) if e is ev) + 1
        pr = Procedure(self, w, prev, stage)
        s0 = pr.st
        side = self.side(w, ev.player)
        conceding = self.in_game(s0, ev.player)
        leaving = {p: conceding and self.in_game(s0, p) and self.side(w, p) == side for p in w.players}
        after = {p: self.in_game(s0, p) and not leaving[p] for p in w.players}
        sides = {self.side(w, p) for p in w.players if after[p]}
        goes_on = len(sides) >= 2
        self._leave(w, pr, ev, leaving, after, sides)
        if goes_on:
            self._banish(w, pr, leaving)
            self._replace(w, pr, ev, leaving)
            self._remove_owned(w, pr, leaving)
            self._counter(w, pr, leaving)
            self._influence(w, pr, leaving)
            self._holders(w, pr, leaving)
            self._passes_of_focus(w, pr)
            self._passes_of_priority(w, pr)
        else:  # the game is over: every step's condition failed, the chain items' rules were weighed all the same
            for a in self._actions(w):
                self.legal(w, pr.st, a)
            if any(e.kind == "control" and e.duration != "static" and leaving.get(e.player, False) for e in w.effects):
                w.note("riftbound.concede.influence")  # weighed: the leaver's control effect stays, the game is over
            pr.inside.update((name, dict(pr.st)) for name in REMOVAL_STEPS)  # each step changes nothing
        pr.into(step, prev)

    def _leave(self, w, pr: Procedure, ev, leaving, after, sides) -> None:
        """The conceding player has conceded, their teammates lose; a side left alone wins."""
        teams = any(p.team for p in w.sc.players)
        for p in w.players:
            if leaving[p]:
                if p == ev.player:
                    pr.set(key("pstatus", p), "conceded", "riftbound.concede")
                else:
                    pr.set(key("pstatus", p), "lost", "riftbound.concede.team")
            if after[p] and sides == {self.side(w, p)}:
                pr.set(key("pstatus", p), "won", "riftbound.concede.team_wins" if teams else "riftbound.concede.last_standing")
        pr.end_step(f"{ev.player} concedes")

    def _banishable(self, st: State, oid: str, info: Obj) -> bool:
        types = set(info.types)
        if info.spec is not None or types & NOT_BANISHED:
            return False
        if types & (PERMANENTS | {"rune"}):
            return True
        return st.get(key("flag", oid, "facedown")) == "1"

    def _by_leaver(self, w, st: State, oid: str, leaving) -> bool:
        return leaving.get(self.controller(w, st, oid), False)

    def _sole_control_effects(self, w: World, oid: str) -> list[Effect]:
        return [e for e in w.effects_on(oid, "control") if e.duration != "static" and w.targets(e) == [oid]]

    def _banish(self, w, pr: Procedure, leaving) -> None:
        """Step 1: the leaver's owned or controlled permanents, runes, facedown cards on the board: banished."""
        st = pr.st
        for oid, info in w.objects.items():
            if not self._banishable(st, oid, info) or st[key("zone", oid)] not in BOARD:
                continue
            if not (leaving.get(info.owner, False) or self._by_leaver(w, st, oid, leaving)):
                continue
            pr.set(key("zone", oid), "banishment", "riftbound.concede.banish")
            if key("cell", oid) in w.domains:
                pr.set(key("cell", oid), NONE, "riftbound.concede.banish")
            pr.set(key("ctrl", oid), info.owner or NONE, "riftbound.concede.owner_zone")
            for e in self._sole_control_effects(w, oid):
                pr.set(key("active", e.id), "0", "riftbound.concede.owner_zone")
            self._owners_again(w, pr, oid)
        pr.end_step("removal: banish")

    def _owners_again(self, w: World, step, obj: str) -> None:
        """owner_zone: a card leaving the board is its owner's again; no control effect applies to it any more."""
        for e in w.effects:
            if e.kind == "control" and key("released", e.id, obj) in w.domains:
                step.set(key("released", e.id, obj), "1", "riftbound.concede.owner_zone")

    def _replace(self, w, pr: Procedure, ev, leaving) -> None:
        """Step 2: the leaver's battlefield in use gives way to a blank one in its place; cards there stay."""
        st = pr.st
        for old, slot in self.blank_slots(w, ev).items():
            if not (leaving[w.owner_of(old)] and st[key("zone", old)] == "battlefield"):
                continue
            pr.set(key("zone", old), "outside", "riftbound.concede.battlefield")
            pr.set(key("zone", slot), "battlefield", "riftbound.concede.battlefield")
            if w.cells:
                pr.set(key("cell", slot), st[key("cell", old)], "riftbound.concede.battlefield")
                pr.set(key("cell", old), NONE, "riftbound.concede.battlefield")
            pr.set(key("ctrl", slot), NONE, "riftbound.concede.blank")
            for k in w.domains:
                if k.startswith(f"ability.{slot}.") and k.count(".") == slot.count(".") + 2:
                    pr.set(k, "0", "riftbound.concede.blank")
            if w.cells and st[key("cell", old)] != NONE:
                for q in w.objects:
                    if q not in (old, slot) and st[key("cell", q)] == st[key("cell", old)]:
                        pr.keep(key("zone", q), "riftbound.concede.battlefield.in_place")
                        pr.keep(key("cell", q), "riftbound.concede.battlefield.in_place")
        pr.end_step("removal: replace battlefields")

    def _remove_owned(self, w, pr: Procedure, leaving) -> None:
        """Step 3: every card the leaver owns leaves the game, a spell card on the chain too: one another player
        controls is interrupted (it never resolves); one the leaver controls is step 4's (countered)."""
        st = pr.st
        for oid, info in w.objects.items():
            if info.owner is None or not leaving.get(info.owner, False):
                continue
            if info.spec is not None:
                if info.card and st[key("status", oid)] == "on_stack" and not self._by_leaver(w, st, oid, leaving):
                    pr.set(key("zone", oid), "outside", "riftbound.concede.remove_owned")
                    pr.set(key("status", oid), "interrupted", "riftbound.concede.remove_owned")
                continue
            if st[key("zone", oid)] in self.gone_zones + (self.stack_zone,):
                continue
            pr.set(key("zone", oid), "outside", "riftbound.concede.remove_owned")
            if key("cell", oid) in w.domains:
                pr.set(key("cell", oid), NONE, "riftbound.concede.remove_owned")
        pr.end_step("removal: remove owned cards")

    def _actions(self, w: World) -> list[str]:
        """Chain items and declared actions, in the scenario's order."""
        return [o for o, info in w.objects.items() if info.spec is not None]

    def _counter(self, w, pr: Procedure, leaving) -> None:
        """Step 4: chain items the leaver controls are countered (control decides, not ownership)."""
        st = pr.st
        for a in self._actions(w):
            if st[key("status", a)] != "on_stack" or not self._by_leaver(w, st, a, leaving):
                continue
            pr.set(key("status", a), "countered", "riftbound.concede.counter")
            info = w.objects[a]
            if not info.card:
                pr.set(key("zone", a), NONE, "riftbound.concede.counter")
            else:
                pr.set(key("zone", a), "outside" if leaving.get(info.owner, False) else self.graveyard, "riftbound.concede.counter")
        pr.end_step("removal: counter the leaver's chain items")

    def _influence(self, w, pr: Procedure, leaving) -> None:
        """The leaver stops influencing the game: an effect giving them control of a card that stays ends."""
        w.note("riftbound.concede.influence")
        for e in w.effects:
            if e.kind == "control" and e.duration != "static" and leaving.get(e.player, False):
                pr.set(key("active", e.id), "0", "riftbound.concede.influence")
        pr.end_step("removal: the leaver stops influencing the game")

    def may_receive(self, w: World, st: State, e) -> bool:
        """A card's static 'you' gives nothing to a player not in the game (the leaver stops influencing it)."""
        w.note("riftbound.concede.influence")
        return self.in_game(st, self.receiver(w, st, e))

    def _holders(self, w, pr: Procedure, leaving) -> None:
        """Turn, focus and priority a leaver held pass to the next player still in the game."""
        st = pr.st
        for name, rule in HOLDERS.items():
            w.note(rule)
            p = st[key("turn", name)]
            if leaving.get(p, False):
                q = self.next_in_game(w, st, p)
                if q is not None:
                    pr.set(key("turn", name), q, rule)
        pr.end_step("removal: turn, focus and priority")

    def _passes_of_focus(self, w, pr: Procedure) -> None:
        """Every remaining player has passed focus: the showdown ends."""
        st = pr.st
        if st["gflag.showdown"] == "1" and self.all_passed(w, st, "focus"):
            pr.set("gflag.showdown", "0", "riftbound.concede.passes.focus")
            pr.set("turn.focus", NONE, "riftbound.concede.passes.focus")
        pr.end_step("removal: passes of focus")

    def _passes_of_priority(self, w, pr: Procedure) -> None:
        """Every remaining player has passed priority: the last finalised item on the chain resolves."""
        st = pr.st
        ready = [a for a in self._actions(w)
                 if st[key("status", a)] == "on_stack" and st[key("flag", a, FINALISED)] == "1"]
        w.note("riftbound.concede.passes.priority")
        for a in self._actions(w):
            w.note("core.interrupt")
            self.legal(w, st, a)  # each item's requirements and effect are weighed, as the encoding does
        if self.all_passed(w, st, "priority") and ready:
            a = ready[-1]
            if self.legal(w, st, a):
                pr.set(key("status", a), "resolved", "riftbound.concede.passes.priority")
                pr.set(key("zone", a), self.graveyard if w.objects[a].card else NONE, "riftbound.concede.passes.priority")
                self.kind_apply(w, st, w.objects[a].spec, pr)
            else:
                pr.set(key("status", a), "interrupted", "core.interrupt")
                pr.set(key("zone", a), self.graveyard if w.objects[a].card else NONE, "core.interrupt")
            pr.set("turn.priority", st["turn.active_player"], "riftbound.chain.restore_priority")
            for p in w.players:
                pr.set(key("pflag", p, PASSED["priority"]), "0", "riftbound.chain.restore_priority")
        pr.end_step("removal: passes of priority")


RULES = RiftboundRules()
