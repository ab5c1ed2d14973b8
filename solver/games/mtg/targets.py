"""Spells and abilities with targets (115) and what they do when they resolve (608.2b).

A spell or ability names its targets (objects and players) when it is put on the stack: each must be legal then
(mtg.115.1). A target is legal when it is what its kind targets (mtg.115.2: an object in the zone it targets, of
the type it names), a player in the game (mtg.800.4.target), what the kind's ``whose`` restriction allows
(mtg.115.restriction), not protected by a 'cannot be targeted' effect, and within its controller's range of
influence (mtg.801.4). On resolution each target is checked again: with every target illegal the spell or
ability does not resolve (mtg.608.2b); otherwise it resolves and does not affect its illegal targets
(mtg.608.2b.partial). A target that changed zone or left the game is no longer the object it targeted, even if
it came back (400.7: the target's zone visit must have begun before the spell or ability named it,
``still_targeted``, read off the core's object identity, ``Compiler.visit_since``).

A ``spell`` or ``ability`` with ``instructions`` does them in order as one resolution (mtg.608.2c): each is a kind
of ``KINDS`` that does one thing (``INSTRUCTIONS``: a new kind added there is an instruction kind too), with its
own targets and parameters, or ``each`` (you, opponent, player, creature: untargeted, 801.10 in range). Each
instruction is a stage of its own, reading what the ones before did; no check of 704.3 comes between them (it
follows the whole event). Its targets are all its instructions' targets (115.1 and 608.2b over all of them, an
illegal one unaffected). ``draw`` (mtg.121.1) takes cards of the player's library, any of them (the order is not
given: a choice, each an outcome).
"""
from __future__ import annotations

import itertools

from dataclasses import dataclass, field
from typing import Callable

from models.effects import SOURCE_CONTROLLER
from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.encoding.ruleset import ActionKind
from solver.encoding.state import NONE
from solver.games.mtg import influence, triggers
from solver.games.mtg.players import are_opponents, holds_for, in_game, life_key


@dataclass(frozen=True)
class Part:
    """One thing a spell or ability does: an action kind, its own targets, what it affects untargeted (``each``:
    you, opponent, player, creature) and its parameters. A spell with ``instructions`` has one per instruction, in
    order (608.2c); any other has one, itself."""

    kind: str
    targets: tuple[str, ...]
    each: str | None
    params: dict


@dataclass(frozen=True)
class Item:
    """A spell or ability on the stack: its id, kind, targets (of all its instructions), parameters, source and what
    it does (``parts``)."""

    id: str
    kind: str
    targets: tuple[str, ...]
    params: dict
    source: str | None
    parts: tuple[Part, ...] = ()
    listed: bool = False  # it does a list of instructions (608.2c), not one kind's effect


def item(ctx: RuleContext, action: str) -> Item:
    """The stack item of an action (an object with an ``action``, a declared action or a triggered ability)."""
    spec = ctx.objects[action].action
    given = list(getattr(spec, "instructions", None) or [])
    if given and spec.kind not in LISTS:
        raise ScenarioError(f"action {action}: kind '{spec.kind}' takes no instructions (only {', '.join(LISTS)})")
    if given:
        parts = tuple(Part(i.kind, tuple(i.targets), i.each, dict(i.params)) for i in given)
        for n, part in enumerate(parts, 1):
            if part.kind in NOT_MODELLED:
                raise ScenarioError(f"action {action}: instruction {n} '{part.kind}': {NOT_MODELLED[part.kind]}")
            if part.kind not in INSTRUCTIONS:
                raise ScenarioError(f"action {action}: instruction {n} '{part.kind}' is not an MTG instruction kind "
                                    f"(one of {', '.join(INSTRUCTIONS)})")
        targets = tuple(dict.fromkeys(t for part in parts for t in part.targets))
    else:
        parts = (Part(spec.kind, tuple(spec.targets), None, dict(spec.params)),)
        targets = tuple(spec.targets)
        if "per" in spec.params:
            raise ScenarioError(f"action {action}: `per` counts what the other instructions of one resolution did: "
                                f"it needs `instructions`")
    return Item(action, spec.kind, targets, dict(spec.params), getattr(spec, "source", None), parts, bool(given))


@dataclass
class Resolution:
    """One resolution in progress (608.2c): the item, its controller, the literal 'it resolves', and the players
    each instruction so far dealt damage to (literals), for 'for each opponent dealt damage'."""

    item: Item
    ctrl: object
    go: object
    dealt: dict = field(default_factory=dict)
    n: int = 0  # the instruction being done

    @property
    def source(self) -> str | None:
        """The item's source."""
        return self.item.source


@dataclass(frozen=True)
class Kind:
    """What an action kind targets (``aims``: objects, players, both or none; ``zone`` and ``types`` of its object
    targets) and what it does to each target it affects (``effect``) or as a whole (``whole``)."""

    aims: str
    zone: str | None = None
    types: tuple[str, ...] = ()
    effect: Callable | None = None  # (ctx, tr, resolution, part, target, when) -> None
    whole: Callable | None = None  # (ctx, tr, resolution, part, when) -> None
    keys: Callable = field(default=lambda ctx, t: [])  # the state keys the effect changes on a target


# -- what each kind does to a target it affects --------------------------------------------------
def _move(zone: str, rule: str) -> Callable:
    def effect(ctx: RuleContext, tr, res, part, t, when) -> None:
        """Rule ``rule``: the target goes to ``zone``."""
        tr.set(("zone", t), zone, rule, when)
    return effect


def _tap(value: int) -> Callable:
    def effect(ctx: RuleContext, tr, res, part, t, when) -> None:
        """701.26: the target permanent is tapped (turned sideways) or untapped."""
        tr.set(("flag", t, "tapped"), value, "mtg.701.26", when)
    return effect


def _destroy(ctx: RuleContext, tr, res, part, t, when) -> None:
    """Destroy: from the battlefield to its owner's graveyard."""
    tr.set(("zone", t), ctx.rs.graveyard, "mtg.destroy", when)


def _exile_until(ctx: RuleContext, tr, res, part, t, when) -> None:
    """Exile until the source leaves the battlefield (610.3); if it already left, the target stays (610.3a)."""
    present = tr.prev["zone", res.source].is_("battlefield")
    rm = ctx.rm
    tr.set(("zone", t), "exile", "mtg.610.3", rm.all_of([when, present]))
    tr.set(("until", t), res.source, "mtg.610.3", rm.all_of([when, present]))
    tr.keep(("zone", t), "mtg.610.3a", rm.all_of([when, rm.neg(present)]))


def _return(ctx: RuleContext, tr, res, part, t, when) -> None:
    """Astral Slide's return: onto the battlefield under its owner's control (800.4b: not if the owner left)."""
    enter(ctx, tr, t, "battlefield", ctx.owner_of(t), "mtg.return", when)


def enter(ctx: RuleContext, tr, obj: str, zone: str, player: str | None, rule: str, when) -> None:
    """``obj`` enters ``zone`` under ``player``'s control (rule), unless that player left (800.4b: it stays)."""
    rm = ctx.rm
    if player is None:
        tr.set(("zone", obj), zone, rule, when)
        return
    present = in_game(ctx, tr.prev, player)
    tr.set(("zone", obj), zone, rule, rm.all_of([when, present]))
    tr.set(("ctrl", obj), player, rule, rm.all_of([when, present]))
    tr.keep(("zone", obj), "mtg.800.4b.enter", rm.all_of([when, rm.neg(present)]))


def return_from_graveyard(ctx: RuleContext, tr, obj: str, to: str, when) -> None:
    """mtg.return_from_graveyard: a card in a graveyard goes to its owner's hand, or onto the battlefield under its
    owner's control (800.4b: it stays if they left); a card no longer in a graveyard stays where it is
    (mtg.return_from_graveyard.absent). The one apply of the event and of the spell or ability kind."""
    rm = ctx.rm
    there = rm.all_of([when, tr.prev["zone", obj].is_("graveyard")])
    if to == "hand":
        tr.set(("zone", obj), "hand", "mtg.return_from_graveyard", there)
    else:
        enter(ctx, tr, obj, "battlefield", ctx.owner_of(obj), "mtg.return_from_graveyard", there)
    tr.keep(("zone", obj), "mtg.return_from_graveyard.absent", rm.all_of([when, rm.neg(tr.prev["zone", obj].is_("graveyard"))]))


def _from_graveyard(ctx: RuleContext, tr, res, part, t, when) -> None:
    """Return target card from your graveyard to your hand or the battlefield (param ``to``)."""
    return_from_graveyard(ctx, tr, t, part.params["to"], when)


def _amount(part: Part) -> int:
    return int(part.params["amount"])


def _damage(ctx: RuleContext, tr, res, part, t, when) -> None:
    """Damage: a player loses that much life (120.3a); a creature has it marked (120.3e). A player dealt damage
    (more than 0) is remembered for the rest of the resolution."""
    if t in ctx.players:
        key = ("pattr", t, "life")
        tr.set(key, tr.prev[key] - _amount(part), "mtg.120.3a", when)
        if _amount(part) > 0:
            res.dealt.setdefault(t, []).append(when)
    else:
        key = ("attr", t, "damage")
        tr.set(key, tr.prev[key] + _amount(part), "mtg.120.3e", when)


def _times(ctx: RuleContext, res, part):
    """The amount of a life instruction: times the opponents of its controller this resolution dealt damage
    (``per: opponent_dealt_damage``), else as given."""
    if part.params.get("per") != "opponent_dealt_damage":
        return _amount(part)
    rm = ctx.rm
    hit = [rm.all_of([rm.any_of(lits), rm.any_of([holds_for(ctx, res.ctrl, c) for c in ctx.players
                                                  if are_opponents(ctx, c, q)])])
           for q, lits in res.dealt.items()]
    return _amount(part) * sum(hit) if hit else 0


def _life(sign: int) -> Callable:
    def effect(ctx: RuleContext, tr, res, part, t, when) -> None:
        """119.3: the target player's life total changes by the amount."""
        key = ("pattr", t, "life")
        tr.set(key, tr.prev[key] + sign * _times(ctx, res, part), "mtg.119.3", when)
    return effect


def library_of(ctx: RuleContext, player: str) -> list[str]:
    """Static: the cards a player's draws can take: those they own that start in their library."""
    return [o.id for o in ctx.sc.objects if o.zone == "library" and ctx.owner_of(o.id) == player]


POSITION = "library_position"


def _draw(ctx: RuleContext, tr, res, part, t, when) -> None:
    """121.1: the player draws: puts the top card of their library into their hand, ``amount`` times. The order is
    known as far as ``library_position`` says: a card is drawn only while no card above it stays (the positioned
    cards above the others, top first); among cards of unknown order any may be the top one (a choice)."""
    rm = ctx.rm
    cards = library_of(ctx, t)
    need = sum(_amount(q) for q in res.item.parts if q.kind == "draw" and t in drawers(ctx, res.item, q))
    if need > len(cards):  # only an outcome where this draw happens is refused (its target may become illegal)
        ctx.require(rm.neg(when), f"action {res.item.id} makes {t} draw {need} card(s) from a library of "
                                  f"{len(cards)}: drawing from an empty library (121.4, 704.5b) is not modelled")
        return
    picks = {}
    for c in cards:
        pick = rm.new_bool(f"s{tr.prev.index}:draw.{res.item.id}.{t}.{c}")
        rm.model.add_implication(pick, tr.prev["zone", c].is_("library"))
        rm.model.add_implication(pick, when)
        tr.set(("zone", c), "hand", "mtg.121.1", pick)
        picks[c] = pick
    rm.enforce("mtg.121.1", rm.model.add(sum(picks.values()) == _amount(part)), [when])
    # 121.1 "the top card": c drawn while d stays in the library only if d is not above c
    for c, d in itertools.permutations(cards, 2):
        known_c, known_d = (ctx.domains.get(("attr", x, POSITION)) is not None for x in (c, d))
        if not known_d:
            continue  # a card of unknown order is above no positioned card, and no order is known among them
        stays = [picks[c], rm.neg(picks[d]), tr.prev["zone", d].is_("library")]
        if known_c:
            rm.enforce("mtg.121.1", rm.model.add(tr.prev["attr", c, POSITION] < tr.prev["attr", d, POSITION]), stays)
        else:
            rm.clause("mtg.121.1", [rm.neg(x) for x in stays])


def instruction_turn(index: int, n: int, player: str) -> tuple:
    """The key of the extra turn instruction ``n`` of the spell resolved by event ``index`` gives ``player`` (500.7)."""
    return ("turn", f"extra_{index}_{n}_{player}")


def extra_turn_players(ctx: RuleContext, action: str) -> list[tuple[int, str]]:
    """Static: (instruction number, player) of each extra turn the action's ``extra_turn`` instructions may give: its
    target, or for ``each: you`` whoever may control it. Several players at once (500.7 orders only turns added one
    after another) is refused."""
    it = item(ctx, action)
    out = []
    for n, part in enumerate(it.parts):
        if part.kind != "extra_turn":
            continue
        if part.each not in (None, "you") or len(part.targets) + (part.each is not None) != 1:
            raise ScenarioError(f"action {action}: instruction {n + 1} 'extra_turn' gives one player an extra turn "
                                f"(one target, or each: you): turns added to several players at once are not "
                                f"ordered by 500.7")
        out += [(n, p) for p in drawers(ctx, it, part)]
    return out


def _extra_turn(ctx: RuleContext, tr, res, part, t, when) -> None:
    """500.7: the player gets an extra turn, added directly after the current one (the next end_turn begins it,
    or passes over it if they left: 800.4j); the same rule as the ``extra_turn`` event."""
    key = instruction_turn(ctx.event_index, res.n, t)
    if key in ctx.domains:  # else t can never control it (extra_turn_players): ``when`` is false
        tr.set(key, 1, "mtg.500.7", when)


def _turns_of(ctx: RuleContext, t: str) -> list[tuple]:
    """The keys of the extra turns the spell resolving now may give ``t`` (what an illegal target keeps)."""
    action = ctx.sc.events[ctx.event_index].action
    return [instruction_turn(ctx.event_index, n, p) for n, p in extra_turn_players(ctx, action) if p == t]


def _each_opponent_loses(ctx: RuleContext, tr, res, part, when) -> None:
    """Each opponent of its controller in the game loses life (119.3), those out of range excepted (801.10)."""
    rm, ctrl = ctx.rm, res.ctrl
    for q in ctx.players:
        opp = rm.any_of([ctrl.is_(c) for c in ctx.players if are_opponents(ctx, c, q)])
        hit = rm.all_of([when, opp, in_game(ctx, tr.prev, q)])
        if hit is rm.false:
            continue
        near = influence.controlled_in_range(ctx, tr.prev, ctrl, q)
        key = ("pattr", q, "life")
        tr.set(key, tr.prev[key] - _amount(part), "mtg.119.3", rm.all_of([hit, near]))
        tr.keep(key, "mtg.801.10", rm.all_of([hit, rm.neg(near)]))


def affected(ctx: RuleContext, st, ctrl, each: str) -> list[tuple[str, object]]:
    """What an instruction's ``each`` affects at ``st`` (608.2c: untargeted): (player or creature, literal 'it is
    affected': in the game, of that relation to the controller); 801.10 is the caller's (``reach``)."""
    rm = ctx.rm
    if each == "creature":
        return [(o, st["zone", o].is_("battlefield")) for o, i in ctx.objects.items()
                if "creature" in i.types and _toughness(ctx, o)]
    out = []
    for q in ctx.players:
        if each == "you":
            rel = holds_for(ctx, ctrl, q)
        elif each == "opponent":
            rel = rm.any_of([holds_for(ctx, ctrl, c) for c in ctx.players if are_opponents(ctx, c, q)])
        else:
            rel = rm.true
        out.append((q, rm.all_of([rel, in_game(ctx, st, q)])))
    return out


def reach(ctx: RuleContext, st, ctrl, t: str):
    """Literal (801.10): ``t`` (a player, or an object through its controller) is in the range of ``ctrl``."""
    subject = t if t in ctx.players else ctx.controller(st, t)
    return influence.controlled_in_range(ctx, st, ctrl, subject)


def _toughness(ctx: RuleContext, o: str) -> bool:
    return bool(("attr", o, "toughness") in ctx.domains or ctx.effects_on(o, "set", "toughness")
                or ctx.effects_on(o, "add", "toughness"))


def _zone_key(ctx: RuleContext, t):
    return [("zone", t)]


def _damage_keys(ctx: RuleContext, t):
    return [("pattr", t, "life")] if t in ctx.players else [("attr", t, "damage")]


def _life_keys(ctx: RuleContext, t):
    return [("pattr", t, "life")]


def _draw_keys(ctx: RuleContext, t):
    return [("zone", c) for c in library_of(ctx, t)]


#: every MTG action kind
KINDS: dict[str, Kind] = {
    "spell": Kind("none"),
    "ability": Kind("none"),
    "destroy": Kind("objects", "battlefield", effect=_destroy, keys=_zone_key),
    "exile": Kind("objects", "battlefield", effect=_move("exile", "mtg.exile"), keys=_zone_key),
    "return_to_hand": Kind("objects", "battlefield", effect=_move("hand", "mtg.return_to_hand"), keys=_zone_key),
    "exile_until_leaves": Kind("objects", "battlefield", effect=_exile_until,
                               keys=lambda ctx, t: [("zone", t), ("until", t)]),
    "return_to_battlefield": Kind("objects", "exile", effect=_return, keys=lambda ctx, t: [("zone", t), ("ctrl", t)]),
    "return_from_graveyard": Kind("objects", "graveyard", ("creature",), effect=_from_graveyard,
                                  keys=lambda ctx, t: [("zone", t), ("ctrl", t)]),
    "damage": Kind("both", "battlefield", ("creature",), effect=_damage, keys=_damage_keys),
    "gain_life": Kind("players", effect=_life(1), keys=_life_keys),
    "lose_life": Kind("players", effect=_life(-1), keys=_life_keys),
    "draw": Kind("players", effect=_draw, keys=_draw_keys),
    "tap": Kind("objects", "battlefield", effect=_tap(1), keys=lambda ctx, t: [("flag", t, "tapped")]),
    "untap": Kind("objects", "battlefield", effect=_tap(0), keys=lambda ctx, t: [("flag", t, "tapped")]),
    "each_opponent_loses_life": Kind("none", whole=_each_opponent_loses),
    "extra_turn": Kind("players", effect=_extra_turn,
                       keys=_turns_of),
}

#: instruction kinds read by name but not modelled: refused at the scenario's line, never ignored
NOT_MODELLED = {
    "gain_control": "gaining control as a resolution's instruction (with 800.4a ending it) is not modelled: write "
                    "a control effect and a begin_effect event",
    "create": "creating a token as a resolution's instruction (800.4b) is not modelled: write a create event",
}

#: the kinds that are a list of instructions (608.2c)
LISTS = ("spell", "ability")
#: the instruction kinds: every kind that does one thing (a new kind of KINDS is an instruction kind too)
INSTRUCTIONS = tuple(k for k in KINDS if k not in LISTS)


def action_kinds() -> dict[str, ActionKind]:
    """The kinds as the shared machinery names them; MTG declares and resolves them itself (115, 608.2b)."""
    def unread(ctx: RuleContext, *args):
        """Not reached: the MTG ruleset's own declare and resolve read the kinds."""
        raise ScenarioError("an MTG spell or ability is declared and resolved by the MTG rules (115, 608.2b)")
    return {name: ActionKind(unread, unread) for name in KINDS}


# -- the state a kind needs ---------------------------------------------------------------------------
def declare_keys(ctx: RuleContext) -> None:
    """Life totals and marked damage the actions change, the 'until' link of what they may exile (610.3)."""
    until: dict[str, set[str]] = {}
    for a in [o for o, info in ctx.objects.items() if info.action is not None]:
        it = item(ctx, a)
        for part in it.parts:
            _part_keys(ctx, it, part, until)
        _enough_cards(ctx, it)
    for t, sources in until.items():
        ctx.add_key(("until", t), (NONE,) + tuple(sorted(sources)), NONE)


def _part_keys(ctx: RuleContext, it: Item, part: Part, until: dict) -> None:
    """The keys one instruction (or the kind itself) changes on its targets and on what it affects untargeted."""
    a, kind = it.id, KINDS[part.kind]
    if len(set(part.targets)) != len(part.targets):
        raise ScenarioError(f"action {a} names a target twice (each target is another object or player)")
    if part.each is not None:
        if part.each == "creature":
            for o in [o for o, i in ctx.objects.items() if "creature" in i.types and _toughness(ctx, o)]:
                ctx.add_key(("attr", o, "damage"), [-1_000_000, 1_000_000], 0)
        elif kind.aims in ("players", "both"):
            for p in ctx.players:
                life_key(ctx, p)
    for t in part.targets:
        _known_target(ctx, it, t)
        if t in ctx.players and kind.aims in ("players", "both"):
            life_key(ctx, t)
        elif t in ctx.objects and part.kind == "damage" and _types_ok(ctx, kind, t):
            if not _toughness(ctx, t):
                raise ScenarioError(f"action {a} deals damage to creature {t}, which has no toughness: give it "
                                    f"one (704.5g compares its damage with it)")
            ctx.add_key(("attr", t, "damage"), [-1_000_000, 1_000_000], 0)
        elif t in ctx.objects and part.kind in ("tap", "untap"):
            ctx.add_key(("flag", t, "tapped"), "bool", False)
        elif t in ctx.objects and part.kind == "exile_until_leaves":
            if it.source is None or it.source not in ctx.objects:
                raise ScenarioError(f"action {a} exiles {t} until its source leaves the battlefield: give it a "
                                    f"source (declare or trigger it with `source`)")
            if ctx.owner_of(t) is None:
                raise ScenarioError(f"action {a} exiles {t}, which has no owner to return it to (610.3c)")
            until.setdefault(t, set()).add(it.source)
    if part.kind == "extra_turn":
        extra_turn_players(ctx, a)  # one player per instruction, or a located error
    if part.kind == "each_opponent_loses_life":
        for p in ctx.players:
            life_key(ctx, p)


def controllers(ctx: RuleContext, a: str) -> set[str]:
    """Static: every player who may control the action (its default controller, or one a control effect names)."""
    spec, data = ctx.objects[a].action, ctx.objects[a].data
    if getattr(spec, "type", None) == "trigger":  # the rules give a trigger's controller (603.3a)
        return triggers.possible_controllers(ctx, spec) | {e.player for e in ctx.effects_on(a, "control")}
    first = getattr(spec, "actor", None) or getattr(spec, "controller", None) or \
        (data.controller or data.owner if data is not None else None)
    named = {e.player for e in ctx.effects_on(a, "control")}
    if SOURCE_CONTROLLER in named:  # whoever controls a source: any player
        return set(ctx.players)
    return {first} - {None} | named


def drawers(ctx: RuleContext, it: Item, part: Part) -> list[str]:
    """Static: the players an instruction may make draw (its targets; for ``each: you`` whoever may control it,
    for another ``each`` every player)."""
    if part.each == "you":
        return sorted(controllers(ctx, it.id) & set(ctx.players))
    return list(ctx.players) if part.each is not None else [t for t in part.targets if t in ctx.players]


def check_positions(ctx: RuleContext) -> None:
    """``library_position`` is a place in a library: refused on a card elsewhere, and two cards of one library in one
    place are a contradiction (121.1 reads the order it gives)."""
    seen: dict[tuple, str] = {}
    for o in ctx.sc.objects:
        at = (o.attributes or {}).get(POSITION)
        if at is None:
            continue
        if o.zone != "library":
            raise ScenarioError(f"object {o.id}: library_position {at} on a card in zone '{o.zone}': it is a place "
                                f"in a library (121.1)")
        place = (ctx.owner_of(o.id), at)
        if place in seen:
            raise ScenarioError(f"object {o.id}: library_position {at} of {place[0]}'s library is object "
                                f"{seen[place]}'s place too: two cards cannot share a place")
        seen[place] = o.id


def _enough_cards(ctx: RuleContext, it: Item) -> None:
    """A draw takes cards that start in the library: a scenario that moves cards to or from a library is refused
    with draws. (Drawing from a library with too few cards, 121.4 and 704.5b, is not modelled: an outcome where such
    a draw happens is a located error at its event, ``_draw``.)"""
    need: dict[str, int] = {}
    for part in it.parts:
        if part.kind == "draw":
            for p in drawers(ctx, it, part):
                need[p] = need.get(p, 0) + _amount(part)
    if not need:
        return
    cards = {c for p in ctx.players for c in library_of(ctx, p)}
    moved = [ev for ev in ctx.sc.events if getattr(ev, "object", None) in cards
             or ev.type in ("move", "create") and ev.zone == "library"]
    if moved:
        raise ScenarioError(f"action {it.id} draws, and an event moves a card to or from a library: not modelled "
                            f"(a draw takes the cards that start in the library)")


def _known_target(ctx: RuleContext, it: Item, t: str) -> None:
    if t in ctx.players and t in ctx.objects:
        raise ScenarioError(f"action {it.id}: target '{t}' names both a player and an object")
    if t not in ctx.players and t not in ctx.objects:
        raise ScenarioError(f"action {it.id}: unknown target '{t}' (no player or object has that id)")


def _types_ok(ctx: RuleContext, kind: Kind, t: str) -> bool:
    return not kind.types or bool(set(kind.types) & set(ctx.objects[t].types))


def _fits(ctx: RuleContext, kind: Kind, t: str) -> bool:
    """Static: ``t`` is of what the kind targets (a player, or an object of its types)."""
    if t in ctx.players:
        return kind.aims in ("players", "both")
    return kind.aims in ("objects", "both") and _types_ok(ctx, kind, t)


# -- legality ------------------------------------------------------------------------------------------
def _defined(ctx: RuleContext, st, name: str, rule: str, cond):
    """A literal: ``rule``'s requirement ``cond`` is met (``RuleModel.requirement``: the rule owns only where it fails)."""
    return cond if rule is None else ctx.rm.requirement(rule, cond, f"s{st.index}:{name}.{rule}")


def object_targets(ctx: RuleContext) -> list[str]:
    """Objects that some spell or ability targets: their identity per zone visit is read (400.7)."""
    return [t for a, info in ctx.objects.items() if info.action is not None for t in item(ctx, a).targets
            if t in ctx.objects]


def still_targeted(ctx: RuleContext, st, action: str, t: str):
    """Literal (400.7): ``t`` is still the object ``action`` targeted: its zone visit began no later than the event
    that put the spell or ability on the stack (an object that changed zones since is a new object)."""
    return ctx.visit_since(st, t, ctx.created_at(action), f"targeted.{action}")


def legal(ctx: RuleContext, st, it: Item, ctrl, t: str, part: Part | None = None, n: int = 0):
    """Literal: ``t`` is a legal target of ``it`` (of its instruction ``part``, number ``n``) at ``st`` when ``ctrl``
    (a player or a variable) controls it."""
    rm = ctx.rm
    part = part or it.parts[0]
    kind = KINDS[part.kind]
    name = f"{it.id}.{n}" if it.listed else it.id
    parts: list[tuple[str | None, object]] = []
    fits = _fits(ctx, kind, t)
    if t in ctx.players:
        parts.append(("mtg.115.2", rm.true if fits else rm.false))
        parts.append(("mtg.800.4.target", in_game(ctx, st, t)))
        subject = t
    else:
        parts.append(("mtg.115.2", rm.all_of([st["zone", t].is_(kind.zone), still_targeted(ctx, st, it.id, t)])
                      if fits else rm.false))
        if ctx.effects_on(t, "prohibit", "be_targeted"):
            parts.append((None, ctx.allowed(st, t, "be_targeted", default=True)))
        subject = ctx.controller(st, t)
        if part.kind == "return_from_graveyard":  # "from your graveyard": a card its controller owns
            parts.append(("mtg.return_from_graveyard.yours", holds_for(ctx, ctrl, ctx.owner_of(t) or NONE)))
    whose = part.params.get("whose")
    if whose is not None:
        pairs = [(c, q) for c in ctx.players for q in ctx.players
                 if (are_opponents(ctx, c, q) if whose == "opponent" else c == q)]
        parts.append(("mtg.115.restriction", rm.any_of([rm.all_of([holds_for(ctx, ctrl, c), holds_for(ctx, subject, q)])
                                                         for c, q in pairs])))
    if influence.radius(ctx) is not None:
        parts.append(("mtg.801.4", influence.controlled_in_range(ctx, st, ctrl, subject)))
    return rm.all_of([_defined(ctx, st, f"target.{name}.{t}", rule, cond) for rule, cond in parts
                      if cond is not rm.true])


def choices_legal(ctx: RuleContext, st, action: str, ctrl):
    """Literal (mtg.603.3d): every target the triggered ability ``action`` names is legal as it goes on the stack
    under ``ctrl`` (115.1's test); true when it names none."""
    it = item(ctx, action)
    chosen = [legal(ctx, st, it, ctrl, t, part, n) for n, part, t in targeted(it)]
    if not chosen:
        return ctx.rm.true
    return _defined(ctx, st, f"triggered.{action}", "mtg.603.3d", ctx.rm.all_of(chosen))


def targeted(it: Item) -> list[tuple[int, Part, str]]:
    """Every (instruction number, instruction, target) of the item: a target of two instructions is one of each."""
    return [(n, part, t) for n, part in enumerate(it.parts) for t in part.targets]


def source_allowed(rs, ctx: RuleContext, st, it: Item):
    """Literal: the source may act (a permission or prohibition of the kind on the source), else true."""
    source = it.source
    if source and (ctx.effects_on(source, "prohibit", it.kind) or ctx.effects_on(source, "permit", it.kind)):
        return rs.allowed(ctx, st, source, it.kind, default=True)
    return ctx.rm.true


# -- the lifecycle --------------------------------------------------------------------------------------
def declare(rs, ctx: RuleContext, ev) -> None:
    """core.declare: on the stack with every target legal (mtg.115.1); core.illegal: otherwise never."""
    rm, st = ctx.rm, ctx.stage
    it = item(ctx, ev.id)
    targets = [legal(ctx, st, it, ev.actor, t, part, n) for n, part, t in targeted(it)]
    reqs = [source_allowed(rs, ctx, st, it)]
    if targets:
        reqs.append(_defined(ctx, st, f"targets.{it.id}", "mtg.115.1", rm.all_of(targets)))
    ok = rm.all_of(reqs, f"s{st.index}:legal.{ev.id}")
    with ctx.step(f"declare {ev.id}") as tr:
        tr.set(("status", ev.id), "on_stack", "core.declare", ok)
        tr.set(("zone", ev.id), rs.stack_zone, "core.declare", ok)
        tr.set(("status", ev.id), "illegal", "core.illegal", rm.neg(ok))
        tr.set(("ctrl", ev.id), ev.actor, "core.declare", ok)


def resolve(rs, ctx: RuleContext, ev) -> None:
    """core.resolve with some target legal, affecting only the legal ones (mtg.608.2b.partial); mtg.608.2b: with
    every target illegal it does not resolve. A list of instructions is followed in order as one resolution
    (mtg.608.2c): each instruction its own stage, no check of 704.3 between them (it follows the event)."""
    rm, st, a = ctx.rm, ctx.stage, ev.action
    it = item(ctx, a)
    ctrl = ctx.controller(st, a)
    on_stack = st["status", a].is_("on_stack")
    legal_t = {(n, t): legal(ctx, st, it, ctrl, t, part, n) for n, part, t in targeted(it)}
    reqs = [source_allowed(rs, ctx, st, it)]
    if legal_t:
        reqs.append(_defined(ctx, st, f"resolves.{a}", "mtg.608.2b", rm.any_of(list(legal_t.values()))))
    ok = rm.all_of(reqs)
    go = rm.all_of([on_stack, ok])
    res = Resolution(it, ctrl, go)
    with ctx.step(f"resolve {a}") as tr:
        rs._leave_stack(ctx, tr, a, "resolved", "core.resolve", go)
        if not it.listed:
            _do(ctx, tr, res, 0, it.parts[0], legal_t, st)
        rs.interrupt(ctx, tr, a, rm.all_of([on_stack, rm.neg(ok)]), rule="mtg.608.2b")
    for n, part in enumerate(it.parts if it.listed else ()):
        with ctx.step(f"resolve {a}: instruction {n + 1} ({part.kind}), mtg.608.2c") as tr:
            _do(ctx, tr, res, n, part, legal_t, st, rm.all_of([go, rm.rule("mtg.608.2c")]))


def _do(ctx: RuleContext, tr, res: Resolution, n: int, part: Part, legal_t: dict, st, go=None) -> None:
    """One instruction (or the kind itself): its effect on each legal target (608.2b.partial: none on an illegal
    one), on what it affects untargeted (``each``, in range: 801.10), or as a whole."""
    rm = ctx.rm
    go = res.go if go is None else go
    res.n = n
    kind = KINDS[part.kind]
    many = len(legal_t) > 1
    for t in part.targets:
        ok_t = legal_t[(n, t)]
        if not _fits(ctx, kind, t):
            continue  # never a legal target of this kind: nothing to affect
        if kind.effect is not None:
            kind.effect(ctx, tr, res, part, t, rm.all_of([go, ok_t]))
        if many:
            for key in kind.keys(ctx, t):
                tr.keep(key, "mtg.608.2b.partial", rm.all_of([go, rm.neg(ok_t)]))
    if part.each is not None and kind.effect is not None:
        radius = influence.radius(ctx) is not None
        for t, hit in affected(ctx, tr.prev, res.ctrl, part.each):
            when = rm.all_of([go, hit])
            if when is rm.false:
                continue
            near = reach(ctx, tr.prev, res.ctrl, t) if radius else rm.true
            kind.effect(ctx, tr, res, part, t, rm.all_of([when, near]))
            if radius:
                for key in kind.keys(ctx, t):
                    tr.keep(key, "mtg.801.10", rm.all_of([when, rm.neg(near)]))
    if kind.whole is not None:
        kind.whole(ctx, tr, res, part, go)
