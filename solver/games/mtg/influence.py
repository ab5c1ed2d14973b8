"""Limited range of influence (801), a game option: ``range_of_influence: N`` (by default everyone is in range).

A player's range holds the players within N seats of them, counted among the players in the game (801.2,
801.2b: a player is always in their own range); an object is in range when its controller is (801.2d). The
players in each range are determined as each turn begins (801.2c): a player who leaves brings the players
beyond them into range from the next turn on. Spells and abilities target only what is in their controller's
range (801.4) and do not affect what is outside it (801.10).
"""
from __future__ import annotations

from solver.encoding.context import RuleContext
from solver.games.mtg.players import holds_for, in_game

OPTION = "range_of_influence"


def radius(ctx: RuleContext) -> int | None:
    """The range of influence (seats), or None when unlimited."""
    value = ctx.sc.options.get(OPTION)
    return int(value) if value is not None else None


def pairs(ctx: RuleContext) -> list[tuple[str, str]]:
    """Every pair of players (in seating order) whose range is state."""
    ps = ctx.players
    return [(a, b) for i, a in enumerate(ps) for b in ps[i + 1:]]


def seats_between(players: list[str], a: str, b: str) -> list[str]:
    """The players seated strictly between ``a`` and ``b`` going round the table from ``a``."""
    i, j = players.index(a), players.index(b)
    k, out = (i + 1) % len(players), []
    while k != j:
        out.append(players[k])
        k = (k + 1) % len(players)
    return out


def initially_in_range(ctx: RuleContext, a: str, b: str) -> bool:
    """Static: ``a`` and ``b`` are within the range of each other among the players in the game at the start."""
    here = [p.id for p in ctx.sc.players if p.status == "in_game"]
    if a not in here or b not in here:
        return False
    n = radius(ctx)
    return len(seats_between(here, a, b)) < n or len(seats_between(here, b, a)) < n


def declare_keys(ctx: RuleContext) -> None:
    """One Boolean per pair of players: in each other's range (determined at the start of the turn)."""
    if radius(ctx) is None:
        return
    for a, b in pairs(ctx):
        ctx.add_key(("range", a, b), "bool", initially_in_range(ctx, a, b))


def in_range(ctx: RuleContext, st, a: str, b: str):
    """Literal: player ``b`` is within player ``a``'s range of influence at ``st`` (801.2, 801.2b)."""
    if radius(ctx) is None or a == b:
        return ctx.rm.true
    return st["range", *sorted((a, b), key=ctx.players.index)]


def controlled_in_range(ctx: RuleContext, st, who, subject):
    """Literal: ``subject`` (a player's name or a categorical variable of players) is in the range of ``who`` (a
    player's name or a variable): 801.2d for an object, through its controller."""
    rm = ctx.rm
    if radius(ctx) is None:
        return rm.true
    return rm.any_of([rm.all_of([holds_for(ctx, who, a), holds_for(ctx, subject, b), in_range(ctx, st, a, b)])
                      for a in ctx.players for b in ctx.players])


def _within(ctx: RuleContext, st, a: str, b: str):
    """Literal: ``a`` and ``b`` are both in the game and within N seats of each other among those in the game."""
    rm, n = ctx.rm, radius(ctx)
    near = []
    for x, y in ((a, b), (b, a)):
        between = seats_between(ctx.players, x, y)
        count = rm.new_int(f"s{st.index}:seats.{x}.{y}", 0, len(between))
        rm.model.add(count == sum(in_game(ctx, st, q) for q in between))
        near.append(rm.int_le(count, n - 1))
    return rm.all_of([in_game(ctx, st, a), in_game(ctx, st, b), rm.any_of(near)])


def recompute(ctx: RuleContext, tr, when) -> None:
    """Rule mtg.801.2c: as a turn begins (``when``), each range is determined again from the players in the game."""
    if radius(ctx) is None or when is ctx.rm.false:
        return
    for a, b in pairs(ctx):
        tr.set(("range", a, b), _within(ctx, tr.prev, a, b), "mtg.801.2c", when)
