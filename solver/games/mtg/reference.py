"""The reference reading of Magic: The Gathering 800.4 (seed 000): a player leaves a game of three or more.

Plain Python over a state dict; shares no code with the encoding (``ruleset.py`` here). An event
whose rule text is a procedure ("... then ... then ...", 800.4a) is read as a
sequence of sub-states computed here one after the other, the static effects
following their sources at each; the validator sees only the state after the
whole event, so each key the procedure sets is named with the rule that set it
last.

Readings (from the seed text and the game module's documented semantics):
- leaving (800.4a): 800.4n first (a Plane the leaver controls passes on); then the
  leaver's status changes, the objects they own leave the game (ante stays,
  800.4m; a non-card on the stack waits for the next sentence), effects giving
  them control end (a static one is marked ``ended``), 'until your next turn'
  effects of theirs stay (800.4k), last known information is recorded (800.4h),
  the turn loses its active player (800.4i); then 800.4c; then their non-card
  stack objects cease to exist; then what they still control is exiled and the
  priority they held passes on; then state-based actions (704.5m, 704.5d).
- 800.4c after every event that ends control effects (leaving, end_effect,
  end_turn, begin_turn): an object a control effect applied to just before the
  event, that no control effect applies to now, whose default controller left,
  in a zone where objects have controllers, is exiled.
"""
from __future__ import annotations

from models.expectations import ACTION_STATUSES
from models.scenario import ActionSpec
from solver.reference.rules import CoreRules, Step, Unsupported
from solver.reference.world import BOOL, INT, NONE, Obj, State, World, b, key

#: zones in which an object has a controller (800.4a exile, 800.4c)
CONTROLLED_ZONES = ("battlefield", "stack", "command")
IN_GAME = "in_game"


def in_game(st: State, player: str | None) -> bool:
    """The player is still in the game."""
    return player is not None and st.get(key("pstatus", player)) == IN_GAME


def next_in_game(w: World, st: State, player: str) -> str:
    """The next player after ``player`` in turn order still in the game (none when nobody else is)."""
    i = w.players.index(player)
    for k in range(1, len(w.players)):
        q = w.players[(i + k) % len(w.players)]
        if in_game(st, q):
            return q
    return NONE


def opponents(w: World, a: str, c: str) -> bool:
    """Players ``a`` and ``c`` are opponents: different players not on one team."""
    teams = {p.id: p.team for p in w.sc.players}
    return a != c and (teams[a] is None or teams[a] != teams[c])


class Proc:
    """A procedure of sub-states within one event: each sub-step reads the state before it."""

    def __init__(self, rules: "MtgRules", w: World, prev: State, stage: int) -> None:
        self.rules, self.w, self.stage = rules, w, stage
        self.st = dict(prev)
        self.last: dict[str, tuple[str, str]] = {}  # key -> (value, rule that set it last)
        self.broken: list[tuple[str, str]] = []  # (rule, why) contradictions met within the event

    def substep(self, changes: list[tuple[str, str, str]]) -> None:
        """Apply one sub-step's changes (key, value, rule) at once, then the static effects follow their sources."""
        seen: dict[str, tuple[str, str]] = {}
        for k, v, rule in changes:
            if k in seen and seen[k][0] != v:
                self.broken.append((rule, f"{k} set to both {seen[k][0]} and {v} ({seen[k][1]})"))
            seen[k] = (v, rule)
        for k, (v, rule) in seen.items():
            self.st[k] = v
            if k not in self.w.statics(self.stage):
                self.last[k] = (v, rule)
        for k, e in self.w.statics(self.stage).items():
            want = b(self.rules.static_on(self.w, self.st, e))
            if k in seen and seen[k][0] != want:
                self.broken.append(("core.static", f"{k} set to {seen[k][0]} while its source {e.source} makes it {want}"))
            self.st[k] = want

    def into(self, step: Step) -> None:
        """Every key the procedure set, with its final value and rule; contradictions as failing checks."""
        for k, (v, rule) in self.last.items():
            step.set(k, v, rule)
        for rule, why in self.broken:
            step.check(rule, lambda nxt: False, why)


class MtgRules(CoreRules):
    """MTG 800.4a-800.4n with 110.2, 111.2, 117.3b, 510.2, 603.2, 603.3, 608.2b, 704.5d, 704.5m."""

    game = "mtg"
    zones = ("battlefield", "hand", "library", "graveyard", "exile", "stack", "ante", "command", "outside")
    play_zones = ("battlefield",)
    graveyard = "graveyard"
    gone_zones = (NONE, "outside")

    def on_resolve(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / mtg.608.2b: with an illegal target it does not resolve."""
        self.resolve(w, prev, ev, step, resolves="core.resolve", interrupted="mtg.608.2b")

    def on_start_execution(self, w: World, prev: State, ev, step: Step) -> None:
        """core.resolve / mtg.608.2b."""
        self.start_execution(w, prev, ev, step, starts="core.resolve", interrupted="mtg.608.2b")

    # -- state keys -----------------------------------------------------------------------
    def extra_keys(self, w: World) -> None:
        """Created objects and triggered abilities, attachments, player keys of events, whose turn, LKI, ended."""
        players = tuple(w.players) + (NONE,)
        w.tokens = {o.id for o in w.sc.objects if o.token}
        for ev in w.sc.events:
            if ev.type == "create":
                if ev.zone not in w.zones:
                    raise Unsupported(f"create {ev.id}: zone '{ev.zone}' is not a zone of mtg")
                w.objects.setdefault(ev.id, Obj(ev.id, ev.owner or ev.controller, tuple(ev.types), False, None))
                if ev.token:
                    w.tokens.add(ev.id)
            elif ev.type == "trigger":
                spec = ActionSpec(kind=ev.kind, targets=ev.targets, params=ev.params)
                w.objects.setdefault(ev.id, Obj(ev.id, None, ("ability",), False, spec))
            else:
                continue
            w.add(key("zone", ev.id), w.zones, NONE)
            w.add(key("ctrl", ev.id), players, NONE)
            if ev.type == "trigger":
                w.add(key("status", ev.id), ACTION_STATUSES, "unborn")
        self._attach_keys(w)
        for ev in w.sc.events:
            for k, dom, init in self._event_keys(w, ev):
                w.add(k, dom, init)
        w.add(key("turn", "turn_of"), players, w.sc.turn.active_player or NONE)
        if any(ev.type == "leave_game" for ev in w.sc.events):
            for k in [k for k in w.domains if k.startswith("pattr.")]:
                w.add("lki." + k[len("pattr."):], w.domains[k], w.initial[k])
        for e in w.effects:
            if e.kind == "control" and e.duration == "static":
                w.add(key("ended", e.id), BOOL, "0")

    def _attach_keys(self, w: World) -> None:
        data = {o.id: o for o in w.sc.objects}
        targets = sorted({o.attached_to for o in w.sc.objects if o.attached_to})
        if not targets:
            return
        for oid, info in w.objects.items():
            o = data.get(oid)
            if o is None or o.attached_to or {"aura", "equipment"} & set(info.types):
                w.add(key("attach", oid), tuple(targets) + (NONE,), (o.attached_to if o else None) or NONE)

    def _event_keys(self, w: World, ev) -> list[tuple[str, object, str]]:
        if ev.type == "combat_damage":
            return [(key("pattr", ev.player, "life"), INT, "0")]
        if ev.type == "choice":
            return [(key("pflag", p, ev.id), BOOL, "0") for p in w.players]
        if ev.type == "player_information":
            return [(key("pattr", ev.player, ev.attribute), INT, "0"), (key("pattr", ev.reader, ev.into), INT, "0")]
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

    def _ceased(self, st: State, o: str, rule: str) -> list[tuple[str, str, str]]:
        """A stack object leaving the stack this way no longer waits to resolve."""
        k = key("status", o)
        return [(k, "ceased", rule)] if st.get(k) == "on_stack" else []

    def _control_objects(self, w: World) -> list[str]:
        return [o for o in w.objects if w.effects_on(o, "control")]

    def _800_4c(self, w: World, before: State, p: Proc) -> None:
        """800.4c: control just ended, no other control effect, default controller left: exiled at once."""
        w.note("mtg.800.4c")
        st, out = p.st, []
        for o in self._control_objects(w):
            effects = w.effects_on(o, "control")
            ended = any(self.applies(w, before, e, o) and st[key("active", e.id)] != "1" for e in effects)
            if not ended or any(self.applies(w, st, e, o) for e in effects):
                continue
            if in_game(st, st[key("ctrl", o)]) or st[key("ctrl", o)] == NONE:
                continue
            if st[key("zone", o)] in CONTROLLED_ZONES:
                out.append((key("zone", o), "exile", "mtg.800.4c"))
                if st[key("zone", o)] == "stack":
                    out += self._ceased(st, o, "mtg.800.4c")
        p.substep(out)

    def _state_based(self, w: World, p: Proc) -> None:
        """704.5m: an Aura attached to an object off the battlefield goes to the graveyard; 704.5d: stray tokens."""
        w.note("mtg.704.5m", "mtg.704.5d")
        st, out = p.st, []
        for o, info in w.objects.items():
            ak = key("attach", o)
            if ak in w.domains and "aura" in info.types and st[key("zone", o)] == "battlefield":
                t = st[ak]
                if t != NONE and st[key("zone", t)] != "battlefield":
                    out += [(key("zone", o), self.graveyard, "mtg.704.5m"), (ak, NONE, "mtg.704.5m")]
            if o in w.tokens and st[key("zone", o)] not in ("battlefield",) + self.gone_zones:
                out.append((key("zone", o), NONE, "mtg.704.5d"))
        p.substep(out)

    # -- 800.4: a player leaves ---------------------------------------------------------------
    def on_leave_game(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4n, the 800.4a procedure sentence by sentence (800.4c after the first), state-based actions."""
        p, pl = self._proc(w, prev, ev), ev.player
        if any("plane" in info.types for info in w.objects.values()):
            self._planar(w, p, pl)
        self._owned_leave(w, p, ev)
        if self._control_objects(w):
            self._800_4c(w, prev, p)
        self._cease(w, p, pl)
        self._exile(w, p, pl)
        self._state_based(w, p)
        p.into(step)

    def _planar(self, w: World, p: Proc, pl: str) -> None:
        """800.4n: the next player in turn order becomes planar controller first."""
        w.note("mtg.800.4n")
        st, out = p.st, []
        if in_game(st, pl):
            for o, info in w.objects.items():
                if "plane" in info.types and st[key("ctrl", o)] == pl and st[key("zone", o)] == "command":
                    out.append((key("ctrl", o), next_in_game(w, st, pl), "mtg.800.4n"))
        p.substep(out)

    def _owned_leave(self, w: World, p: Proc, ev) -> None:
        """800.4a first sentence (with 800.4m, 800.4k, 800.4h, 800.4i)."""
        w.note("mtg.800.4", "mtg.800.4a.owned", "mtg.800.4a.control_ends", "mtg.800.4i")
        st, pl, out = p.st, ev.player, []
        if not in_game(st, pl):
            p.substep(out)
            return
        out.append((key("pstatus", pl), ev.status, "mtg.800.4"))
        if any(info.owner == pl for info in w.objects.values()):
            w.note("mtg.800.4m")  # the ante zone keeps what they own there
        if any(e.duration == "until_next_turn" and e.until_player == pl for e in w.effects):
            w.note("mtg.800.4k")  # their 'until your next turn' effects stay
        for o, info in w.objects.items():
            zone = st[key("zone", o)]
            if info.owner != pl or zone in self.gone_zones or zone == "ante":
                continue  # 800.4m: the ante zone keeps them
            if zone == "stack" and not info.card:
                continue  # not a card: the next sentence decides
            out.append((key("zone", o), "outside", "mtg.800.4a.owned"))
            if zone == "stack":
                out += self._ceased(st, o, "mtg.800.4a.owned")
        for e in w.effects:
            if e.kind == "control" and e.player == pl:
                k = key("ended", e.id) if e.duration == "static" else key("active", e.id)
                out.append((k, "1" if e.duration == "static" else "0", "mtg.800.4a.control_ends"))
        for k in [k for k in w.domains if k.startswith(f"lki.{pl}.")]:
            out.append((k, st["pattr." + k[len("lki."):]], "mtg.800.4h"))
        if st["turn.active_player"] == pl:
            out.append(("turn.active_player", NONE, "mtg.800.4i"))
        p.substep(out)

    def _cease(self, w: World, p: Proc, pl: str) -> None:
        """800.4a second sentence: the leaver's non-card objects on the stack cease to exist."""
        w.note("mtg.800.4a.stack_ceases")
        st, out = p.st, []
        if not in_game(st, pl):
            for o, info in w.objects.items():
                if not info.card and st[key("zone", o)] == "stack" and self.controller(w, st, o) == pl:
                    out.append((key("zone", o), NONE, "mtg.800.4a.stack_ceases"))
                    out += self._ceased(st, o, "mtg.800.4a.stack_ceases")
        p.substep(out)

    def _exile(self, w: World, p: Proc, pl: str) -> None:
        """800.4a third sentence: what the leaver still controls is exiled; the priority they held passes."""
        w.note("mtg.800.4a.exile", "mtg.800.4a.priority")
        st, out = p.st, []
        if not in_game(st, pl):
            for o in w.objects:
                if st[key("zone", o)] in CONTROLLED_ZONES and self.controller(w, st, o) == pl:
                    out.append((key("zone", o), "exile", "mtg.800.4a.exile"))
                    if st[key("zone", o)] == "stack":
                        out += self._ceased(st, o, "mtg.800.4a.exile")
            if st["turn.priority"] == pl:
                out.append(("turn.priority", next_in_game(w, st, pl), "mtg.800.4a.priority"))
        p.substep(out)

    # -- core events with 800.4 consequences ----------------------------------------------------
    def on_end_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """The effect ends; a control effect ending may exile (800.4c), then state-based actions."""
        p = self._proc(w, prev, ev)
        p.substep([(key("active", ev.effect), "0", "core.effect_ends")])
        if next(e for e in w.effects if e.id == ev.effect).kind == "control":
            self._800_4c(w, prev, p)
            self._state_based(w, p)
        p.into(step)

    def on_end_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """'Until end of turn' effects end; then 800.4c and state-based actions if one of them gave control."""
        p = self._proc(w, prev, ev)
        p.substep([(key("active", e.id), "0", "core.end_of_turn") for e in w.effects
                   if e.duration == "until_end_of_turn"])
        if any(e.kind == "control" and e.duration == "until_end_of_turn" for e in w.effects):
            self._800_4c(w, prev, p)
            self._state_based(w, p)
        p.into(step)

    def on_begin_turn(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4j: a leaver's turn does not begin; 800.4k: their 'until your next turn' effects end anyway."""
        p, pl = self._proc(w, prev, ev), ev.player
        here = in_game(prev, pl)
        w.note("mtg.500.begin_turn", "mtg.800.4j")
        out = [(key("active", e.id), "0", "core.next_turn" if here else "mtg.800.4k")
               for e in w.effects if e.duration == "until_next_turn" and e.until_player == pl]
        if out:
            w.note("core.next_turn")
            w.note("mtg.800.4k")
        if here:
            out += [(k, pl, "mtg.500.begin_turn") for k in ("turn.active_player", "turn.priority", "turn.turn_of")]
        p.substep(out)
        if any(e.kind == "control" and e.duration == "until_next_turn" for e in w.effects):
            self._800_4c(w, prev, p)
            self._state_based(w, p)
        p.into(step)
        if not here:
            for k in ("turn.active_player", "turn.priority", "turn.turn_of"):
                step.set(k, prev[k], "mtg.800.4j")

    def on_begin_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4b: control for a player who left does not begin (a static one is ended at once)."""
        e = ev.effect
        if e.kind != "control":
            super().on_begin_effect(w, prev, ev, step)
            return
        over_player = any(t in w.players for t in (e.targets if isinstance(e.targets, list) else []))
        rule = "mtg.800.4b.player" if over_player else "mtg.800.4b.control"
        w.note(rule)
        here = in_game(prev, e.player)
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
        w.note("mtg.111.2", "mtg.800.4d", *(["mtg.800.4b.token"] if ev.zone in CONTROLLED_ZONES else []),
               *(["mtg.603.2"] if ev.source else []))
        zk = key("zone", ev.id)
        if ev.zone in CONTROLLED_ZONES and not in_game(prev, ev.controller):
            step.set(zk, prev[zk], "mtg.800.4b.token")
        if not in_game(prev, owner):
            step.set(zk, prev[zk], "mtg.800.4d")
        if ev.source and prev[key("zone", ev.source)] != "battlefield":
            step.set(zk, prev[zk], "mtg.603.2")
        elif in_game(prev, ev.controller) and in_game(prev, owner):
            step.set(zk, ev.zone, "mtg.111.2")
            step.set(key("ctrl", ev.id), ev.controller, "mtg.111.2")

    def _enter(self, w: World, prev: State, obj: str, zone: str, player: str | None, rule: str,
               step: Step) -> None:
        """``obj`` enters ``zone`` under ``player``'s control, unless that player left (800.4b: it stays)."""
        w.note(rule, *(["mtg.800.4b.enter"] if player is not None else []))
        if player is None:
            step.set(key("zone", obj), zone, rule)
        elif in_game(prev, player):
            step.set(key("zone", obj), zone, rule)
            step.set(key("ctrl", obj), player, rule)
        else:
            step.set(key("zone", obj), prev[key("zone", obj)], "mtg.800.4b.enter")

    def on_put_onto(self, w: World, prev: State, ev, step: Step) -> None:
        """110.2: it enters under the named player's (default: owner's) control; 800.4b if they left."""
        self._enter(w, prev, ev.object, ev.zone, ev.controller or w.owner_of(ev.object), "mtg.110.2", step)

    def on_trigger(self, w: World, prev: State, ev, step: Step) -> None:
        """603.3: on the stack under its controller; 800.4d: not if that player left."""
        w.note("mtg.603.3", "mtg.800.4d.trigger")
        if in_game(prev, ev.controller):
            step.set(key("zone", ev.id), "stack", "mtg.603.3")
            step.set(key("status", ev.id), "on_stack", "mtg.603.3")
            step.set(key("ctrl", ev.id), ev.controller, "mtg.603.3")
        else:
            step.set(key("zone", ev.id), prev[key("zone", ev.id)], "mtg.800.4d.trigger")
            step.set(key("status", ev.id), prev[key("status", ev.id)], "mtg.800.4d.trigger")

    # -- action kinds -------------------------------------------------------------------------------
    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """return_to_battlefield needs its targets still in exile (608.2b); spells and abilities need nothing."""
        if spec.kind == "return_to_battlefield":
            w.note("mtg.return", "mtg.800.4b.enter")  # what it does when it resolves
            return [("mtg.608.2b", all(st[key("zone", t)] == "exile" for t in spec.targets))]
        if spec.kind in ("spell", "ability"):
            return []
        return super().kind_requirements(w, st, spec)

    def kind_apply(self, w: World, st: State, spec, step: Step) -> None:
        """Astral Slide's return: each target enters the battlefield under its owner's control."""
        if spec.kind == "return_to_battlefield":
            for t in spec.targets:
                self._enter(w, st, t, "battlefield", w.owner_of(t), "mtg.return", step)
        elif spec.kind not in ("spell", "ability"):
            super().kind_apply(w, st, spec, step)

    # -- 800.4e-800.4i ----------------------------------------------------------------------------------
    def on_combat_damage(self, w: World, prev: State, ev, step: Step) -> None:
        """510.2 to a player in the game; 800.4e: none to a player who left."""
        k = key("pattr", ev.player, "life")
        w.note("mtg.510.2", "mtg.800.4e")
        if in_game(prev, ev.player):
            step.set(k, str(int(prev[k]) - ev.amount), "mtg.510.2")
        else:
            step.set(k, prev[k], "mtg.800.4e")

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
        """800.4f: another player in the game; if it was an opponent's choice, an opponent of the controller if any."""
        ctrl = self.controller(w, st, ev.source)
        out = {q: q != ev.player and in_game(st, q) for q in w.players}
        if not ev.opponent or ctrl == NONE:
            return out
        opp = {q: out[q] and opponents(w, q, ctrl) for q in w.players}
        return opp if any(opp.values()) else out

    def on_player_information(self, w: World, prev: State, ev, step: Step) -> None:
        """800.4h: current information of a player in the game, last known information of one who left."""
        into = key("pattr", ev.reader, ev.into)
        cur = key("pattr", ev.player, ev.attribute)
        if in_game(prev, ev.player):
            step.set(into, prev[cur], "mtg.800.4h.current")
        else:
            step.set(into, prev.get(key("lki", ev.player, ev.attribute), prev[cur]), "mtg.800.4h")

    def on_count_actions(self, w: World, prev: State, ev, step: Step) -> None:
        """Counting actions finds those of every player, including players who left (800.4h)."""
        for q in w.players:
            w.note("mtg.count" if in_game(prev, q) else "mtg.800.4h.actions")
        total = sum(int(prev[key("pattr", q, ev.attribute)]) for q in w.players)
        step.set(key("pattr", ev.reader, ev.into), str(total), "mtg.count")

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
