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
from solver.encoding.context import ObjInfo
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
def _target(comp, spec) -> str:
    """The action's first target, which must be an object of the scenario."""
    if not spec.targets or spec.targets[0] not in comp.objects:
        raise ScenarioError(f"action '{spec.kind}' needs a target object (got {spec.targets or 'none'})")
    return spec.targets[0]


def _kill() -> ActionKind:
    def requirements(comp, st, spec):
        t = _target(comp, spec)
        unit = comp.rm.true if "unit" in comp.objects[t].types else comp.rm.false
        return [("riftbound.chain.targets", comp.rm.all_of([unit, st["zone", t].one_of(BOARD)]))]

    def apply(comp, tr, spec, when):
        t = _target(comp, spec)
        tr.set(("zone", t), "trash", "riftbound.card.kill", when)
        _off_board(comp, tr, t, "riftbound.card.kill", when)
        tr.set(("ctrl", t), comp.owner_of(t) or NONE, "riftbound.card.kill", when)
        _release_control(comp, tr, t, when)
    return ActionKind(requirements, apply)


def _counter() -> ActionKind:
    def requirements(comp, st, spec):
        t = _target(comp, spec)
        if ("status", t) not in comp.domains:
            return [("riftbound.chain.targets", comp.rm.false)]
        return [("riftbound.chain.targets", st["status", t].is_("on_stack"))]

    def apply(comp, tr, spec, when):
        t = _target(comp, spec)
        tr.set(("status", t), "countered", "riftbound.card.counter", when)
        tr.set(("zone", t), "trash" if comp.objects[t].card else NONE, "riftbound.card.counter", when)
    return ActionKind(requirements, apply)


def _release_control(comp, tr, obj: str, when: Lit) -> None:
    """A card leaving the board is its owner's again: no control effect applies to it any more."""
    for e in comp.effects_on(obj, "control"):
        if ("released", e.id, obj) in comp.domains:
            tr.set(("released", e.id, obj), 1, "riftbound.concede.owner_zone", when)


def _off_board(comp, tr, obj: str, rule: str, when: Lit) -> None:
    """A card leaving the board has no place (cell) and is attached to nothing."""
    for key in (("cell", obj), ("attach", obj)):
        if key in comp.domains:
            tr.set(key, NONE, rule, when)


# -- players, sides and turn order ------------------------------------------------------------
def in_game(st: Stage, player: str) -> Lit:
    """Literal: the player is still in the game at ``st``."""
    return st["pstatus", player].is_("in_game")


def side_of(comp, player: str) -> str:
    """A player's side: their team, or themselves in a free-for-all (static)."""
    team = next(p.team for p in comp.sc.players if p.id == player)
    return f"team:{team}" if team else f"player:{player}"


def next_available(comp, st: Stage, player: str) -> list[tuple[str, Lit]]:
    """For each other player q: (q, literal 'q is the first player after ``player`` in turn order still in the game')."""
    rm, order = comp.rm, comp.players
    i, n = order.index(player), len(order)
    out = []
    for k in range(1, n):
        q = order[(i + k) % n]
        skipped = [rm.neg(in_game(st, order[(i + j) % n])) for j in range(1, k)]
        out.append((q, rm.all_of([in_game(st, q)] + skipped)))
    return out


def all_passed(comp, st: Stage, what: str) -> Lit:
    """Literal: every player still in the game has passed ``what`` (focus or priority)."""
    rm = comp.rm
    return rm.all_of([rm.any_of([rm.neg(in_game(st, p)), st["pflag", p, PASSED[what]]]) for p in comp.players])


class Riftbound(Ruleset):
    """The Riftbound ruleset (conceding)."""

    game = "riftbound"
    graveyard = "trash"
    stack_zone = "chain"
    derived_flags = ("mighty",)
    actions = {"kill": _kill(), "counter": _counter()}

    # -- continuous effects: values recomputed from what still applies; a card's effects end with it ----------
    def value(self, comp, st, obj, attr):
        """The effective value, recomputed from the effects that still apply (riftbound.concede.recompute); a unit's
        power has +1 from each battlefield it is at whose text gives it (``battlefield_bonus``)."""
        v = derived.value(comp, st, obj, attr, latest="core.timestamp", value="riftbound.concede.recompute",
                          add="riftbound.concede.recompute")
        fields = self.plus_one_fields(comp) if attr == "power" and "unit" in comp.objects[obj].types else []
        if not fields:
            return v
        key = ("power_with_fields", obj)
        if key not in st.derived:
            rm = comp.rm
            total = rm.new_int(f"s{st.index}:power.{obj}", -1_000_000, 1_000_000)
            bonus = [self.battlefield_bonus(comp, st, f, obj) for f in fields]
            rm.enforce("riftbound.concede.recompute", rm.model.add(total == v + sum(bonus)))
            st.derived[key] = total
        return st.derived[key]

    @staticmethod
    def plus_one_fields(comp) -> list[str]:
        """Static: the battlefields that may have the '+1 power to units here' text (printed, or granted), on a board."""
        if not comp.cells:
            return []
        return [o for o, info in comp.objects.items() if "battlefield" in info.types
                and (("ability", o, PLUS_ONE) in comp.domains or comp.effects_on(o, "grant", PLUS_ONE))]

    def battlefield_bonus(self, comp, st, field: str, unit: str) -> Lit:
        """Literal: battlefield ``field`` gives ``unit`` +1 power at ``st``: it is on the board with the text and the
        unit is at it (riftbound.battlefield.units_here_plus_one); off the board its effect has ended
        (riftbound.concede.effects_end). The rule only gives: on the board the bonus never applies without the
        text or to a unit elsewhere (a definition), so where the unit can never be at the field the rule owns nothing."""
        rm = comp.rm
        on = st["zone", field].is_("battlefield")
        has = comp.has_ability(st, field, PLUS_ONE)
        here = rm.all_of([st["zone", unit].is_("battlefield"),
                          rm.any_of([rm.all_of([st["cell", unit].is_(c), st["cell", field].is_(c)]) for c in comp.cells])])
        b = rm.new_bool(f"s{st.index}:plus_one.{field}.{unit}")
        rm.implies("riftbound.battlefield.units_here_plus_one", [on, has, here], b)
        for lit in (has, here):
            rm.model.add_bool_or([lit]).only_enforce_if([b, on])
        rm.implies("riftbound.concede.effects_end", [rm.neg(on)], rm.neg(b))
        return b

    def prop(self, comp, st, obj, name):
        """The effective property, recomputed from the effects that still apply (riftbound.concede.recompute)."""
        return derived.prop(comp, st, obj, name, latest="core.timestamp", value="riftbound.concede.recompute")

    def has_ability(self, comp, st, obj, ability):
        """Has the ability, recomputed from the effects that still apply (riftbound.concede.recompute)."""
        return derived.has_ability(comp, st, obj, ability, latest="core.timestamp",
                                   value="riftbound.concede.recompute")

    def statics(self, comp, st) -> None:
        """A card's continuous effect applies exactly while it is on the board (riftbound.concede.effects_end)."""
        derived.statics(comp, st, rule="riftbound.concede.effects_end")

    # -- static data ------------------------------------------------------------------------------
    def blank_slots(self, comp, ev) -> dict[str, str]:
        """Battlefields the conceding side provided -> slot of the blank battlefield that may replace each."""
        side = side_of(comp, ev.player)
        provided = [o for o, info in comp.objects.items()
                    if "battlefield" in info.types and info.owner and side_of(comp, info.owner) == side
                    and o not in ev.blank_battlefields.values()]
        for old, slot in ev.blank_battlefields.items():
            info = comp.objects.get(old)
            if info is None or "battlefield" not in info.types or not info.owner or side_of(comp, info.owner) != side:
                raise ScenarioError(f"concede: '{old}' is not a battlefield provided by {ev.player}'s side")
            data = comp.objects[slot].data
            if data is not None and data.zone != NONE:
                raise ScenarioError(f"concede: blank battlefield slot '{slot}' must start in zone none")
        return {old: ev.blank_battlefields.get(old, f"{old}.blank") for old in provided}

    def created_objects(self, comp, ev) -> list:
        """A concession may create a blank battlefield for each battlefield the conceding side provided."""
        if ev.type != "concede":
            return []
        return [ObjInfo(slot, None, ("battlefield",), False, True, None, None)
                for slot in self.blank_slots(comp, ev).values() if slot not in comp.objects]

    def declare_keys(self, comp) -> None:
        """Pass flags of every player, 'finalised' of chain items, power of units, abilities of blank slots,
        and for each card a control effect may apply to: whether the effect still applies to it."""
        for p in comp.sc.players:
            for flag in PASSED.values():
                comp.add_key(("pflag", p.id, flag), "bool", p.flags.get(flag, False))
        for a in comp.actions:
            data = comp.objects[a].data
            comp.add_key(("flag", a, FINALISED), "bool", data.flags.get(FINALISED, True) if data else True)
        for oid, info in comp.objects.items():
            if "unit" in info.types:
                comp.add_key(("attr", oid, "power"), [-1_000_000, 1_000_000], 0)
        for eid, e in comp.effects.items():
            if e.kind == "control":
                for oid in comp.candidates(e):
                    info = comp.objects[oid]
                    if info.action is None and not set(info.types) & NOT_BANISHED:
                        comp.add_key(("released", eid, oid), "bool", False)
        for ev in comp.sc.events:
            if ev.type == "concede":
                for old, slot in self.blank_slots(comp, ev).items():
                    data = comp.objects[old].data
                    for ab in data.abilities if data else ():
                        comp.add_key(("ability", slot, ab), "bool", False)

    def derived_flag(self, comp, st: Stage, obj: str, name: str) -> Lit:
        """'mighty': power 5 or more (after continuous effects)."""
        if name != "mighty":
            return super().derived_flag(comp, st, obj, name)
        key = ("mighty", obj)
        if key not in st.derived:
            if ("attr", obj, "power") not in st.vars:
                raise ScenarioError(f"object {obj} has no power: it cannot be mighty")
            rm = comp.rm
            m = rm.new_bool(f"s{st.index}:mighty.{obj}")
            strong = rm.int_ge(comp.value(st, obj, "power"), 5)
            rm.implies("riftbound.mighty", [strong], m)
            rm.implies("riftbound.mighty", [rm.neg(strong)], rm.neg(m))
            st.derived[key] = m
        return st.derived[key]

    # -- the concession -----------------------------------------------------------------------------
    def on_concede(self, comp, ev) -> None:
        """A player concedes: leave (and win checks), then the removal steps, holders and passes, one stage each."""
        st = comp.stage
        conceding = in_game(st, ev.player)
        side = side_of(comp, ev.player)
        leaving = {p: (comp.rm.all_of([conceding, in_game(st, p)]) if side_of(comp, p) == side else comp.rm.false)
                   for p in comp.players}
        goes_on = self._leave(comp, ev, leaving)
        self._banish(comp, leaving, goes_on)
        self._replace_battlefields(comp, ev, leaving, goes_on)
        self._remove_owned(comp, leaving, goes_on)
        self._counter(comp, leaving, goes_on)
        self._influence_ends(comp, leaving, goes_on)
        self._pass_holders(comp, leaving, goes_on)
        self._passes_of_focus(comp, goes_on)
        self._passes_of_priority(comp, goes_on)

    def _leave(self, comp, ev, leaving: dict[str, Lit]) -> Lit:
        """The conceding player has conceded, their teammates lose; a side left alone wins. Returns the literal 'the game goes on' (two sides or more remain)."""
        rm, st = comp.rm, comp.stage
        after = {p: rm.all_of([in_game(st, p), rm.neg(leaving[p])]) for p in comp.players}
        sides: dict[str, list[str]] = {}
        for p in comp.players:
            sides.setdefault(side_of(comp, p), []).append(p)
        remains = {s: rm.any_of([after[p] for p in ps]) for s, ps in sides.items()}
        names = list(sides)
        goes_on = rm.any_of([rm.all_of([remains[a], remains[b]]) for i, a in enumerate(names) for b in names[i + 1:]])
        teams = any(p.team for p in comp.sc.players)
        with comp.step(f"{ev.player} concedes") as tr:
            for p in comp.players:
                if p == ev.player:
                    tr.set(("pstatus", p), "conceded", "riftbound.concede", leaving[p])
                else:
                    tr.set(("pstatus", p), "lost", "riftbound.concede.team", leaving[p])
                alone = rm.all_of([after[p]] + [rm.neg(remains[s]) for s in names if s != side_of(comp, p)])
                tr.set(("pstatus", p), "won", "riftbound.concede.team_wins" if teams else "riftbound.concede.last_standing", alone)
        return goes_on

    def _banishable(self, comp, st: Stage, oid: str, info) -> Lit:
        """Literal: the object is a permanent, a rune or a facedown card (the kinds step 1 banishes)."""
        types = set(info.types)
        if info.action is not None or types & NOT_BANISHED:
            return comp.rm.false
        if types & (PERMANENTS | {"rune"}):
            return comp.rm.true
        return st.vars.get(("flag", oid, "facedown"), comp.rm.false)

    def _leaver_controls(self, comp, st: Stage, oid: str, leaving: dict[str, Lit]) -> Lit:
        """Literal: a leaving player controls the object (after control effects)."""
        ctrl = comp.controller(st, oid)
        return comp.rm.any_of([comp.rm.all_of([ctrl.is_(p), leaving[p]]) for p in comp.players])

    def _banish(self, comp, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 1: banish the leaver's owned or controlled permanents, runes and facedown cards, each to its owner's zone."""
        rm, st = comp.rm, comp.stage
        with comp.step("removal: banish") as tr:
            for oid, info in comp.objects.items():
                kind = self._banishable(comp, st, oid, info)
                if kind is rm.false:
                    continue
                touched = rm.any_of([leaving.get(info.owner, rm.false), self._leaver_controls(comp, st, oid, leaving)])
                when = rm.all_of([goes_on, kind, st["zone", oid].one_of(BOARD), touched])
                tr.set(("zone", oid), "banishment", "riftbound.concede.banish", when)
                _off_board(comp, tr, oid, "riftbound.concede.banish", when)
                tr.set(("ctrl", oid), info.owner or NONE, "riftbound.concede.owner_zone", when)
                _release_control(comp, tr, oid, when)
                for e in comp.effects_on(oid, "control"):
                    if e.duration != "static" and comp.candidates(e) == [oid]:
                        tr.set(("active", e.id), 0, "riftbound.concede.owner_zone", when)

    def _replace_battlefields(self, comp, ev, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 2: a battlefield the leaver provided, if in use, gives way to a blank one in the same place."""
        rm, st = comp.rm, comp.stage
        cells = bool(comp.cells)
        with comp.step("removal: replace battlefields") as tr:
            for old, slot in self.blank_slots(comp, ev).items():
                when = rm.all_of([goes_on, leaving[comp.owner_of(old)], st["zone", old].is_("battlefield")])
                tr.set(("zone", old), "outside", "riftbound.concede.battlefield", when)
                tr.set(("zone", slot), "battlefield", "riftbound.concede.battlefield", when)
                if cells:
                    tr.set(("cell", slot), st["cell", old], "riftbound.concede.battlefield", when)
                    tr.set(("cell", old), NONE, "riftbound.concede.battlefield", when)
                tr.set(("ctrl", slot), NONE, "riftbound.concede.blank", when)
                for key in comp.domains:
                    if key[0] == "ability" and key[1] == slot:
                        tr.set(key, 0, "riftbound.concede.blank", when)
                if cells:
                    self._keep_in_place(comp, tr, old, slot, when)

    def _keep_in_place(self, comp, tr, old: str, slot: str, when: Lit) -> None:
        """Cards at the replaced battlefield keep their zone and place."""
        rm, st = comp.rm, tr.prev
        for q in comp.objects:
            if q in (old, slot) or ("cell", q) not in comp.domains:
                continue
            here = rm.any_of([rm.all_of([st["cell", q].is_(c), st["cell", old].is_(c)]) for c in comp.cells])
            stay = rm.all_of([when, here])
            tr.keep(("zone", q), "riftbound.concede.battlefield.in_place", stay)
            tr.keep(("cell", q), "riftbound.concede.battlefield.in_place", stay)

    def _remove_owned(self, comp, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 3: every card the leaver owns leaves the game (chain items are step 4's)."""
        rm, st = comp.rm, comp.stage
        with comp.step("removal: remove owned cards") as tr:
            for oid, info in comp.objects.items():
                if info.owner is None or info.action is not None:
                    continue
                here = rm.neg(st["zone", oid].one_of(tuple(self.gone_zones) + (self.stack_zone,)))
                when = rm.all_of([goes_on, leaving[info.owner], here])
                tr.set(("zone", oid), "outside", "riftbound.concede.remove_owned", when)
                _off_board(comp, tr, oid, "riftbound.concede.remove_owned", when)

    def _counter(self, comp, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Step 4: chain items the leaver controls are countered; a countered card of a leaver leaves the game."""
        rm, st = comp.rm, comp.stage
        with comp.step("removal: counter the leaver's chain items") as tr:
            for a in comp.actions:
                info = comp.objects[a]
                mine = self._leaver_controls(comp, st, a, leaving)
                when = rm.all_of([goes_on, st["status", a].is_("on_stack"), mine])
                tr.set(("status", a), "countered", "riftbound.concede.counter", when)
                if not info.card:
                    tr.set(("zone", a), NONE, "riftbound.concede.counter", when)
                    continue
                owner_left = leaving.get(info.owner, rm.false)
                tr.set(("zone", a), "outside", "riftbound.concede.counter", rm.all_of([when, owner_left]))
                tr.set(("zone", a), self.graveyard, "riftbound.concede.counter", rm.all_of([when, rm.neg(owner_left)]))

    def _influence_ends(self, comp, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """'le joueur partant cesse de faire des choix et d'influencer le jeu': after the removal steps, an effect
        that gives a leaver control of a card that stays (a legend, a battlefield) ends."""
        rm = comp.rm
        with comp.step("removal: the leaver stops influencing the game") as tr:
            for eid, e in comp.effects.items():
                if e.kind == "control" and e.duration != "static" and e.player in leaving:
                    tr.set(("active", eid), 0, "riftbound.concede.influence", rm.all_of([goes_on, leaving[e.player]]))

    def may_receive(self, comp, st: Stage, e) -> Lit:
        """'cesse d'influencer le jeu': a card's static 'you' (its controller) gives nothing to a player not in the
        game."""
        return derived.receiver_in_game(comp, st, e, "riftbound.concede.influence")

    def _pass_holders(self, comp, leaving: dict[str, Lit], goes_on: Lit) -> None:
        """Turn, focus and priority held by a leaver pass to the next player still in the game; others keep theirs."""
        rm, st = comp.rm, comp.stage
        with comp.step("removal: turn, focus and priority") as tr:
            for name, rule in (("active_player", "riftbound.concede.turn"), ("focus", "riftbound.concede.focus"), ("priority", "riftbound.concede.priority")):
                holder = st["turn", name]
                for p in comp.players:
                    held = rm.all_of([goes_on, holder.is_(p), leaving[p]])
                    for q, first in next_available(comp, st, p):
                        tr.set(("turn", name), q, rule, rm.all_of([held, first]))

    def _passes_of_focus(self, comp, goes_on: Lit) -> None:
        """If every remaining player has already passed focus, the showdown ends."""
        rm, st = comp.rm, comp.stage
        when = rm.all_of([goes_on, st["gflag", "showdown"], all_passed(comp, st, "focus")])
        with comp.step("removal: passes of focus") as tr:
            tr.set(("gflag", "showdown"), 0, "riftbound.concede.passes.focus", when)
            tr.set(("turn", "focus"), NONE, "riftbound.concede.passes.focus", when)

    def _passes_of_priority(self, comp, goes_on: Lit) -> None:
        """If every remaining player has already passed priority, the last finalised chain item resolves."""
        rm, st = comp.rm, comp.stage
        ready = {a: rm.all_of([st["status", a].is_("on_stack"), st["flag", a, FINALISED]]) for a in comp.actions}
        everyone = rm.all_of([goes_on, all_passed(comp, st, "priority")])
        order = list(comp.actions)
        go = {a: rm.all_of([everyone, ready[a]] + [rm.neg(ready[b]) for b in order[i + 1:]])
              for i, a in enumerate(order)}
        legal = {a: self.requirement_lits(comp, st, a) for a in order}
        with comp.step("removal: passes of priority") as tr:
            for a in order:
                spec = comp.objects[a].action
                ok = rm.all_of([go[a], legal[a]])
                self._leave_stack(comp, tr, a, "resolved", "riftbound.concede.passes.priority", ok)
                self.action_kind(comp, a).apply(comp, tr, spec, ok)
                # the attempted resolution is this rule's too: without it the item would stay on the chain
                self._leave_stack(comp, tr, a, "interrupted", "core.interrupt",
                                  rm.all_of([go[a], rm.neg(legal[a]), rm.rule("riftbound.concede.passes.priority")]),
                                  frame=False)
            resolved = rm.any_of(list(go.values()))
            tr.set(("turn", "priority"), st["turn", "active_player"], "riftbound.chain.restore_priority", resolved)
            for p in comp.players:
                tr.set(("pflag", p, PASSED["priority"]), 0, "riftbound.chain.restore_priority", resolved)

    # -- the turn ---------------------------------------------------------------------------------
    def on_pass_turn(self, comp, ev) -> None:
        """The turn passes to the next player in turn order still in the game, who receives priority."""
        rm, st = comp.rm, comp.stage
        with comp.step("the turn passes") as tr:
            for eid, e in comp.effects.items():
                if e.duration == "until_end_of_turn":
                    tr.set(("active", eid), 0, "core.end_of_turn")
            for p in comp.players:
                current = st["turn", "active_player"].is_(p)
                for q, first in next_available(comp, st, p):
                    when = rm.all_of([current, first])
                    tr.set(("turn", "active_player"), q, "riftbound.concede.continue", when)
                    tr.set(("turn", "priority"), q, "riftbound.concede.continue", when)


RULESET = Riftbound()
