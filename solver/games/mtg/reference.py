"""The reference reading of Magic: The Gathering 800.4 (seed 000) and of the rules a multiplayer game tests it
through: targets, damage and life, state-based actions, 610.3 returns, turns, range of influence.

Plain Python over a state dict; shares no code with the encoding (``ruleset.py`` and its concept modules). Every
event is read in two parts: what its own rules do (the handlers below, and ``reference_targets.py``,
``reference_leaving.py``, ``reference_turns.py``), then the check that follows it (``reference_checks.py``: 610.3
returns and state-based actions, repeated until nothing changes), as one procedure of sub-states
(``reference_state.Proc``); the validator sees the state after the whole event, each key named with the rule that
set it last.

Readings (from the seed text and the game module's documented semantics):
- leaving (800.4a): see ``reference_leaving.py``; conceding (104.3a) is leaving with the status conceded.
- 800.4c after every event that ends control effects (leaving, end_effect, end_turn, begin_turn, and any event
  once a static control effect exists: its source may leave the battlefield): an object a control effect applied to just before, that no control effect applies to now, whose default controller left,
  in a zone where objects have controllers, is exiled.
- damage to a player lowers their life total (combat 510.2, other 120.3a), to a creature on the battlefield it is
  marked (120.3e); life gain and loss (119.3); nothing of it reaches a player who left (800.4e, mtg.800.4.absent).
"""
from __future__ import annotations

import itertools

from models.expectations import ACTION_STATUSES
from models.game_events.mtg import copied
from solver.games.mtg import reference_checks as checks
from solver.games.mtg import reference_copies as copies
from solver.games.mtg import reference_leaving as leaving
from solver.games.mtg import reference_targets as targets
from solver.games.mtg import reference_turns as turns
from solver.games.mtg.reference_state import IN_GAME, STARTING_LIFE, Proc, in_game, next_in_game, opponents, tapping_sources
from solver.reference.rules import CoreRules, Step, Unsupported
from solver.reference.world import BOOL, INT, NONE, Obj, State, World, b, key


def _before_check(pred, moved: dict):
    """``pred`` read at the state before the check: the keys the check moved take any of their event's choices."""
    if not moved:
        return pred
    names = sorted(moved)
    choices = list(itertools.product(*(sorted(moved[k]) for k in names)))
    return lambda nxt: any(pred({**nxt, **dict(zip(names, c))}) for c in choices)


class MtgRules(CoreRules):
    """MTG 800.4a-800.4n with targets (115, 608.2b), damage and life, 704.3, 610.3, turns and 801."""

    game = "mtg"
    graveyard = "graveyard"
    gone_zones = (NONE, "outside")
    def event_needs(self, w: World, ev) -> tuple[str, str] | None:
        """800.4a, 104.3a: only a player in the game leaves it (concedes, loses); leaving again, or after the game is
        won, is an error in the scenario."""
        return (key("pstatus", ev.player), IN_GAME) if ev.type == "leave_game" else None

    def identity_rule(self) -> str:
        """400.7: an object that changes zones becomes a new object."""
        return "mtg.400.7"

    def controller(self, w: World, st: State, obj: str) -> str:
        """core.control over core.timestamp; an object outside the game has no controller (mtg.108.4a)."""
        return self.control_by(w, st, obj, latest="core.timestamp", control="core.control", outside="mtg.108.4a")

    def has_ability(self, w: World, st: State, obj: str, ability: str) -> bool:
        """613.1f (layer 6): the latest grant or remove effect by timestamp (613.7) decides, else the printed ones."""
        return self.ability_by(w, st, obj, ability, latest="mtg.613.7", value="mtg.613.1f")

    def told_apart(self, w: World) -> list[str]:
        """400.7: the targets of spells and abilities (a new object is no longer the target)."""
        return targets.targeted(w)

    def new_objects(self, w: World, prev: State, ev, step: Step) -> None:
        """400.7 is read within the event's procedure, at each sub-state (``Proc.renew``)."""

    # -- every event: its own rules, then the check (704.3) ------------------------------------------
    def step(self, w: World, prev: State, ev) -> Step:
        """The event's rules, then the check that follows it, as one procedure."""
        inner = super().step(w, prev, ev)
        w.note(*inner.rules())
        p = Proc(self, w, prev, self._stage(w, ev))
        p.substep([(k, next(iter(allowed)), rule) for k, options in inner.sets.items() for rule, allowed in options])
        if leaving.static_control(w):  # 800.4c: a static control effect whatever event ended it
            leaving.reverts(self, w, prev, p)
        own = dict(p.last)
        checks.check(self, w, p)
        # a choice of the event (a draw's card) that the check then overrode (its owner left with everything they
        # own): the event's own checks speak of the state before the check, where that key still had its choice
        moved = {k: inner.free[k][1] or w.domains[k] for k in inner.free if p.last.get(k) is not own.get(k)}
        out = Step(free=dict(inner.free), checks=[(rule, _before_check(pred, moved), what)
                                                  for rule, pred, what in inner.checks])
        p.into(out)
        for k, options in inner.sets.items():
            if p.last.get(k) is own.get(k):  # the check left it: every rule of the event that set it stands
                out.sets[k] = list(options)
        for k in set(out.sets) & set(out.free):
            del out.free[k]
        return out

    def on_declare(self, w: World, prev: State, ev, step: Step) -> None:
        """core.declare with legal targets (mtg.115.1), else core.illegal."""
        targets.declare(self, w, prev, ev, step)

    def on_resolve(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve on the legal targets; mtg.608.2b: with none it does not resolve."""
        targets.resolve(self, w, prev, ev, step)

    def on_copy(self, w: World, prev: State, ev, step: Step) -> None:
        """707.10: a copy on the stack (702.40a: as many storm copies as spells cast before it this turn)."""
        copies.copy(self, targets, w, prev, ev, step)

    def _leave_stack(self, w: World, step: Step, action: str, status: str, rule: str) -> None:
        """A copy that leaves the stack ceases to exist (707.10a); a card goes to the graveyard, another object
        ceases."""
        if copies.is_copy(w, action):
            copies.cease(w, step, action, status, rule)
        else:
            super()._leave_stack(w, step, action, status, rule)

    def on_move(self, w: World, prev: State, ev, step: Step) -> None:
        """core.move; a copy moved off the stack ceases to exist (704.5e, 707.10a)."""
        if copies.is_copy(w, ev.object) and ev.zone != "stack":
            copies.moved(w, prev, ev, step)
        else:
            super().on_move(w, prev, ev, step)

    def on_return_from_graveyard(self, w: World, prev: State, ev, step: Step) -> None:
        """A card still in a graveyard goes to its owner's hand or the battlefield (800.4b: not for a leaver)."""
        w.note("mtg.return_from_graveyard", "mtg.return_from_graveyard.absent", "mtg.800.4b.enter")
        for k, v, rule in copies.from_graveyard(w, prev, ev.object, ev.to):
            step.set(k, v, rule)

    def on_start_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """Not an MTG event."""
        raise Unsupported("start_execution is not an MTG event")

    def on_finish_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """Not an MTG event."""
        raise Unsupported("finish_execution is not an MTG event")

    # -- state keys -----------------------------------------------------------------------
    def may_receive(self, w: World, st: State, e) -> bool:
        """800.4a: effects that give a player who left control end; a static "you" is not locked in (611.3a): it
        gives nothing to a player who left and follows the source's next controller."""
        w.note("mtg.800.4a.control_ends")
        return in_game(st, self.receiver(w, st, e))

    def open_order_rule(self) -> str | None:
        """613.7m: objects given a timestamp at the same time: the active player determines their relative order."""
        return "mtg.613.7m"

    def extra_keys(self, w: World) -> None:
        """Created objects and triggered abilities, attachments, player keys of events, what spells change, ranges,
        whose turn, LKI, ended."""
        players = tuple(w.players) + (NONE,)
        if len(w.players) < 3 and any(ev.type == "leave_game" and ev.status == "left" for ev in w.sc.events):
            raise Unsupported("a player leaves a two-player game for another reason than conceding or losing")
        w.tokens = {o.id for o in w.sc.objects if o.token}
        tapping_sources(w)  # 614.12 with a control effect over a selector: refused up front
        for ev in w.sc.events:
            if ev.type == "create":
                if ev.zone not in w.zones:
                    raise Unsupported(f"create {ev.id}: zone '{ev.zone}' is not a zone of mtg")
                w.objects.setdefault(ev.id, Obj(ev.id, ev.owner or ev.controller, tuple(ev.types), False, None))
                if ev.token:
                    w.tokens.add(ev.id)
            elif ev.type == "trigger":
                w.objects.setdefault(ev.id, Obj(ev.id, None, ("ability",), False, ev))
            elif ev.type == "copy":
                spec = copied(w.sc, ev)
                if spec is None:
                    raise Unsupported(f"copy {ev.id} of nothing before it")
                w.objects.setdefault(ev.id, Obj(ev.id, copies.caster(w, ev), ("copy",), False, spec))
            else:
                continue
            w.add(key("zone", ev.id), w.zones, NONE)
            w.add(key("ctrl", ev.id), players, NONE)
            if ev.type in ("trigger", "copy"):
                w.add(key("status", ev.id), ACTION_STATUSES, "unborn")
        for src in sorted({ev.source for ev in w.sc.events if ev.type == "trigger" and ev.leaves
                           and ev.source in w.objects}):  # 603.10a: the controller it had as it last left the battlefield
            w.add(key("left_ctrl", src), players, NONE)
        self._attach_keys(w)
        for ev in w.sc.events:
            for k, dom, init in self._event_keys(w, ev):
                w.add(k, dom, init)
        for ex in w.sc.expect:  # a life total not given is 20 (103.4); a counter not given, none counted yet
            for a in ex.player_attributes if ex.player is not None else ():
                if a in ("life", "spells_cast"):
                    w.add(key("pattr", ex.player, a), INT, str(STARTING_LIFE) if a == "life" else "0")
        w.add(key("turn", "turn_of"), players, w.sc.turn.active_player or NONE)
        targets.add_keys(w)
        turns.add_range_keys(w)
        turns.add_turn_keys(w)
        life = any(k.startswith("pattr.") and k.endswith(".life") for k in w.domains)
        if any(ev.type == "leave_game" for ev in w.sc.events) or life and len(w.players) > 2:
            for k in [k for k in w.domains if k.startswith("pattr.")]:
                w.add("lki." + k[len("pattr."):], w.domains[k], w.initial[k])
        for e in w.effects:
            if e.kind == "control" and e.duration == "static":
                w.add(key("ended", e.id), BOOL, "0")

    def _attach_keys(self, w: World) -> None:
        data = {o.id: o for o in w.sc.objects}
        attached = sorted({o.attached_to for o in w.sc.objects if o.attached_to})
        if not attached:
            return
        for oid, info in w.objects.items():
            o = data.get(oid)
            if o is None or o.attached_to or {"aura", "equipment"} & set(info.types):
                w.add(key("attach", oid), tuple(attached) + (NONE,), (o.attached_to if o else None) or NONE)

    def _event_keys(self, w: World, ev) -> list[tuple[str, object, str]]:
        life = str(STARTING_LIFE)
        if ev.type in ("combat_damage", "gain_life", "lose_life"):
            return [(key("pattr", ev.player, "life"), INT, life)]
        if ev.type == "set_flag" and ev.flag == "tapped":
            return [(key("flag", ev.object, "tapped"), BOOL, "0")]
        if ev.type == "put_onto" and ev.tapped:
            if ev.zone != "battlefield":
                raise Unsupported(f"put_onto {ev.object} tapped onto the {ev.zone}")
            return [(key("flag", ev.object, "tapped"), BOOL, "0")]
        if ev.type == "damage":
            if ev.target in w.players:
                return [(key("pattr", ev.target, "life"), INT, life)]
            info = w.objects[ev.target]
            if "creature" not in info.types or not targets.has_toughness(w, ev.target):
                raise Unsupported(f"damage to {ev.target}: not a creature with a toughness")
            return [(key("attr", ev.target, "damage"), INT, "0")]
        if ev.type == "choice":
            return [(key("pflag", p, ev.id), BOOL, "0") for p in w.players]
        if ev.type == "player_information":
            start = life if ev.attribute == "life" else "0"
            return [(key("pattr", ev.player, ev.attribute), INT, start), (key("pattr", ev.reader, ev.into), INT, "0")]
        if ev.type == "count_actions":
            return [(key("pattr", p, ev.attribute), INT, "0") for p in w.players] + \
                [(key("pattr", ev.reader, ev.into), INT, "0")]
        return []

    def static_on(self, w: World, st: State, e) -> bool:
        """A static effect works while its source is on the battlefield, unless 800.4a/800.4b ended it."""
        return super().static_on(w, st, e) and st.get(key("ended", e.id), "0") != "1"

    # -- helpers ------------------------------------------------------------------------------
    def _stage(self, w: World, ev) -> int:
        """The state index after event ``ev``."""
        return next(i for i, x in enumerate(w.sc.events) if x is ev) + 1

    def _proc(self, w: World, prev: State, ev) -> Proc:
        return Proc(self, w, prev, self._stage(w, ev))

    # -- 800.4: a player leaves; 104.3a: conceding -----------------------------------------------
    def on_leave_game(self, w: World, prev: State, ev, step: Step) -> None:
        """The 800.4a procedure for the player (mtg.104.3a gives the status of one who concedes); with two players only
        their status (104.3a, 104.3e); then whoever is left alone wins (104.2a)."""
        p, pl = self._proc(w, prev, ev), ev.player
        if len(w.players) < 3:
            leaving.leave_two_player(w, p, pl, ev.status)
        else:
            rule = "mtg.104.3a" if ev.status == "conceded" else "mtg.800.4"
            w.note(rule)
            leaving.leave(self, w, p, [pl], [pl] if in_game(prev, pl) else [], (ev.status, rule))
        leaving.wins(self, w, p)
        p.into(step)

    # -- core events with 800.4 consequences ----------------------------------------------------
    def on_end_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """The effect ends; a control effect ending may exile (800.4c)."""
        p = self._proc(w, prev, ev)
        p.substep([(key("active", ev.effect), "0", "core.effect_ends")])
        if next(e for e in w.effects if e.id == ev.effect).kind == "control":
            leaving.reverts(self, w, prev, p)
        p.into(step)

    def on_end_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """The cleanup and the next turn (``reference_turns.py``)."""
        turns.written_order(w, self._stage(w, ev) - 1)
        p = self._proc(w, prev, ev)
        turns.end_turn(self, w, p)
        p.into(step)

    def on_begin_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4j: a leaver's turn does not begin; 800.4k: their 'until your next turn' effects end anyway."""
        turns.written_order(w, self._stage(w, ev) - 1)
        p = self._proc(w, prev, ev)
        turns.begin_turn(self, w, p, ev)
        p.into(step)

    def on_extra_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """500.7: a turn added directly after the current one."""
        turns.written_order(w, self._stage(w, ev) - 1)
        p = self._proc(w, prev, ev)
        p.substep(turns.add_extra(w, self._stage(w, ev) - 1))
        p.into(step)

    def on_begin_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4b: control for a player who left does not begin (a static one is ended at once)."""
        e = ev.effect
        if e.kind != "control":
            super().on_begin_effect(w, prev, ev, step)
            return
        over_player = any(t in w.players for t in (e.targets if isinstance(e.targets, list) else []))
        rule = "mtg.800.4b.player" if over_player else "mtg.800.4b.control"
        w.note(rule)
        here = in_game(prev, self.receiver(w, prev, e))
        if e.duration == "static":
            super().on_begin_effect(w, prev, ev, step)
            if not here:
                step.set(key("ended", e.id), "1", rule)
        else:
            step.set(key("active", e.id), "1" if here else prev[key("active", e.id)],
                     "core.effect_begins" if here else rule)

    # -- 800.4b / 800.4d: creating, entering, triggering ----------------------------------------
    def on_create(self, w: World, prev: State, ev, step: Step) -> None:
        """111.2, unless the controller left (800.4b), the owner left (800.4d) or the source is gone (603.2)."""
        owner = ev.owner or ev.controller
        w.note("mtg.111.2", "mtg.800.4d", *(["mtg.800.4b.token"] if ev.zone in leaving.CONTROLLED_ZONES else []),
               *(["mtg.603.2"] if ev.source else []))
        zk = key("zone", ev.id)
        if ev.zone in leaving.CONTROLLED_ZONES and not in_game(prev, ev.controller):
            step.set(zk, prev[zk], "mtg.800.4b.token")
        if not in_game(prev, owner):
            step.set(zk, prev[zk], "mtg.800.4d")
        if ev.source and prev[key("zone", ev.source)] != "battlefield":
            step.set(zk, prev[zk], "mtg.603.2")
        elif in_game(prev, ev.controller) and in_game(prev, owner):
            step.set(zk, ev.zone, "mtg.111.2")
            step.set(key("ctrl", ev.id), ev.controller, "mtg.111.2")

    def on_put_onto(self, w: World, prev: State, ev, step: Step) -> None:
        """110.2: it enters under the named player's (default: owner's) control; 800.4b if they left; tapped if the
        effect says so (110.5b)."""
        player = ev.controller or w.owner_of(ev.object)
        w.note("mtg.110.2", *(["mtg.800.4b.enter"] if player is not None else []))
        if player is None:
            step.set(key("zone", ev.object), ev.zone, "mtg.110.2")
        elif in_game(prev, player):
            step.set(key("zone", ev.object), ev.zone, "mtg.110.2")
            step.set(key("ctrl", ev.object), player, "mtg.110.2")
        else:
            step.set(key("zone", ev.object), prev[key("zone", ev.object)], "mtg.800.4b.enter")
            return
        if ev.tapped and prev[key("zone", ev.object)] != "battlefield":  # 110.5b: 'enters tapped' says otherwise
            w.note("mtg.110.5b.tapped")
            step.set(key("flag", ev.object, "tapped"), "1", "mtg.110.5b.tapped")

    def trigger_controller(self, w: World, prev: State, ev) -> tuple[str, str]:
        """Who controls the triggered ability, and the rule that says so: the scenario's player for a delayed one
        (603.7d) or one with no source (603.3); for a leaves-the-battlefield ability, whoever controlled the source
        just before it left (603.10a, none if it has not left); else the source's controller now (603.3a)."""
        if ev.source is None or ev.delayed:
            if ev.controller is None:
                raise Unsupported(f"trigger {ev.id} without a controller to give it")
            return ev.controller, "mtg.603.7d" if ev.delayed else "mtg.603.3"
        if ev.leaves:
            ctrl, rule = prev[key("left_ctrl", ev.source)], "mtg.603.10a"
        elif ev.from_graveyard:  # 113.8: no controller in the graveyard: its owner's
            w.note("mtg.113.8")
            ctrl, rule = w.owner_of(ev.source) or NONE, "mtg.113.8"
        else:
            ctrl, rule = self.controller(w, prev, ev.source), "mtg.603.3a"
        if ev.controller is not None and ctrl not in (NONE, ev.controller):
            raise Unsupported(f"trigger {ev.id}: controller {ev.controller}, but {rule} gives {ctrl}")
        return ctrl, rule

    def on_trigger(self, w: World, prev: State, ev, step: Step) -> None:
        """603.3: on the stack under its controller (603.3a, 603.10a, 603.7d); 800.4d: not if that player left; not
        at all if the source gives it no controller (mtg.603.3a.none)."""
        ctrl, rule = self.trigger_controller(w, prev, ev)
        if ev.from_graveyard:
            w.note("mtg.113.6", rule)
            if prev[key("zone", ev.source)] != "graveyard":  # 113.6: the ability works there only
                step.set(key("zone", ev.id), prev[key("zone", ev.id)], "mtg.113.6")
                step.set(key("status", ev.id), prev[key("status", ev.id)], "mtg.113.6")
                return
        w.note("mtg.603.3", rule, "mtg.800.4d.trigger", *(["mtg.603.3a.none"] if rule in ("mtg.603.3a", "mtg.603.10a")
                                                          else []))
        if ctrl == NONE:
            step.set(key("zone", ev.id), prev[key("zone", ev.id)], "mtg.603.3a.none")
            step.set(key("status", ev.id), prev[key("status", ev.id)], "mtg.603.3a.none")
        elif in_game(prev, ctrl):
            it = targets.item(w, ev.id)
            if it.targets:  # 603.3d: a target it names that is not legal now: removed from the stack at once
                w.note("mtg.603.3d")
            if all(targets.legal(self, w, prev, it, ctrl, t, part) for part in it.parts for t in part.targets):
                step.set(key("zone", ev.id), "stack", "mtg.603.3")
                step.set(key("status", ev.id), "on_stack", "mtg.603.3")
                step.set(key("ctrl", ev.id), ctrl, rule)
            else:
                step.set(key("zone", ev.id), prev[key("zone", ev.id)], "mtg.603.3d")
                step.set(key("status", ev.id), "illegal", "mtg.603.3d")
        else:
            step.set(key("zone", ev.id), prev[key("zone", ev.id)], "mtg.800.4d.trigger")
            step.set(key("status", ev.id), prev[key("status", ev.id)], "mtg.800.4d.trigger")

    # -- damage and life ----------------------------------------------------------------------------------
    def _life(self, w: World, prev: State, player: str, delta: int, rule: str, absent: str, step: Step) -> None:
        k = key("pattr", player, "life")
        w.note(rule, absent)
        if in_game(prev, player):
            step.set(k, str(int(prev[k]) + delta), rule)
        else:
            step.set(k, prev[k], absent)

    def on_combat_damage(self, w: World, prev: State, ev, step: Step) -> None:
        """510.2 to a player in the game; 800.4e: none to a player who left."""
        self._life(w, prev, ev.player, -ev.amount, "mtg.510.2", "mtg.800.4e", step)

    def on_damage(self, w: World, prev: State, ev, step: Step) -> None:
        """To a player: 510.2 (combat) or 120.3a, none if they left (800.4e, mtg.800.4.absent); to a creature on the
        battlefield: marked (120.3e)."""
        if w.sc.options.get("range_of_influence") is not None and not ev.combat:
            w.note("mtg.801.10")  # from a spell or ability: nothing outside its controller's range is affected
            ctrl = self.controller(w, prev, ev.source)
            subject = ev.target if ev.target in w.players else self.controller(w, prev, ev.target)
            reached = ctrl in w.players and subject in w.players and targets.in_range(w, prev, ctrl, subject)
            present = in_game(prev, ev.target) if ev.target in w.players else \
                prev[key("zone", ev.target)] == "battlefield"
            if not reached and present:
                k = key("pattr", ev.target, "life") if ev.target in w.players else key("attr", ev.target, "damage")
                step.set(k, prev[k], "mtg.801.10")
                return
        if ev.target in w.players:
            self._life(w, prev, ev.target, -ev.amount, "mtg.510.2" if ev.combat else "mtg.120.3a",
                       "mtg.800.4e" if ev.combat else "mtg.800.4.absent", step)
            return
        w.note("mtg.120.3e")
        if prev[key("zone", ev.target)] == "battlefield":
            k = key("attr", ev.target, "damage")
            step.set(k, str(int(prev[k]) + ev.amount), "mtg.120.3e")

    def on_gain_life(self, w: World, prev: State, ev, step: Step) -> None:
        """119.3; none for a player who left."""
        self._life(w, prev, ev.player, ev.amount, "mtg.119.3", "mtg.800.4.absent", step)

    def on_lose_life(self, w: World, prev: State, ev, step: Step) -> None:
        """119.3; none for a player who left."""
        self._life(w, prev, ev.player, -ev.amount, "mtg.119.3", "mtg.800.4.absent", step)

    # -- 800.4f-800.4i ----------------------------------------------------------------------------------
    def on_choice(self, w: World, prev: State, ev, step: Step) -> None:
        """The player chooses; if they left: the next player (800.4g, a rule) or another eligible one (800.4f)."""
        flags = {q: key("pflag", q, ev.id) for q in w.players}
        w.note("mtg.choice", "mtg.800.4g" if ev.source is None else "mtg.800.4f")
        if in_game(prev, ev.player):
            for q, k in flags.items():
                step.set(k, b(q == ev.player), "mtg.choice")
            return
        if ev.source is None:
            nxt = next_in_game(w, prev, ev.player)
            for q, k in flags.items():
                step.set(k, b(q == nxt), "mtg.800.4g")
            return
        ok = self._eligible(w, prev, ev)
        for q, k in flags.items():
            if ok[q]:
                step.release(k, "mtg.800.4f")
            else:
                step.set(k, "0", "mtg.800.4f")
        step.check("mtg.800.4f", lambda nxt: sum(nxt[k] == "1" for k in flags.values()) == 1,
                   f"exactly one other player makes {ev.id}")

    def _eligible(self, w: World, st: State, ev) -> dict[str, bool]:
        """800.4f: another player in the game; if it was an opponent's choice, an opponent of the controller if any;
        801.5a: within the controller's range of influence."""
        ctrl = self.controller(w, st, ev.source)
        ranged = w.sc.options.get("range_of_influence") is not None
        if ranged:
            w.note("mtg.801.5a")
        out = {q: q != ev.player and in_game(st, q) and (not ranged or ctrl in w.players and targets.in_range(w, st, ctrl, q))
               for q in w.players}
        if not ev.opponent or ctrl == NONE:
            return out
        opp = {q: out[q] and opponents(w, q, ctrl) for q in w.players}
        return opp if any(opp.values()) else out

    def on_player_information(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4h: current information of a player in the game, last known information of one who left."""
        self._unseen(w, ev)
        into = key("pattr", ev.reader, ev.into)
        cur = key("pattr", ev.player, ev.attribute)
        if in_game(prev, ev.player):
            step.set(into, prev[cur], "mtg.800.4h.current")
        else:
            step.set(into, prev.get(key("lki", ev.player, ev.attribute), prev[cur]), "mtg.800.4h")

    def on_count_actions(self, w: World, prev: State, ev, step: Step) -> None:
        """Counting actions finds those of every player, including players who left (800.4h)."""
        self._unseen(w, ev)
        for q in w.players:
            w.note("mtg.count" if in_game(prev, q) else "mtg.800.4h.actions")
        total = sum(int(prev[key("pattr", q, ev.attribute)]) for q in w.players)
        step.set(key("pattr", ev.reader, ev.into), str(total), "mtg.count")

    def _unseen(self, w: World, ev) -> None:
        """801.11 (what an effect sees outside its controller's range) is not read here."""
        if w.sc.options.get("range_of_influence") is not None:
            raise Unsupported(f"{ev.type} with a limited range of influence (801.11)")

    def on_priority_to_active(self, w: World, prev: State, ev, step: Step) -> None:
        """117.3b: the active player receives priority; 800.4i: with none, the next player in the game after whose turn it is."""
        active = prev["turn.active_player"]
        if active != NONE:
            step.set("turn.priority", active, "mtg.117.3b")
        elif prev["turn.turn_of"] != NONE:
            step.set("turn.priority", next_in_game(w, prev, prev["turn.turn_of"]), "mtg.800.4i.priority")

    # -- expectations -------------------------------------------------------------------------------------
    def atoms(self, w: World, st: State, ex):
        """As the core reads them, but an attachment is the state's (704.5m changes it)."""
        if ex.object is not None and ex.attached_to is not None:
            have = st.get(key("attach", ex.object), NONE)
            yield have == ex.attached_to
            ex = ex.model_copy(update={"attached_to": None})
        yield from super().atoms(w, st, ex)


RULES = MtgRules()
