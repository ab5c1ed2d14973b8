"""The MTG reference's reading of the check that follows every event (704.3), with 610.3 returns and 400.7.

Read from the rules: first the cards exiled until their exiler leaves the battlefield return at once if it left
(610.3, under their owner's control: 610.3c), an object off the battlefield keeps no damage and one out of the
zone a spell or ability on the stack targeted it in is no longer its target (400.7); then the
state-based actions are performed simultaneously (704.5a, 704.5d, 704.5f, 704.5g, 704.5m, 704.5n); in a game of three or
more the players who lost leave (800.4a); the returns again; and the whole is repeated until a round of
state-based actions does nothing (a plain loop here, not a bound).
"""
from __future__ import annotations

from solver.games.mtg import reference_leaving as leaving
from solver.games.mtg.reference_state import Proc, in_game
from solver.games.mtg.reference_targets import has_toughness
from solver.reference.world import NONE, World, key

#: a guard against a loop that never settles (a reading error, not a rule)
MAX_ROUNDS = 1000


def _life(w: World) -> list[str]:
    return [p for p in w.players if key("pattr", p, "life") in w.domains]


def _creatures(w: World) -> list[str]:
    return [o for o, info in w.objects.items() if "creature" in info.types and has_toughness(w, o)]


def _linked(w: World) -> list[str]:
    return [o for o in w.objects if key("until", o) in w.domains]


def _damaged(w: World) -> list[str]:
    return [o for o in w.objects if key("attr", o, "damage") in w.domains]


def weighed(w: World) -> None:
    """Note the rules a check weighs in this scenario (whether or not they change anything)."""
    if _life(w):
        w.note("mtg.704.5a", "mtg.104.2a")
        if any(q.team for q in w.sc.players):
            w.note("mtg.104.2c")
        if len(w.players) >= 3:
            w.note("mtg.800.4a.owned", "mtg.800.4a.control_ends", "mtg.800.4a.stack_ceases", "mtg.800.4a.exile",
                   "mtg.800.4a.priority", "mtg.800.4i", "mtg.800.4m", "mtg.800.4k", "mtg.800.4h")
            if leaving.control_objects(w):
                w.note("mtg.800.4c")
            if any("plane" in info.types for info in w.objects.values()):
                w.note("mtg.800.4n")
    if _creatures(w):
        w.note("mtg.704.5f", "mtg.704.5g")
    if any(key("attach", o) in w.domains and "aura" in info.types for o, info in w.objects.items()):
        w.note("mtg.704.5m")
    if any(key("attach", o) in w.domains and "equipment" in info.types for o, info in w.objects.items()):
        w.note("mtg.704.5n")
    if w.tokens:
        w.note("mtg.704.5d")
    if _linked(w):
        w.note("mtg.610.3", "mtg.610.3c", "mtg.800.4b.enter")
    if _damaged(w) or w.identity:
        w.note("mtg.400.7")


def check(rules, w: World, p: Proc) -> None:
    """704.3: returns, then rounds of state-based actions each followed by returns, until one does nothing."""
    weighed(w)
    returns(rules, w, p)
    for n in range(MAX_ROUNDS):
        before = dict(p.st)
        if not p.substep(state_based(rules, w, p, first=n == 0)):
            return
        lost = [q for q in _life(w) if in_game(before, q) and p.st[key("pstatus", q)] == "lost"]
        if lost and len(w.players) >= 3:
            leaving.leave(rules, w, p, lost, lost)
        if lost:
            leaving.wins(rules, w, p)
        returns(rules, w, p)
    raise AssertionError("the state-based actions never settle")


def returns(rules, w: World, p: Proc) -> None:
    """610.3 (610.3c): a card exiled until its exiler leaves returns if it left; 400.7: no damage off the battlefield,
    and no longer the target of a spell or ability on the stack once out of the zone it was targeted in."""
    st, out = p.st, []
    for o in _damaged(w):
        if st[key("zone", o)] != "battlefield":
            out.append((key("attr", o, "damage"), "0", "mtg.400.7"))
    for x in _linked(w):
        s = st[key("until", x)]
        if s == NONE:
            continue
        gone = st[key("zone", s)] != "battlefield"
        in_exile = st[key("zone", x)] == "exile"
        if gone and in_exile:
            owner = w.owner_of(x)
            if in_game(st, owner):
                out += [(key("zone", x), "battlefield", "mtg.610.3"), (key("ctrl", x), owner, "mtg.610.3c")]
            else:
                out.append((key("zone", x), st[key("zone", x)], "mtg.800.4b.enter"))
        if gone or not in_exile:
            out.append((key("until", x), NONE, "mtg.610.3"))
    p.substep(out)


def state_based(rules, w: World, p: Proc, first: bool) -> list[tuple[str, str, str]]:
    """One round of state-based actions, read from the state before it (players lose only in the first round:
    life totals do not change within a check)."""
    st, out = p.st, []
    for q in _life(w) if first else ():
        if in_game(st, q) and int(st[key("pattr", q, "life")]) <= 0:
            out.append((key("pstatus", q), "lost", "mtg.704.5a"))
    for o in _creatures(w):
        if st[key("zone", o)] != "battlefield":
            continue
        tough = rules.value(w, st, o, "toughness")
        dmg = int(st.get(key("attr", o, "damage"), "0"))
        if tough <= 0:
            out.append((key("zone", o), rules.graveyard, "mtg.704.5f"))
        elif key("attr", o, "damage") in w.domains and dmg >= tough:
            out.append((key("zone", o), rules.graveyard, "mtg.704.5g"))
    for o, info in w.objects.items():
        ak = key("attach", o)
        if ak in w.domains and "aura" in info.types and st[key("zone", o)] == "battlefield":
            t = st[ak]
            if t != NONE and st[key("zone", t)] != "battlefield":
                out += [(key("zone", o), rules.graveyard, "mtg.704.5m"), (ak, NONE, "mtg.704.5m")]
        if ak in w.domains and "equipment" in info.types and st[key("zone", o)] == "battlefield":
            t = st[ak]
            if t != NONE and st[key("zone", t)] != "battlefield":
                out.append((ak, NONE, "mtg.704.5n"))
        if o in w.tokens and st[key("zone", o)] not in ("battlefield",) + rules.gone_zones:
            out.append((key("zone", o), NONE, "mtg.704.5d"))
    return [c for c in out if st.get(c[0]) != c[1]]
