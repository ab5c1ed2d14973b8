"""Berserk control and squads (seed 002): 532.5.4 incarnation, 532.6 named cells, 532.7 control, 532.8 squads.

Action kinds take_control, summon, revive and incarnate; events recruit and
lose_control. Berserk's control rules are for two players.
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.encoding.ruleset import ActionKind
from solver.errors import NotModelled, ScenarioError
from solver.games.berserk.movement import blocked
from solver.encoding.state import NONE


def opponent(ctx: RuleContext, player: str) -> str:
    """The other player of a two-player battle."""
    if len(ctx.players) != 2:
        raise NotModelled("the berserk control and victory rules (532.7, 602.1) are for two players", "players")
    return ctx.next_player(player)


def rule_lit(ctx: RuleContext, st, rule_id: str, cond, name: str):
    """A literal: rule ``rule_id``'s requirement ``cond`` is met (``RuleModel.requirement``: owned only where it fails)."""
    return ctx.rm.requirement(rule_id, cond, f"s{st.index}:{rule_id}.{name}")


def not_with(ctx: RuleContext, obj: str) -> list[str]:
    """The [text]s of a card's 'cannot be taken into a squad with [text]' (property not_with, '+'-separated)."""
    data = ctx.objects[obj].data
    text = data.properties.get("not_with") if data else None
    return [t.strip() for t in str(text).split("+") if t.strip()] if text else []


def matches(ctx: RuleContext, obj: str, text: str) -> bool:
    """Does a card answer to [text]: its id, name, a type or a property value."""
    info = ctx.objects[obj]
    d = info.data
    values = {obj, *info.types} | ({d.name} if d and d.name else set()) | (
        {v for k, v in d.properties.items() if k != "not_with"} if d else set())
    return text in values


def conflict(ctx: RuleContext, st, obj: str, player: str, both_ways: bool = False):
    """Literal: ``player``'s squad in play holds a [text] of ``obj``'s 'cannot be taken into a squad with [text]'
    (532.8, second bullet: only the card with the feature is kept out); with ``both_ways`` (the Recruit subphase, 532.8
    first bullet) also a card whose [text] ``obj`` is."""
    rm, zones = ctx.rm, ctx.rs.play_zones
    mine = not_with(ctx, obj)
    lits = []
    for q, info in ctx.objects.items():
        if q == obj or info.action is not None:
            continue
        if any(matches(ctx, q, t) for t in mine) or \
                (both_ways and any(matches(ctx, obj, t) for t in not_with(ctx, q))):
            lits.append(rm.all_of([st["zone", q].one_of(zones), ctx.controller(st, q).is_(player)]))
    return rm.any_of(lits)


def banned_pairs(ctx: RuleContext) -> list[tuple[str, str]]:
    """Cards (a, b), a before b, of which one cannot be taken into a squad with the other (532.8)."""
    cards = [q for q, info in ctx.objects.items() if info.action is None]
    return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
            if any(matches(ctx, b, t) for t in not_with(ctx, a)) or any(matches(ctx, a, t) for t in not_with(ctx, b))]


# -- action kinds: take control, summon, revive, incarnate ------------------------------------------------
def _actor(spec) -> str:
    actor = getattr(spec, "actor", None)
    if actor is None:
        raise ScenarioError(f"action '{spec.kind}' needs a declaring player (declare it with an actor)")
    return actor


def _card(spec) -> str:
    return spec.targets[0] if spec.targets else spec.source


def take_control() -> ActionKind:
    """532.7: take control of a card in play, unless 532.8 forbids it with your squad."""
    def requirements(ctx: RuleContext, st, spec):
        card, actor = _card(spec), _actor(spec)
        return [("berserk.532.7", st["zone", card].one_of(ctx.rs.play_zones)),
                ("berserk.532.8", ctx.rm.neg(conflict(ctx, st, card, actor)))]

    def apply(ctx: RuleContext, tr, spec, when):
        tr.set(("ctrl", _card(spec)), _actor(spec), "berserk.532.7", when)
    return ActionKind(requirements, apply, None)


def _no_cell(ctx: RuleContext, st, card: str):
    """Literal: the card names no cell on entering (532.6): flying creature, terrain or auxiliary-zone card."""
    rm = ctx.rm
    terrain = rm.true if "terrain" in ctx.objects[card].types else rm.false
    return rm.any_of([ctx.has_ability(st, card, "flying"), terrain, ctx.has_ability(st, card, "auxiliary_zone")])


def incarnations(ctx: RuleContext, card: str) -> list[tuple[str, int]]:
    """The 'incarnation X' abilities the card may have, printed or granted by an effect, with their X (whether it has
    each is ``has_ability``'s answer)."""
    out = []
    for ab in derived.ability_names(ctx, card):
        name, _, x = ab.partition(" ")
        if name == "incarnation" and x.strip().isdigit():
            out.append((ab, int(x)))
    return out


def enter(source_zones: tuple[str, ...] | None, incarnation: bool = False) -> ActionKind:
    """Summon (from hand), revive (from the graveyard) or incarnate: 532.8 squad, 532.6 cell, 532.5.4 incarnation."""
    def requirements(ctx: RuleContext, st, spec):
        rm, card, actor = ctx.rm, _card(spec), _actor(spec)
        cell = spec.params.get("cell")
        if cell is not None and cell not in ctx.cells:
            raise ScenarioError(f"action '{spec.kind}': unknown cell '{cell}'")
        no_cell = _no_cell(ctx, st, card)
        reqs = [("berserk.532.8", rm.neg(conflict(ctx, st, card, actor))),
                ("berserk.532.6", rm.neg(no_cell) if cell is not None else no_cell)]
        if cell is not None and ("cell", card) in ctx.domains:  # the named cell is part of the declaration
            reqs.append(("berserk.532.6.free", rm.neg(blocked(ctx, st, card, cell))))
        zone = st["zone", card]
        reqs.append(("berserk.summon", zone.one_of(source_zones) if source_zones else
                     rm.neg(zone.one_of(ctx.rs.play_zones))))
        if incarnation:
            has = [ctx.has_ability(st, card, ab) for ab, _ in incarnations(ctx, card)]
            reqs.append(("berserk.532.5.4", rm.any_of(has)))
            reqs.append(("berserk.532.5.4.once", rm.neg(st["flag", card, "incarnated"])))
        return reqs

    def apply(ctx: RuleContext, tr, spec, when):
        rm, card, st = ctx.rm, _card(spec), tr.prev
        aux = ctx.has_ability(st, card, "auxiliary_zone")
        tr.set(("zone", card), "auxiliary", "berserk.summon", rm.all_of([when, aux]))
        tr.set(("zone", card), "play", "berserk.summon", rm.all_of([when, rm.neg(aux)]))
        tr.set(("ctrl", card), _actor(spec), "berserk.summon", when)
        if ("cell", card) in ctx.domains:
            cell = spec.params.get("cell")
            tr.set(("cell", card), cell or NONE, "berserk.summon", when)
            ctx.rs.arrive(ctx, tr, card, cell, rm.all_of([when, rm.neg(aux)]))  # onto an occupied cell: conservation
        if incarnation:
            tr.set(("flag", card, "incarnated"), 1, "berserk.532.5.4.once", when)
            tr.set(("attr", card, "incarnation"), _highest_x(ctx, st, card), "berserk.532.5.4", when)
    return ActionKind(requirements, apply, None)


def _highest_x(ctx: RuleContext, st, card: str):
    """berserk.532.5.4: the applied X is the highest of the card's incarnation abilities it has."""
    rm = ctx.rm
    options = incarnations(ctx, card)
    x = rm.new_int(f"s{st.index}:incarnation.{card}", 0, max([v for _, v in options] + [0]))
    picks = []
    for ab, v in options:
        has = ctx.has_ability(st, card, ab)
        rm.enforce("berserk.532.5.4", rm.model.add(x >= v), [has])
        pick = rm.new_bool(f"s{st.index}:incarnation.{card}.{v}")
        rm.implies("berserk.532.5.4", [pick], has)
        rm.enforce("berserk.532.5.4", rm.model.add(x == v), [pick])
        picks.append(pick)
    # some X is picked only when the card has an incarnation: without one the action never resolves (it is
    # illegal), and an unconditional clause would make the whole scenario contradictory
    having = [ctx.has_ability(st, card, ab) for ab, _ in options]
    rm.clause("berserk.532.5.4", picks + [rm.neg(rm.any_of(having))])
    return x


#: action kind -> its requirements and effect
ACTIONS = {
    "take_control": take_control(),
    "summon": enter(("hand",)),
    "revive": enter(("graveyard",)),
    "incarnate": enter(None, incarnation=True),
}


def event_keys(ctx: RuleContext, ev) -> list[tuple]:
    """State variables the incarnation action needs."""
    out = []
    if ev.type == "declare" and ev.kind == "incarnate":
        card = ev.targets[0] if ev.targets else ev.source
        out.append((("flag", card, "incarnated"), "bool", False))
        out.append((("attr", card, "incarnation"), [-1_000_000, 1_000_000], 0))
    return out


class Squads:
    """Mixin for the Berserk ruleset: the Recruit subphase and losing control."""

    def on_recruit(self, ctx: RuleContext, ev) -> None:
        """Recruit subphase: each card joins the squad in turn, unless 532.8 forbids it with the squad so far."""
        for card in ev.cards:
            st = ctx.stage
            ok = rule_lit(ctx, st, "berserk.532.8.recruit", ctx.rm.neg(conflict(ctx, st, card, ev.player, both_ways=True)),
                          f"recruit.{card}")
            with ctx.step(f"{ev.player} recruits {card}") as tr:
                tr.set(("zone", card), "play", "berserk.recruit", ok)
                tr.set(("ctrl", card), ev.player, "berserk.recruit", ok)
                if ("cell", card) in ctx.domains:
                    tr.set(("cell", card), ev.cells.get(card, NONE), "berserk.recruit", ok)
                    self.arrive(ctx, tr, card, ev.cells.get(card), ok)  # onto an occupied cell: conservation

    def on_begin_effect(self, ctx: RuleContext, ev) -> None:
        """532.8 ("cannot ... take control of a card with this feature if [text] is in their squad"): a control effect
        that would give a player a card their squad cannot be with does not begin; the card stays. Other effects
        begin as usual."""
        e = ev.effect
        paired = {x for pair in banned_pairs(ctx) for x in pair}
        if e.kind != "control" or e.duration == "static" or not isinstance(e.targets, list) or \
                not paired & set(e.targets):
            super().on_begin_effect(ctx, ev)  # type: ignore[misc]
            return
        if len(e.targets) != 1:
            raise NotModelled(f"effect {e.id}: 532.8 for a control effect over several cards, one of which cannot be "
                              f"taken into some squad, is not modelled (give each card its own effect)", "not_with")
        rm, st, t = ctx.rm, ctx.stage, e.targets[0]
        joins = rule_lit(ctx, st, "berserk.532.8", rm.neg(conflict(ctx, st, t, e.player)), f"joins.{e.id}")
        with ctx.step(f"begin effect {e.id}") as tr:
            tr.set(("active", e.id), 1, "core.effect_begins", joins)
            tr.keep(("active", e.id), "berserk.532.8", rm.neg(joins))

    def on_lose_control(self, ctx: RuleContext, ev) -> None:
        """532.7: the opponent becomes the controller, unless the card cannot join their squad (532.8): then it stays."""
        rm, st = ctx.rm, ctx.stage
        opp = opponent(ctx, ev.player)
        mine = ctx.controller(st, ev.object).is_(ev.player)
        joins = rule_lit(ctx, st, "berserk.532.8", rm.neg(conflict(ctx, st, ev.object, opp)), f"joins.{ev.object}")
        with ctx.step(f"{ev.player} loses control of {ev.object}") as tr:
            tr.set(("ctrl", ev.object), opp, "berserk.532.7.lose", rm.all_of([mine, joins]))
            tr.keep(("ctrl", ev.object), "berserk.532.7.keep", rm.all_of([mine, rm.neg(joins)]))

    def effects_end(self, ctx: RuleContext, tr, effects: list[str]) -> None:
        """532.7 when a control effect ends ("if as a result of some effect you lost control of a card, your opponent
        automatically becomes the controller"): where the ending effect was the one giving the card to a player (it
        won, berserk.conflict.latest) whose control it was not by default, that player loses control: the opponent
        becomes its controller (berserk.532.7.lose), unless the card cannot join the opponent's squad (532.8): then
        the player keeps it (berserk.532.7.keep). The controller it leaves to is remembered as the card's default
        (the ``ctrl`` state), so a control effect still applying decides over it as before. Two players only (the
        control rules are for two; with more no player is 'the opponent')."""
        if len(ctx.players) != 2:
            return
        rm, st = ctx.rm, tr.prev
        for eid in effects:
            e = ctx.effects[eid]
            if e.kind != "control":
                continue
            for obj in ctx.candidates(e):
                if ("ctrl", obj) not in ctx.domains or ctx.objects[obj].action is not None:
                    continue
                rivals = ctx.effects_on(obj, "control")
                won = {f.id: w for f, w in derived.latest_wins(ctx, st, ("control", obj), rivals, obj,
                                                                latest="berserk.conflict.latest", sole="core.control")}[eid]
                for p in ctx.players:
                    lost = rm.all_of([won, derived.gives_to(ctx, st, e, p), rm.neg(st["ctrl", obj].is_(p))])
                    if lost is rm.false:
                        continue
                    opp = opponent(ctx, p)
                    joins = rule_lit(ctx, st, "berserk.532.8", rm.neg(conflict(ctx, st, obj, opp)),
                                     f"joins.{eid}.{obj}.{opp}")
                    tr.set(("ctrl", obj), opp, "berserk.532.7.lose", rm.all_of([lost, joins]))
                    tr.set(("ctrl", obj), p, "berserk.532.7.keep", rm.all_of([lost, rm.neg(joins)]))
