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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from solver.encoding.compile import ScenarioError
from solver.encoding.ruleset import ActionKind
from solver.encoding.state import NONE
from solver.games.mtg import influence
from solver.games.mtg.players import are_opponents, holds_for, in_game, life_key


@dataclass(frozen=True)
class Item:
    """A spell or ability on the stack: its id, kind, targets, parameters and source."""

    id: str
    kind: str
    targets: tuple[str, ...]
    params: dict
    source: str | None


def item(comp, action: str) -> Item:
    """The stack item of an action (an object with an ``action``, a declared action or a triggered ability)."""
    spec = comp.objects[action].action
    return Item(action, spec.kind, tuple(spec.targets), dict(spec.params), getattr(spec, "source", None))


@dataclass(frozen=True)
class Kind:
    """What an action kind targets (``aims``: objects, players, both or none; ``zone`` and ``types`` of its object
    targets) and what it does to each target it affects (``effect``) or as a whole (``whole``)."""

    aims: str
    zone: str | None = None
    types: tuple[str, ...] = ()
    effect: Callable | None = None  # (comp, tr, item, controller, target, when) -> None
    whole: Callable | None = None  # (comp, tr, item, controller, when) -> None
    keys: Callable = field(default=lambda comp, t: [])  # the state keys the effect changes on a target


# -- what each kind does to a target it affects --------------------------------------------------
def _move(zone: str, rule: str) -> Callable:
    def effect(comp, tr, it, ctrl, t, when) -> None:
        """Rule ``rule``: the target goes to ``zone``."""
        tr.set(("zone", t), zone, rule, when)
    return effect


def _destroy(comp, tr, it, ctrl, t, when) -> None:
    """Destroy: from the battlefield to its owner's graveyard."""
    tr.set(("zone", t), comp.rs.graveyard, "mtg.destroy", when)


def _exile_until(comp, tr, it, ctrl, t, when) -> None:
    """Exile until the source leaves the battlefield (610.3); if it already left, the target stays (610.3a)."""
    present = tr.prev["zone", it.source].is_("battlefield")
    rm = comp.rm
    tr.set(("zone", t), "exile", "mtg.610.3", rm.all_of([when, present]))
    tr.set(("until", t), it.source, "mtg.610.3", rm.all_of([when, present]))
    tr.keep(("zone", t), "mtg.610.3a", rm.all_of([when, rm.neg(present)]))


def _return(comp, tr, it, ctrl, t, when) -> None:
    """Astral Slide's return: onto the battlefield under its owner's control (800.4b: not if the owner left)."""
    enter(comp, tr, t, "battlefield", comp.owner_of(t), "mtg.return", when)


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


def return_from_graveyard(comp, tr, obj: str, to: str, when) -> None:
    """mtg.return_from_graveyard: a card in a graveyard goes to its owner's hand, or onto the battlefield under its
    owner's control (800.4b: it stays if they left); a card no longer in a graveyard stays where it is
    (mtg.return_from_graveyard.absent). The one apply of the event and of the spell or ability kind."""
    rm = comp.rm
    there = rm.all_of([when, tr.prev["zone", obj].is_("graveyard")])
    if to == "hand":
        tr.set(("zone", obj), "hand", "mtg.return_from_graveyard", there)
    else:
        enter(comp, tr, obj, "battlefield", comp.owner_of(obj), "mtg.return_from_graveyard", there)
    tr.keep(("zone", obj), "mtg.return_from_graveyard.absent", rm.all_of([when, rm.neg(tr.prev["zone", obj].is_("graveyard"))]))


def _from_graveyard(comp, tr, it, ctrl, t, when) -> None:
    """Return target card from your graveyard to your hand or the battlefield (param ``to``)."""
    return_from_graveyard(comp, tr, t, it.params["to"], when)


def _amount(it: Item) -> int:
    return int(it.params["amount"])


def _damage(comp, tr, it, ctrl, t, when) -> None:
    """Damage: a player loses that much life (120.3a); a creature has it marked (120.3e)."""
    if t in comp.players:
        key = ("pattr", t, "life")
        tr.set(key, tr.prev[key] - _amount(it), "mtg.120.3a", when)
    else:
        key = ("attr", t, "damage")
        tr.set(key, tr.prev[key] + _amount(it), "mtg.120.3e", when)


def _life(sign: int) -> Callable:
    def effect(comp, tr, it, ctrl, t, when) -> None:
        """119.3: the target player's life total changes by the amount."""
        key = ("pattr", t, "life")
        tr.set(key, tr.prev[key] + sign * _amount(it), "mtg.119.3", when)
    return effect


def _each_opponent_loses(comp, tr, it, ctrl, when) -> None:
    """Each opponent of its controller in the game loses life (119.3), those out of range excepted (801.10)."""
    rm = comp.rm
    for q in comp.players:
        opp = rm.any_of([ctrl.is_(c) for c in comp.players if are_opponents(comp, c, q)])
        hit = rm.all_of([when, opp, in_game(comp, tr.prev, q)])
        if hit is rm.false:
            continue
        near = influence.controlled_in_range(comp, tr.prev, ctrl, q)
        key = ("pattr", q, "life")
        tr.set(key, tr.prev[key] - _amount(it), "mtg.119.3", rm.all_of([hit, near]))
        tr.keep(key, "mtg.801.10", rm.all_of([hit, rm.neg(near)]))


def _zone_key(comp, t):
    return [("zone", t)]


def _damage_keys(comp, t):
    return [("pattr", t, "life")] if t in comp.players else [("attr", t, "damage")]


def _life_keys(comp, t):
    return [("pattr", t, "life")]


#: every MTG action kind
KINDS: dict[str, Kind] = {
    "spell": Kind("none"),
    "ability": Kind("none"),
    "destroy": Kind("objects", "battlefield", effect=_destroy, keys=_zone_key),
    "exile": Kind("objects", "battlefield", effect=_move("exile", "mtg.exile"), keys=_zone_key),
    "return_to_hand": Kind("objects", "battlefield", effect=_move("hand", "mtg.return_to_hand"), keys=_zone_key),
    "exile_until_leaves": Kind("objects", "battlefield", effect=_exile_until,
                               keys=lambda comp, t: [("zone", t), ("until", t)]),
    "return_to_battlefield": Kind("objects", "exile", effect=_return, keys=lambda comp, t: [("zone", t), ("ctrl", t)]),
    "return_from_graveyard": Kind("objects", "graveyard", ("creature",), effect=_from_graveyard,
                                  keys=lambda comp, t: [("zone", t), ("ctrl", t)]),
    "damage": Kind("both", "battlefield", ("creature",), effect=_damage, keys=_damage_keys),
    "gain_life": Kind("players", effect=_life(1), keys=_life_keys),
    "lose_life": Kind("players", effect=_life(-1), keys=_life_keys),
    "each_opponent_loses_life": Kind("none", whole=_each_opponent_loses),
}


def action_kinds() -> dict[str, ActionKind]:
    """The kinds as the shared machinery names them; MTG declares and resolves them itself (115, 608.2b)."""
    def unread(comp, *args):
        """Not reached: the MTG ruleset's own declare and resolve read the kinds."""
        raise ScenarioError("an MTG spell or ability is declared and resolved by the MTG rules (115, 608.2b)")
    return {name: ActionKind(unread, unread) for name in KINDS}


# -- the state a kind needs ---------------------------------------------------------------------------
def declare_keys(comp) -> None:
    """Life totals and marked damage the actions change, the 'until' link of what they may exile (610.3)."""
    until: dict[str, set[str]] = {}
    for a in [o for o, info in comp.objects.items() if info.action is not None]:
        it = item(comp, a)
        kind = KINDS[it.kind]
        if len(set(it.targets)) != len(it.targets):
            raise ScenarioError(f"action {a} names a target twice (each target is another object or player)")
        for t in it.targets:
            _known_target(comp, it, t)
            if t in comp.players and kind.aims in ("players", "both"):
                life_key(comp, t)
            elif t in comp.objects and it.kind == "damage" and _types_ok(comp, kind, t):
                if not (("attr", t, "toughness") in comp.domains or comp.effects_on(t, "set", "toughness")
                        or comp.effects_on(t, "add", "toughness")):
                    raise ScenarioError(f"action {a} deals damage to creature {t}, which has no toughness: give it "
                                        f"one (704.5g compares its damage with it)")
                comp.add_key(("attr", t, "damage"), [-1_000_000, 1_000_000], 0)
            elif t in comp.objects and it.kind == "exile_until_leaves":
                if it.source is None or it.source not in comp.objects:
                    raise ScenarioError(f"action {a} exiles {t} until its source leaves the battlefield: give it a "
                                        f"source (declare or trigger it with `source`)")
                if comp.owner_of(t) is None:
                    raise ScenarioError(f"action {a} exiles {t}, which has no owner to return it to (610.3c)")
                until.setdefault(t, set()).add(it.source)
        if it.kind == "each_opponent_loses_life":
            for p in comp.players:
                life_key(comp, p)
    for t, sources in until.items():
        comp.add_key(("until", t), (NONE,) + tuple(sorted(sources)), NONE)


def _known_target(comp, it: Item, t: str) -> None:
    if t in comp.players and t in comp.objects:
        raise ScenarioError(f"action {it.id}: target '{t}' names both a player and an object")
    if t not in comp.players and t not in comp.objects:
        raise ScenarioError(f"action {it.id}: unknown target '{t}' (no player or object has that id)")


def _types_ok(comp, kind: Kind, t: str) -> bool:
    return not kind.types or bool(set(kind.types) & set(comp.objects[t].types))


def _fits(comp, kind: Kind, t: str) -> bool:
    """Static: ``t`` is of what the kind targets (a player, or an object of its types)."""
    if t in comp.players:
        return kind.aims in ("players", "both")
    return kind.aims in ("objects", "both") and _types_ok(comp, kind, t)


# -- legality ------------------------------------------------------------------------------------------
def _defined(comp, st, name: str, rule: str, cond):
    """A literal: ``rule``'s requirement ``cond`` is met (``RuleModel.requirement``: the rule owns only where it fails)."""
    return cond if rule is None else comp.rm.requirement(rule, cond, f"s{st.index}:{name}.{rule}")


def object_targets(comp) -> list[str]:
    """Objects that some spell or ability targets: their identity per zone visit is read (400.7)."""
    return [t for a, info in comp.objects.items() if info.action is not None for t in item(comp, a).targets
            if t in comp.objects]


def still_targeted(comp, st, action: str, t: str):
    """Literal (400.7): ``t`` is still the object ``action`` targeted: its zone visit began no later than the event
    that put the spell or ability on the stack (an object that changed zones since is a new object)."""
    return comp.visit_since(st, t, comp.created_at(action), f"targeted.{action}")


def legal(comp, st, it: Item, ctrl, t: str):
    """Literal: ``t`` is a legal target of ``it`` at ``st`` when ``ctrl`` (a player or a variable) controls it."""
    rm = comp.rm
    kind = KINDS[it.kind]
    parts: list[tuple[str | None, object]] = []
    fits = _fits(comp, kind, t)
    if t in comp.players:
        parts.append(("mtg.115.2", rm.true if fits else rm.false))
        parts.append(("mtg.800.4.target", in_game(comp, st, t)))
        subject = t
    else:
        parts.append(("mtg.115.2", rm.all_of([st["zone", t].is_(kind.zone), still_targeted(comp, st, it.id, t)])
                      if fits else rm.false))
        if comp.effects_on(t, "prohibit", "be_targeted"):
            parts.append((None, comp.allowed(st, t, "be_targeted", default=True)))
        subject = comp.controller(st, t)
        if it.kind == "return_from_graveyard":  # "from your graveyard": a card its controller owns
            parts.append(("mtg.return_from_graveyard.yours", holds_for(comp, ctrl, comp.owner_of(t) or NONE)))
    whose = it.params.get("whose")
    if whose is not None:
        pairs = [(c, q) for c in comp.players for q in comp.players
                 if (are_opponents(comp, c, q) if whose == "opponent" else c == q)]
        parts.append(("mtg.115.restriction", rm.any_of([rm.all_of([holds_for(comp, ctrl, c), holds_for(comp, subject, q)])
                                                         for c, q in pairs])))
    if influence.radius(comp) is not None:
        parts.append(("mtg.801.4", influence.controlled_in_range(comp, st, ctrl, subject)))
    return rm.all_of([_defined(comp, st, f"target.{it.id}.{t}", rule, cond) for rule, cond in parts
                      if cond is not rm.true])


def source_allowed(rs, comp, st, it: Item):
    """Literal: the source may act (a permission or prohibition of the kind on the source), else true."""
    source = it.source
    if source and (comp.effects_on(source, "prohibit", it.kind) or comp.effects_on(source, "permit", it.kind)):
        return rs.allowed(comp, st, source, it.kind, default=True)
    return comp.rm.true


# -- the lifecycle --------------------------------------------------------------------------------------
def declare(rs, comp, ev) -> None:
    """core.declare: on the stack with every target legal (mtg.115.1); core.illegal: otherwise never."""
    rm, st = comp.rm, comp.stage
    it = item(comp, ev.id)
    targets = [legal(comp, st, it, ev.actor, t) for t in it.targets]
    reqs = [source_allowed(rs, comp, st, it)]
    if targets:
        reqs.append(_defined(comp, st, f"targets.{it.id}", "mtg.115.1", rm.all_of(targets)))
    ok = rm.all_of(reqs, f"s{st.index}:legal.{ev.id}")
    with comp.step(f"declare {ev.id}") as tr:
        tr.set(("status", ev.id), "on_stack", "core.declare", ok)
        tr.set(("zone", ev.id), rs.stack_zone, "core.declare", ok)
        tr.set(("status", ev.id), "illegal", "core.illegal", rm.neg(ok))
        tr.set(("ctrl", ev.id), ev.actor, "core.declare", ok)


def resolve(rs, comp, ev) -> None:
    """core.resolve with some target legal, affecting only the legal ones (mtg.608.2b.partial); mtg.608.2b: with
    every target illegal it does not resolve."""
    rm, st, a = comp.rm, comp.stage, ev.action
    it = item(comp, a)
    kind = KINDS[it.kind]
    ctrl = comp.controller(st, a)
    on_stack = st["status", a].is_("on_stack")
    legal_t = {t: legal(comp, st, it, ctrl, t) for t in it.targets}
    reqs = [source_allowed(rs, comp, st, it)]
    if legal_t:
        reqs.append(_defined(comp, st, f"resolves.{a}", "mtg.608.2b", rm.any_of(list(legal_t.values()))))
    ok = rm.all_of(reqs)
    go = rm.all_of([on_stack, ok])
    with comp.step(f"resolve {a}") as tr:
        rs._leave_stack(comp, tr, a, "resolved", "core.resolve", go)
        for t, ok_t in legal_t.items():
            if not _fits(comp, kind, t):
                continue  # never a legal target of this kind: nothing to affect
            if kind.effect is not None:
                kind.effect(comp, tr, it, ctrl, t, rm.all_of([go, ok_t]))
            if len(legal_t) > 1:
                for key in kind.keys(comp, t):
                    tr.keep(key, "mtg.608.2b.partial", rm.all_of([go, rm.neg(ok_t)]))
        if kind.whole is not None:
            kind.whole(comp, tr, it, ctrl, go)
        rs.interrupt(comp, tr, a, rm.all_of([on_stack, rm.neg(ok)]), rule="mtg.608.2b")
