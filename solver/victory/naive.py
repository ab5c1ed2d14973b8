"""Explicit combat simulation and the naive forced-win search (plain minimax, no solver).

The simulation is the reference the CP-SAT encoding is tested against; the naive
search is the baseline of the benchmark: it tries every move, every reply and
every die value.
"""
from __future__ import annotations

import itertools

from solver.victory.model import Position

Lives = tuple[int, ...]


class Timeout(Exception):
    """The search ran past its node limit."""


def alive(pos: Position, lives: Lives, side: int) -> list[int]:
    """Indices of the living units of ``side``."""
    return [i for i, u in enumerate(pos.units) if u.side == side and lives[i] > 0]


def won(pos: Position, lives: Lives, side: int) -> bool:
    """``side`` has a creature and the other side has none."""
    return bool(alive(pos, lives, side)) and not alive(pos, lives, 1 - side)


def moves(pos: Position, lives: Lives, side: int) -> list[tuple[tuple[int, int], ...]]:
    """Every declaration of a turn: each living creature attacks one living enemy within reach (on the board: over
    free cells, or within range) or none."""
    mine, theirs = alive(pos, lives, side), alive(pos, lives, 1 - side)
    standing = [u for u, v in zip(pos.units, lives) if v > 0]
    options = []
    for a in mine:
        ua = pos.units[a]
        opts = [None] + [t for t in theirs if pos.combat.reaches(ua, pos.units[t])
                         and pos.combat.on_board_reach(pos, ua, pos.units[t], standing)]
        options.append([(a, t) for t in opts])
    return [tuple(x for x in combo if x[1] is not None) for combo in itertools.product(*options)]


def apply_turn(pos: Position, lives: Lives, attacks, att: tuple[int, ...], dfn: tuple[int, ...]) -> Lives:
    """Resolve one turn's attacks with the given dice (one attacker die and one counterstrike die per attack)."""
    new = list(lives)
    for k, (a, t) in enumerate(attacks):
        ua, ut = pos.units[a], pos.units[t]
        new[t] -= pos.combat.damage(ua, ut, pos.dice, att[k])
        if pos.counterstrike:
            new[a] -= pos.combat.damage(ut, ua, pos.dice, dfn[k])
    return tuple(max(0, v) for v in new)


def end_round(pos: Position, lives: Lives) -> Lives:
    """Regeneration of the living creatures at the end of a round."""
    return tuple(min(max(u.max_life, u.life), v + u.regen) if v > 0 else 0 for u, v in zip(pos.units, lives))


def dice_rolls(pos: Position, n: int, values) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (attacker dice, counterstrike dice) assignment for ``n`` attacks."""
    per = list(values)
    att = list(itertools.product(per, repeat=n))
    dfn = list(itertools.product(per, repeat=n)) if pos.counterstrike else [tuple(per[0] for _ in range(n))]
    return [(a, d) for a in att for d in dfn]


def after_turn(pos: Position, lives: Lives, t: int, attacks, att, dfn) -> Lives:
    """The lives after turn ``t`` (regeneration when it closes a round)."""
    new = apply_turn(pos, lives, attacks, att, dfn)
    return end_round(pos, new) if t % 2 == 1 else new


class NaiveSearch:
    """Plain minimax: the winner's moves are existential; replies and every die value universal."""

    def __init__(self, pos: Position, side: int, rounds: int, max_nodes: int | None = None) -> None:
        self.pos, self.side, self.turns = pos, side, 2 * rounds
        #: the most nodes it visits before giving up (Timeout): a count, never seconds
        self.max_nodes = max_nodes
        self.nodes = 0

    def wins(self) -> bool:
        """Does ``side`` win within the rounds whatever the dice and the opponent do?"""
        return self._node(tuple(u.life for u in self.pos.units), 0)

    def _node(self, lives: Lives, t: int) -> bool:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout()
        if won(self.pos, lives, self.side):
            return True
        if t == self.turns or not alive(self.pos, lives, self.side):
            return False
        mover = self.pos.first if t % 2 == 0 else 1 - self.pos.first
        results = (all(self._node(after_turn(self.pos, lives, t, m, a, d), t + 1)
                       for a, d in dice_rolls(self.pos, len(m), self.pos.dice.values()))
                   for m in moves(self.pos, lives, mover))
        return any(results) if mover == self.side else all(results)
