"""The MTG reference's reading of turns (500, 800.4j, 800.4k, 514.2) and of the range of influence (801).

Read from the rules: ``end_turn`` ends the turn ('until end of turn' effects end, damage wears off: 514.2), then
the seats after the player whose turn it was are walked in turn order: a seat whose player left is passed over
(800.4j) and their 'until your next turn' effects end there (800.4k); the first player still in the game begins
their turn (their 'until your next turn' effects end, they become the active player and receive priority). As a
turn begins, each range of influence is determined again from the players in the game (801.2c). A ``begin_turn``
written by hand must name the next seat in turn order, and cannot follow an ``end_turn``.
"""
from __future__ import annotations

from solver.games.mtg import reference_leaving as leaving
from solver.games.mtg import reference_targets as spells
from solver.games.mtg.reference_state import Proc, in_game
from solver.reference.world import BOOL, NONE, State, Unsupported, World, b, key

TURN_KEYS = ("turn.active_player", "turn.priority", "turn.turn_of")


def written_order(w: World, index: int) -> None:
    """Refuse a turn event written out of turn order (Unsupported)."""
    seat, computed = w.sc.turn.active_player, False
    for i, ev in enumerate(w.sc.events[:index + 1]):
        if ev.type == "begin_turn":
            if extras(w):
                raise Unsupported("begin_turn with extra turns")
            if computed:
                raise Unsupported("begin_turn after end_turn")
            if seat is not None and ev.player != w.players[(w.players.index(seat) + 1) % len(w.players)]:
                raise Unsupported(f"begin_turn {ev.player} out of turn order")
            seat = ev.player
        elif ev.type == "end_turn":
            if seat is None:
                raise Unsupported("end_turn without a current turn")
            computed = True


# -- range of influence ------------------------------------------------------------------------------
def radius(w: World) -> int | None:
    """The range of influence, or None when unlimited."""
    value = w.sc.options.get("range_of_influence")
    return int(value) if value is not None else None


def pairs(w: World) -> list[tuple[str, str]]:
    """Pairs of players in seating order."""
    return [(a, c) for i, a in enumerate(w.players) for c in w.players[i + 1:]]


def within(w: World, here: list[str], a: str, c: str) -> bool:
    """``a`` and ``c`` are within N seats of each other among the players ``here`` (in seating order)."""
    if a not in here or c not in here:
        return False
    i, j = here.index(a), here.index(c)
    gap = abs(i - j)
    return min(gap, len(here) - gap) <= radius(w)


def add_range_keys(w: World) -> None:
    """One key per pair of players, from the seating of the players in the game at the start."""
    if radius(w) is None:
        return
    here = [p.id for p in w.sc.players if p.status == "in_game"]
    for a, c in pairs(w):
        w.add(key("range", a, c), BOOL, b(within(w, here, a, c)))


def recompute(w: World, st: State) -> list[tuple[str, str, str]]:
    """801.2c: each range, determined again as a turn begins."""
    if radius(w) is None:
        return []
    w.note("mtg.801.2c")
    here = [q for q in w.players if in_game(st, q)]
    return [(key("range", a, c), b(within(w, here, a, c)), "mtg.801.2c") for a, c in pairs(w)]


# -- turns ---------------------------------------------------------------------------------------------
def end_turn(rules, w: World, p: Proc) -> None:
    """The cleanup, then the next turn in turn order (with 800.4c after each when control effects end), then its
    untap step (502.3)."""
    w.note("core.end_of_turn", "mtg.514.2", "mtg.500.next", "mtg.800.4j")
    before = dict(p.st)
    out = [(key("active", e.id), "0", "core.end_of_turn") for e in w.effects if e.duration == "until_end_of_turn"]
    out += [(k, "0", "mtg.514.2") for k in w.domains if k.startswith("attr.") and k.endswith(".damage")]
    p.substep(out)
    if any(e.kind == "control" and e.duration == "until_end_of_turn" for e in w.effects):
        leaving.reverts(rules, w, before, p)
    before = dict(p.st)
    changes = next_turn(w, p.st)
    p.substep(changes)
    if any(e.kind == "control" and e.duration == "until_next_turn" for e in w.effects):
        leaving.reverts(rules, w, before, p)
    untap(rules, w, p, any(k == "turn.active_player" for k, _, _ in changes))


def untap(rules, w: World, p: Proc, began: bool) -> None:
    """502.3: the untap step, read whenever a turn would begin: if it began, its active player untaps every
    permanent they control (a permanent on the battlefield whose tapped flag the scenario reads)."""
    keys = [k for k in w.domains if k.startswith("flag.") and k.endswith(".tapped")]
    if not keys:
        return
    w.note("mtg.502.3")
    if not began:
        return
    active = p.st["turn.active_player"]
    out = []
    for k in keys:
        o = k[len("flag."):-len(".tapped")]
        if p.st.get(key("zone", o)) == "battlefield" and rules.controller(w, p.st, o) == active:
            out.append((k, "0", "mtg.502.3"))
    p.substep(out)


def extras(w: World) -> list[tuple[str, str]]:
    """(key, player) of each extra turn the events add (500.7), in the order added; "1" while it waits. A resolved
    spell's ``extra_turn`` instruction may give one to its target, or (each: you) to whoever controls it."""
    out = []
    for i, ev in enumerate(w.sc.events):
        if ev.type == "extra_turn":
            out.append((key("turn", f"extra_{i}"), ev.player))
        elif ev.type == "resolve" and ev.action in w.objects and w.objects[ev.action].spec is not None:
            out += [(spells.turn_key(i, n, p), p) for n, p in spells.turn_players(w, ev.action)]
    return out


def add_turn_keys(w: World) -> None:
    """With extra turns: each one's waiting flag, and the seat turn order goes on from (extra turns do not move it)."""
    if not extras(w):
        return
    w.add("turn.seat", tuple(w.players) + (NONE,), w.sc.turn.active_player or NONE)
    for k, _ in extras(w):
        w.add(k, BOOL, "0")


def add_extra(w: World, index: int) -> list[tuple[str, str, str]]:
    """500.7: the extra turn of event ``index`` is added after the current one (the newest is taken first)."""
    w.note("mtg.500.7")
    return [(key("turn", f"extra_{index}"), "1", "mtg.500.7")]


def next_turn(w: World, st: State) -> list[tuple[str, str, str]]:
    """The newest waiting extra turn (500.7), passed over if its player left (800.4j, 800.4k), then mtg.500.next:
    the next player in turn order still in the game begins; 800.4j/800.4k for those passed over."""
    if any(e.duration == "until_next_turn" for e in w.effects):
        w.note("core.next_turn", "mtg.800.4k")
    out: list[tuple[str, str, str]] = []

    def ends(q: str, rule: str) -> list[tuple[str, str, str]]:
        return [(key("active", e.id), "0", rule) for e in w.effects
                if e.duration == "until_next_turn" and e.until_player == q]
    for k, q in reversed(extras(w)):
        if st[k] != "1":
            continue
        w.note("mtg.500.7")
        if in_game(st, q):
            out += [(k, "0", "mtg.500.7")] + ends(q, "core.next_turn")
            return out + [(x, q, "mtg.500.7") for x in TURN_KEYS] + recompute(w, st)
        w.note("mtg.800.4j")
        out += [(k, "0", "mtg.800.4j")] + ends(q, "mtg.800.4k")
    seat = "turn.seat" if extras(w) else "turn.turn_of"
    holder = st[seat]
    if holder == NONE:
        return out
    i = w.players.index(holder)
    for k in range(1, len(w.players) + 1):
        q = w.players[(i + k) % len(w.players)]
        if in_game(st, q):
            out += ends(q, "core.next_turn")
            keys = TURN_KEYS + (("turn.seat",) if extras(w) else ())
            out += [(x, q, "mtg.500.next" if k == 1 else "mtg.800.4j") for x in keys]
            return out + recompute(w, st)
        out += ends(q, "mtg.800.4k")
    return out


def begin_turn(rules, w: World, p: Proc, ev) -> None:
    """A turn written by hand: 800.4j, 800.4k; then 800.4c when 'until your next turn' control effects end; then
    the untap step of a turn that began (502.3)."""
    pl = ev.player
    here = in_game(p.st, pl)
    w.note("mtg.500.begin_turn", "mtg.800.4j")
    out = [(key("active", e.id), "0", "core.next_turn" if here else "mtg.800.4k")
           for e in w.effects if e.duration == "until_next_turn" and e.until_player == pl]
    if out:
        w.note("core.next_turn", "mtg.800.4k")
    if here:
        out += [(k, pl, "mtg.500.begin_turn") for k in TURN_KEYS] + recompute(w, p.st)
    else:
        out += [(k, p.st[k], "mtg.800.4j") for k in TURN_KEYS]
    before = dict(p.st)
    p.substep(out)
    if any(e.kind == "control" and e.duration == "until_next_turn" for e in w.effects):
        leaving.reverts(rules, w, before, p)
    untap(rules, w, p, here)
