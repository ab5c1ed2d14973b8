"""The reference reading of the Twilight Imperium 4 elimination rules (seed 004: rule 75, LRR 33), in plain Python.

Every event is read as three successive states, as the seed and the game's documented
semantics (``ruleset.py`` docstring here, the scenarios) describe it:

1. the event itself (core events, planet control, capture, return of a captured unit,
   end of the status phase, the elimination check that does nothing else);
2. the 75.1 check: each player still in the game with no ground force on the board, no
   unit with Production on the board and no planet is eliminated;
3. the components of the players eliminated in step 2 (75.2-75.11, comments 4-7), the
   speaker token (75.8), the strategy-card count (75.9) and the last player's victory.

The check runs after *every* event: no pruning. Each stage is computed here directly
from the state before it; a key two rules of one stage send to different values has no
successor (a contradiction, as in the encoding). The step handed to the validator
names, for each key, the last rule that set it. Shares no code with the encoding.
"""
from __future__ import annotations

from solver.reference.rules import CoreRules, Step, Unsupported
from solver.reference.world import BOOL, INT, NONE, State, World, key

GROUND = {"ground_force", "infantry", "mech"}
UNITS = GROUND | {"unit", "ship", "structure"}
#: cards that go where 75.3, 75.5, 75.6, 75.7 and comment 6 send them, from whoever holds them
HELD = {
    "agenda": ("ti4.75.3", "agenda_discard"),
    "action_card": ("ti4.75.5", "action_discard"),
    "strategy_card": ("ti4.75.6", "common_area"),
    "secret_objective": ("ti4.75.7", "secret_deck"),
    "relic": ("ti4.75.c6", "purged"),
    "relic_fragment": ("ti4.75.c6", None),
}
NOT_FACTION = set(HELD) | {"planet", "speaker_token", "promissory_note"}
STRATEGY = "strategy_cards"


class Contradiction(Exception):
    """Two rules of one stage send a key to different values: the event has no successor."""


class Stage:
    """One stage under construction: reads ``prev``, collects (key, value, rule) and detects conflicts."""

    def __init__(self, prev: State) -> None:
        self.prev = prev
        self.sets: dict[str, tuple[str, str]] = {}

    def set(self, k: str, value: str, rule: str) -> None:
        """Rule ``rule`` sends key ``k`` to ``value``."""
        value = str(value)
        if k in self.sets and self.sets[k][0] != value:
            raise Contradiction(f"{k}: {self.sets[k][1]} says {self.sets[k][0]}, {rule} says {value}")
        self.sets[k] = (value, rule)

    def keep(self, k: str, rule: str) -> None:
        """Rule ``rule`` keeps key ``k`` as it was."""
        self.set(k, self.prev[k], rule)

    def to(self, obj: str, zone: str, holder: str, rule: str) -> None:
        """The object goes to ``zone`` held by ``holder``."""
        self.set(key("zone", obj), zone, rule)
        self.set(key("ctrl", obj), holder, rule)

    def stay(self, obj: str, rule: str) -> None:
        """The object stays where it is, with whoever holds it."""
        self.keep(key("zone", obj), rule)
        self.keep(key("ctrl", obj), rule)

    def result(self) -> State:
        """The state after this stage (keys no rule set keep their value)."""
        out = dict(self.prev)
        out.update({k: v for k, (v, _) in self.sets.items()})
        return out


class Ti4Rules(CoreRules):
    """Twilight Imperium 4: elimination (rule 75) after every event."""

    game = "ti4"
    graveyard = "action_discard"
    gone_zones = (NONE, "box", "purged")

    # -- state keys ------------------------------------------------------------------
    def extra_keys(self, w: World) -> None:
        """Strategy cards to pick (one with 5+ players at the start, else two); attachments (never change)."""
        start = self.players_at_start(w)
        in_game = sum(p.status == "in_game" for p in w.sc.players)
        for p in w.players:  # what 75.9 / the strategy phase make it where the scenario does not give it
            w.add(key("pattr", p, STRATEGY), INT, "1" if start >= 5 or in_game >= 5 else "2")
        targets = sorted({o.attached_to for o in w.sc.objects if o.attached_to})
        if targets:
            by_id = {o.id: o for o in w.sc.objects}
            for oid, info in w.objects.items():
                o = by_id.get(oid)
                if o is None or o.attached_to or {"aura", "equipment"} & set(info.types):
                    w.add(key("attach", oid), tuple(targets) + (NONE,), (o.attached_to if o else None) or NONE)
        for o in w.sc.objects:
            if "commander" in o.types and "unlocked" in o.flags:
                w.add(key("flag", o.id, "unlocked"), BOOL, "1" if o.flags["unlocked"] else "0")

    def stage_checks(self, w: World, st: State, stage: int) -> list[tuple[str, str]]:
        """core.static; and in the initial state each player in the game picks one strategy card when the game
        began with 5+ players and 4 or fewer remain (ti4.75.9), else as the strategy phase says."""
        out = super().stage_checks(w, st, stage)
        if stage != 0:
            return out
        players = [p for p in w.players if st[key("pstatus", p)] == "in_game"]
        few = len(players) <= 4
        rule = "ti4.75.9" if few and self.players_at_start(w) >= 5 else "ti4.strategy_phase.count"
        want = "2" if few and rule != "ti4.75.9" else "1"
        for p in players:
            w.note(rule)
            if st[key("pattr", p, STRATEGY)] != want:
                out.append((rule, f"{p} picks {st[key('pattr', p, STRATEGY)]} strategy card(s), not {want}"))
        return out

    @staticmethod
    def players_at_start(w: World) -> int:
        """Option ``players_at_start``, else every listed player."""
        n = w.sc.options.get("players_at_start", len(w.players))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1 or n < len(w.players):
            raise Unsupported(f"players_at_start {n!r} (every listed player began the game)")
        return n

    # -- who holds what ------------------------------------------------------------------
    def holds_obj(self, w: World, st: State, obj: str, player: str) -> bool:
        """The player holds / controls the object (control effects first, then the default controller)."""
        return self.controller(w, st, obj) == player

    def _typed(self, w: World, types) -> list[str]:
        return [o for o, info in w.objects.items() if set(info.types) & set(types)]

    def ground(self, w: World, st: State, p: str) -> bool:
        """75.1a: a ground force of the player on the board."""
        return any(st[key("zone", o)] == "board" and self.holds_obj(w, st, o, p) for o in self._typed(w, GROUND))

    def production(self, w: World, st: State, p: str) -> bool:
        """75.1b / comment 4: a unit of the player on the board with the Production ability itself."""
        if any(set(d.abilities) - {"production"} for d in w.sc.objects if set(d.types) & UNITS):
            w.note("ti4.75.c4")  # comment 4: a unit that makes units otherwise has no Production
        units = [o for o in self._typed(w, UNITS) if st[key("zone", o)] == "board" and self.holds_obj(w, st, o, p)]
        return any(self.has_ability(w, st, o, "production") for o in units)

    def planets(self, w: World, st: State, p: str) -> bool:
        """75.1c: the player controls a planet."""
        return any(self.holds_obj(w, st, o, p) for o in self._typed(w, {"planet"}))

    # -- the score_objective action (comment 5a) -------------------------------------------
    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """The objective is the actor's; each target is a home system on the board owned by another player."""
        if spec.kind != "score_objective":
            return super().kind_requirements(w, st, spec)
        out = [("ti4.objective.score", self.holds_obj(w, st, spec.source, spec.actor))]
        for t in spec.targets:
            info = w.objects[t]
            out.append(("ti4.75.c5", st[key("zone", t)] == "board" and "home_system" in info.types))
            out.append(("ti4.75.c5a", info.owner is not None and info.owner != spec.actor))
        return out

    def kind_apply(self, w: World, st: State, spec, step: Step) -> None:
        """The scored objective goes to the scorer's play area."""
        if spec.kind != "score_objective":
            return super().kind_apply(w, st, spec, step)
        step.set(key("zone", spec.source), "play_area", "ti4.objective.score")
        step.set(key("ctrl", spec.source), spec.actor, "ti4.objective.score")

    # -- ti4 events (stage 1) --------------------------------------------------------------
    def on_planet_control(self, w: World, prev: State, ev, step: Step) -> None:
        """The planet's controller changes (none: uncontrolled)."""
        if "planet" not in w.objects[ev.planet].types:
            raise Unsupported(f"planet_control on non-planet {ev.planet}")
        if ev.player and prev[key("pstatus", ev.player)] != "in_game":  # an eliminated player takes no part
            step.set(key("ctrl", ev.planet), prev[key("ctrl", ev.planet)], "ti4.75.out")
            return
        step.set(key("ctrl", ev.planet), ev.player or NONE, "ti4.control.planet")

    def on_capture(self, w: World, prev: State, ev, step: Step) -> None:
        """The unit goes onto the captor's sheet."""
        if prev[key("pstatus", ev.player)] != "in_game":  # an eliminated player takes no part: no capture
            w.note("ti4.75.out")
            step.set(key("zone", ev.object), prev[key("zone", ev.object)], "ti4.75.out")
            step.set(key("ctrl", ev.object), prev[key("ctrl", ev.object)], "ti4.75.out")
            return
        step.set(key("zone", ev.object), "captured", "ti4.capture")
        step.set(key("ctrl", ev.object), ev.player, "ti4.capture")
        self.moved(w, prev, ev.object, "captured", None, step)

    def moved(self, w: World, prev: State, obj: str, zone: str, cell: str | None, step: Step) -> None:
        """Transport: what is aboard a ship (attached to it, a ground force or fighter) stays aboard while the ship
        is on the board, and goes to its owner's reinforcements when the ship leaves it; a unit that moves on its
        own is no longer aboard."""
        by_id = {o.id: o for o in w.sc.objects}
        ships = {o.id for o in w.sc.objects if "ship" in o.types}
        cargo = {o.id: o.attached_to for o in w.sc.objects
                 if o.attached_to in ships and set(o.types) & (GROUND | {"fighter"})}
        if cargo:
            w.note("ti4.transport")
        if obj in cargo:
            step.set(key("attach", obj), NONE, "ti4.transport")
        if zone == "board":
            return
        for u, ship in cargo.items():
            if ship == obj and prev[key("attach", u)] == obj and prev[key("zone", u)] == "board":
                step.set(key("zone", u), "reinforcements", "ti4.transport")
                step.set(key("ctrl", u), by_id[u].owner or NONE, "ti4.transport")
                step.set(key("attach", u), NONE, "ti4.transport")

    def on_return_captured(self, w: World, prev: State, ev, step: Step) -> None:
        """A captured unit goes to its owner's reinforcements, or to the box if the owner is out (comment 7)."""
        o, owner = ev.object, w.owner_of(ev.object)
        w.note("ti4.capture.return", "ti4.75.c7")
        if owner is None:
            raise Unsupported(f"return_captured of ownerless {o}")
        if prev[key("zone", o)] != "captured":
            return
        if prev[key("pstatus", owner)] == "in_game":
            step.set(key("zone", o), "reinforcements", "ti4.capture.return")
            step.set(key("ctrl", o), owner, "ti4.capture.return")
        else:
            step.set(key("zone", o), "box", "ti4.75.c7")
            step.set(key("ctrl", o), NONE, "ti4.75.c7")

    def on_end_status_phase(self, w: World, prev: State, ev, step: Step) -> None:
        """75.10c: the "0" token of a player no longer in the game leaves it."""
        w.note("ti4.75.10c")
        for o in self._typed(w, {"zero_token"}):
            owner = w.owner_of(o)
            if owner and prev[key("pstatus", owner)] != "in_game" and prev[key("zone", o)] not in self.gone_zones:
                step.set(key("zone", o), "box", "ti4.75.10c")
                step.set(key("ctrl", o), NONE, "ti4.75.10c")

    def new_objects(self, w: World, prev: State, ev, step: Step) -> None:
        """An object that changes zone is a new object: read stage by stage in the event's procedure (``step``)."""

    def on_check_elimination(self, w: World, prev: State, ev, step: Step) -> None:
        """Nothing happens but the check that follows every event."""

    # -- one event: its own stage, the 75.1 check, the components ------------------------------
    def step(self, w: World, prev: State, ev) -> Step:
        """The state after the event and the elimination procedure, each key under the last rule that set it."""
        index = next(i for i, e in enumerate(w.sc.events) if e is ev) + 1
        first = super().step(w, prev, ev)
        w.note(*first.rules())
        out = Step()
        try:
            s1, rules1 = self._first_stage(w, prev, first, index)
            new = self.renewed(w, prev, s1, index)  # an object that changed zone is a new one from here on
            s1.update(new)
            check = self._check(w, s1)
            s2 = self._follow(w, check.result(), index)
            comp = self._components(w, s1, s2)
            s3 = self._follow(w, comp.result(), index)
            later = self.renewed(w, s2, s3, index)
            s3.update(later)
            new.update(later)
        except Contradiction as exc:
            out.check("ti4.contradiction", lambda _: False, f"no successor: {exc}")
            return out
        named = dict(rules1)
        named.update({k: self.identity_rule() for k in new})
        named.update({k: r for k, (_, r) in check.sets.items()})
        named.update({k: r for k, (_, r) in comp.sets.items()})
        statics = w.statics(index)
        for k in w.domains:
            if k in statics:
                continue
            if k in named:
                out.set(k, s3[k], named[k])
            elif s3[k] != prev[k]:
                out.set(k, s3[k], "core.inertia")
        return out

    def _first_stage(self, w: World, prev: State, step: Step, index: int) -> tuple[State, dict[str, str]]:
        """The event's own stage: every key its rules set, static effects following their sources."""
        if step.checks:
            raise Unsupported("an event with whole-state conditions")
        s1, rules = dict(prev), {}
        for k, allowed in step.sets.items():
            common = frozenset.intersection(*(a for _, a in allowed))
            if len(common) != 1:
                raise Contradiction(f"{k}: " + ", ".join(f"{r} says {'/'.join(sorted(a))}" for r, a in allowed))
            s1[k] = next(iter(common))
            rules[k] = allowed[-1][0]
        for k in step.free:
            if k not in w.static:
                raise Unsupported(f"a free choice of {k}")
        followed = self._follow(w, dict(s1), index)
        for k in w.statics(index):
            if k in step.sets and followed[k] != s1[k]:
                raise Contradiction(f"{k}: {rules[k]} says {s1[k]}, core.static says {followed[k]}")
        return followed, rules

    def _follow(self, w: World, st: State, index: int) -> State:
        """Static effects are active exactly while their source is in a play zone."""
        for k, e in w.statics(index).items():
            st[k] = "1" if st.get(key("zone", e.source)) in self.play_zones else "0"
        return st

    def _check(self, w: World, s1: State) -> Stage:
        """75.1: a player in the game meeting all three conditions is eliminated; each failing one keeps them."""
        stage = Stage(s1)
        w.note("ti4.75.1")  # weighed for every player, in the game or not
        for p in w.players:
            k = key("pstatus", p)
            if s1[k] != "in_game":
                continue
            conds = (("ti4.75.1a", self.ground(w, s1, p)), ("ti4.75.1b", self.production(w, s1, p)),
                     ("ti4.75.1c", self.planets(w, s1, p)))
            for rule, _ in conds:
                w.note(rule)
            w.note("ti4.75.1")  # the check is weighed whether or not it eliminates
            kept = [r for r, c in conds if c]
            if kept:
                stage.keep(k, kept[0])
            else:
                stage.set(k, "eliminated", "ti4.75.1")
        return stage

    def _components(self, w: World, s1: State, s2: State) -> Stage:
        """75.2-75.11 and comments 4-7 for every player eliminated by this check."""
        w.note("ti4.75.2", "ti4.75.3", "ti4.75.4", "ti4.75.4a", "ti4.75.5", "ti4.75.6", "ti4.75.7", "ti4.75.8",
               "ti4.75.9", "ti4.75.10a", "ti4.75.10b", "ti4.75.10c", "ti4.75.10d", "ti4.75.10e", "ti4.75.10f",
               "ti4.75.11", "ti4.75.c5", "ti4.75.c6", "ti4.75.c7", "ti4.strategy_phase.count")
        stage = Stage(s2)
        now = {p: s1[key("pstatus", p)] == "in_game" and s2[key("pstatus", p)] == "eliminated" for p in w.players}
        alive = {p: s2[key("pstatus", p)] == "in_game" for p in w.players}
        for o, info in w.objects.items():
            if info.spec is None:
                self._place(w, stage, o, info, now, alive)
        if any(now.values()):
            self._speaker(w, stage, now, alive)
            self._count(w, stage, alive)
        return stage

    def _place(self, w: World, stage: Stage, o: str, info, now: dict, alive: dict) -> None:
        """Where one component goes. A faction component whose owner is out of the game, eliminated now or at any
        earlier check, is read again every time: what an exception kept in play goes to the box once the exception
        no longer holds (75.2), except a captured unit its captor's elimination now sends on (75.11)."""
        types = set(info.types)
        if types & set(HELD):
            self._held(w, stage, o, info, now)
        elif "promissory_note" in types:
            self._promissory(w, stage, o, info, now, alive)
        elif types & UNITS:
            self._captured(w, stage, o, info, now, alive)
        elif "command_token" in types:
            self._fleet_pool(w, stage, o, info, now, alive)
        owner = info.owner
        if not owner or types & NOT_FACTION or alive[owner] or stage.prev[key("zone", o)] in self.gone_zones:
            return
        holder = self.controller(w, stage.prev, o)
        if types & UNITS and stage.prev[key("zone", o)] == "captured" and holder != owner and now.get(holder):
            return  # 75.11 / comment 7: its captor's elimination decides
        self._faction(w, stage, o, info, alive)

    def _held(self, w: World, stage: Stage, o: str, info, now: dict) -> None:
        """75.3, 75.5, 75.6, 75.7, comment 6: the eliminated player's cards go to their pile."""
        kind = next(t for t in info.types if t in HELD)
        rule, zone = HELD[kind]
        if zone is None:
            data = next(x for x in w.sc.objects if x.id == o)
            zone = f"{data.properties.get('trait')}_discard"
            if zone not in w.zones:
                raise Unsupported(f"relic fragment {o} without a known trait")
        holder = self.controller(w, stage.prev, o)
        if now.get(holder):
            stage.to(o, zone, NONE, rule)

    def _promissory(self, w: World, stage: Stage, o: str, info, now: dict, alive: dict) -> None:
        """75.4: other players' notes return to them; 75.4a/75.2: the eliminated player's notes go to the box."""
        owner = info.owner
        if owner is None:
            raise Unsupported(f"promissory note {o} without an owner")
        holder = self.controller(w, stage.prev, o)
        if not alive[owner] and stage.prev[key("zone", o)] not in self.gone_zones:  # eliminated now or before
            stage.to(o, "box", NONE, "ti4.75.2" if holder == owner else "ti4.75.4a")
        elif holder != owner and now.get(holder) and alive[owner]:
            stage.to(o, "hand", owner, "ti4.75.4")

    def _captured(self, w: World, stage: Stage, o: str, info, now: dict, alive: dict) -> None:
        """75.11 / comment 7: units the eliminated player captured go home, or to the box if their owner is out."""
        owner = info.owner
        holder = self.controller(w, stage.prev, o)
        if owner is None or holder == owner or not now.get(holder) or stage.prev[key("zone", o)] != "captured":
            return
        if alive[owner]:
            stage.to(o, "reinforcements", owner, "ti4.75.11")
        else:
            stage.to(o, "box", NONE, "ti4.75.c7")

    def _fleet_pool(self, w: World, stage: Stage, o: str, info, now: dict, alive: dict) -> None:
        """75.10e: other players' command tokens in an eliminated (Mahact) player's fleet pool go back."""
        owner = info.owner
        holder = self.controller(w, stage.prev, o)
        if owner and holder != owner and now.get(holder) and stage.prev[key("zone", o)] == "fleet_pool" \
                and alive[owner]:
            stage.to(o, "reinforcements", owner, "ti4.75.10e")

    def _faction(self, w: World, stage: Stage, o: str, info, alive: dict) -> None:
        """75.2: to the box, unless 75.10 or a comment keeps it where it is."""
        kept = self._exceptions(w, stage.prev, o, info, alive)
        for rule in kept:
            stage.stay(o, rule)
        if not kept:
            stage.to(o, "box", NONE, "ti4.75.2")

    def _exceptions(self, w: World, st: State, o: str, info, alive: dict) -> list[str]:
        """The rules that keep an eliminated player's component where it is now."""
        types, owner = set(info.types), info.owner
        zone = st[key("zone", o)]
        holder = self.controller(w, st, o)
        by_other = holder != owner and alive.get(holder, False)
        out = []
        if "home_system" in types:
            out.append("ti4.75.c5")
        if "wormhole_token" in types and zone == "board":
            out.append("ti4.75.10b")
        if "zero_token" in types and by_other:
            out.append("ti4.75.10c")
        planets = self._typed(w, {"planet"})
        if key("attach", o) in w.domains and zone == "board" and st[key("attach", o)] in planets:
            out.append("ti4.75.10d")
        if any(st[key("attach", t)] == o and st[key("zone", t)] not in self.gone_zones
               and (w.owner_of(t) is None or alive.get(w.owner_of(t), False))  # the token stays with its owner
               for t in self._typed(w, {"assimilation_token"}) if key("attach", t) in w.domains):
            out.append("ti4.75.10a")
        if "command_token" in types and zone == "fleet_pool" and by_other:
            out.append("ti4.75.10f")
        if "commander" in types and st.get(key("flag", o, "unlocked")) == "1" and self._token_with_mahact(w, st, owner, alive):
            out.append("ti4.75.10f")
        if types & UNITS and zone == "captured" and by_other:
            out.append("ti4.75.c7")
        return out

    def _token_with_mahact(self, w: World, st: State, owner: str, alive: dict) -> bool:
        """One of ``owner``'s command tokens sits in the fleet pool of another player still in the game."""
        for t in self._typed(w, {"command_token"}):
            if w.owner_of(t) != owner or st[key("zone", t)] != "fleet_pool":
                continue
            h = self.controller(w, st, t)
            if h != owner and alive.get(h, False):
                return True
        return False

    def _speaker(self, w: World, stage: Stage, now: dict, alive: dict) -> None:
        """75.8: the speaker token passes to the next player on the left still in the game."""
        players = w.players
        for s in self._typed(w, {"speaker_token"}):
            holder = self.controller(w, stage.prev, s)
            if not now.get(holder):
                continue
            i = players.index(holder)
            nxt = next((players[(i + k) % len(players)] for k in range(1, len(players))
                        if alive[players[(i + k) % len(players)]]), None)
            if nxt is not None:
                stage.set(key("ctrl", s), nxt, "ti4.75.8")

    def _count(self, w: World, stage: Stage, alive: dict) -> None:
        """75.9 and the strategy-card count for players left (nobody wins by these rules)."""
        remaining = sum(alive.values())
        big = self.players_at_start(w) >= 5
        for q in w.players:
            if not alive[q]:
                continue
            k = key("pattr", q, STRATEGY)
            if remaining <= 4 and big:
                stage.set(k, "1", "ti4.75.9")
            elif remaining <= 4:
                stage.set(k, "2", "ti4.strategy_phase.count")
            else:
                stage.set(k, "1", "ti4.strategy_phase.count")


RULES = Ti4Rules()
