"""Twilight Imperium 4: elimination (rule 75 of the Russian living rules reference, 33 of the English one).

Every event is followed by the elimination procedure, two stages:

1. the check (75.1): a player in the game who has no ground forces on the board,
   no unit with Production on the board and no planet becomes ``eliminated``;
   each condition that fails keeps them in the game under its own rule id;
2. the components (75.2-75.11, comments 4-7): where everything of a player
   eliminated in step 1 goes, the speaker token and the strategy-card count
   (75.9). Who wins is not modelled (TI4 is won by victory points; rule 75
   says nothing of a last player left): ``winner`` is refused in a TI4 scenario.

Modelling conventions (scenario data):

- ``owner`` is the faction/colour a component belongs to; ``controller`` (the
  default controller, ``ctrl``) is who *holds* it: the hand, play area or fleet
  pool it sits in, the captor of a captured unit, who controls a planet.
- Types select the rules: ``ground_force``/``infantry``/``mech`` and
  ``ship``/``structure``/``unit`` are units; ``planet``, ``speaker_token``,
  ``strategy_card``, ``agenda``, ``action_card``, ``secret_objective``,
  ``relic``, ``relic_fragment`` (property ``trait``), ``promissory_note``,
  ``command_token``, ``commander`` (flag ``unlocked``), ``home_system``,
  ``wormhole_token``, ``zero_token`` (Naalu), ``assimilation_token`` (Nekro,
  attached to a technology). Any other object owned by a player is a faction
  component (75.2).
- Seating order is the scenario's player order; "the player on the left" is the
  next player in that order who is still in the game (play goes clockwise).
- Rule 33.x of the English reference is an alias of 75.x (``ALIASES`` in ``rules.py``).
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.encoding.ruleset import ActionKind, Ruleset
from solver.encoding.state import NONE

GROUND = frozenset({"ground_force", "infantry", "mech"})
UNITS = GROUND | {"unit", "ship", "structure"}
PRODUCTION = "production"
STRATEGY_CARDS = "strategy_cards"
COMPONENTS = "75.2-75.11 components of eliminated players"
#: cards and tokens that follow whoever holds them: type -> (rule id, destination zone)
HELD = {
    "agenda": ("ti4.75.3", "agenda_discard"),
    "action_card": ("ti4.75.5", "action_discard"),
    "strategy_card": ("ti4.75.6", "common_area"),
    "secret_objective": ("ti4.75.7", "secret_deck"),
    "relic": ("ti4.75.c6", "purged"),
    "relic_fragment": ("ti4.75.c6", None),  # the discard of its trait
}
#: types handled by their own rule, never as faction components
NOT_FACTION = frozenset(HELD) | {"planet", "speaker_token", "promissory_note"}
#: components a 75.10 exception or a comment may keep in play (and what the exceptions read): reconsidered at every
#: procedure while their owner is out of the game
KEPT = frozenset({"command_token", "commander", "zero_token", "assimilation_token", "wormhole_token",
                  "attachment_token", "promissory_attachment", "promissory_note", "home_system"})


def capture_possible(ctx: RuleContext) -> bool:
    """Can any unit be captured in this scenario (one starting captured, or a ``capture`` event)? Where none can,
    75.11 and comment 7 own nothing (their conditions never hold: a structural bound, never a verdict)."""
    return ctx.zone_named("captured") or any(ev.type == "capture" for ev in ctx.sc.events)


def _has(info, types) -> bool:
    return bool(set(info.types) & set(types))


def _implies(rm, rule_id: str, when: list, then) -> None:
    """A rule clause that drops constant-true conditions and skips a constant-false one."""
    when = [w for w in when if w is not rm.true]
    if any(w is rm.false for w in when):
        return
    rm.implies(rule_id, when, then)


# -- the 75.1 conditions, as literals of one stage ------------------------------------------------
def _holder(ctx: RuleContext, st, obj: str, player: str):
    return ctx.controller(st, obj).is_(player)


def _ground_forces(ctx: RuleContext, st, player: str):
    """Literal: the player has a ground force on the board."""
    rm = ctx.rm
    return rm.any_of([rm.all_of([st["zone", o].is_("board"), _holder(ctx, st, o, player)])
                      for o, info in ctx.objects.items() if _has(info, GROUND)])


def _production_unit(ctx: RuleContext, st, obj: str, player: str):
    """Literal 'this unit counts as the player's Production unit' (75.1b).

    Only the Production ability counts; for a unit with other abilities (the Arborec flagship makes
    units without Production) that is comment 4's clause. 75.1b only spares (its clause makes the unit count): the
    literal never holds for a unit off the board or not the player's (a definition), so where no unit of the player
    with Production can be on the board, 75.1b owns nothing.
    """
    rm = ctx.rm
    u = rm.new_bool(f"s{st.index}:production_unit.{obj}.{player}")
    on, mine = st["zone", obj].is_("board"), _holder(ctx, st, obj, player)
    has = ctx.has_ability(st, obj, PRODUCTION)
    data = ctx.objects[obj].data
    other_abilities = bool(data and set(data.abilities) - {PRODUCTION})
    _implies(rm, "ti4.75.1b", [on, mine, has], u)
    for lit in (on, mine) if other_abilities else (on, mine, has):
        rm.model.add_bool_or([lit]).only_enforce_if(u)
    if other_abilities:
        rm.implies("ti4.75.c4", [u], has)
    return u


def _production(ctx: RuleContext, st, player: str):
    """Literal: the player has a unit with Production on the board."""
    return ctx.rm.any_of([_production_unit(ctx, st, o, player)
                           for o, info in ctx.objects.items() if _has(info, UNITS)])


def _planets(ctx: RuleContext, st, player: str):
    """Literal: the player controls a planet."""
    return ctx.rm.any_of([_holder(ctx, st, o, player) for o, info in ctx.objects.items() if "planet" in info.types])


# -- the action that refers to another player's home system (comment 5a) -----------------------------
def _score_requirements(ctx: RuleContext, st, spec):
    """Scoring an objective about another player's home system: the objective is the actor's, the target such a system."""
    rm = ctx.rm
    out = [("ti4.objective.score", _holder(ctx, st, spec.source, spec.actor))]
    for t in spec.targets:
        info = ctx.objects[t]
        home = rm.all_of([st["zone", t].is_("board"), rm.true if "home_system" in info.types else rm.false])
        out.append(("ti4.75.c5", home))
        other = info.owner is not None and info.owner != spec.actor
        out.append(("ti4.75.c5a", rm.true if other else rm.false))
    return out


def _score_apply(ctx: RuleContext, tr, spec, when) -> None:
    """The scored objective goes to the scorer's play area."""
    tr.set(("zone", spec.source), "play_area", "ti4.objective.score", when)
    tr.set(("ctrl", spec.source), spec.actor, "ti4.objective.score", when)


#: what a ship transports (cargo: ``attached_to`` the ship): ground forces and fighters
CARGO = GROUND | {"fighter"}


def cargo(ctx: RuleContext) -> dict[str, list[str]]:
    """Ship -> the units written aboard it (``attached_to`` the ship); a unit attached to anything else, or a ship
    carrying what no ship transports, is a located error."""
    out: dict[str, list[str]] = {}
    for o, info in ctx.objects.items():
        target = info.data.attached_to if info.data else None
        if target is None or target not in ctx.objects:
            continue
        ship = "ship" in ctx.objects[target].types
        if _has(info, UNITS) and not ship:
            raise ScenarioError(f"object {o}: a unit is attached only to a ship that transports it, and '{target}' "
                                f"is no ship")
        if ship and not _has(info, CARGO):
            raise ScenarioError(f"object {o}: a ship transports only ground forces and fighters (75.1a: they are "
                                f"on the board aboard it), not {list(info.types)}")
        if ship:
            if info.data.zone != ctx.objects[target].data.zone:
                raise ScenarioError(f"object {o}: aboard ship '{target}' it is where the ship is, zone "
                                    f"'{ctx.objects[target].data.zone}', not '{info.data.zone}'")
            out.setdefault(target, []).append(o)
    return out


class Ti4(Ruleset):
    """The Twilight Imperium 4 elimination ruleset."""

    game = "ti4"
    graveyard = "action_discard"
    gone_zones = (NONE, "box", "purged")
    actions = {"score_objective": ActionKind(_score_requirements, _score_apply)}

    def declare_keys(self, ctx: RuleContext) -> None:
        """Each player's number of strategy cards to pick (one with 5+ players at the start, else two); the cargo
        written aboard ships is checked."""
        cargo(ctx)
        at_start = self.players_at_start(ctx)
        given = {p.id for p in ctx.sc.players if STRATEGY_CARDS in p.attributes or p.status != "in_game"}
        in_game = sum(p.status == "in_game" for p in ctx.sc.players)
        for p in ctx.players:  # the initial value shown (one with 5+ at the start or in the game, else two)
            ctx.add_key(("pattr", p, STRATEGY_CARDS), [0, 8], 1 if max(at_start, in_game) >= 5 else 2)
            if p not in given:  # what 75.9 and the strategy phase make it (``_start_count``), not a fact (a player
                # out of the game at the start keeps the count shown, a fact: no rule speaks of it)
                ctx.derive_initial(("pattr", p, STRATEGY_CARDS))

    def statics(self, ctx: RuleContext, st) -> None:
        """core.static, and in the initial state the strategy-card count of the players in the game (75.9)."""
        super().statics(ctx, st)
        if st.index == 0:
            self._start_count(ctx, st)

    def _start_count(self, ctx: RuleContext, st) -> None:
        """The initial state's strategy-card count of each player in the game: 75.9 (one each when the game began
        with 5+ players and 4 or fewer remain), else the strategy phase's count. A given count that contradicts
        them is a contradiction; one the scenario does not give is what they make it."""
        rm = ctx.rm
        alive = {p: st["pstatus", p].is_("in_game") for p in ctx.players}
        few = rm.int_le(self._remaining(ctx, "s0:players_at_first", alive), 4)
        big = self.players_at_start(ctx) >= 5
        for q in ctx.players:
            var = st["pattr", q, STRATEGY_CARDS]
            if big:
                rm.enforce("ti4.75.9", rm.model.add(var == 1), [few, alive[q]])
            else:
                rm.enforce("ti4.strategy_phase.count", rm.model.add(var == 2), [few, alive[q]])
            rm.enforce("ti4.strategy_phase.count", rm.model.add(var == 1), [rm.neg(few), alive[q]])

    @staticmethod
    def _remaining(ctx: RuleContext, name: str, alive: dict):
        """The number of players still in the game (``alive``: a literal per player)."""
        remaining = ctx.rm.new_int(name, 0, len(ctx.players))
        ctx.rm.model.add(remaining == sum(alive.values()))
        return remaining

    @staticmethod
    def players_at_start(ctx: RuleContext) -> int:
        """How many players began the game: option ``players_at_start``, else every listed player."""
        n = ctx.sc.options.get("players_at_start", len(ctx.players))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ScenarioError(f"option players_at_start must be a positive integer, not {n!r}")
        if n < len(ctx.players):  # every listed player began the game (an eliminated one too)
            raise ScenarioError(f"option players_at_start is {n}, but {len(ctx.players)} players are listed: the game "
                                f"began with every listed player (eliminated ones included), so it is at least "
                                f"{len(ctx.players)}")
        return n

    # -- events ---------------------------------------------------------------------------------
    def apply_event(self, ctx: RuleContext, event) -> None:
        """The event's own stages, then the elimination procedure (unless it could not change anything)."""
        super().apply_event(ctx, event)
        if self.could_change(ctx):
            self.eliminate(ctx)

    def could_change(self, ctx: RuleContext) -> bool:
        """Static pruning: False only when the last procedure's result must stand.

        That is when no rule since the last procedure touched a variable the 75.1 conditions read
        (the stages share those variables), and the procedure cannot cascade: no unit may be controlled
        by a player other than its owner, so sending an eliminated player's units to the box changes
        no other player's conditions.
        """
        last = next((st for st in reversed(ctx.stages) if st.label == COMPONENTS), None)
        if last is None or self._cascades(ctx):
            return True
        return any(ctx.stage.vars[key] is not last.vars[key] for key in self._condition_keys(ctx))

    @staticmethod
    def _condition_keys(ctx: RuleContext) -> list[tuple]:
        """The state keys the 75.1 conditions read: units' and planets' zone, controller and abilities,
        effect activity and player status; and what the components stage reads of a player out of the game: the
        zone, holder, attachment and flags of faction components and of what the 75.10 exceptions read."""
        objs = {o for o, info in ctx.objects.items() if _has(info, UNITS) or "planet" in info.types}
        kept = {o for o, info in ctx.objects.items() if _has(info, KEPT) or ("attach", o) in ctx.domains
                or (info.owner and not _has(info, NOT_FACTION))}  # what the leftovers of a player out read
        return [k for k in ctx.domains
                if (k[0] in ("zone", "ctrl") and k[1] in objs) or (k[0] == "ability" and k[1] in objs)
                or (k[0] in ("zone", "ctrl", "attach", "flag") and k[1] in kept)
                or k[0] in ("active", "pstatus")]

    @staticmethod
    def _cascades(ctx: RuleContext) -> bool:
        """Could a unit on the board be controlled by someone other than its owner (a control effect, a default
        controller, a captured unit that an event moves), or could the components stage change a 75.1 condition
        through an effect's source (a static control or Production effect whose source goes to the box, a source
        whose holder changes)?"""
        moved = {ev.object for ev in ctx.sc.events if ev.type == "move"}
        captured = {ev.object for ev in ctx.sc.events if ev.type == "capture"}
        return any(_has(info, UNITS) and info.owner and (
            ctx.effects_on(o, "control") or (info.data and info.data.controller not in (None, info.owner)
                                              and (info.data.zone != "captured" or o in moved))
            or (o in captured and o in moved))
            for o, info in ctx.objects.items()) or any(
            e.source for o, info in ctx.objects.items() if _has(info, UNITS) or "planet" in info.types
            for e in ctx.effects_on(o, "control") + ctx.effects_on(o, "grant", PRODUCTION)
            + ctx.effects_on(o, "remove", PRODUCTION))

    def on_check_elimination(self, ctx: RuleContext, ev) -> None:
        """No stage of its own: the elimination procedure after every event does the check."""

    def on_planet_control(self, ctx: RuleContext, ev) -> None:
        """A planet changes controller (or becomes uncontrolled)."""
        if "planet" not in ctx.objects[ev.planet].types:
            raise ScenarioError(f"planet_control: '{ev.planet}' is not a planet (types: {list(ctx.objects[ev.planet].types)})")
        rm, st = ctx.rm, ctx.stage
        takes_part = st["pstatus", ev.player].is_("in_game") if ev.player else rm.true
        with ctx.step(f"control of {ev.planet}") as tr:
            tr.set(("ctrl", ev.planet), ev.player or NONE, "ti4.control.planet", takes_part)
            tr.keep(("ctrl", ev.planet), "ti4.75.out", rm.neg(takes_part))

    def on_capture(self, ctx: RuleContext, ev) -> None:
        """A unit goes onto the captor's faction sheet (a ship's cargo is destroyed, ti4.transport); an eliminated
        player captures nothing (ti4.75.out)."""
        rm = ctx.rm
        takes_part = ctx.stage["pstatus", ev.player].is_("in_game")
        with ctx.step(f"{ev.player} captures {ev.object}") as tr:
            tr.set(("zone", ev.object), "captured", "ti4.capture", takes_part)
            tr.set(("ctrl", ev.object), ev.player, "ti4.capture", takes_part)
            tr.keep(("zone", ev.object), "ti4.75.out", rm.neg(takes_part))
            tr.keep(("ctrl", ev.object), "ti4.75.out", rm.neg(takes_part))
            self.transport(ctx, tr, ev.object, "captured", takes_part)

    def moved(self, ctx: RuleContext, tr, obj: str, zone: str, cell: str | None) -> None:
        """A ship that moves takes its cargo with it, or leaving the board has it destroyed (ti4.transport)."""
        self.transport(ctx, tr, obj, zone)

    def transport(self, ctx: RuleContext, tr, obj: str, zone: str, when=None) -> None:
        """ti4.transport: the units aboard a ship that leaves the board are destroyed with it (to their owner's
        reinforcements, no longer aboard); on the board they stay aboard, where the ship is (the board has no
        places here). A unit that moves itself leaves the ship it was aboard. ``when``: the move happens."""
        rm, st = ctx.rm, tr.prev
        when = rm.true if when is None else when
        if ("attach", obj) in ctx.domains and any(obj in units for units in cargo(ctx).values()):
            tr.set(("attach", obj), NONE, "ti4.transport", when)
        if zone == "board":
            return
        for u in cargo(ctx).get(obj, []):
            aboard = rm.all_of([st["attach", u].is_(obj), st["zone", u].is_("board"), when])
            tr.set(("zone", u), "reinforcements", "ti4.transport", aboard)
            tr.set(("ctrl", u), ctx.owner_of(u) or NONE, "ti4.transport", aboard)
            tr.set(("attach", u), NONE, "ti4.transport", aboard)

    def on_return_captured(self, ctx: RuleContext, ev) -> None:
        """A captured unit goes back to its owner's reinforcements, or to the box if the owner was eliminated."""
        rm, st, o = ctx.rm, ctx.stage, ev.object
        owner = ctx.owner_of(o)
        if owner is None:
            raise ScenarioError(f"return_captured: '{o}' has no owner")
        captured = st["zone", o].is_("captured")
        alive = st["pstatus", owner].is_("in_game")
        with ctx.step(f"{o} is returned") as tr:
            self._to(tr, o, "reinforcements", owner, "ti4.capture.return", rm.all_of([captured, alive]))
            self._to(tr, o, "box", NONE, "ti4.75.c7", rm.all_of([captured, rm.neg(alive)]))

    def on_end_status_phase(self, ctx: RuleContext, ev) -> None:
        """A Naalu "0" token of a player no longer in the game leaves it (75.10c)."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("end of the status phase") as tr:
            for o, info in ctx.objects.items():
                if "zero_token" in info.types and info.owner:
                    gone = rm.all_of([rm.neg(st["pstatus", info.owner].is_("in_game")),
                                      rm.neg(st["zone", o].one_of(self.gone_zones))])
                    self._to(tr, o, "box", NONE, "ti4.75.10c", gone)

    # -- the elimination procedure -----------------------------------------------------------------
    def eliminate(self, ctx: RuleContext) -> None:
        """75.1 check stage, then the components stage for whoever it eliminated."""
        before = ctx.stage
        self._check(ctx)
        self._components(ctx, before, ctx.stage)

    def _check(self, ctx: RuleContext) -> None:
        rm, st = ctx.rm, ctx.stage
        conds = {p: (_ground_forces(ctx, st, p), _production(ctx, st, p), _planets(ctx, st, p)) for p in ctx.players}
        with ctx.step("75.1 elimination check") as tr:
            for p in ctx.players:
                in_game = st["pstatus", p].is_("in_game")
                ground, prod, planets = conds[p]
                out = rm.all_of([in_game, rm.neg(ground), rm.neg(prod), rm.neg(planets)])
                tr.set(("pstatus", p), "eliminated", "ti4.75.1", out)
                for rid, cond in (("ti4.75.1a", ground), ("ti4.75.1b", prod), ("ti4.75.1c", planets)):
                    tr.keep(("pstatus", p), rid, rm.all_of([in_game, cond]))

    def _components(self, ctx: RuleContext, before, check) -> None:
        rm = ctx.rm
        now = {p: rm.all_of([before["pstatus", p].is_("in_game"), check["pstatus", p].is_("eliminated")])
               for p in ctx.players}
        alive = {p: check["pstatus", p].is_("in_game") for p in ctx.players}
        with ctx.step(COMPONENTS) as tr:
            for o, info in ctx.objects.items():
                if info.action is None:
                    self._place(ctx, tr, o, info, now, alive)
                    self._leftover(ctx, tr, o, info, now, alive)
            self._speaker(ctx, tr, now, alive)
            self._game_rules(ctx, tr, now, alive)

    @staticmethod
    def _to(tr, obj: str, zone: str, holder: str, rule_id: str, when) -> None:
        tr.set(("zone", obj), zone, rule_id, when)
        tr.set(("ctrl", obj), holder, rule_id, when)

    @staticmethod
    def _stay(tr, obj: str, rule_id: str, when) -> None:
        tr.keep(("zone", obj), rule_id, when)
        tr.keep(("ctrl", obj), rule_id, when)

    def _place(self, ctx: RuleContext, tr, o: str, info, now: dict, alive: dict) -> None:
        """Where one component goes when a player is eliminated."""
        if _has(info, HELD):
            self._held(ctx, tr, o, info, now)
        elif "promissory_note" in info.types:
            self._promissory(ctx, tr, o, info, now, alive)
        elif _has(info, UNITS):
            self._unit(ctx, tr, o, info, now, alive)
        elif "command_token" in info.types:
            self._others_tokens(ctx, tr, o, info, now, alive)

    def _held(self, ctx: RuleContext, tr, o: str, info, now: dict) -> None:
        """75.3, 75.5, 75.6, 75.7, comment 6: cards the eliminated player holds go to their pile."""
        rm, st = ctx.rm, tr.prev
        kind = next(t for t in info.types if t in HELD)
        rid, zone = HELD[kind]
        if zone is None:
            trait = info.data.properties.get("trait") if info.data else None
            zone = f"{trait}_discard"
            if zone not in ctx.zones:
                raise ScenarioError(f"relic fragment {o}: property 'trait' must be cultural, hazardous, industrial "
                                    f"or frontier, not {trait!r}")
        for p in ctx.players:
            self._to(tr, o, zone, NONE, rid, rm.all_of([now[p], _holder(ctx, st, o, p)]))

    def _promissory(self, ctx: RuleContext, tr, o: str, info, now: dict, alive: dict) -> None:
        """75.4: other players' notes go home; 75.4a / 75.2: the eliminated player's notes go to the box."""
        rm, st = ctx.rm, tr.prev
        w = info.owner
        if w is None:
            raise ScenarioError(f"promissory note {o}: needs an owner (the faction or colour it belongs to)")
        own_hand = _holder(ctx, st, o, w)
        out = rm.all_of([rm.neg(alive[w]), rm.neg(st["zone", o].one_of(self.gone_zones))])  # now or earlier
        self._to(tr, o, "box", NONE, "ti4.75.2", rm.all_of([out, own_hand]))
        self._to(tr, o, "box", NONE, "ti4.75.4a", rm.all_of([out, rm.neg(own_hand)]))
        for p in ctx.players:
            if p != w:
                self._to(tr, o, "hand", w, "ti4.75.4", rm.all_of([now[p], _holder(ctx, st, o, p), alive[w]]))

    def _unit(self, ctx: RuleContext, tr, o: str, info, now: dict, alive: dict) -> None:
        """75.11 and comment 7: captured units go home, or to the box, or stay with a captor still in the game."""
        rm, st = ctx.rm, tr.prev
        w = info.owner
        if w is None or not capture_possible(ctx):
            return
        captured = st["zone", o].is_("captured")
        for p in ctx.players:
            if p == w:
                continue
            by_p = rm.all_of([now[p], captured, _holder(ctx, st, o, p)])
            self._to(tr, o, "reinforcements", w, "ti4.75.11", rm.all_of([by_p, alive[w]]))
            self._to(tr, o, "box", NONE, "ti4.75.c7", rm.all_of([by_p, rm.neg(alive[w])]))

    def _others_tokens(self, ctx: RuleContext, tr, o: str, info, now: dict, alive: dict) -> None:
        """75.10e: other players' command tokens in the eliminated (Mahact) player's fleet pool go back."""
        rm, st = ctx.rm, tr.prev
        w = info.owner
        if w is None:
            return
        pool = st["zone", o].is_("fleet_pool")
        for p in ctx.players:
            if p != w:
                self._to(tr, o, "reinforcements", w, "ti4.75.10e",
                         rm.all_of([now[p], pool, _holder(ctx, st, o, p), alive[w]]))

    def _leftover(self, ctx: RuleContext, tr, o: str, info, now: dict, alive: dict) -> None:
        """A faction component of a player out of the game, eliminated now or earlier: 75.2 unless an exception keeps
        it (every procedure reconsiders it, so it goes to the box when the exception ends: its holder eliminated,
        the assimilation token gone ...); a unit its captor's elimination sends on is 75.11's (``_unit``)."""
        if not info.owner or _has(info, NOT_FACTION):
            return
        rm, st, w = ctx.rm, tr.prev, info.owner
        out = rm.all_of([rm.neg(alive[w]), rm.neg(st["zone", o].one_of(self.gone_zones))])
        if _has(info, UNITS):
            freed = rm.any_of([rm.all_of([now[p], st["zone", o].is_("captured"), _holder(ctx, st, o, p)])
                               for p in ctx.players if p != w])
            out = rm.all_of([out, rm.neg(freed)])
        self._faction(ctx, tr, o, info, out, alive)

    def _faction(self, ctx: RuleContext, tr, o: str, info, out, alive: dict) -> None:
        """75.2: the eliminated player's components go to the box, except where 75.10 and the comments keep them
        (``out``: the literal 'its owner is out of the game and it is still somewhere')."""
        rm = ctx.rm
        exceptions = self._exceptions(ctx, tr.prev, o, info, alive)
        for rid, lit in exceptions:
            self._stay(tr, o, rid, rm.all_of([out, lit]))
        kept = rm.any_of([lit for _, lit in exceptions])
        self._to(tr, o, "box", NONE, "ti4.75.2", rm.all_of([out, rm.neg(kept)]))

    def _exceptions(self, ctx: RuleContext, st, o: str, info, alive: dict) -> list[tuple[str, object]]:
        """(rule id, literal) pairs: while the literal holds, the rule keeps the component where it is."""
        rm, w = ctx.rm, info.owner

        def held_by_other():
            return rm.any_of([rm.all_of([_holder(ctx, st, o, q), alive[q]]) for q in ctx.players if q != w])
        out = []
        if "home_system" in info.types:
            out.append(("ti4.75.c5", rm.true))
        if "wormhole_token" in info.types:
            out.append(("ti4.75.10b", st["zone", o].is_("board")))
        if "zero_token" in info.types:
            out.append(("ti4.75.10c", held_by_other()))
        if ("attach", o) in st.vars:
            planets = [q for q, qi in ctx.objects.items() if "planet" in qi.types]
            out.append(("ti4.75.10d", rm.all_of([st["zone", o].is_("board"), st["attach", o].one_of(planets)])))
        tokens = [t for t, ti in ctx.objects.items() if "assimilation_token" in ti.types and ("attach", t) in st.vars]
        if any(o in ctx.domains["attach", t] for t in tokens):  # while the token stays: its owner still in the game
            out.append(("ti4.75.10a", rm.any_of([rm.all_of([st["attach", t].is_(o),
                                                            rm.neg(st["zone", t].one_of(self.gone_zones)),
                                                            alive.get(ctx.owner_of(t), rm.true)])
                                                 for t in tokens])))
        if "command_token" in info.types:
            out.append(("ti4.75.10f", rm.all_of([st["zone", o].is_("fleet_pool"), held_by_other()])))
        if "commander" in info.types:
            unlocked = st.vars.get(("flag", o, "unlocked"), rm.false)
            out.append(("ti4.75.10f", rm.all_of([unlocked, self._token_with_mahact(ctx, st, w, alive)])))
        if _has(info, UNITS) and capture_possible(ctx):
            out.append(("ti4.75.c7", rm.all_of([st["zone", o].is_("captured"), held_by_other()])))
        return out

    def _token_with_mahact(self, ctx: RuleContext, st, w: str, alive: dict):
        """Literal: one of ``w``'s command tokens is in the fleet pool of a player still in the game."""
        rm = ctx.rm
        return rm.any_of([rm.all_of([st["zone", t].is_("fleet_pool"), _holder(ctx, st, t, q), alive[q]])
                          for t, ti in ctx.objects.items() if "command_token" in ti.types and ti.owner == w
                          for q in ctx.players if q != w])

    def _speaker(self, ctx: RuleContext, tr, now: dict, alive: dict) -> None:
        """75.8: the speaker token passes to the next player on the left still in the game."""
        rm, st, players = ctx.rm, tr.prev, ctx.players
        n = len(players)
        for s, info in ctx.objects.items():
            if "speaker_token" not in info.types:
                continue
            for i, p in enumerate(players):
                held = rm.all_of([now[p], _holder(ctx, st, s, p)])
                for k in range(1, n):
                    q = players[(i + k) % n]
                    skipped = [rm.neg(alive[players[(i + j) % n]]) for j in range(1, k)]
                    tr.set(("ctrl", s), q, "ti4.75.8", rm.all_of([held, alive[q]] + skipped))

    def _game_rules(self, ctx: RuleContext, tr, now: dict, alive: dict) -> None:
        """75.9 and the strategy-card count (who wins is not for these rules: TI4 is won by victory points, which
        rule 75 does not speak of and no rule here models)."""
        rm = ctx.rm
        some = rm.any_of(list(now.values()))
        few = rm.int_le(self._remaining(ctx, f"s{tr.prev.index}:players_remaining", alive), 4)
        keep_one = rm.all_of([some, few]) if self.players_at_start(ctx) >= 5 else rm.false
        for q in ctx.players:
            key = ("pattr", q, STRATEGY_CARDS)
            tr.set(key, 1, "ti4.75.9", rm.all_of([keep_one, alive[q]]))
            tr.set(key, 2, "ti4.strategy_phase.count", rm.all_of([some, few, rm.neg(keep_one), alive[q]]))
            tr.set(key, 1, "ti4.strategy_phase.count", rm.all_of([some, rm.neg(few), alive[q]]))


RULESET = Ti4()
