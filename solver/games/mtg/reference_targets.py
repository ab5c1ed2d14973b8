"""The MTG reference's reading of targets (115, 608.2b, 801.4) and of what spells and abilities do.

Read from the rules: a spell or ability is put on the stack only with every target legal (115.1); on resolution
each target is checked again; with none legal it does not resolve (608.2b), otherwise it affects only the legal
ones. A legal target is an object in the zone its kind targets with the type it names (115.2: one that changed
zone or left the game is not, even back in that zone: 400.7 ends it being the target), or a player in the game (a player who left is not), allowed by the kind's
``whose`` restriction, not protected by a 'cannot be targeted' effect, and within range of the spell's
controller when the range of influence is limited (801.4).
"""
from __future__ import annotations

from typing import NamedTuple

from solver.games.mtg import reference_copies as copies
from solver.games.mtg.reference_state import STARTING_LIFE, in_game, opponents
from solver.reference.rules import Step
from solver.reference.world import INT, NONE, State, Unsupported, World, key

#: kind -> (what it aims at, the zone of its object targets, the types they need)
AIMS = {
    "spell": ("none", None, ()), "ability": ("none", None, ()),
    "destroy": ("objects", "battlefield", ()), "exile": ("objects", "battlefield", ()),
    "return_to_hand": ("objects", "battlefield", ()), "exile_until_leaves": ("objects", "battlefield", ()),
    "return_to_battlefield": ("objects", "exile", ()), "return_from_graveyard": ("objects", "graveyard", ("creature",)),
    "damage": ("both", "battlefield", ("creature",)),
    "gain_life": ("players", None, ()), "lose_life": ("players", None, ()),
    "each_opponent_loses_life": ("none", None, ()),
}


class Item(NamedTuple):
    """A spell or ability as the reference reads it: the action's id and what its object says it does."""

    id: str
    spec: object

    @property
    def kind(self) -> str:
        """Its action kind."""
        return self.spec.kind

    @property
    def targets(self) -> list[str]:
        """Its targets, objects and players."""
        return list(self.spec.targets)

    @property
    def params(self) -> dict:
        """Its kind's parameters."""
        return dict(self.spec.params)

    @property
    def source(self) -> str | None:
        """The object whose spell or ability it is (declared and triggered ones may name it)."""
        return getattr(self.spec, "source", None)


def item(w: World, action: str) -> Item:
    """The stack item of an action."""
    return Item(action, w.objects[action].spec)


def actions(w: World) -> list[str]:
    """Every object that is a spell or ability."""
    return [o for o, info in w.objects.items() if info.spec is not None]


def has_toughness(w: World, o: str) -> bool:
    """The object has a toughness (given, or from an effect)."""
    return key("attr", o, "toughness") in w.domains or bool(w.effects_on(o, "set", "toughness")
                                                             or w.effects_on(o, "add", "toughness"))


def fits(w: World, kind: str, t: str) -> bool:
    """The object is of a type the kind targets."""
    types = AIMS[kind][2]
    return not types or bool(set(types) & set(w.objects[t].types))


def add_keys(w: World) -> None:
    """Life totals and marked damage the spells change, and the 'until' link of what they may exile (610.3)."""
    until: dict[str, set[str]] = {}
    for a in actions(w):
        it = item(w, a)
        aims = AIMS[it.kind][0]
        if len(set(it.targets)) != len(it.targets):
            raise Unsupported(f"action {a} names a target twice")
        for t in it.targets:
            if (t in w.players) == (t in w.objects):
                raise Unsupported(f"action {a}: target '{t}' is not exactly one player or object")
            if t in w.players and aims in ("players", "both"):
                w.add(key("pattr", t, "life"), INT, str(STARTING_LIFE))
            elif t in w.objects and it.kind == "damage" and fits(w, it.kind, t):
                if not has_toughness(w, t):
                    raise Unsupported(f"action {a} damages {t}, which has no toughness")
                w.add(key("attr", t, "damage"), INT, "0")
            elif t in w.objects and it.kind == "exile_until_leaves":
                if it.source is None or w.owner_of(t) is None:
                    raise Unsupported(f"action {a}: exile until leaves needs a source and an owned target")
                until.setdefault(t, set()).add(it.source)
        if it.kind == "each_opponent_loses_life":
            for p in w.players:
                w.add(key("pattr", p, "life"), INT, str(STARTING_LIFE))
    for t, sources in until.items():
        w.add(key("until", t), (NONE,) + tuple(sorted(sources)), NONE)


def in_range(w: World, st: State, a: str, b: str) -> bool:
    """``b`` is within ``a``'s range of influence (801.2b: always their own; unlimited by default)."""
    if a == b or w.sc.options.get("range_of_influence") is None:
        return True
    i, j = sorted((a, b), key=w.players.index)
    return st[key("range", i, j)] == "1"


def named_at(w: World, action: str) -> int:
    """The state before the event that put the spell or ability on the stack (0: it was there at the start): the
    visit of a target it names is the one current then."""
    return next((i for i, ev in enumerate(w.sc.events) if ev.declared_id() == action), 0)


def targeted(w: World) -> list[str]:
    """Objects some spell or ability targets (400.7 tells their visits apart)."""
    return [t for a in actions(w) for t in item(w, a).targets if t in w.objects]


def legal(rules, w: World, st: State, it: Item, ctrl: str, t: str) -> bool:
    """Is ``t`` a legal target of ``it`` controlled by ``ctrl`` in ``st``? (Each rule weighed is noted.)"""
    aims, zone, _ = AIMS[it.kind]
    ok = True
    w.note("mtg.115.2")
    if t in w.players:
        w.note("mtg.800.4.target")
        ok = aims in ("players", "both") and in_game(st, t)
        subject = t
    else:
        ok = aims in ("objects", "both") and fits(w, it.kind, t) and st[key("zone", t)] == zone \
            and rules.same_since(w, st, t, named_at(w, it.id))  # 400.7: a new object is not the one it named
        if w.effects_on(t, "prohibit", "be_targeted"):
            ok = rules.allowed(w, st, t, "be_targeted", default=True) and ok
        subject = rules.controller(w, st, t)
        if it.kind == "return_from_graveyard":  # from your graveyard: a card the controller owns
            w.note("mtg.return_from_graveyard.yours")
            ok = ok and w.owner_of(t) == ctrl
    whose = it.params.get("whose")
    if whose is not None:
        w.note("mtg.115.restriction")
        ok = ok and (opponents(w, ctrl, subject) if whose == "opponent" else subject == ctrl and ctrl in w.players)
    if w.sc.options.get("range_of_influence") is not None:
        w.note("mtg.801.4")
        ok = ok and subject in w.players and ctrl in w.players and in_range(w, st, ctrl, subject)
    return ok


def source_allowed(rules, w: World, st: State, it: Item) -> bool:
    """The source may act (a permission or prohibition of its kind), or there is none to ask."""
    if it.source and (w.effects_on(it.source, "prohibit", it.kind) or w.effects_on(it.source, "permit", it.kind)):
        return rules.allowed_by(w, st, it.source, it.kind, default=True)[0]
    return True


def declare(rules, w: World, prev: State, ev, step: Step) -> None:
    """core.declare with every target legal (mtg.115.1), else core.illegal."""
    w.note("core.declare", "core.illegal")
    it = item(w, ev.id)
    if it.targets:
        w.note("mtg.115.1")
    ok = all([legal(rules, w, prev, it, ev.actor, t) for t in it.targets]) and source_allowed(rules, w, prev, it)
    if ok:
        step.set(key("status", ev.id), "on_stack", "core.declare")
        step.set(key("zone", ev.id), rules.stack_zone, "core.declare")
        step.set(key("ctrl", ev.id), ev.actor, "core.declare")
    else:
        step.set(key("status", ev.id), "illegal", "core.illegal")


def resolve(rules, w: World, prev: State, ev, step: Step) -> None:
    """core.resolve affecting the legal targets only (mtg.608.2b.partial), or mtg.608.2b: none legal."""
    a = ev.action
    copies.order(w, ev)
    it = item(w, a)
    w.note("core.resolve", "mtg.608.2b", *effect_rules(w, it))
    if len(it.targets) > 1:
        w.note("mtg.608.2b.partial")
    if copies.is_copy(w, a):
        w.note("mtg.707.10a")  # weighed whether or not it leaves the stack now
    ctrl = rules.controller(w, prev, a)
    legal_t = {t: legal(rules, w, prev, it, ctrl, t) for t in it.targets}
    ok = source_allowed(rules, w, prev, it) and (not legal_t or any(legal_t.values()))
    if prev[key("status", a)] != "on_stack":
        return
    if not ok:
        rules.interrupt(w, prev, step, a, rule="mtg.608.2b")
        return
    rules._leave_stack(w, step, a, "resolved", "core.resolve")
    for t, fine in legal_t.items():
        changes = affect(rules, w, prev, it, ctrl, t)
        for k, v, rule in changes:
            step.set(k, v if fine else prev[k], rule if fine else "mtg.608.2b.partial")
    if it.kind == "each_opponent_loses_life":
        for q in w.players:
            if opponents(w, ctrl, q) and in_game(prev, q):
                k = key("pattr", q, "life")
                if in_range(w, prev, ctrl, q):
                    step.set(k, str(int(prev[k]) - int(it.params["amount"])), "mtg.119.3")
                else:
                    step.set(k, prev[k], "mtg.801.10")


def effect_rules(w: World, it: Item) -> list[str]:
    """The rules what a kind does may apply (weighed whether or not it resolves)."""
    return {"destroy": ["mtg.destroy"], "exile": ["mtg.exile"], "return_to_hand": ["mtg.return_to_hand"],
            "exile_until_leaves": ["mtg.610.3", "mtg.610.3a"],
            "return_from_graveyard": ["mtg.return_from_graveyard", "mtg.return_from_graveyard.absent",
                                      "mtg.800.4b.enter"], "return_to_battlefield": ["mtg.return", "mtg.800.4b.enter"],
            "damage": ["mtg.120.3a", "mtg.120.3e"], "gain_life": ["mtg.119.3"], "lose_life": ["mtg.119.3"],
            "each_opponent_loses_life": ["mtg.119.3"] + (["mtg.801.10"] if w.sc.options.get("range_of_influence")
                                                         is not None else [])}.get(it.kind, [])


def affect(rules, w: World, st: State, it: Item, ctrl: str, t: str) -> list[tuple[str, str, str]]:
    """What the kind does to target ``t``: (key, value, rule) changes (for an illegal target: the keys it would
    change)."""
    amount = int(it.params.get("amount", 0))
    if t in w.players:
        k = key("pattr", t, "life")
        if it.kind == "damage":
            return [(k, str(int(st[k]) - amount), "mtg.120.3a")]
        if it.kind in ("gain_life", "lose_life"):
            return [(k, str(int(st[k]) + (amount if it.kind == "gain_life" else -amount)), "mtg.119.3")]
        return []
    zk = key("zone", t)
    if it.kind == "destroy":
        return [(zk, rules.graveyard, "mtg.destroy")]
    if it.kind == "exile":
        return [(zk, "exile", "mtg.exile")]
    if it.kind == "return_to_hand":
        return [(zk, "hand", "mtg.return_to_hand")]
    if it.kind == "exile_until_leaves":
        if st[key("zone", it.source)] == "battlefield":
            return [(zk, "exile", "mtg.610.3"), (key("until", t), it.source, "mtg.610.3")]
        return [(zk, st[zk], "mtg.610.3a")]
    if it.kind == "return_from_graveyard":
        return copies.from_graveyard(w, st, t, it.params["to"])
    if it.kind == "return_to_battlefield":
        owner = w.owner_of(t)
        if owner is None:
            return [(zk, "battlefield", "mtg.return")]
        if in_game(st, owner):
            return [(zk, "battlefield", "mtg.return"), (key("ctrl", t), owner, "mtg.return")]
        return [(zk, st[zk], "mtg.800.4b.enter")]
    if it.kind == "damage" and fits(w, it.kind, t):
        k = key("attr", t, "damage")
        return [(k, str(int(st[k]) + amount), "mtg.120.3e")]
    return []
