"""Who wins an MTG game (104.2a, 104.2c) and how a player leaves a two-player game (104.3a, 104.3e).

104.2a: a player still in the game wins it when all their opponents have left it, at once, whatever left them
alone (conceding, losing to a state-based action, leaving); in a game between teams 104.2c makes every player
of the winning team win, even one who had lost. The step runs after everything that can make a player leave:
a ``leave_game`` event and the players a state-based check made lose (``checks.py``).

A two-player game is no multiplayer game: 800.4 (what leaving does to objects, control, the stack) does not
apply. There a player leaves by conceding (104.3a) or by losing (704.5a, or an effect that says so: 104.3e), and
the other player wins (104.2a); a ``leave_game`` for any other reason is refused.
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.games.mtg.players import are_opponents, in_game


def multiplayer(ctx: RuleContext) -> bool:
    """Static: three or more players, the games 800.4 is written for."""
    return len(ctx.players) >= 3


def opponents_of(ctx: RuleContext, player: str) -> list[str]:
    """Static: the opponents of ``player`` (every other player not on their team)."""
    return [q for q in ctx.players if are_opponents(ctx, player, q)]


def alone(ctx: RuleContext, st, player: str):
    """Literal: ``player`` is in the game and every opponent of theirs has left it (104.2a); false for a player with
    no opponent at all."""
    rm, opps = ctx.rm, opponents_of(ctx, player)
    if not opps:
        return rm.false
    return rm.all_of([in_game(ctx, st, player)] + [rm.neg(in_game(ctx, st, q)) for q in opps],
                     f"s{st.index}:alone.{player}")


def teammates(ctx: RuleContext, player: str) -> list[str]:
    """Static: the other players on ``player``'s team (none without a team)."""
    team = {p.id: p.team for p in ctx.sc.players}
    return [q for q in ctx.players if q != player and team[player] is not None and team[q] == team[player]]


def wins(ctx: RuleContext, label: str, when=None) -> None:
    """104.2a: a player left alone in the game wins; 104.2c: so does every player of their team, even one who had
    lost (``when``: only if it holds, e.g. someone just lost). Each rule owns the frame of the statuses it may
    change: a player who does not win stays as they were because of it."""
    rm, st = ctx.rm, ctx.stage
    last = {q: rm.all_of([alone(ctx, st, q), when if when is not None else rm.true]) for q in ctx.players}
    if all(lit is rm.false for lit in last.values()):
        return
    with ctx.step(f"104.2a: who wins ({label})") as tr:
        for q in ctx.players:
            tr.set(("pstatus", q), "won", "mtg.104.2a", last[q])
            mates = teammates(ctx, q)
            if mates:
                team_won = rm.any_of([last[m] for m in mates])
                tr.set(("pstatus", q), "won", "mtg.104.2c", rm.all_of([rm.neg(in_game(ctx, st, q)), team_won]))


def two_player_leave(ctx: RuleContext, ev) -> None:
    """A player leaves a two-player game: they concede (104.3a) or an effect makes them lose (104.3e); nothing else
    of 800.4 happens (the game is over: 104.2a makes the other player win)."""
    rules = {"conceded": "mtg.104.3a", "lost": "mtg.104.3e"}
    if ev.status not in rules:
        raise ScenarioError(f"leave_game: {ev.player} leaves a two-player game with status '{ev.status}': a player "
                            f"leaves a two-player game by conceding (status: conceded, 104.3a) or losing (status: "
                            f"lost, 104.3e), and the other player wins (104.2a); leaving for another reason (800.4) "
                            f"is for games of three or more")
    with ctx.step(f"{ev.player} {ev.status}") as tr:
        tr.set(("pstatus", ev.player), ev.status, rules[ev.status], in_game(ctx, ctx.stage, ev.player))
