"""Explicit AND/OR search of the combat game: bounded forced wins, their strategies and their refuting lines.

"Side E destroys every enemy creature within N rounds whatever happens" is decided by a depth-first AND/OR search
over turns, on the game's combat reading ``pos.combat`` (the predicates its CP-SAT clauses state the same way:
``damage`` for tiers, strike and protection, ``reaches`` and ``on_board_reach`` for who may attack whom, a turn's
attacks resolving together, death at 0, regeneration at the end of a round):

- a position is the lives of every creature and the turn; a transposition table keeps, per (lives, whose turn),
  the fewest turns known to win and the most turns known not to, so a position is searched once whatever turn it
  is met at;
- a turn's declarations are generated per creature from the targets within its reach (cached per set of living
  creatures); the die values are collapsed to the distinct damages they give (one value per strike tier at most),
  and a move's successor positions are built attack by attack, deduplicated at every step, so a turn of k attacks
  costs the number of distinct positions it can lead to, not tiers^(2k) rolls; moves whose successor sets are
  equal are searched once; the opponent's replies are one set of successor positions (all of them must be won);
- moves are tried most damage first (the least damage each attack surely deals), then most attacks; successors
  hardest first where all must be won, easiest first where one suffices;
- a position is cut when even the best damage of every remaining turn cannot destroy what the enemy has left.

A proved win comes with its strategy: for every position the strategy reaches, E's declaration (and, when the dice
are E's, the roll), a tree of replies to dice and to the opponent's declarations that the solver-free reference
replays (``solver.games.berserk.reference_victory``). Every expanded position draws on the scenario's work budget
(``solver.engine.budget.Meter``): ``Exhausted`` when it runs out.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from solver.engine.budget import Meter
from solver.victory.model import Position

Lives = tuple[int, ...]
Move = tuple[tuple[int, int], ...]
#: an unbounded number of turns (a position where E has no creature left is lost for any horizon)
EVER = 1 << 30
#: successor positions built per work unit charged to the meter, on top of one charge per expanded position
STATES_PER_NODE = 256


def turn_side(pos: Position, t: int) -> int:
    """The side whose turn is turn number ``t`` (two turns a round, ``pos.first`` opens every round)."""
    return pos.first if t % 2 == 0 else 1 - pos.first


@dataclass
class Entry:
    """What the transposition table knows of one (lives, whose turn) position."""

    #: fewest turns within which E is known to win from here (EVER: not known)
    win: int = EVER
    #: most turns within which E is known not to win from here (-1: not known)
    lose: int = -1
    #: E's winning declaration (its own turn), and the successor it picks when the dice are E's
    move: Move | None = None
    pick: Lives | None = None


@dataclass
class Strategy:
    """A proved win as a tree: per (lives, turn) position the strategy reaches on E's turn, E's declaration as
    attacker -> target creature ids (and the lives it aims at when the dice are E's)."""

    side: int
    rounds: int
    ids: tuple[str, ...]
    moves: dict[tuple[Lives, int], dict[str, str]] = field(default_factory=dict)
    #: with the dice E's, the lives each roll E picks leads to: per (lives, turn) on E's turn, per (lives, turn,
    #: declaration) on the opponent's
    picks: dict[tuple, Lives] = field(default_factory=dict)

    def by_name(self) -> dict[tuple[tuple[tuple[str, int], ...], int], dict[str, str]]:
        """The declarations keyed by ((creature id, life) ... sorted by id, turn): what the reference replays."""
        return {(tuple(sorted(zip(self.ids, lives))), t): m for (lives, t), m in self.moves.items()}


class Game:
    """The combat game of one position as the search plays it: declarations, outcomes of an attack, successors."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        units = pos.units
        self.n = len(units)
        self.members = tuple(tuple(i for i, u in enumerate(units) if u.side == s) for s in (0, 1))
        reps = pos.dice.representatives()
        #: per (attacker, target) that may attack it at all (flyers): the distinct (damage dealt, damage struck back)
        self.outcomes: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        for a, ua in enumerate(units):
            for t, ut in enumerate(units):
                if ua.side == ut.side or not pos.combat.reaches(ua, ut):
                    continue
                hits = sorted({pos.combat.damage(ua, ut, pos.dice, v) for v in reps})
                backs = sorted({pos.combat.damage(ut, ua, pos.dice, v) for v in reps}) if pos.counterstrike else [0]
                self.outcomes[a, t] = tuple((h, k) for h in hits for k in backs)
        self.top = tuple(max(u.max_life, u.life) for u in units)
        self.regen = tuple(u.regen for u in units)
        self._targets: dict[tuple[int, int], tuple[tuple[int, tuple[int, ...]], ...]] = {}
        self._moves: dict[tuple[int, int], list[Move]] = {}
        #: per creature, its best hit on any target, and the most it is struck back when it attacks: the bound that
        #: cuts hopeless positions
        self.best_hit = [max([o[0] for (a, _), outs in self.outcomes.items() if a == i for o in outs] or [0])
                         for i in range(self.n)]
        self.best_back = [max([o[1] for (a, _), outs in self.outcomes.items() if a == i for o in outs] or [0])
                          for i in range(self.n)]

    @staticmethod
    def mask(lives: Lives) -> int:
        """The living creatures as a bit set."""
        m = 0
        for i, v in enumerate(lives):
            if v > 0:
                m |= 1 << i
        return m

    def targets(self, mask: int, side: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Per living creature of ``side``: the living enemies within its reach (``reaches``, ``on_board_reach``)."""
        key = (mask, side)
        got = self._targets.get(key)
        if got is None:
            units = self.pos.units
            standing = [u for i, u in enumerate(units) if mask >> i & 1]
            got = tuple((a, tuple(t for t in self.members[1 - side] if mask >> t & 1 and (a, t) in self.outcomes
                                  and self.pos.combat.on_board_reach(self.pos, units[a], units[t], standing)))
                        for a in self.members[side] if mask >> a & 1)
            self._targets[key] = got
        return got

    def moves(self, mask: int, side: int) -> list[Move]:
        """Every declaration of ``side``'s turn (each living creature attacks one enemy within reach, or none), most
        sure damage first, then most attacks."""
        key = (mask, side)
        got = self._moves.get(key)
        if got is None:
            per = [[None] + [(a, t) for t in ts] for a, ts in self.targets(mask, side)]
            got = [tuple(x for x in combo if x is not None) for combo in itertools.product(*per)]
            got.sort(key=lambda m: (-sum(self.outcomes[x][0][0] for x in m), -len(m)))
            self._moves[key] = got
        return got

    def successors(self, lives: Lives, t: int, move: Move) -> set[Lives]:
        """The positions after turn ``t`` with ``move`` declared, over every die value (regeneration when the turn
        closes a round): attack by attack, each attack dealing one of its distinct damages and taking one of its
        distinct strikes back, deduplicated at every step. A creature at 0 stays at 0: the attacks of a turn resolve
        together, so one destroyed by an earlier attack of the turn still strikes (and is struck)."""
        states = {lives}
        for a, tg in move:
            outs = self.outcomes[a, tg]
            if outs == ((0, 0),):
                continue
            nxt = set()
            for cur in states:
                la, lt = cur[a], cur[tg]
                for h, k in outs:
                    new = list(cur)
                    new[tg] = lt - h if lt > h else 0
                    new[a] = la - k if la > k else 0
                    nxt.add(tuple(new))
            states = nxt
        if t % 2 == 1:
            top, regen = self.top, self.regen
            if any(regen):
                states = {tuple(min(top[i], v + regen[i]) if v > 0 else 0 for i, v in enumerate(s)) for s in states}
        return states

    def rolls(self, lives: Lives, t: int, move: Move, child: Lives) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Die values (one per tier) of each attack and each strike back that lead from ``lives`` to ``child``."""
        pos = self.pos
        reps = pos.dice.representatives()
        units = pos.units
        for att in itertools.product(reps, repeat=len(move)):
            for dfn in itertools.product(reps, repeat=len(move)) if pos.counterstrike else [(reps[0],) * len(move)]:
                new = list(lives)
                for k, (a, tg) in enumerate(move):
                    new[tg] -= pos.combat.damage(units[a], units[tg], pos.dice, att[k])
                    if pos.counterstrike:
                        new[a] -= pos.combat.damage(units[tg], units[a], pos.dice, dfn[k])
                new = [max(0, v) for v in new]
                if t % 2 == 1:
                    new = [min(self.top[i], v + self.regen[i]) if v > 0 else 0 for i, v in enumerate(new)]
                if tuple(new) == child:
                    return att, dfn
        raise RuntimeError("no roll leads to this successor")  # a bug: the successors come from the same rolls

    def won(self, lives: Lives, side: int) -> bool:
        """``side`` has a creature and the other side has none (clean victory)."""
        return any(lives[i] > 0 for i in self.members[side]) and not any(lives[i] > 0 for i in self.members[1 - side])


class AndOr:
    """Does side ``E`` force a clean victory within ``rounds`` rounds? (dice against E, or E's with ``dice_mine``)."""

    def __init__(self, pos: Position, side: int, rounds: int, dice_mine: bool = False,
                 meter: Meter | None = None) -> None:
        self.pos, self.E, self.T, self.rounds = pos, side, 2 * rounds, rounds
        self.dice_mine = dice_mine
        self.meter = meter if meter is not None else Meter()
        self.game = Game(pos)
        self.table: dict[tuple[Lives, int], Entry] = {}
        self.nodes = 0
        self._built = 0
        #: the turns of E and of the opponent left after turn t, per t (for the bound)
        self._left = [(sum(turn_side(pos, u) == side for u in range(t, self.T)),
                       sum(turn_side(pos, u) != side for u in range(t, self.T))) for t in range(self.T + 1)]

    def start(self) -> Lives:
        """The lives at the start."""
        return tuple(u.life for u in self.pos.units)

    def wins(self) -> bool:
        """The verdict from the start (raises ``Exhausted`` when the work budget runs out)."""
        return self.value(self.start(), 0)

    def _charge(self, built: int) -> None:
        """One position expanded, with ``built`` successor positions built (the work budget: ``STATES_PER_NODE``)."""
        self.nodes += 1
        self.meter.node()
        self._charge_states(built)

    def hopeless(self, lives: Lives, t: int) -> bool:
        """Even if every remaining attack of E dealt its best damage, and every enemy attack took E's best strike
        back, some enemy creature (or all of them together) would survive."""
        g, (mine, theirs) = self.game, self._left[t]
        enemies = [i for i in g.members[1 - self.E] if lives[i] > 0]
        total = sum(lives[i] for i in enemies)
        hit = sum(g.best_hit[i] for i in g.members[self.E] if lives[i] > 0)
        back = sum(g.best_back[i] for i in enemies)
        return total > mine * hit + theirs * back

    def value(self, lives: Lives, t: int) -> bool:
        """Does E force the win from ``lives`` at turn ``t`` within the turns left?"""
        left = self.T - t
        key = (lives, t % 2)
        e = self.table.get(key)
        if e is not None:
            if e.win <= left:
                return True
            if e.lose >= left:
                return False
        else:
            e = self.table[key] = Entry()
        g = self.game
        if g.won(lives, self.E):
            e.win = 0
            return True
        if not any(lives[i] > 0 for i in g.members[self.E]):
            e.lose = EVER
            return False
        if left == 0 or self.hopeless(lives, t):
            e.lose = max(e.lose, left)
            return False
        side = turn_side(self.pos, t)
        mask = g.mask(lives)
        ok = self._mine(lives, t, mask, e) if side == self.E else self._theirs(lives, t, mask)
        if ok:
            e.win = min(e.win, left)
        else:
            e.lose = max(e.lose, left)
        return ok

    def _order(self, kids, hardest: bool) -> list[Lives]:
        E, g = self.E, self.game
        mine, theirs = g.members[E], g.members[1 - E]
        key = (lambda c: (-sum(c[i] for i in theirs), sum(c[i] for i in mine))) if hardest else \
            (lambda c: (sum(c[i] for i in theirs), -sum(c[i] for i in mine)))
        return sorted(kids, key=key)

    def _mine(self, lives: Lives, t: int, mask: int, e: Entry) -> bool:
        g = self.game
        options = g.moves(mask, self.E)
        if self.dice_mine:
            kids: dict[Lives, Move] = {}
            for m in options:
                for c in g.successors(lives, t, m):
                    kids.setdefault(c, m)
            self._charge(len(kids))
            for c in self._order(kids, hardest=False):
                if self.value(c, t + 1):
                    e.move, e.pick = kids[c], c
                    return True
            return False
        self._charge(0)
        for m, kids in self._distinct(lives, t, options):
            if all(self.value(c, t + 1) for c in self._order(kids, hardest=True)):
                e.move = m
                return True
        return False

    def _distinct(self, lives: Lives, t: int, options):
        """Each move with its successor positions, charged; a move whose set of successors an earlier move already
        gave is skipped (it leads to the same positions)."""
        seen = set()
        for m in options:
            kids = self.game.successors(lives, t, m)
            self._charge_states(len(kids))
            frozen = frozenset(kids)
            if frozen not in seen:
                seen.add(frozen)
                yield m, kids

    def _charge_states(self, built: int) -> None:
        """``built`` more successor positions: one node charged per ``STATES_PER_NODE`` of them."""
        self._built += built
        extra, self._built = divmod(self._built, STATES_PER_NODE)
        if extra:
            self.meter.node(extra)

    def _theirs(self, lives: Lives, t: int, mask: int) -> bool:
        g = self.game
        options = g.moves(mask, 1 - self.E)
        if self.dice_mine:
            self._charge(0)
            for _m, kids in self._distinct(lives, t, options):
                if not any(self.value(c, t + 1) for c in self._order(kids, hardest=False)):
                    return False
            return True
        kids = set()
        for m in options:
            kids |= g.successors(lives, t, m)
        self._charge(len(kids))
        return all(self.value(c, t + 1) for c in self._order(kids, hardest=True))

    # -- the strategy of a proved win, the line that beats an unproved one --------------------------------------------
    def strategy(self) -> Strategy:
        """E's declaration in every position its winning strategy reaches (call after ``wins()`` proved it)."""
        g, pos = self.game, self.pos
        out = Strategy(self.E, self.rounds, tuple(u.id for u in pos.units))
        todo, seen = [(self.start(), 0)], set()
        while todo:
            lives, t = todo.pop()
            if (lives, t) in seen or g.won(lives, self.E) or t >= self.T:
                continue
            seen.add((lives, t))
            mask = g.mask(lives)
            if turn_side(pos, t) == self.E:
                e = self.table[(lives, t % 2)]
                out.moves[lives, t] = {pos.units[a].id: pos.units[x].id for a, x in e.move}
                if self.dice_mine:
                    out.picks[lives, t] = e.pick
                    todo.append((e.pick, t + 1))
                else:
                    todo.extend((c, t + 1) for c in g.successors(lives, t, e.move))
            else:
                for m in g.moves(mask, 1 - self.E):
                    kids = g.successors(lives, t, m)
                    if self.dice_mine:
                        pick = next(c for c in self._order(kids, hardest=False) if self.value(c, t + 1))
                        out.picks[lives, t, m] = pick
                        todo.append((pick, t + 1))
                    else:
                        todo.extend((c, t + 1) for c in kids)
        return out

    def line(self) -> list[tuple[int, int, Move, Lives]]:
        """A line of play from the start where E does not win (call after ``wins()`` refuted it, dice against E): per
        turn (turn, side, declaration, lives after). E plays its first declaration (most sure damage); the dice and
        the opponent answer with the hardest position for E that the search found E does not win from (the fewest
        attacks that lead there)."""
        g, pos = self.game, self.pos
        lives, t, out = self.start(), 0, []
        while t < self.T and not g.won(lives, self.E) and any(lives[i] > 0 for i in g.members[self.E]):
            side = turn_side(pos, t)
            options = g.moves(g.mask(lives), side)
            kids: dict[Lives, Move] = {}
            for m in (sorted(options, key=len) if side != self.E else options[:1]):
                for c in g.successors(lives, t, m):
                    kids.setdefault(c, m)
            step = next(((kids[c], c) for c in self._order(kids, hardest=True) if not self.value(c, t + 1)), None)
            if step is None:
                break
            out.append((t, side, step[0], step[1]))
            lives, t = step[1], t + 1
        return out
