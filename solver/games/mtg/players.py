"""Players in an MTG game, as literals: who is in the game, turn order, opponents, whose turn is next."""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.state import NONE
from solver.games.mtg.vocabulary import VOCABULARY

#: a player's life total when the scenario does not give it (103.4: each player starts at 20), as declared
STARTING_LIFE = VOCABULARY.word("player_attributes", "life").default


def in_game(comp, st, player: str):
    """Literal: ``player`` is in the game at ``st``."""
    return derived.in_game(comp, st, player)


def seats_after(comp, player: str) -> list[str]:
    """The other players in turn order after ``player``, then ``player`` (static seating)."""
    i = comp.players.index(player)
    return [comp.players[(i + k) % len(comp.players)] for k in range(1, len(comp.players) + 1)]


def next_in_turn_order(comp, st, player: str) -> list[tuple[str, object]]:
    """(q, literal) for each other player q: q is the next player after ``player`` in turn order still in the game."""
    rm, out, skipped = comp.rm, [], []
    for q in seats_after(comp, player)[:-1]:
        out.append((q, rm.all_of([in_game(comp, st, q)] + [rm.neg(in_game(comp, st, r)) for r in skipped],
                                 f"s{st.index}:next.{player}.{q}")))
        skipped.append(q)
    return out


def nobody_left_in_game(comp, st, player: str):
    """Literal: no player other than ``player`` is in the game."""
    rm = comp.rm
    return rm.all_of([rm.neg(in_game(comp, st, q)) for q in comp.players if q != player])


def pass_to_next(comp, tr, key: tuple, player: str, rule: str, when) -> None:
    """Rule ``rule``: under ``when``, ``key`` goes to the next player after ``player`` still in the game (none if none)."""
    rm = comp.rm
    for q, is_next in next_in_turn_order(comp, tr.prev, player):
        tr.set(key, q, rule, rm.all_of([when, is_next]))
    tr.set(key, NONE, rule, rm.all_of([when, nobody_left_in_game(comp, tr.prev, player)]))


def are_opponents(comp, a: str, b: str) -> bool:
    """Static: players ``a`` and ``b`` are opponents (different players, not on one team)."""
    teams = {p.id: p.team for p in comp.sc.players}
    return a != b and (teams[a] is None or teams[a] != teams[b])


def life_key(comp, player: str) -> tuple:
    """Declare (if needed) and return the state key of ``player``'s life total (20 when not given: 103.4)."""
    key = ("pattr", player, "life")
    comp.add_key(key, [-1_000_000, 1_000_000], STARTING_LIFE)
    return key


def holds_for(comp, who, player: str):
    """Literal: ``who`` (a player's name, or a categorical variable of players) is ``player``."""
    if isinstance(who, str):
        return comp.rm.true if who == player else comp.rm.false
    return who.is_(player)
