"""The MTG reference's reading of targets (115, 608.2b, 801.4) and of what spells and abilities do.

Read from the rules: a spell or ability is put on the stack only with every target legal (115.1); on resolution
each target is checked again; with none legal it does not resolve (608.2b), otherwise it affects only the legal
ones. A legal target is an object in the zone its kind targets with the type it names (115.2: one that changed
zone or left the game is not, even back in that zone: 400.7 ends it being the target), or a player in the game (a player who left is not), allowed by the kind's
``whose`` restriction, not protected by a 'cannot be targeted' effect, and within range of the spell's
controller when the range of influence is limited (801.4).

Read from 608.2c: a spell or ability with instructions follows them in the order written, as one resolution; each
instruction sees what the ones before it did, and state-based actions are checked only once the whole spell has
resolved. Its targets are those of all its instructions; an untargeted 'each' instruction affects every player
(you, opponent, player) or creature it names that is in its controller's range (801.10). 121.1: a player who draws
puts cards of their library into their hand; with the library's order not given, any of its cards.
"""
from __future__ import annotations

from typing import NamedTuple

from solver.games.mtg import reference_copies as copies
from solver.games.mtg.reference_state import STARTING_LIFE, in_game, opponents
from solver.reference.rules import Step
from solver.reference.world import BOOL, INT, NONE, State, Unsupported, World, key

#: kind -> (what it aims at, the zone of its object targets, the types they need)
AIMS = {
    "spell": ("none", None, ()), "ability": ("none", None, ()),
    "destroy": ("objects", "battlefield", ()), "exile": ("objects", "battlefield", ()),
    "return_to_hand": ("objects", "battlefield", ()), "exile_until_leaves": ("objects", "battlefield", ()),
    "return_to_battlefield": ("objects", "exile", ()), "return_from_graveyard": ("objects", "graveyard", ("creature",)),
    "damage": ("both", "battlefield", ("creature",)),
    "gain_life": ("players", None, ()), "lose_life": ("players", None, ()), "draw": ("players", None, ()),
    "tap": ("objects", "battlefield", ()), "untap": ("objects", "battlefield", ()),
    "each_opponent_loses_life": ("none", None, ()), "extra_turn": ("players", None, ()),
}
#: instructions read but not modelled (the reference does not read them either)
REFUSED = ("gain_control", "create")
#: the kinds whose spell or ability may instead do a list of instructions, in order, as one resolution (608.2c)
LISTED = ("spell", "ability")


class Part(NamedTuple):
    """One instruction (or the kind of a spell that does one thing): its kind, targets, what it affects without
    targeting it (you, opponent, player, creature) and its parameters."""

    kind: str
    targets: list[str]
    each: str | None
    params: dict


class Item(NamedTuple):
    """A spell or ability as the reference reads it: the action's id and what its object says it does."""

    id: str
    spec: object

    @property
    def kind(self) -> str:
        """Its action kind."""
        return self.spec.kind

    @property
    def listed(self) -> bool:
        """It does a list of instructions (608.2c)."""
        return bool(getattr(self.spec, "instructions", None))

    @property
    def parts(self) -> list[Part]:
        """What it does: its instructions in order, or its kind with its targets and parameters."""
        if not self.listed:
            return [Part(self.spec.kind, list(self.spec.targets), None, dict(self.spec.params))]
        if self.spec.kind not in LISTED:
            raise Unsupported(f"action {self.id}: kind {self.spec.kind} takes no instructions")
        out = [Part(i.kind, list(i.targets), i.each, dict(i.params)) for i in self.spec.instructions]
        for p in out:
            if p.kind in REFUSED:
                raise Unsupported(f"action {self.id}: instruction '{p.kind}' is not read")
            if p.kind in LISTED or p.kind not in AIMS:
                raise Unsupported(f"action {self.id}: '{p.kind}' is no instruction")
        return out

    @property
    def targets(self) -> list[str]:
        """Its targets, objects and players (of every instruction, each once)."""
        return list(dict.fromkeys(t for p in self.parts for t in p.targets))

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
        if "per" in it.params:
            raise Unsupported(f"action {a}: `per` without instructions")
        draws: dict[str, list[int]] = {}
        for part in it.parts:
            _part_keys(w, it, part, until)
            if part.kind == "draw":
                for p in (you(w, a) if part.each == "you" else w.players if part.each
                          else [t for t in part.targets if t in w.players]):
                    draws.setdefault(p, []).append(int(part.params["amount"]))
        for p, ns in draws.items():
            cards = {c for q in w.players for c in library(w, q)}
            short = len(ns) > 1 and len(library(w, p)) < sum(ns)  # one draw short: read where it happens (_draw)
            if short or any(getattr(ev, "object", None) in cards or ev.type in ("move", "create")
                            and ev.zone == "library" for ev in w.sc.events):
                raise Unsupported(f"action {a}: {p} may draw from an empty library, or a library changes (not read)")
    for t, sources in until.items():
        w.add(key("until", t), (NONE,) + tuple(sorted(sources)), NONE)


def you(w: World, a: str) -> list[str]:
    """The players who may control the action: who declared it, or its object's controller, or one a control effect
    names (a triggered ability: any player)."""
    spec, info = w.objects[a].spec, w.sc.objects
    if getattr(spec, "type", None) == "trigger":
        return list(w.players)
    named = {e.player for e in w.effects_on(a, "control")}
    if named - set(w.players):
        return list(w.players)
    first = getattr(spec, "actor", None) or next((o.controller or o.owner for o in info if o.id == a), None)
    return sorted(({first} | named) & set(w.players))


def turn_key(index: int, n: int, player: str) -> str:
    """The waiting flag of the extra turn instruction ``n`` of the spell resolved by event ``index`` gives."""
    return key("turn", f"extra_{index}_{n}_{player}")


def turn_players(w: World, a: str) -> list[tuple[int, str]]:
    """(instruction, player) of each extra turn (500.7) the action may give: its one target, or each: you."""
    out = []
    for n, p in enumerate(item(w, a).parts):
        if p.kind == "extra_turn":
            if p.each not in (None, "you") or len(p.targets) + (p.each is not None) != 1:
                raise Unsupported(f"action {a}: an extra turn for several players at once")
            out += [(n, q) for q in (you(w, a) if p.each else [t for t in p.targets if t in w.players])]
    return out


def library(w: World, p: str) -> list[str]:
    """The cards a player owns that start in their library (what they can draw)."""
    return [o.id for o in w.sc.objects if o.zone == "library" and w.owner_of(o.id) == p]


def creatures(w: World) -> list[str]:
    """Every creature with a toughness (what 'each creature' may deal damage to)."""
    return [o for o, i in w.objects.items() if "creature" in i.types and has_toughness(w, o)]


def _part_keys(w: World, it: Item, part: Part, until: dict) -> None:
    a = it.id
    aims = AIMS[part.kind][0]
    if len(set(part.targets)) != len(part.targets):
        raise Unsupported(f"action {a} names a target twice")
    if part.each == "creature":
        for o in creatures(w):
            w.add(key("attr", o, "damage"), INT, "0")
    elif part.each is not None or part.kind == "each_opponent_loses_life":
        for p in w.players:
            w.add(key("pattr", p, "life"), INT, str(STARTING_LIFE))
    for t in part.targets:
        if (t in w.players) == (t in w.objects):
            raise Unsupported(f"action {a}: target '{t}' is not exactly one player or object")
        if t in w.players and aims in ("players", "both"):
            w.add(key("pattr", t, "life"), INT, str(STARTING_LIFE))
        elif t in w.objects and part.kind == "damage" and fits(w, part.kind, t):
            if not has_toughness(w, t):
                raise Unsupported(f"action {a} damages {t}, which has no toughness")
            w.add(key("attr", t, "damage"), INT, "0")
        elif t in w.objects and part.kind in ("tap", "untap"):
            w.add(key("flag", t, "tapped"), BOOL, "0")
        elif t in w.objects and part.kind == "exile_until_leaves":
            if it.source is None or w.owner_of(t) is None:
                raise Unsupported(f"action {a}: exile until leaves needs a source and an owned target")
            until.setdefault(t, set()).add(it.source)


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


def legal(rules, w: World, st: State, it: Item, ctrl: str, t: str, part: Part | None = None) -> bool:
    """Is ``t`` a legal target of ``it`` (of its instruction ``part``) controlled by ``ctrl`` in ``st``? (Each rule
    weighed is noted.)"""
    part = part or it.parts[0]
    aims, zone, _ = AIMS[part.kind]
    ok = True
    w.note("mtg.115.2")
    if t in w.players:
        w.note("mtg.800.4.target")
        ok = aims in ("players", "both") and in_game(st, t)
        subject = t
    else:
        ok = aims in ("objects", "both") and fits(w, part.kind, t) and st[key("zone", t)] == zone \
            and rules.same_since(w, st, t, named_at(w, it.id))  # 400.7: a new object is not the one it named
        if w.effects_on(t, "prohibit", "be_targeted"):
            ok = rules.allowed(w, st, t, "be_targeted", default=True) and ok
        subject = rules.controller(w, st, t)
        if part.kind == "return_from_graveyard":  # from your graveyard: a card the controller owns
            w.note("mtg.return_from_graveyard.yours")
            ok = ok and w.owner_of(t) == ctrl
    whose = part.params.get("whose")
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
    ok = all([legal(rules, w, prev, it, ev.actor, t, part) for part in it.parts for t in part.targets]) \
        and source_allowed(rules, w, prev, it)
    if ok:
        step.set(key("status", ev.id), "on_stack", "core.declare")
        step.set(key("zone", ev.id), rules.stack_zone, "core.declare")
        step.set(key("ctrl", ev.id), ev.actor, "core.declare")
    else:
        step.set(key("status", ev.id), "illegal", "core.illegal")


def resolve(rules, w: World, prev: State, ev, step: Step) -> None:
    """core.resolve affecting the legal targets only (mtg.608.2b.partial), or mtg.608.2b: none legal. Instructions
    are followed in order as one resolution (mtg.608.2c): each reads the state the ones before it left, and the
    check of 704.3 comes only after the last."""
    a = ev.action
    copies.order(w, ev)
    it = item(w, a)
    parts = it.parts
    w.note("core.resolve", "mtg.608.2b", *[r for p in parts for r in effect_rules(w, p)])
    if it.listed:
        w.note("mtg.608.2c")
    many = sum(len(p.targets) for p in parts) > 1
    if many:
        w.note("mtg.608.2b.partial")
    if copies.is_copy(w, a):
        w.note("mtg.707.10a")  # weighed whether or not it leaves the stack now
    ctrl = rules.controller(w, prev, a)
    legal_t = [{t: legal(rules, w, prev, it, ctrl, t, p) for t in p.targets} for p in parts]
    ok = source_allowed(rules, w, prev, it) and (not any(legal_t) or any(v for d in legal_t for v in d.values()))
    if prev[key("status", a)] != "on_stack":
        return
    if not ok:
        rules.interrupt(w, prev, step, a, rule="mtg.608.2b")
        return
    rules._leave_stack(w, step, a, "resolved", "core.resolve")
    cur: dict[str, tuple[str, str]] = {}  # key -> (value, rule) so far in this resolution
    dealt: set[str] = set()  # players this resolution dealt damage to
    draws: dict[str, int] = {}
    ranged = w.sc.options.get("range_of_influence") is not None
    now = next(i for i, x in enumerate(w.sc.events) if x is ev) + 1
    for n, (p, legal_p) in enumerate(zip(parts, legal_t)):
        st = {**prev, **{k: v for k, (v, _) in cur.items()}}
        if p.kind == "extra_turn":  # 500.7: added directly after the current turn (the newest taken first)
            for t, fine in legal_p.items():
                cur[turn_key(now - 1, n, t)] = ("1", "mtg.500.7") if fine else (st[turn_key(now - 1, n, t)],
                                                                                "mtg.608.2b.partial")
            for t in _each(rules, w, st, ctrl, p, ranged, cur):
                cur[turn_key(now - 1, n, t)] = ("1", "mtg.500.7")
            continue
        if p.kind == "draw":
            for t in [t for t, fine in legal_p.items() if fine] + _each(rules, w, st, ctrl, p, ranged, cur):
                draws[t] = draws.get(t, 0) + int(p.params["amount"])
            continue
        for t, fine in legal_p.items():
            for k, v, rule in affect(rules, w, st, it, p, ctrl, t, dealt):
                if fine:
                    cur[k] = (v, rule)
                    if p.kind == "damage" and t in w.players and int(p.params["amount"]) > 0:
                        dealt.add(t)
                elif many:
                    cur[k] = (st[k], "mtg.608.2b.partial")
        for t in _each(rules, w, st, ctrl, p, ranged, cur):
            for k, v, rule in affect(rules, w, st, it, p, ctrl, t, dealt):
                cur[k] = (v, rule)
                if p.kind == "damage" and t in w.players and int(p.params["amount"]) > 0:
                    dealt.add(t)
        if p.kind == "each_opponent_loses_life":
            for q in w.players:
                if opponents(w, ctrl, q) and in_game(prev, q):
                    k = key("pattr", q, "life")
                    if in_range(w, prev, ctrl, q):
                        cur[k] = (str(int(st[k]) - int(p.params["amount"])), "mtg.119.3")
                    else:
                        cur[k] = (st[k], "mtg.801.10")
    drawable = {key("zone", c) for t in draws for c in library(w, t)}
    for k, (v, rule) in cur.items():
        if k in drawable and v == prev[k]:
            continue  # an illegal target left where it was, in the library: it may still be drawn
        step.set(k, v, rule)
    for t, n in draws.items():
        _draw(rules, w, prev, step, t, n, now)


def _each(rules, w: World, st: State, ctrl: str, p: Part, ranged: bool, cur: dict) -> list[str]:
    """What an instruction affects without targeting it, in its controller's range (801.10: one outside it is
    noted as kept)."""
    if p.each is None:
        return []
    if p.each == "creature":
        found = [o for o in creatures(w) if st[key("zone", o)] == "battlefield"]
    else:
        found = [q for q in w.players if in_game(st, q) and (p.each == "player" or p.each == "you" and q == ctrl
                                                             or p.each == "opponent" and opponents(w, ctrl, q))]
    if not ranged:
        return found
    w.note("mtg.801.10")
    out = []
    for t in found:
        subject = t if t in w.players else rules.controller(w, st, t)
        if ctrl in w.players and subject in w.players and in_range(w, st, ctrl, subject):
            out.append(t)
        elif p.kind == "draw":
            pass
        else:
            k = key("pattr", t, "life") if t in w.players else key("attr", t, "damage")
            cur[k] = (st[k], "mtg.801.10")
    return out


def _draw(rules, w: World, prev: State, step: Step, player: str, n: int, now: int) -> None:
    """121.1: the player puts ``n`` cards of their library into their hand: the top ones, and with the order not
    known, any ``n`` of it (each choice a state); a card drawn is a new object (400.7)."""
    cards = [c for c in library(w, player) if prev[key("zone", c)] == "library"]
    if n > len(cards):
        raise Unsupported(f"{player} draws {n} from a library of {len(cards)} (121.4, 704.5b: not read)")
    for c in cards:
        step.release(key("zone", c), "mtg.121.1", ("library", "hand"))
        sk = key("since", c)
        if c in w.identity and sk in w.domains:
            w.note(rules.identity_rule())
            step.release(sk, rules.identity_rule(), {prev[sk], str(now)})
            step.check(rules.identity_rule(), lambda nxt, c=c, sk=sk: nxt[sk] == (
                str(now) if nxt[key("zone", c)] != prev[key("zone", c)] else prev[sk]), f"{c} drawn is a new object")
    step.check("mtg.121.1", lambda nxt, cards=cards: sum(nxt[key("zone", c)] == "hand" for c in cards) == n,
               f"{player} draws {n}")
    # "the top card": no card is drawn while a card above it stays; a card with a library_position lies above every
    # card without one, and of two with positions the smaller is above
    pos = {c: prev.get(key("attr", c, "library_position")) for c in cards}

    def above(d: str, c: str) -> bool:
        return pos[d] is not None and (pos[c] is None or int(pos[d]) < int(pos[c]))
    step.check("mtg.121.1", lambda nxt, cards=cards: not any(
        nxt[key("zone", c)] == "hand" and nxt[key("zone", d)] == "library" and above(d, c)
        for c in cards for d in cards if c != d), f"{player} draws the top cards")


def effect_rules(w: World, p: Part) -> list[str]:
    """The rules what a kind does may apply (weighed whether or not it resolves)."""
    return {"destroy": ["mtg.destroy"], "exile": ["mtg.exile"], "return_to_hand": ["mtg.return_to_hand"],
            "exile_until_leaves": ["mtg.610.3", "mtg.610.3a"],
            "return_from_graveyard": ["mtg.return_from_graveyard", "mtg.return_from_graveyard.absent",
                                      "mtg.800.4b.enter"], "return_to_battlefield": ["mtg.return", "mtg.800.4b.enter"],
            "damage": ["mtg.120.3a", "mtg.120.3e"], "gain_life": ["mtg.119.3"], "lose_life": ["mtg.119.3"],
            "draw": ["mtg.121.1"], "extra_turn": ["mtg.500.7"], "tap": ["mtg.701.26"], "untap": ["mtg.701.26"],
            "each_opponent_loses_life": ["mtg.119.3"] + (["mtg.801.10"] if w.sc.options.get("range_of_influence")
                                                         is not None else [])}.get(p.kind, [])


def affect(rules, w: World, st: State, it: Item, p: Part, ctrl: str, t: str,
           dealt: set[str] = frozenset()) -> list[tuple[str, str, str]]:
    """What the instruction does to ``t``: (key, value, rule) changes (for an illegal target: the keys it would
    change). 'For each opponent dealt damage' counts the opponents in ``dealt`` (this resolution's)."""
    amount = int(p.params.get("amount", 0))
    if p.params.get("per") == "opponent_dealt_damage":
        amount *= sum(1 for q in dealt if opponents(w, ctrl, q))
    if t in w.players:
        k = key("pattr", t, "life")
        if p.kind == "damage":
            return [(k, str(int(st[k]) - amount), "mtg.120.3a")]
        if p.kind in ("gain_life", "lose_life"):
            return [(k, str(int(st[k]) + (amount if p.kind == "gain_life" else -amount)), "mtg.119.3")]
        return []
    zk = key("zone", t)
    if p.kind in ("tap", "untap"):
        return [(key("flag", t, "tapped"), "1" if p.kind == "tap" else "0", "mtg.701.26")]
    if p.kind == "destroy":
        return [(zk, rules.graveyard, "mtg.destroy")]
    if p.kind == "exile":
        return [(zk, "exile", "mtg.exile")]
    if p.kind == "return_to_hand":
        return [(zk, "hand", "mtg.return_to_hand")]
    if p.kind == "exile_until_leaves":
        if st[key("zone", it.source)] == "battlefield":
            return [(zk, "exile", "mtg.610.3"), (key("until", t), it.source, "mtg.610.3")]
        return [(zk, st[zk], "mtg.610.3a")]
    if p.kind == "return_from_graveyard":
        return copies.from_graveyard(w, st, t, p.params["to"])
    if p.kind == "return_to_battlefield":
        owner = w.owner_of(t)
        if owner is None:
            return [(zk, "battlefield", "mtg.return")]
        if in_game(st, owner):
            return [(zk, "battlefield", "mtg.return"), (key("ctrl", t), owner, "mtg.return")]
        return [(zk, st[zk], "mtg.800.4b.enter")]
    if p.kind == "damage" and fits(w, p.kind, t):
        k = key("attr", t, "damage")
        return [(k, str(int(st[k]) + amount), "mtg.120.3e")]
    return []
