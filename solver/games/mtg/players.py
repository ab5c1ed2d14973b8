"""Players in an MTG game, as literals: who is in the game, turn order, opponents, whose turn is next."""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.encoding.state import NONE
from solver.games.mtg.vocabulary import VOCABULARY

#: a player's life total when the scenario does not give it (103.4: each player starts at 20), as declared
STARTING_LIFE = VOCABULARY.word("player_attributes", "life").default


def in_game(ctx: RuleContext, st, player: str):
    """Literal: ``player`` is in the game at ``st``."""
    return derived.in_game(ctx, st, player)


def has_left(ctx: RuleContext, st, player: str):
    """Literal: ``player`` has left the game at ``st`` (conceded, lost, left): neither in it nor its winner (who
    wins when the others have left, 104.2a, and has not left it)."""
    status = st["pstatus", player]
    return ctx.rm.all_of([ctx.rm.neg(status.is_("in_game")), ctx.rm.neg(status.is_("won"))])


def leaves_once(ctx: RuleContext, player: str) -> None:
    """A ``leave_game`` event needs its player in the game (800.4a, 104.3a: a player in the game leaves it); a
    player who has left, lost, conceded or won already cannot leave again: a located error, never a silent no-op."""
    ctx.require(in_game(ctx, ctx.stage, player),
                f"{player} leaves the game here, but is not in it any more (they have left, lost, conceded or won "
                f"already): only a player in the game leaves it (800.4a, 104.3a)")


def seats_after(ctx: RuleContext, player: str) -> list[str]:
    """The other players in turn order after ``player``, then ``player`` (static seating)."""
    i = ctx.players.index(player)
    return [ctx.players[(i + k) % len(ctx.players)] for k in range(1, len(ctx.players) + 1)]


def next_in_turn_order(ctx: RuleContext, st, player: str) -> list[tuple[str, object]]:
    """(q, literal) for each other player q: q is the next player after ``player`` in turn order still in the game."""
    rm, out, skipped = ctx.rm, [], []
    for q in seats_after(ctx, player)[:-1]:
        out.append((q, rm.all_of([in_game(ctx, st, q)] + [rm.neg(in_game(ctx, st, r)) for r in skipped],
                                 f"s{st.index}:next.{player}.{q}")))
        skipped.append(q)
    return out


def nobody_left_in_game(ctx: RuleContext, st, player: str):
    """Literal: no player other than ``player`` is in the game."""
    rm = ctx.rm
    return rm.all_of([rm.neg(in_game(ctx, st, q)) for q in ctx.players if q != player])


def pass_to_next(ctx: RuleContext, tr, key: tuple, player: str, rule: str, when) -> None:
    """Rule ``rule``: under ``when``, ``key`` goes to the next player after ``player`` still in the game (none if none)."""
    rm = ctx.rm
    for q, is_next in next_in_turn_order(ctx, tr.prev, player):
        tr.set(key, q, rule, rm.all_of([when, is_next]))
    tr.set(key, NONE, rule, rm.all_of([when, nobody_left_in_game(ctx, tr.prev, player)]))


def are_opponents(ctx: RuleContext, a: str, b: str) -> bool:
    """Static: players ``a`` and ``b`` are opponents (different players, not on one team)."""
    teams = {p.id: p.team for p in ctx.sc.players}
    return a != b and (teams[a] is None or teams[a] != teams[b])


def life_key(ctx: RuleContext, player: str) -> tuple:
    """Declare (if needed) and return the state key of ``player``'s life total (20 when not given: 103.4)."""
    key = ("pattr", player, "life")
    ctx.add_key(key, [-1_000_000, 1_000_000], STARTING_LIFE)
    return key


def holds_for(ctx: RuleContext, who, player: str):
    """Literal: ``who`` (a player's name, or a categorical variable of players) is ``player``."""
    if isinstance(who, str):
        return ctx.rm.true if who == player else ctx.rm.false
    return who.is_(player)
