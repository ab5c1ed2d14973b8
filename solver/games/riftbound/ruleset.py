"""Riftbound rules: conceding (two players, teams, the free-for-all removal steps, turn, focus, priority, passes).

A concession is one event whose procedure is a sequence of stages, one per
step of the seed text, each step under its own rule id:

    leave -> banish -> replace battlefields -> remove owned cards -> counter
    -> turn/focus/priority holders -> passes of focus -> passes of priority

Battlefields are board cells: a battlefield card and the units and hidden cards
at it share its cell, so replacing a battlefield keeps their place. Chain items
are objects in the ``chain`` zone with an ``action``; the scenario lists them
bottom first. Scenarios citing these rules live in ``scenarios/riftbound/``.
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.compile import ScenarioError
from solver.encoding.context import ObjInfo, RuleContext
from solver.encoding.cp import Lit
from solver.encoding.ruleset import ActionKind, Ruleset
from solver.encoding.state import NONE, Stage

#: zones of the board: where permanents, runes and hidden cards are
BOARD = ("base", "battlefield", "runes")
#: card types that are permanents (stay on the board after being played)
PERMANENTS = {"unit", "gear"}
#: never banished by step 1 (not permanents): battlefields and legends
NOT_BANISHED = {"battlefield", "legend"}
FINALISED = "finalised"
PASSED = {"focus": "passed_focus", "priority": "passed_priority"}
#: a battlefield's text "+1 power to units here": the ability brings its effect (``Riftbound.value``)
PLUS_ONE = "units_here_plus_one"


# -- action kinds -----------------------------------------------------------------------------
def _target(ctx: RuleContext, spec) -> str:
    """The action's first target, which must be an object of the scenario."""
    if not spec.targets or spec.targets[0] not in ctx.objects:
        raise ScenarioError(f"action '{spec.kind}' needs a target object (got {spec.targets or 'none'})")
    return spec.targets[0]


def _kill() -> ActionKind:
    def requirements(ctx: RuleContext, st, spec):
        t = _target(ctx, spec)
        unit = ctx.rm.true if "unit" in ctx.objects[t].types else ctx.rm.false
        return [("riftbound.chain.targets", ctx.rm.all_of([unit, st["zone", t].one_of(BOARD)]))]

    def apply(ctx: RuleContext, tr, spec, when):
        t = _target(ctx, spec)
        tr.set(("zone", t), "trash", "riftbound.card.kill", when)
        _off_board(ctx, tr, t, "riftbound.card.kill", when)
        tr.set(("ctrl", t), ctx.owner_of(t) or NONE, "riftbound.card.kill", when)
        _release_control(ctx, tr, t, when)
    return ActionKind(requirements, apply)


def _counter() -> ActionKind:
    def requirements(ctx: RuleContext, st, spec):
        t = _target(ctx, spec)
        if ("status", t) not in ctx.domains:
            return [("riftbound.chain.targets", ctx.rm.false)]
        return [("riftbound.chain.targets", st["status", t].is_("on_stack"))]

    def apply(ctx: RuleContext, tr, spec, when):
        t = _target(ctx, spec)
        tr.set(("status", t), "countered", "riftbound.card.counter", when)
        tr.set(("zone", t), "trash" if ctx.objects[t].card else NONE, "riftbound.card.counter", when)
    return ActionKind(requirements, apply)


def _release_control(ctx: RuleContext, tr, obj: str, when: Lit) -> None:
    """A card leaving the board is its owner's again: no control effect applies to it any more."""
    for e in ctx.effects_on(obj, "control"):
        if ("released", e.id, obj) in ctx.domains:
            tr.set(("released", e.id, obj), 1, "riftbound.concede.owner_zone", when)


def _off_board(ctx: RuleContext, tr, obj: str, rule: str, when: Lit) -> None:
    """A card leaving the board has no place (cell) and is attached to nothing."""
    for key in (("cell", obj), ("attach", obj)):
        if key in ctx.domains:
            tr.set(key, NONE, rule, when)


# -- players, sides and turn order ------------------------------------------------------------
def in_game(st: Stage, player: str) -> Lit:
    """Literal: the player is still in the game at ``st``."""
    return st["pstatus", player].is_("in_game")


def side_of(ctx: RuleContext, player: str) -> str:
    """A player's side: their team, or themselves in a free-for-all (static)."""
    team = next(p.team for p in ctx.sc.players if p.id == player)
    return f"team:{team}" if team else f"player:{player}"


def next_available(ctx: RuleContext, st: Stage, player: str) -> list[tuple[str, Lit]]:
    """For each other player q: (q, literal 'q is the first player after ``player`` in turn order still in the game')."""
    rm, order = ctx.rm, ctx.players
    i, n = order.index(player), len(order)
    out = []
    for k in range(1, n):
        q = order[(i + k) % n]
        skipped = [rm.neg(in_game(st, order[(i + j) % n])) for j in range(1, k)]
        out.append((q, rm.all_of([in_game(st, q)] + skipped)))
    return out


def all_passed(ctx: RuleContext, st: Stage, what: str) -> Lit:
    """Literal: every player still in the game has passed ``what`` (focus or priority)."""
    rm = ctx.rm
    return rm.all_of([rm.any_of([rm.neg(in_game(st, p)), st["pflag", p, PASSED[what]]]) for p in ctx.players])


class Riftbound(Ruleset):
    """The Riftbound ruleset (conceding)."""

    game = "riftbound"
    graveyard = "trash"
    stack_zone = "chain"
    derived_flags = ("mighty",)
    actions = {"kill": _kill(), "counter": _counter()}

    # -- continuous effects: values recomputed from what still applies; a card's effects end with it ----------
    def value(self, ctx: RuleContext, st, obj, attr):
        """The effective value, recomputed from the effects that still apply (riftbound.concede.recompute); a unit's
        power has +1 from each battlefield it is at whose text gives it (``battlefield_bonus``)."""
        v = derived.value(ctx, st, obj, attr, latest="core.timestamp", value="riftbound.concede.recompute",
                          add="riftbound.concede.recompute")
        fields = self.plus_one_fields(ctx) if attr == "power" and "unit" in ctx.objects[obj].types else []
        if not fields:
            return v
        key = ("power_with_fields", obj)
        if key not in st.derived:
            rm = ctx.rm
            total = rm.new_int(f"s{st.index}:power.{obj}", -1_000_000, 1_000_000)
            bonus = [self.battlefield_bonus(ctx, st, f, obj) for f in fields]
            rm.enforce("riftbound.concede.recompute", rm.model.add(total == v + sum(bonus)))
            st.derived[key] = total
        return st.derived[key]

    @staticmethod
    def plus_one_fields(ctx: RuleContext) -> list[str]:
        """Static: the battlefields that may have the '+1 power to units here' text (printed, or granted), on a board."""
        if not ctx.cells:
            return []
        return [o for o, info in ctx.objects.items() if "battlefield" in info.types
                and (("ability", o, PLUS_ONE) in ctx.domains or ctx.effects_on(o, "grant", PLUS_ONE))]

    def battlefield_bonus(self, ctx: RuleContext, st, field: str, unit: str) -> Lit:
        """Literal: battlefield ``field`` gives ``unit`` +1 power at ``st``: it is on the board with the text and the
        unit is at it (riftbound.battlefield.units_here_plus_one); off the board its effect has ended
        (riftbound.concede.effects_end). The rule only gives: on the board the bonus never applies without the
        text or to a unit elsewhere (a definition), so where the unit can never be at the field the rule owns nothing."""
        rm = ctx.rm
        on = st["zone", field].is_("battlefield")
        has = ctx.has_ability(st, field, PLUS_ONE)
        here = rm.all_of([st["zone", unit].is_("battlefield"),
                          rm.any_of([rm.all_of([st["cell", unit].is_(c), st["cell", field].is_(c)]) for c in ctx.cells])])
        b = rm.new_bool(f"s{st.index}:plus_one.{field}.{unit}")
        rm.implies("riftbound.battlefield.units_here_plus_one", [on, has, here], b)
        for lit in (has, here):
            rm.model.add_bool_or([lit]).only_enforce_if([b, on])
        rm.implies("riftbound.concede.effects_end", [rm.neg(on)], rm.neg(b))
        return b

    def prop(self, ctx: RuleContext, st, obj, name):
        """The effective property, recomputed from the effects that still apply (riftbound.concede.recompute)."""
        return derived.prop(ctx, st, obj, name, latest="core.timestamp", value="riftbound.concede.recompute")

    def has_ability(self, ctx: RuleContext, st, obj, ability):
        """Has the ability, recomputed from the effects that still apply (riftbound.concede.recompute)."""
        return derived.has_ability(ctx, st, obj, ability, latest="core.timestamp",
                                   value="riftbound.concede.recompute")

    def statics(self, ctx: RuleContext, st) -> None:
        """A card's continuous effect applies exactly while it is on the board (riftbound.concede.effects_end)."""
        derived.statics(ctx, st, rule="riftbound.concede.effects_end")

    # -- static data ------------------------------------------------------------------------------
    def blank_slots(self, ctx: RuleContext, ev) -> dict[str, str]:
        """Battlefields the conceding side provided -> slot of the blank battlefield that may replace each."""
        side = side_of(ctx, ev.player)
        provided = [o for o, info in ctx.objects.items()
                    if "battlefield" in info.types and info.owner and side_of(ctx, info.owner) == side
                    and o not in ev.blank_battlefields.values()]
        for old, slot in ev.blank_battlefields.items():
            info = ctx.objects.get(old)
            if info is None or "battlefield" not in info.types or not info.owner or side_of(ctx, info.owner) != side:
                raise ScenarioError(f"concede: '{old}' is not a battlefield provided by {ev.player}'s side")
            data = ctx.objects[slot].data
            if data is not None and data.zone != NONE:
                raise ScenarioError(f"concede: blank battlefield slot '{slot}' must start in zone none")
        return {old: ev.blank_battlefields.get(old, f"{old}.blank") for old in provided}

    def created_objects(self, ctx: RuleContext, ev) -> list:
        """A concession may create a blank battlefield for each battlefield the conceding side provided."""
        if ev.type != "concede":
            return []
        return [ObjInfo(slot, None, ("battlefield",), False, True, None, None)
                for slot in self.blank_slots(ctx, ev).values() if slot not in ctx.objects]

    def declare_keys(self, ctx: RuleContext) -> None:
        """Pass flags of every player, 'finalised' of chain items, power of units, abilities of blank slots,
        and for each card a control effect may apply to: whether the effect still applies to it."""
        for p in ctx.sc.players:
            for flag in PASSED.values():
                ctx.add_key(("pflag", p.id, flag), "bool", p.flags.get(flag, False))
        for a in ctx.actions:
            data = ctx.objects[a].data
            ctx.add_key(("flag", a, FINALISED), "bool", data.flags.get(FINALISED, True) if data else True)
        for oid, info in ctx.objects.items():
            if "unit" in info.types:
                ctx.add_key(("attr", oid, "power"), [-1_000_000, 1_000_000], 0)
        for eid, e in ctx.effects.items():
            if e.kind == "control":
                for oid in ctx.candidates(e):
                    info = ctx.objects[oid]
                    if info.action is None and not set(info.types) & NOT_BANISHED:
                        ctx.add_key(("released", eid, oid), "bool", False)
        for ev in ctx.sc.events:
            if ev.type == "concede":
                for old, slot in self.blank_slots(ctx, ev).items():
                    data = ctx.objects[old].data
                    for ab in data.abilities if data else ():
                        ctx.add_key(("ability", slot, ab), "bool", False)

    def derived_flag(self, ctx: RuleContext, st: Stage, obj: str, name: str) -> Lit:
        """'mighty': power 5 or more (after continuous effects)."""
        if name != "mighty":
            return super().derived_flag(ctx, st, obj, name)
        key = ("mighty", obj)
        if key not in st.derived:
            if ("attr", obj, "power") not in st.vars:
                raise ScenarioError(f"object {obj} has no power: it cannot be mighty")
            rm = ctx.rm
            m = rm.new_bool(f"s{st.index}:mighty.{obj}")
            strong = rm.int_ge(ctx.value(st, obj, "power"), 5)
            rm.implies("riftbound.mighty", [strong], m)
            rm.implies("riftbound.mighty", [rm.neg(strong)], rm.neg(m))
            st.derived[key] = m
        return st.derived[key]

    # -- the concession -----------------------------------------------------------------------------
    def on_concede(self, ctx: RuleContext, ev) -> None:
        """A player concedes: leave (and win checks), then the removal steps, holders and passes, one stage each. Only a
        player in the game concedes: conceding again, or after the game is won, is a located error."""
        st = ctx.stage
        ctx.require(in_game(st, ev.player), f"{ev.player} concedes here, but is not in the game any more (they have "
                                            f"conceded, lost or won already): only a player in the game concedes")
        conceding = in_game(st, ev.player)
        side = side_of(ctx, ev.player)
        leaving = {p: (ctx.rm.all_of([conceding, in_game(st, p)]) if side_of(ctx, p) == side else ctx.rm.false)
                   for p in ctx.players}
        goes_on = self._leave(ctx, ev, leaving)
        self._banish(ctx, leaving, goes_on)
        self._replace_battlefields(ctx, ev, leaving, goes_on)
        self._remove_owned(ctx, leaving, goes_on)
        self._counter(ctx, leaving, goes_on)
        self._influence_ends(ctx, leaving, goes_on)
        self._pass_holders(ctx, leaving, goes_on)
        self._passes_of_focus(ctx, goes_on)
        self._passes_of_priority(ctx, goes_on)

    def _leave(self, ctx: RuleContext, ev, leaving: dict[str, Lit]) -> Lit:
        """The conceding player has conceded, their teammates lose; a side left alone wins. Returns the literal 'the game goes on' (two sides or more remain)."""
        rm, st = ctx.rm, ctx.stage
        after = {p: rm.all_of([in_game(st, p), rm.neg(leaving[p])]) for p in ctx.players}
        sides: dict[str, list[str]] = {}
        for p in ctx.players:
            sides.setdefault(side_of(ctx, p), []).append(p)
        remains = {s: rm.any_of([after[p] for p in ps]) for s, ps in sides.items()}
        names = list(sides)
        goes_on = rm.any_of([rm.all_of([remains[a], remains[b]]) for i, a in enumerate(names) for b in names[i + 1:]])
        teams = any(p.team for p in ctx.sc.players)
        with ctx.step(f"{ev.player} concedes") as tr:
            for p in ctx.players:
                if p == ev.player:
                    tr.set(("pstatus", p), "conceded", "riftbound.concede", leaving[p])
                else:
                    tr.set(("pstatus", p), "lost", "riftbound.concede.team", leaving[p])
                alone = rm.all_of([after[p]] + [rm.neg(remains[s]) for s in names if s != side_of(ctx, p)])
                tr.set(("pstatus", p), "won", "riftbound.concede.team_wins" if teams else "riftbound.concede.last_standing", alone)
        return goes_on

    def _banishable(self, ctx: RuleContext, st: Stage, oid: str, info) -> Lit:
        """Literal: the object is a permanent, a rune or a facedown card (the kinds step 1 banishes)."""
        types = set(info.types)
        if info.action is not None or types & NOT_BANISHED:
            return ctx.rm.false
        if types & (PERMANENTS | {"rune"}):
            return ctx.rm.true
        return st.vars.get(("flag", oid, "facedown"), ctx.rm.false)

    def _leaver_controls(self, ctx: RuleContext, st: Stage, oid: str, leaving: dict[str, Lit]) -> Lit:
        """Literal: a leaving player controls the object (after control effects)."""
        ctrl = ctx.controller(st, oid)
        return ctx.rm.any_of([ctx.rm.all_of([ctrl.is_(p), leaving[p]]) for p in ctx.players])

    def _banish(self, ctx: RuleContext, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 1: banish the leaver's owned or controlled permanents, runes and facedown cards, each to its owner's zone."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("removal: banish") as tr:
            for oid, info in ctx.objects.items():
                kind = self._banishable(ctx, st, oid, info)
                if kind is rm.false:
                    continue
                touched = rm.any_of([leaving.get(info.owner, rm.false), self._leaver_controls(ctx, st, oid, leaving)])
                when = rm.all_of([goes_on, kind, st["zone", oid].one_of(BOARD), touched])
                tr.set(("zone", oid), "banishment", "riftbound.concede.banish", when)
                _off_board(ctx, tr, oid, "riftbound.concede.banish", when)
                tr.set(("ctrl", oid), info.owner or NONE, "riftbound.concede.owner_zone", when)
                _release_control(ctx, tr, oid, when)
                for e in ctx.effects_on(oid, "control"):
                    if e.duration != "static" and ctx.candidates(e) == [oid]:
                        tr.set(("active", e.id), 0, "riftbound.concede.owner_zone", when)

    def _replace_battlefields(self, ctx: RuleContext, ev, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 2: a battlefield the leaver provided, if in use, gives way to a blank one in the same place."""
        rm, st = ctx.rm, ctx.stage
        cells = bool(ctx.cells)
        with ctx.step("removal: replace battlefields") as tr:
            for old, slot in self.blank_slots(ctx, ev).items():
                when = rm.all_of([goes_on, leaving[ctx.owner_of(old)], st["zone", old].is_("battlefield")])
                tr.set(("zone", old), "outside", "riftbound.concede.battlefield", when)
                tr.set(("zone", slot), "battlefield", "riftbound.concede.battlefield", when)
                if cells:
                    tr.set(("cell", slot), st["cell", old], "riftbound.concede.battlefield", when)
                    tr.set(("cell", old), NONE, "riftbound.concede.battlefield", when)
                tr.set(("ctrl", slot), NONE, "riftbound.concede.blank", when)
                for key in ctx.domains:
                    if key[0] == "ability" and key[1] == slot:
                        tr.set(key, 0, "riftbound.concede.blank", when)
                if cells:
                    self._keep_in_place(ctx, tr, old, slot, when)

    def _keep_in_place(self, ctx: RuleContext, tr, old: str, slot: str, when: Lit) -> None:
        """Cards at the replaced battlefield keep their zone and place."""
        rm, st = ctx.rm, tr.prev
        for q in ctx.objects:
            if q in (old, slot) or ("cell", q) not in ctx.domains:
                continue
            here = rm.any_of([rm.all_of([st["cell", q].is_(c), st["cell", old].is_(c)]) for c in ctx.cells])
            stay = rm.all_of([when, here])
            tr.keep(("zone", q), "riftbound.concede.battlefield.in_place", stay)
            tr.keep(("cell", q), "riftbound.concede.battlefield.in_place", stay)

    def _remove_owned(self, ctx: RuleContext, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 3: every card the leaver owns leaves the game ("toutes les cartes appartenant au joueur partant"), a
        spell card on the chain too: one another player controls never resolves (interrupted); one the leaver
        controls is countered by step 4 ("propriété pour retirer les cartes, contrôle pour contrer")."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("removal: remove owned cards") as tr:
            for oid, info in ctx.objects.items():
                if info.owner is None:
                    continue
                if info.action is not None:
                    if not info.card or leaving[info.owner] is rm.false:
                        continue  # an ability (no card of the leaver's), or a card of a player who stays
                    when = rm.all_of([goes_on, leaving[info.owner], st["status", oid].is_("on_stack"),
                                      rm.neg(self._leaver_controls(ctx, st, oid, leaving))])
                    tr.set(("zone", oid), "outside", "riftbound.concede.remove_owned", when)
                    tr.set(("status", oid), "interrupted", "riftbound.concede.remove_owned", when)
                    continue
                here = rm.neg(st["zone", oid].one_of(tuple(self.gone_zones) + (self.stack_zone,)))
                when = rm.all_of([goes_on, leaving[info.owner], here])
                tr.set(("zone", oid), "outside", "riftbound.concede.remove_owned", when)
                _off_board(ctx, tr, oid, "riftbound.concede.remove_owned", when)

    def _counter(self, ctx: RuleContext, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 4: chain items the leaver controls are countered; a countered card of a leaver leaves the game."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("removal: counter the leaver's chain items") as tr:
            for a in ctx.actions:
                info = ctx.objects[a]
                mine = self._leaver_controls(ctx, st, a, leaving)
                when = rm.all_of([goes_on, st["status", a].is_("on_stack"), mine])
                tr.set(("status", a), "countered", "riftbound.concede.counter", when)
                if not info.card:
                    tr.set(("zone", a), NONE, "riftbound.concede.counter", when)
                    continue
                owner_left = leaving.get(info.owner, rm.false)
                tr.set(("zone", a), "outside", "riftbound.concede.counter", rm.all_of([when, owner_left]))
                tr.set(("zone", a), self.graveyard, "riftbound.concede.counter", rm.all_of([when, rm.neg(owner_left)]))

    def _influence_ends(self, ctx: RuleContext, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """'le joueur partant cesse de faire des choix et d'influencer le jeu': after the removal steps, an effect
        that gives a leaver control of a card that stays (a legend, a battlefield) ends."""
        rm = ctx.rm
        with ctx.step("removal: the leaver stops influencing the game") as tr:
            for eid, e in ctx.effects.items():
                if e.kind == "control" and e.duration != "static" and e.player in leaving:
                    tr.set(("active", eid), 0, "riftbound.concede.influence", rm.all_of([goes_on, leaving[e.player]]))

    def may_receive(self, ctx: RuleContext, st: Stage, e) -> Lit:
        """'cesse d'influencer le jeu': a card's static 'you' (its controller) gives nothing to a player not in the
        game."""
        return derived.receiver_in_game(ctx, st, e, "riftbound.concede.influence")

    def _pass_holders(self, ctx: RuleContext, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Turn, focus and priority held by a leaver pass to the next player still in the game; others keep theirs."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("removal: turn, focus and priority") as tr:
            for name, rule in (("active_player", "riftbound.concede.turn"), ("focus", "riftbound.concede.focus"), ("priority", "riftbound.concede.priority")):
                holder = st["turn", name]
                for p in ctx.players:
                    held = rm.all_of([goes_on, holder.is_(p), leaving[p]])
                    for q, first in next_available(ctx, st, p):
                        tr.set(("turn", name), q, rule, rm.all_of([held, first]))

    def _passes_of_focus(self, ctx: RuleContext, goes_on: Lit) -> None:
        """If every remaining player has already passed focus, the showdown ends."""
        rm, st = ctx.rm, ctx.stage
        when = rm.all_of([goes_on, st["gflag", "showdown"], all_passed(ctx, st, "focus")])
        with ctx.step("removal: passes of focus") as tr:
            tr.set(("gflag", "showdown"), 0, "riftbound.concede.passes.focus", when)
            tr.set(("turn", "focus"), NONE, "riftbound.concede.passes.focus", when)

    def _passes_of_priority(self, ctx: RuleContext, goes_on: Lit) -> None:
        """If every remaining player has already passed priority, the last finalised chain item resolves."""
        rm, st = ctx.rm, ctx.stage
        ready = {a: rm.all_of([st["status", a].is_("on_stack"), st["flag", a, FINALISED]]) for a in ctx.actions}
        everyone = rm.all_of([goes_on, all_passed(ctx, st, "priority")])
        order = list(ctx.actions)
        go = {a: rm.all_of([everyone, ready[a]] + [rm.neg(ready[b]) for b in order[i + 1:]])
              for i, a in enumerate(order)}
        legal = {a: self.requirement_lits(ctx, st, a) for a in order}
        with ctx.step("removal: passes of priority") as tr:
            for a in order:
                spec = ctx.objects[a].action
                ok = rm.all_of([go[a], legal[a]])
                self._leave_stack(ctx, tr, a, "resolved", "riftbound.concede.passes.priority", ok)
                self.action_kind(ctx, a).apply(ctx, tr, spec, ok)
                # the attempted resolution is this rule's too: without it the item would stay on the chain
                self._leave_stack(ctx, tr, a, "interrupted", "core.interrupt",
                                  rm.all_of([go[a], rm.neg(legal[a]), rm.rule("riftbound.concede.passes.priority")]),
                                  frame=False)
            resolved = rm.any_of(list(go.values()))
            tr.set(("turn", "priority"), st["turn", "active_player"], "riftbound.chain.restore_priority", resolved)
            for p in ctx.players:
                tr.set(("pflag", p, PASSED["priority"]), 0, "riftbound.chain.restore_priority", resolved)

    # -- the turn ---------------------------------------------------------------------------------
    def on_pass_turn(self, ctx: RuleContext, ev) -> None:
        """The turn passes to the next player in turn order still in the game, who receives priority."""
        rm, st = ctx.rm, ctx.stage
        with ctx.step("the turn passes") as tr:
            for eid, e in ctx.effects.items():
                if e.duration == "until_end_of_turn":
                    tr.set(("active", eid), 0, "core.end_of_turn")
            for p in ctx.players:
                current = st["turn", "active_player"].is_(p)
                for q, first in next_available(ctx, st, p):
                    when = rm.all_of([current, first])
                    tr.set(("turn", "active_player"), q, "riftbound.concede.continue", when)
                    tr.set(("turn", "priority"), q, "riftbound.concede.continue", when)


RULESET = Riftbound()
