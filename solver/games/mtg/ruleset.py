"""Magic: The Gathering, comprehensive rules 800.4a-800.4n (a player leaves a game of three or more) and the rules a
multiplayer game tests them through: targets (115, 608.2b), damage and life, state-based actions (704.3), 610.3
returns, turns computed by the rules and the limited range of influence (801).

Every clause sits under its rule id; a rule's scenarios are ``scenarios/mtg/<rule>-*.yaml``. Each event is
followed by the check of 704.3 (``checks.py``: 610.3 returns and rounds of state-based actions, in which players
who lose leave). The concepts live in their own modules: ``leaving.py`` (800.4a-c, 800.4n), ``targets.py``
(targets and what spells and abilities do), ``life.py`` (damage and life), ``checks.py``, ``turns.py`` (800.4j,
800.4k) and ``influence.py`` (801).
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.compile import ScenarioError
from solver.encoding.context import ObjInfo, RuleContext
from solver.errors import NotModelled
from solver.encoding.ruleset import Ruleset
from solver.encoding.state import NONE
from solver.games.mtg import checks, copies, influence, leaving, life, permanents, targets, triggers, turns, winning
from solver.games.mtg.players import STARTING_LIFE, are_opponents, in_game, leaves_once, next_in_turn_order, pass_to_next
from solver.games.mtg.targets import enter


class Mtg(Ruleset):
    """The Magic: The Gathering ruleset for a player leaving a multiplayer game (800.4) and what it involves."""

    game = "mtg"
    graveyard = "graveyard"
    gone_zones = (NONE, "outside")
    actions = targets.action_kinds()

    def may_receive(self, ctx: RuleContext, st, e) -> object:
        """800.4a: effects that give a player who left control end; a static ability's "you" is not locked in
        (611.3a), so it gives nothing while its source's controller is a player who left, and follows whoever
        controls the source afterwards."""
        return derived.receiver_in_game(ctx, st, e, "mtg.800.4a.control_ends")

    def open_order_rule(self) -> str | None:
        """613.7m: objects that receive a timestamp at the same time are ordered by the active player's choice."""
        return "mtg.613.7m"

    def controller(self, ctx: RuleContext, st, obj: str):
        """The effective controller: core.control over the latest control effect (core.timestamp); an object outside
        the game has none (mtg.108.4a)."""
        return derived.controller(ctx, st, obj, latest="core.timestamp", control="core.control", outside="mtg.108.4a")

    def has_ability(self, ctx: RuleContext, st, obj: str, ability: str):
        """Layer 6 (mtg.613.1f): grant and remove effects apply in timestamp order (mtg.613.7), the latest wins;
        effects of objects that entered together are ordered by the active player (mtg.613.7m)."""
        return derived.has_ability(ctx, st, obj, ability, latest="mtg.613.7", value="mtg.613.1f")

    def new_objects(self, ctx: RuleContext, tr) -> None:
        """400.7: an object that changes zones becomes a new object (mtg.400.7); 603.10a: a source leaving the
        battlefield leaves its controller to look back to; 110.5b: a permanent enters the battlefield untapped."""
        derived.new_objects(ctx, tr, rule="mtg.400.7")
        triggers.record_departures(ctx, tr)
        permanents.enter_untapped(ctx, tr)

    def identity_objects(self, ctx: RuleContext) -> list[str]:
        """400.7: an object a spell or ability targets is told apart per zone visit (a new object is no target)."""
        return targets.object_targets(ctx)

    def apply_event(self, ctx: RuleContext, event) -> None:
        """The event's stages, then 800.4c for a static control effect the event ended (its source left the
        battlefield, whatever moved it), then the check the rules follow it with (704.3: returns, state-based
        actions)."""
        before = ctx.stage
        super().apply_event(ctx, event)
        if leaving.static_control(ctx):
            leaving.control_reverts(ctx, before, f"800.4c after {event.type}")
        checks.check(ctx)

    # -- spells and abilities: targets (115) and resolution (608.2b) ----------------------------------
    def on_declare(self, ctx: RuleContext, ev) -> None:
        """core.declare with legal targets (mtg.115.1), else core.illegal."""
        targets.declare(self, ctx, ev)

    def on_resolve(self, ctx: RuleContext, ev) -> None:
        """core.resolve, affecting legal targets only; mtg.608.2b: with every target illegal it does not resolve;
        storm copies resolve before their original (405.5)."""
        copies.check_order(ctx.sc, ctx.event_index, ev.action)
        targets.resolve(self, ctx, ev)

    def _leave_stack(self, ctx: RuleContext, tr, action_id: str, status: str, rule: str, when, frame: bool = True) -> None:
        """The action leaves the stack (a card to its owner's graveyard, another object ceases); a copy ceases
        (mtg.707.10a)."""
        if copies.is_copy(ctx, action_id):
            copies.leave_stack(ctx, tr, action_id, status, rule, when, frame)
        else:
            super()._leave_stack(ctx, tr, action_id, status, rule, when, frame)

    def on_copy(self, ctx: RuleContext, ev) -> None:
        """707.10: a copy of a spell is put on the stack (702.40a: storm copies, as many as spells cast before)."""
        copies.copy(self, ctx, ev)

    def on_move(self, ctx: RuleContext, ev) -> None:
        """Move an object; a copy of a spell moved off the stack ceases to exist (mtg.707.10a)."""
        if copies.is_copy(ctx, ev.object) and ev.zone != self.stack_zone:
            copies.moved(self, ctx, ev)
        else:
            super().on_move(ctx, ev)

    def on_return_from_graveyard(self, ctx: RuleContext, ev) -> None:
        """A card in a graveyard returns to its owner's hand or the battlefield (800.4b: not for a leaver)."""
        with ctx.step(f"return {ev.object} from the graveyard") as tr:
            targets.return_from_graveyard(ctx, tr, ev.object, ev.to, ctx.rm.true)

    def on_start_execution(self, ctx: RuleContext, ev) -> None:
        """MTG spells and abilities do not execute in stages: refused."""
        raise ScenarioError("start_execution is not an MTG event: a spell or ability resolves with a resolve event")

    def on_finish_execution(self, ctx: RuleContext, ev) -> None:
        """MTG spells and abilities do not execute in stages: refused."""
        raise ScenarioError("finish_execution is not an MTG event: a spell or ability resolves with a resolve event")

    # -- state variables -------------------------------------------------------------------
    def created_objects(self, ctx: RuleContext, ev) -> list:
        """Slots for created objects and triggered abilities (a trigger's event is its action: kind, targets,
        parameters and source)."""
        if ev.type == "create":
            if ev.zone not in ctx.zones:
                raise ScenarioError(f"create {ev.id}: zone '{ev.zone}' is not a zone of mtg")
            return [ObjInfo(ev.id, ev.owner or ev.controller, tuple(ev.types), False, ev.token, None, None)]
        if ev.type == "trigger":
            return [ObjInfo(ev.id, None, ("ability",), False, False, ev, None)]
        if ev.type == "copy":
            return copies.created(ctx, ev)
        return []

    def event_keys(self, ctx: RuleContext, ev) -> list[tuple]:
        """Player attributes, marked damage and choice flags the events read and write."""
        rng = [-1_000_000, 1_000_000]
        life.event_keys(ctx, ev)
        if ev.type in ("put_onto", "set_flag"):
            return permanents.event_keys(ctx, ev)
        if ev.type == "choice":
            return [(("pflag", p, ev.id), "bool", False) for p in ctx.players]
        if ev.type == "player_information":
            start = STARTING_LIFE if ev.attribute == "life" else 0
            return [(("pattr", ev.player, ev.attribute), rng, start), (("pattr", ev.reader, ev.into), rng, 0)]
        if ev.type == "count_actions":
            return [(("pattr", p, ev.attribute), rng, 0) for p in ctx.players] + [(("pattr", ev.reader, ev.into), rng, 0)]
        return []

    def declare_keys(self, ctx: RuleContext) -> None:
        """Whose turn it is (kept when its player leaves), what spells and abilities change, the controllers leaving
        sources had (603.10a), ranges of influence, last known player information, ended static control effects."""
        players = tuple(ctx.players) + (NONE,)
        ctx.add_key(("turn", "turn_of"), players, ctx.sc.turn.active_player or NONE)
        permanents.tapping_sources(ctx)  # 614.12 with a control effect over a selector: refused up front
        targets.declare_keys(ctx)
        targets.check_positions(ctx)
        triggers.declare_keys(ctx)
        turns.declare_keys(ctx)
        influence.declare_keys(ctx)
        life = any(k[0] == "pattr" and k[2] == "life" for k in ctx.domains)
        if any(ev.type == "leave_game" for ev in ctx.sc.events) or life and len(ctx.players) > 2:
            for key in [k for k in ctx.domains if k[0] == "pattr"]:
                ctx.add_key(("lki",) + key[1:], ctx.domains[key], ctx.initial[key])
        for eid, e in ctx.effects.items():
            if e.kind == "control" and e.duration == "static":
                ctx.add_key(("ended", eid), "bool", False)

    # -- 800.4: a player leaves ---------------------------------------------------------------
    def on_leave_game(self, ctx: RuleContext, ev) -> None:
        """The 800.4a procedure (800.4n first, 800.4c after control effects end); conceding is leaving (104.3a); in a
        two-player game only the status changes (104.3a, 104.3e); then who is left alone wins (104.2a). Only a player
        in the game leaves it: leaving again, or after the game is won, is a located error (``leaves_once``)."""
        leaves_once(ctx, ev.player)
        if not winning.multiplayer(ctx):
            winning.two_player_leave(ctx, ev)
        else:
            rule = "mtg.104.3a" if ev.status == "conceded" else "mtg.800.4"
            leaving.leave(ctx, {ev.player: in_game(ctx, ctx.stage, ev.player)}, f"{ev.player} leaves",
                          status=(ev.status, rule))
        winning.wins(ctx, f"{ev.player} left")

    # -- core events with 800.4 consequences ----------------------------------------------------
    def on_end_effect(self, ctx: RuleContext, ev) -> None:
        """An effect ends; if it gave control, 800.4c may exile the object."""
        before = ctx.stage
        super().on_end_effect(ctx, ev)
        if ctx.effects[ev.effect].kind == "control":
            leaving.control_reverts(ctx, before, f"800.4c after {ev.effect} ends")

    def on_end_turn(self, ctx: RuleContext, ev) -> None:
        """The turn ends ('until end of turn' effects end, damage wears off; then 800.4c) and the next player in turn
        order still in the game begins theirs (800.4j, 800.4k; then 800.4c), starting with the untap step (502.3)."""
        turns.check_end_turn(ctx)
        before = ctx.stage
        turns.end_of_turn(self, ctx)
        if any(e.kind == "control" and e.duration == "until_end_of_turn" for e in ctx.effects.values()):
            leaving.control_reverts(ctx, before, "800.4c at end of turn")
        before = ctx.stage
        began = turns.next_turn(self, ctx)
        if any(e.kind == "control" and e.duration == "until_next_turn" for e in ctx.effects.values()):
            leaving.control_reverts(ctx, before, "800.4c as the next turn begins")
        turns.untap_step(ctx, began)

    def on_begin_turn(self, ctx: RuleContext, ev) -> None:
        """A turn written by hand, in turn order: it begins if its player is in the game (800.4j), with the untap step
        (502.3); their 'until your next turn' effects end either way (800.4k)."""
        before = ctx.stage
        began = turns.begin_turn(self, ctx, ev)
        if any(e.kind == "control" and e.duration == "until_next_turn" for e in ctx.effects.values()):
            leaving.control_reverts(ctx, before, f"800.4c when {ev.player}'s turn would begin")
        turns.untap_step(ctx, began)

    def on_extra_turn(self, ctx: RuleContext, ev) -> None:
        """500.7: an extra turn is added directly after the current one."""
        turns.check_end_turn(ctx)
        turns.add_extra_turn(self, ctx, ev)

    def on_begin_effect(self, ctx: RuleContext, ev) -> None:
        """A control effect for a player who left does not begin (800.4b), over objects or players."""
        e = ev.effect
        if e.kind != "control" or ("active", e.id) in ctx.stage.defined:
            super().on_begin_effect(ctx, ev)
            return
        rm = ctx.rm
        present = rm.any_of([rm.all_of([derived.gives_to(ctx, ctx.stage, e, p), in_game(ctx, ctx.stage, p)])
                             for p in ctx.players])  # the player it would give control to is in the game
        over_player = any(t in ctx.players for t in (e.targets if isinstance(e.targets, list) else []))
        rule = "mtg.800.4b.player" if over_player else "mtg.800.4b.control"
        with ctx.step(f"begin effect {e.id}") as tr:
            if e.duration == "static":  # follows its source from now on (core.static); a leaver's is ended at once
                ctx.start_static(e.id)
                tr.free(("active", e.id))
                tr.set(("ended", e.id), 1, rule, rm.neg(present))
            else:
                tr.set(("active", e.id), 1, "core.effect_begins", present)
                tr.keep(("active", e.id), rule, rm.neg(present))

    # -- 800.4b / 800.4d: creation, entering, triggers ----------------------------------------------
    def on_create(self, ctx: RuleContext, ev) -> None:
        """Create an object: not for a controller who left (800.4b), not in a leaver's zone (800.4d)."""
        rm, st = ctx.rm, ctx.stage
        owner = ev.owner or ev.controller
        ctrl_in, owner_in = in_game(ctx, st, ev.controller), in_game(ctx, st, owner)
        source_ok = st["zone", ev.source].is_("battlefield") if ev.source else rm.true
        with ctx.step(f"create {ev.id}") as tr:
            ok = rm.all_of([ctrl_in, owner_in, source_ok])
            tr.set(("zone", ev.id), ev.zone, "mtg.111.2", ok)
            tr.set(("ctrl", ev.id), ev.controller, "mtg.111.2", ok)
            if ev.zone in leaving.CONTROLLED_ZONES:
                tr.keep(("zone", ev.id), "mtg.800.4b.token", rm.neg(ctrl_in))
            tr.keep(("zone", ev.id), "mtg.800.4d", rm.neg(owner_in))
            if ev.source:
                tr.keep(("zone", ev.id), "mtg.603.2", rm.neg(source_ok))

    def on_put_onto(self, ctx: RuleContext, ev) -> None:
        """Put an object onto the battlefield/stack under a player's control: its default controller (110.2); tapped
        if the effect says so (110.5b)."""
        player = ev.controller or ctx.owner_of(ev.object)
        with ctx.step(f"put {ev.object} onto the {ev.zone}") as tr:
            enter(ctx, tr, ev.object, ev.zone, player, "mtg.110.2", ctx.rm.true)
            permanents.put_tapped(ctx, tr, ev)

    def on_trigger(self, ctx: RuleContext, ev) -> None:
        """A triggered ability goes on the stack under the controller the rules give it (603.3a, 603.10a, 603.7d),
        unless that player left (800.4d)."""
        triggers.trigger(ctx, ev, targets.choices_legal)

    # -- damage and life (800.4e) ---------------------------------------------------------------------
    def on_combat_damage(self, ctx: RuleContext, ev) -> None:
        """Combat damage to a player in the game reduces their life (510.2); to a player who left it is not assigned."""
        life.change_life(ctx, ev.player, -ev.amount, "mtg.510.2", "mtg.800.4e",
                         f"combat damage from {ev.source} to {ev.player}")

    def on_damage(self, ctx: RuleContext, ev) -> None:
        """Damage to a player (510.2, 120.3a; 800.4e) or a creature (120.3e)."""
        life.damage(ctx, ev)

    def on_gain_life(self, ctx: RuleContext, ev) -> None:
        """A player in the game gains life (119.3)."""
        life.change_life(ctx, ev.player, ev.amount, "mtg.119.3", "mtg.800.4.absent", f"{ev.player} gains life")

    def on_lose_life(self, ctx: RuleContext, ev) -> None:
        """A player in the game loses life (119.3)."""
        life.change_life(ctx, ev.player, -ev.amount, "mtg.119.3", "mtg.800.4.absent", f"{ev.player} loses life")

    # -- 800.4f / 800.4g: choices -------------------------------------------------------------------
    def on_choice(self, ctx: RuleContext, ev) -> None:
        """Who makes a choice: the player; if they left, the source's controller picks (800.4f) or the next player (800.4g)."""
        rm, st, p = ctx.rm, ctx.stage, ev.player
        present = in_game(ctx, st, p)
        left = rm.neg(present)
        flags = {q: ("pflag", q, ev.id) for q in ctx.players}
        with ctx.step(f"choice {ev.id}") as tr:
            for q, key in flags.items():
                tr.set(key, int(q == p), "mtg.choice", present)
            if ev.source is None:
                nxt = dict(next_in_turn_order(ctx, st, p))
                for q, key in flags.items():
                    tr.set(key, nxt[q] if q in nxt else rm.false, "mtg.800.4g", left)
                return
            eligible = self._choosers(ctx, st, ev)
            near = {q: influence.controlled_in_range(ctx, st, ctx.controller(st, ev.source), q) for q in flags}
            for q, key in flags.items():
                tr.free(key, left)
                tr.set(key, 0, "mtg.800.4f", rm.all_of([left, rm.neg(eligible[q])]))
                if influence.radius(ctx) is not None:
                    tr.set(key, 0, "mtg.801.5a", rm.all_of([left, rm.neg(near[q])]))
            nxt_flags = [tr.next[k] for k in flags.values()]
            rm.clause("mtg.800.4f", nxt_flags, [left])
            rm.enforce("mtg.800.4f", rm.model.add(sum(nxt_flags) <= 1), [left])

    def _choosers(self, ctx: RuleContext, st, ev) -> dict[str, object]:
        """800.4f: q may be chosen instead: another player in the game; an opponent of the controller if possible
        (one in the game and, with a limited range of influence, in the controller's range: 801.5a)."""
        rm, p = ctx.rm, ev.player
        ctrl = ctx.controller(st, ev.source)
        others = [q for q in ctx.players if q != p]
        out = {p: rm.false}
        if not ev.opponent:
            out.update({q: in_game(ctx, st, q) for q in others})
            return out
        opp_of = {c: [r for r in others if are_opponents(ctx, r, c)] for c in ctx.players}
        some_opp = rm.any_of([rm.all_of([ctrl.is_(c), rm.any_of([rm.all_of([in_game(ctx, st, r),
                                                                            influence.in_range(ctx, st, c, r)])
                                                                 for r in opp_of[c]])])
                              for c in ctx.players])
        for q in others:
            is_opp = rm.any_of([ctrl.is_(c) for c in ctx.players if q in opp_of[c]])
            out[q] = rm.all_of([in_game(ctx, st, q), rm.any_of([is_opp, rm.neg(some_opp)])])
        return out

    # -- 800.4h: information -------------------------------------------------------------------------
    def on_player_information(self, ctx: RuleContext, ev) -> None:
        """Read a player's attribute: current while in the game, last known information after (800.4h)."""
        _unseen_with_range(ctx, ev)
        rm, st = ctx.rm, ctx.stage
        present = in_game(ctx, st, ev.player)
        cur = st["pattr", ev.player, ev.attribute]
        lki = st.vars.get(("lki", ev.player, ev.attribute), cur)
        with ctx.step(f"{ev.reader} reads {ev.player}'s {ev.attribute}") as tr:
            tr.set(("pattr", ev.reader, ev.into), cur, "mtg.800.4h.current", present)
            tr.set(("pattr", ev.reader, ev.into), lki, "mtg.800.4h", rm.neg(present))

    def on_count_actions(self, ctx: RuleContext, ev) -> None:
        """Count actions of every player; those of players who left are still found (800.4h)."""
        _unseen_with_range(ctx, ev)
        rm, st = ctx.rm, ctx.stage
        terms = []
        for q in ctx.players:
            c = rm.new_int(f"s{st.index}:count.{ev.attribute}.{q}", 0, 1_000_000)
            cur = st["pattr", q, ev.attribute]
            rm.enforce("mtg.count", rm.model.add(c == cur), [in_game(ctx, st, q)])
            rm.enforce("mtg.800.4h.actions", rm.model.add(c == cur), [rm.neg(in_game(ctx, st, q))])
            terms.append(c)
        with ctx.step(f"{ev.reader} counts {ev.attribute}") as tr:
            tr.set(("pattr", ev.reader, ev.into), sum(terms), "mtg.count")

    # -- 800.4i: priority in a turn without an active player ----------------------------------------
    def on_priority_to_active(self, ctx: RuleContext, ev) -> None:
        """The active player receives priority; with none (800.4i), the next player after whose turn it is."""
        rm, st = ctx.rm, ctx.stage
        active = st["turn", "active_player"]
        with ctx.step("the active player would receive priority") as tr:
            for q in ctx.players:
                tr.set(("turn", "priority"), q, "mtg.117.3b", active.is_(q))
            headless = active.is_(NONE)
            for owner in ctx.players:
                pass_to_next(ctx, tr, ("turn", "priority"), owner, "mtg.800.4i.priority",
                             rm.all_of([headless, st["turn", "turn_of"].is_(owner)]))


def _unseen_with_range(ctx: RuleContext, ev) -> None:
    """What an effect sees outside its controller's range of influence (801.11) is not modelled: refused."""
    if influence.radius(ctx) is not None:
        raise NotModelled(f"{ev.type} with a limited range of influence: what an effect sees outside its "
                          f"controller's range (801.11) is not modelled", "801.11")


RULESET = Mtg()
