"""Magic: The Gathering, comprehensive rules 800.4a-800.4n: a player leaves a game of three or more.

Every clause sits under its rule id; a rule's scenarios are ``scenarios/mtg/<rule>-*.yaml``.
The 800.4a procedure is a sequence of stages (800.4n first, then one stage per
sentence of 800.4a, then 800.4c, then state-based actions as their own rule).
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.compile import ObjInfo, ScenarioError
from solver.encoding.ruleset import ActionKind, Ruleset
from solver.encoding.state import NONE

from models.scenario import ActionSpec

#: zones in which an object has a controller (for 800.4a exile and 800.4c)
CONTROLLED_ZONES = ("battlefield", "stack", "command")


# -- literal helpers -----------------------------------------------------------------------------
def in_game(comp, st, player: str):
    """Literal: ``player`` is in the game at ``st``."""
    return derived.in_game(comp, st, player)


def next_in_turn_order(comp, st, player: str) -> list[tuple[str, object]]:
    """(q, literal) for each other player q: q is the next player after ``player`` in turn order still in the game."""
    rm, out, skipped = comp.rm, [], []
    i = comp.players.index(player)
    for k in range(1, len(comp.players)):
        q = comp.players[(i + k) % len(comp.players)]
        out.append((q, rm.all_of([in_game(comp, st, q)] + [rm.neg(in_game(comp, st, r)) for r in skipped],
                                 f"s{st.index}:next.{player}.{q}")))
        skipped.append(q)
    return out


def nobody_left_in_game(comp, st, player: str):
    """Literal: no player other than ``player`` is in the game."""
    rm = comp.rm
    return rm.all_of([rm.neg(in_game(comp, st, q)) for q in comp.players if q != player])


def pass_to_next(comp, tr, key: tuple, player: str, rule: str, when) -> None:
    """Rule ``rule``: under ``when``, ``key`` goes to the next player after ``player`` still in the game (none if none)."""
    rm = comp.rm
    for q, is_next in next_in_turn_order(comp, tr.prev, player):
        tr.set(key, q, rule, rm.all_of([when, is_next]))
    tr.set(key, NONE, rule, rm.all_of([when, nobody_left_in_game(comp, tr.prev, player)]))


def controller_is(comp, st, obj: str, player: str):
    """Literal: the effective controller of ``obj`` is ``player``."""
    return comp.controller(st, obj).is_(player)


def default_controller_left(comp, st, obj: str):
    """Literal: the default controller of ``obj`` is a player no longer in the game."""
    rm = comp.rm
    return rm.any_of([rm.all_of([st["ctrl", obj].is_(p), rm.neg(in_game(comp, st, p))]) for p in comp.players])


def are_opponents(comp, a: str, b: str) -> bool:
    """Static: players ``a`` and ``b`` are opponents (different players, not on one team)."""
    teams = {p.id: p.team for p in comp.sc.players}
    return a != b and (teams[a] is None or teams[a] != teams[b])


# -- action kinds --------------------------------------------------------------------------------
def _return_to_battlefield() -> ActionKind:
    """Astral Slide's delayed trigger: return the exiled card to the battlefield under its owner's control."""
    def requirements(comp, st, spec):
        return [("mtg.608.2b", comp.rm.all_of([st["zone", t].is_("exile") for t in spec.targets]))]

    def apply(comp, tr, spec, when):
        for t in spec.targets:
            owner = comp.owner_of(t)
            enter(comp, tr, t, "battlefield", owner, "mtg.return", when)
    return ActionKind(requirements, apply)


def _no_effect() -> ActionKind:
    """A spell or ability whose effect the scenario does not model."""
    return ActionKind(lambda comp, st, spec: [], lambda comp, tr, spec, when: None)


def enter(comp, tr, obj: str, zone: str, player: str | None, rule: str, when) -> None:
    """``obj`` enters ``zone`` under ``player``'s control (rule), unless that player left (800.4b: it stays)."""
    rm = comp.rm
    if player is None:
        tr.set(("zone", obj), zone, rule, when)
        return
    present = in_game(comp, tr.prev, player)
    tr.set(("zone", obj), zone, rule, rm.all_of([when, present]))
    tr.set(("ctrl", obj), player, rule, rm.all_of([when, present]))
    tr.keep(("zone", obj), "mtg.800.4b.enter", rm.all_of([when, rm.neg(present)]))


class Mtg(Ruleset):
    """The Magic: The Gathering ruleset for a player leaving a multiplayer game (800.4)."""

    game = "mtg"
    zones = ("battlefield", "hand", "library", "graveyard", "exile", "stack", "ante", "command", "outside")
    play_zones = ("battlefield",)
    graveyard = "graveyard"
    gone_zones = (NONE, "outside")
    actions = {"return_to_battlefield": _return_to_battlefield(), "spell": _no_effect(), "ability": _no_effect()}

    # -- the action lifecycle: a spell or ability whose targets became illegal does not resolve (608.2b) --
    def on_resolve(self, comp, ev) -> None:
        """Resolve, or mtg.608.2b: with an illegal target it does not resolve."""
        self.resolve(comp, ev, resolves="core.resolve", interrupted="mtg.608.2b")

    def on_start_execution(self, comp, ev) -> None:
        """Start executing, or mtg.608.2b: with an illegal target it does not resolve."""
        self.start_execution(comp, ev, starts="core.resolve", interrupted="mtg.608.2b")

    # -- state variables -------------------------------------------------------------------
    def created_objects(self, comp, ev) -> list:
        """Slots for created objects and triggered abilities."""
        if ev.type == "create":
            if ev.zone not in comp.zones:
                raise ScenarioError(f"create {ev.id}: zone '{ev.zone}' is not a zone of mtg")
            return [ObjInfo(ev.id, ev.owner or ev.controller, tuple(ev.types), False, ev.token, None, None)]
        if ev.type == "trigger":
            spec = ActionSpec(kind=ev.kind, targets=ev.targets, params=ev.params)
            return [ObjInfo(ev.id, None, ("ability",), False, False, spec, None)]
        return []

    def event_keys(self, comp, ev) -> list[tuple]:
        """Player attributes and choice flags the events read and write."""
        rng = [-1_000_000, 1_000_000]
        if ev.type == "combat_damage":
            return [(("pattr", ev.player, "life"), rng, 0)]
        if ev.type == "choice":
            return [(("pflag", p, ev.id), "bool", False) for p in comp.players]
        if ev.type == "player_information":
            return [(("pattr", ev.player, ev.attribute), rng, 0), (("pattr", ev.reader, ev.into), rng, 0)]
        if ev.type == "count_actions":
            return [(("pattr", p, ev.attribute), rng, 0) for p in comp.players] + [(("pattr", ev.reader, ev.into), rng, 0)]
        return []

    def declare_keys(self, comp) -> None:
        """Whose turn it is (kept when its player leaves), last known player information, ended static control effects."""
        players = tuple(comp.players) + (NONE,)
        comp.add_key(("turn", "turn_of"), players, comp.sc.turn.active_player or NONE)
        if any(ev.type == "leave_game" for ev in comp.sc.events):
            for key in [k for k in comp.domains if k[0] == "pattr"]:
                comp.add_key(("lki",) + key[1:], comp.domains[key], comp.initial[key])
        for eid, e in comp.effects.items():
            if e.kind == "control" and e.duration == "static":
                comp.add_key(("ended", eid), "bool", False)

    # -- 800.4: a player leaves --------------------------------------------------------------
    def on_leave_game(self, comp, ev) -> None:
        """800.4n, then the 800.4a procedure stage by stage, then 800.4c and state-based actions."""
        before = comp.stage
        p = ev.player
        if any("plane" in comp.objects[o].types for o in comp.objects):
            self._planar_control_passes(comp, p)
        self._owned_leave_control_ends(comp, ev)
        if self._control_objects(comp):
            self._control_reverts(comp, before, f"800.4c after {p} leaves")
        self._stack_ceases(comp, p)
        self._exile_rest(comp, p)
        self._state_based_actions(comp)

    def _planar_control_passes(self, comp, p: str) -> None:
        """800.4n: the next player in turn order becomes planar controller before the leaver leaves."""
        rm, st = comp.rm, comp.stage
        with comp.step(f"800.4n: planar control passes from {p}") as tr:
            for o, info in comp.objects.items():
                if "plane" in info.types:
                    holds = rm.all_of([st["ctrl", o].is_(p), st["zone", o].is_("command"), in_game(comp, st, p)])
                    pass_to_next(comp, tr, ("ctrl", o), p, "mtg.800.4n", holds)

    def _owned_leave_control_ends(self, comp, ev) -> None:
        """800.4a first sentence: owned objects leave the game (ante excepted: 800.4m); control effects end."""
        rm, st, p = comp.rm, comp.stage, ev.player
        was_in = in_game(comp, st, p)
        with comp.step(f"800.4a: {p} leaves; owned objects leave, control effects end") as tr:
            tr.set(("pstatus", p), ev.status, "mtg.800.4", was_in)
            for o, info in comp.objects.items():
                if info.owner != p:
                    continue
                zone = st["zone", o]
                here = rm.all_of([was_in, rm.neg(zone.one_of(self.gone_zones))])
                stays = ["ante"] if info.card else ["ante", "stack"]
                tr.set(("zone", o), "outside", "mtg.800.4a.owned", rm.all_of([here, rm.neg(zone.one_of(stays))]))
                self._left_stack(comp, tr, o, "mtg.800.4a.owned", rm.all_of([here, zone.is_("stack")])
                                 if info.card else rm.false)
                tr.keep(("zone", o), "mtg.800.4m", rm.all_of([here, zone.is_("ante")]))
            for eid, e in comp.effects.items():
                if e.kind == "control" and e.player == p:
                    key = ("ended", eid) if e.duration == "static" else ("active", eid)
                    tr.set(key, 1 if e.duration == "static" else 0, "mtg.800.4a.control_ends", was_in)
                elif e.duration == "until_next_turn" and e.until_player == p:
                    tr.keep(("active", eid), "mtg.800.4k", was_in)
            for key in [k for k in comp.domains if k[0] == "lki" and k[1] == p]:
                tr.set(key, st[("pattr",) + key[1:]], "mtg.800.4h", was_in)
            tr.set(("turn", "active_player"), NONE, "mtg.800.4i",
                   rm.all_of([was_in, st["turn", "active_player"].is_(p)]))

    def _left_stack(self, comp, tr, o: str, rule: str, when) -> None:
        """A stack object that leaves the stack this way no longer waits to resolve."""
        if ("status", o) in comp.domains and when is not comp.rm.false:
            tr.set(("status", o), "ceased", rule, comp.rm.all_of([when, tr.prev["status", o].is_("on_stack")]))

    def _stack_ceases(self, comp, p: str) -> None:
        """800.4a second sentence: the leaver's non-card objects on the stack cease to exist."""
        rm, st = comp.rm, comp.stage
        with comp.step(f"800.4a: {p}'s non-card stack objects cease to exist") as tr:
            for o, info in comp.objects.items():
                if info.card:
                    continue
                cease = rm.all_of([st["zone", o].is_("stack"), controller_is(comp, st, o, p),
                                   rm.neg(in_game(comp, st, p))])
                tr.set(("zone", o), NONE, "mtg.800.4a.stack_ceases", cease)
                self._left_stack(comp, tr, o, "mtg.800.4a.stack_ceases", cease)

    def _exile_rest(self, comp, p: str) -> None:
        """800.4a third sentence: what the leaver still controls is exiled; priority passes on."""
        rm, st = comp.rm, comp.stage
        gone = rm.neg(in_game(comp, st, p))
        with comp.step(f"800.4a: what {p} still controls is exiled; priority passes") as tr:
            for o in comp.objects:
                exile = rm.all_of([st["zone", o].one_of(CONTROLLED_ZONES), controller_is(comp, st, o, p), gone])
                tr.set(("zone", o), "exile", "mtg.800.4a.exile", exile)
                self._left_stack(comp, tr, o, "mtg.800.4a.exile", rm.all_of([exile, st["zone", o].is_("stack")]))
            had = rm.all_of([gone, st["turn", "priority"].is_(p)])
            pass_to_next(comp, tr, ("turn", "priority"), p, "mtg.800.4a.priority", had)

    # -- 800.4c: a control effect ends and the default controller left ------------------------
    def _control_objects(self, comp) -> list[str]:
        """Objects some control effect may apply to (static)."""
        return [o for o in comp.objects if comp.effects_on(o, "control")]

    def _control_reverts(self, comp, before, label: str) -> None:
        """800.4c: an object whose control effect just ended, with no other, and whose default controller left, is exiled."""
        rm, st = comp.rm, comp.stage
        with comp.step(label) as tr:
            for o in self._control_objects(comp):
                effects = comp.effects_on(o, "control")
                ended = rm.any_of([rm.all_of([derived.applies(comp, before, e, o), rm.neg(st["active", e.id])])
                                   for e in effects])
                cond = rm.all_of([ended, derived.none_applies(comp, st, effects, o), default_controller_left(comp, st, o),
                                  st["zone", o].one_of(CONTROLLED_ZONES)])
                tr.set(("zone", o), "exile", "mtg.800.4c", cond)
                self._left_stack(comp, tr, o, "mtg.800.4c", rm.all_of([cond, st["zone", o].is_("stack")]))

    # -- state-based actions (their own rule, after the procedure) -------------------------------
    def _state_based_actions(self, comp) -> None:
        """704.5m: Auras attached to nothing on the battlefield go to their owner's graveyard; 704.5d: stray tokens cease."""
        rm, st = comp.rm, comp.stage
        with comp.step("state-based actions") as tr:
            for o, info in comp.objects.items():
                if ("attach", o) in comp.domains and "aura" in info.types:
                    loose = [rm.all_of([st["attach", o].is_(t), rm.neg(st["zone", t].is_("battlefield"))])
                             for t in comp.domains["attach", o] if t != NONE]
                    cond = rm.all_of([st["zone", o].is_("battlefield"), rm.any_of(loose)])
                    tr.set(("zone", o), self.graveyard, "mtg.704.5m", cond)
                    tr.set(("attach", o), NONE, "mtg.704.5m", cond)
                if info.token:
                    stray = rm.neg(st["zone", o].one_of(("battlefield",) + self.gone_zones))
                    tr.set(("zone", o), NONE, "mtg.704.5d", stray)

    # -- core events with 800.4 consequences ----------------------------------------------------
    def on_end_effect(self, comp, ev) -> None:
        """An effect ends; if it gave control, 800.4c may exile the object."""
        before = comp.stage
        super().on_end_effect(comp, ev)
        if comp.effects[ev.effect].kind == "control":
            self._control_reverts(comp, before, f"800.4c after {ev.effect} ends")
            self._state_based_actions(comp)

    def on_end_turn(self, comp, ev) -> None:
        """End of turn: 'until end of turn' effects end, then 800.4c."""
        before = comp.stage
        super().on_end_turn(comp, ev)
        if any(e.kind == "control" and e.duration == "until_end_of_turn" for e in comp.effects.values()):
            self._control_reverts(comp, before, "800.4c at end of turn")
            self._state_based_actions(comp)

    def on_begin_effect(self, comp, ev) -> None:
        """A control effect for a player who left does not begin (800.4b), over objects or players."""
        e = ev.effect
        if e.kind != "control" or ("active", e.id) in comp.stage.defined:
            super().on_begin_effect(comp, ev)
            return
        rm = comp.rm
        present = in_game(comp, comp.stage, e.player)
        over_player = any(t in comp.players for t in (e.targets if isinstance(e.targets, list) else []))
        rule = "mtg.800.4b.player" if over_player else "mtg.800.4b.control"
        with comp.step(f"begin effect {e.id}") as tr:
            if e.duration == "static":  # follows its source from now on (core.static); a leaver's is ended at once
                comp.pending.discard(e.id)
                tr.free(("active", e.id))
                tr.set(("ended", e.id), 1, rule, rm.neg(present))
            else:
                tr.set(("active", e.id), 1, "core.effect_begins", present)
                tr.keep(("active", e.id), rule, rm.neg(present))

    def on_begin_turn(self, comp, ev) -> None:
        """A turn begins if its player is in the game (800.4j); their 'until your next turn' effects end either way (800.4k)."""
        rm, st, p = comp.rm, comp.stage, ev.player
        present = in_game(comp, st, p)
        with comp.step(f"{p}'s turn would begin") as tr:
            for eid, e in comp.effects.items():
                if e.duration == "until_next_turn" and e.until_player == p:
                    tr.set(("active", eid), 0, "core.next_turn", present)
                    tr.set(("active", eid), 0, "mtg.800.4k", rm.neg(present))
            for key in (("turn", "active_player"), ("turn", "priority"), ("turn", "turn_of")):
                tr.set(key, p, "mtg.500.begin_turn", present)
                tr.keep(key, "mtg.800.4j", rm.neg(present))
        if any(e.kind == "control" and e.duration == "until_next_turn" for e in comp.effects.values()):
            self._control_reverts(comp, st, f"800.4c when {p}'s turn would begin")
            self._state_based_actions(comp)

    # -- 800.4b / 800.4d: creation, entering, triggers ----------------------------------------------
    def on_create(self, comp, ev) -> None:
        """Create an object: not for a controller who left (800.4b), not in a leaver's zone (800.4d)."""
        rm, st = comp.rm, comp.stage
        owner = ev.owner or ev.controller
        ctrl_in, owner_in = in_game(comp, st, ev.controller), in_game(comp, st, owner)
        source_ok = st["zone", ev.source].is_("battlefield") if ev.source else rm.true
        with comp.step(f"create {ev.id}") as tr:
            ok = rm.all_of([ctrl_in, owner_in, source_ok])
            tr.set(("zone", ev.id), ev.zone, "mtg.111.2", ok)
            tr.set(("ctrl", ev.id), ev.controller, "mtg.111.2", ok)
            if ev.zone in CONTROLLED_ZONES:
                tr.keep(("zone", ev.id), "mtg.800.4b.token", rm.neg(ctrl_in))
            tr.keep(("zone", ev.id), "mtg.800.4d", rm.neg(owner_in))
            if ev.source:
                tr.keep(("zone", ev.id), "mtg.603.2", rm.neg(source_ok))

    def on_put_onto(self, comp, ev) -> None:
        """Put an object onto the battlefield/stack under a player's control: its default controller (110.2)."""
        player = ev.controller or comp.owner_of(ev.object)
        with comp.step(f"put {ev.object} onto the {ev.zone}") as tr:
            enter(comp, tr, ev.object, ev.zone, player, "mtg.110.2", comp.rm.true)

    def on_trigger(self, comp, ev) -> None:
        """A triggered ability goes on the stack under its controller, unless that player left (800.4d)."""
        rm, st = comp.rm, comp.stage
        present = in_game(comp, st, ev.controller)
        with comp.step(f"{ev.id} triggers") as tr:
            tr.set(("zone", ev.id), "stack", "mtg.603.3", present)
            tr.set(("status", ev.id), "on_stack", "mtg.603.3", present)
            tr.set(("ctrl", ev.id), ev.controller, "mtg.603.3", present)
            tr.keep(("zone", ev.id), "mtg.800.4d.trigger", rm.neg(present))
            tr.keep(("status", ev.id), "mtg.800.4d.trigger", rm.neg(present))

    # -- 800.4e: combat damage ---------------------------------------------------------------------
    def on_combat_damage(self, comp, ev) -> None:
        """Combat damage to a player in the game reduces their life; to a player who left it is not assigned."""
        rm, st = comp.rm, comp.stage
        key = ("pattr", ev.player, "life")
        present = in_game(comp, st, ev.player)
        with comp.step(f"combat damage from {ev.source} to {ev.player}") as tr:
            tr.set(key, st[key] - ev.amount, "mtg.510.2", present)
            tr.keep(key, "mtg.800.4e", rm.neg(present))

    # -- 800.4f / 800.4g: choices -------------------------------------------------------------------
    def on_choice(self, comp, ev) -> None:
        """Who makes a choice: the player; if they left, the source's controller picks (800.4f) or the next player (800.4g)."""
        rm, st, p = comp.rm, comp.stage, ev.player
        present = in_game(comp, st, p)
        left = rm.neg(present)
        flags = {q: ("pflag", q, ev.id) for q in comp.players}
        with comp.step(f"choice {ev.id}") as tr:
            for q, key in flags.items():
                tr.set(key, int(q == p), "mtg.choice", present)
            if ev.source is None:
                nxt = dict(next_in_turn_order(comp, st, p))
                for q, key in flags.items():
                    tr.set(key, nxt[q] if q in nxt else rm.false, "mtg.800.4g", left)
                return
            eligible = self._choosers(comp, st, ev)
            for q, key in flags.items():
                tr.free(key, left)
                tr.set(key, 0, "mtg.800.4f", rm.all_of([left, rm.neg(eligible[q])]))
            nxt_flags = [tr.next[k] for k in flags.values()]
            rm.clause("mtg.800.4f", nxt_flags, [left])
            rm.enforce("mtg.800.4f", rm.model.add(sum(nxt_flags) <= 1), [left])

    def _choosers(self, comp, st, ev) -> dict[str, object]:
        """800.4f: q may be chosen instead: another player in the game; an opponent of the controller if possible."""
        rm, p = comp.rm, ev.player
        ctrl = comp.controller(st, ev.source)
        others = [q for q in comp.players if q != p]
        out = {p: rm.false}
        if not ev.opponent:
            out.update({q: in_game(comp, st, q) for q in others})
            return out
        opp_of = {c: [r for r in others if are_opponents(comp, r, c)] for c in comp.players}
        some_opp = rm.any_of([rm.all_of([ctrl.is_(c), rm.any_of([in_game(comp, st, r) for r in opp_of[c]])])
                              for c in comp.players])
        for q in others:
            is_opp = rm.any_of([ctrl.is_(c) for c in comp.players if q in opp_of[c]])
            out[q] = rm.all_of([in_game(comp, st, q), rm.any_of([is_opp, rm.neg(some_opp)])])
        return out

    # -- 800.4h: information -------------------------------------------------------------------------
    def on_player_information(self, comp, ev) -> None:
        """Read a player's attribute: current while in the game, last known information after (800.4h)."""
        rm, st = comp.rm, comp.stage
        present = in_game(comp, st, ev.player)
        cur = st["pattr", ev.player, ev.attribute]
        lki = st.vars.get(("lki", ev.player, ev.attribute), cur)
        with comp.step(f"{ev.reader} reads {ev.player}'s {ev.attribute}") as tr:
            tr.set(("pattr", ev.reader, ev.into), cur, "mtg.800.4h.current", present)
            tr.set(("pattr", ev.reader, ev.into), lki, "mtg.800.4h", rm.neg(present))

    def on_count_actions(self, comp, ev) -> None:
        """Count actions of every player; those of players who left are still found (800.4h)."""
        rm, st = comp.rm, comp.stage
        terms = []
        for q in comp.players:
            c = rm.new_int(f"s{st.index}:count.{ev.attribute}.{q}", 0, 1_000_000)
            cur = st["pattr", q, ev.attribute]
            rm.enforce("mtg.count", rm.model.add(c == cur), [in_game(comp, st, q)])
            rm.enforce("mtg.800.4h.actions", rm.model.add(c == cur), [rm.neg(in_game(comp, st, q))])
            terms.append(c)
        with comp.step(f"{ev.reader} counts {ev.attribute}") as tr:
            tr.set(("pattr", ev.reader, ev.into), sum(terms), "mtg.count")

    # -- 800.4i: priority in a turn without an active player ----------------------------------------
    def on_priority_to_active(self, comp, ev) -> None:
        """The active player receives priority; with none (800.4i), the next player after whose turn it is."""
        rm, st = comp.rm, comp.stage
        active = st["turn", "active_player"]
        with comp.step("the active player would receive priority") as tr:
            for q in comp.players:
                tr.set(("turn", "priority"), q, "mtg.117.3b", active.is_(q))
            headless = active.is_(NONE)
            for owner in comp.players:
                pass_to_next(comp, tr, ("turn", "priority"), owner, "mtg.800.4i.priority",
                             rm.all_of([headless, st["turn", "turn_of"].is_(owner)]))


RULESET = Mtg()
