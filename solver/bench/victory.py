"""Benchmark: Arbiter's bounded forced-win check against a naive minimax and two strong baselines, same positions.

Run it (it is not part of the test run; use ``nice`` on a shared machine):

    python -m solver.bench.victory                   # the positions of the headline table
    python -m solver.bench.victory --agreement       # also: every method's verdict on the agreement set (agreement())

The positions (``position(n, h)``) stand on a board of two rows and n columns: n protected creatures (life 4,
strike 2-3-4, protection from non-magical attacks of strength 3 or more, movement 1) on the first row, each facing
one of n creatures striking 3-4-5 with 2h lives on the second row, where h is the horizon. A creature reaches only
what stands next to a cell it can get to over free cells, so at first each one reaches only the creature in front
of it; a gap opens as creatures fall. The claimant wins within h rounds whatever the dice and the replies, so every
method must prove a forced win.

The methods, each told the same rules (``solver.victory.model``'s predicates, ``solver.victory.naive``'s turn):

- ``naive``: plain minimax (``solver.victory.naive.NaiveSearch``): every move, reply and die value, no memory;
- ``memo``: the strong baseline of issue 28: a memoised AND/OR search with a transposition table on
  (lives, turn), die values collapsed to one per strike tier, successor states deduplicated, more attacks first;
- ``retro``: retrograde analysis: every (lives, turn) position reachable from the start is enumerated, then
  decided from the last turn back to the first;
- ``arbiter``: ``solver.victory.bounded.ForcedWin``, what ``arbiter check`` runs.

Each method gives up after a count of work (nodes or positions, never seconds), sized so that a run stays near
``--cpu`` seconds (30) of one core; a method that gave up on a position is "not run" on every larger one. The CPU
seconds (``time.process_time``) are measurements only; the ratio is the strong baseline's (the faster of memo and
retro) CPU over Arbiter's.
"""
from __future__ import annotations

import argparse
import itertools
import os
import time
from dataclasses import dataclass

from models.scenario import Board as SBoard
from solver.engine.budget import Meter
from solver.games.berserk.combat import COMBAT, Unit
from solver.victory.bounded import ForcedWin
from solver.victory.model import DEFAULT_COMBAT, Board, Position, dice_from
from solver.victory.naive import NaiveSearch, Timeout, after_turn, alive, dice_rolls, moves, won
from solver.victory.search import Game, turn_side

#: the positions of the headline table: (creatures a side, rounds)
HEADLINE = ((2, 3), (3, 2), (3, 3), (4, 2), (4, 3))
#: work per method before it gives up (nodes of the naive search, turns played out by the strong baselines), each
#: about 30 s of one core
NAIVE_NODES = 9_000_000
BASELINE_TURNS = 9_000_000
#: Arbiter's work budget per run (``solver.engine.budget`` units)
ARBITER_UNITS = 100.0


def position(n: int, rounds: int) -> Position:
    """On a 2 x n board, n protected creatures facing n creatures that need ``rounds`` weak strikes each."""
    grid = SBoard(rows=2, cols=n)
    mine = [Unit(f"k{i}", 0, 4, 4, (2, 3, 4), protect_nonmagical=3, cell=f"r1c{i + 1}") for i in range(n)]
    theirs = [Unit(f"o{i}", 1, 2 * rounds, 2 * rounds, (3, 4, 5), cell=f"r2c{i + 1}") for i in range(n)]
    return Position(tuple(mine + theirs), dice_from(DEFAULT_COMBAT), ("alice", "bob"), COMBAT,
                    board=Board.of(grid.all_cells(), grid.neighbours()))


def _grid(rows: int, cols: int) -> Board:
    g = SBoard(rows=rows, cols=cols)
    return Board.of(g.all_cells(), g.neighbours())


def _pos(units, first: int = 0, board: Board | None = None, counterstrike: bool = True) -> Position:
    return Position(tuple(units), dice_from(DEFAULT_COMBAT), ("alice", "bob"), COMBAT,
                    first=first, counterstrike=counterstrike, board=board)


def _u(uid: str, side: int, life: int, strikes, **kw) -> Unit:
    return Unit(uid, side, life, life, tuple(strikes), **kw)


def agreement() -> list[tuple[str, Position, int, str]]:
    """The positions every method must give the same verdict on: (name, position, rounds, kind). Proved and refuted
    sizes of the headline family, positions without a board (protection, magical attacks, flyers, two creatures a
    side), board positions (movement, range, flyers), and adaptive wins: no attack plan fixed in advance wins (the
    CP-SAT loop finds none); in the ones marked "dice" no strategy blind to the dice wins either (``blind_wins``),
    even one that reacts to every declaration of the opponent: the winning declaration depends on a die."""
    out = [(f"family {n}v{n}/{h}", position(n, h), h, "family, proved") for n, h in ((1, 1), (1, 2), (2, 1), (2, 2),
                                                                                   (3, 1))]
    out += [(f"family {n}v{n}/{h} in {h - 1}", position(n, h), h - 1, "family, refuted")
            for n, h in ((1, 2), (2, 2), (2, 3), (3, 2))]
    k = _u("kornevik", 0, 4, (1, 2, 3), protect_nonmagical=3)
    out += [
        ("kornevik v goblin 2", _pos([k, _u("g", 1, 2, (3, 4, 5))]), 1, "no board"),
        ("kornevik v goblin 3", _pos([k, _u("g", 1, 3, (3, 4, 5))]), 1, "no board"),
        ("kornevik v weak goblin", _pos([k, _u("g", 1, 3, (2, 3, 4))]), 2, "no board"),
        ("kornevik v magical imp", _pos([_u("kornevik", 0, 2, (1, 2, 3), protect_nonmagical=3),
                                         _u("g", 1, 2, (1, 2, 3), magical=True)]), 2, "no board"),
        ("two v one", _pos([_u("a", 0, 3, (1, 2, 3)), _u("b", 0, 2, (1, 1, 2)), _u("x", 1, 2, (1, 1, 1))]), 1,
         "no board"),
        ("bat out of reach", _pos([k, _u("bat", 1, 1, (3, 3, 3), flying=True)]), 2, "no board"),
    ]
    out += [
        ("row: ogre then wolf", _pos([_u("k", 0, 4, (1, 2, 3), protect_nonmagical=3, cell="r1c1"),
                                      _u("o", 1, 2, (3, 4, 5), cell="r1c2"), _u("w", 1, 2, (3, 3, 3), cell="r1c3")],
                                     board=_grid(1, 3)), 2, "board"),
        ("row: a walk to a rooted one", _pos([_u("k", 0, 3, (1, 2, 3), cell="r1c1"),
                                              _u("o", 1, 2, (1, 1, 1), cell="r1c3", move=0)], board=_grid(1, 4)), 2,
         "board"),
        ("row: a shot from afar", _pos([_u("a", 0, 2, (1, 2, 3), cell="r1c1", ranged=True, range=3),
                                        _u("o", 1, 2, (1, 1, 1), cell="r1c4")], board=_grid(1, 4)), 2, "board"),
        ("a flyer out of reach", _pos([_u("k", 0, 2, (2, 2, 2), cell="r1c1"), _u("h", 1, 1, (1, 1, 1), flying=True)],
                                      board=_grid(2, 2)), 1, "board"),
    ]
    out += [
        ("troll: who finishes it", _pos([_u("troll", 1, 4, (1, 1, 4), cell="r1c1", move=0, regen=1),
                                         _u("knight", 0, 4, (2, 2, 4), cell="r1c2"),
                                         _u("axeman", 0, 3, (3, 3, 3), cell="r1c3"),
                                         _u("sprite", 0, 4, (1, 2, 2), flying=True)], board=_grid(2, 3)), 2,
         "adaptive, dice"),
        ("row of six", _pos([_u("e0", 0, 4, (3, 3, 4), cell="r1c6", move=2), _u("e1", 0, 3, (1, 1, 2), cell="r1c4"),
                             _u("e2", 0, 2, (1, 2, 4), cell="r1c1"), _u("o0", 1, 3, (2, 3, 4), cell="r1c3", move=0)],
                            first=1, board=_grid(1, 6)), 2, "adaptive, dice"),
        ("two rooted, two rows", _pos([_u("e0", 0, 3, (1, 4, 5), cell="r1c3", move=2),
                                       _u("e1", 0, 4, (1, 1, 4), cell="r2c3"),
                                       _u("e2", 0, 2, (2, 2, 4), cell="r2c2", move=2),
                                       _u("o0", 1, 1, (1, 1, 2), cell="r1c2", move=0),
                                       _u("o1", 1, 3, (0, 1, 5), cell="r2c4", move=0)], board=_grid(2, 4)), 2,
         "adaptive, dice"),
        ("two rooted, three rounds", _pos([_u("e0", 0, 4, (3, 4, 5), cell="r2c1"), _u("e1", 0, 3, (1, 3, 5), cell="r1c1"),
                                           _u("e2", 0, 2, (1, 1, 2), cell="r2c2"),
                                           _u("o0", 1, 3, (1, 2, 2), cell="r1c2", move=0, regen=1),
                                           _u("o1", 1, 2, (1, 1, 3), cell="r2c3", move=0)], board=_grid(2, 4)), 3,
         "adaptive, dice"),
        ("a blocker and a flyer", _pos([_u("p", 0, 5, (1, 2, 3), cell="r1c1"), _u("q", 0, 3, (1, 1, 4), flying=True),
                                        _u("x", 1, 1, (0, 0, 1), cell="r1c2"), _u("y", 1, 3, (1, 2, 2), cell="r1c3")],
                                       first=1, board=_grid(1, 3)), 2, "adaptive, replies"),
    ]
    return out


# -- the strong baselines -------------------------------------------------------------------------------------------
class MemoSearch:
    """Memoised AND/OR search: a transposition table on (lives, turn), one die value per strike tier, each move's
    successor states deduplicated (a reply's too, over all replies), moves with more attacks tried first."""

    def __init__(self, pos: Position, side: int, rounds: int, max_turns: int | None = None) -> None:
        self.pos, self.side, self.turns = pos, side, 2 * rounds
        self.reps = pos.dice.representatives()
        #: the most turns it plays out (one move under one roll of the dice) before it gives up (Timeout)
        self.max_turns = max_turns
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0
        self.turns_played = 0

    def wins(self) -> bool:
        """Does ``side`` win within the rounds whatever the dice and the opponent do?"""
        return self._node(tuple(u.life for u in self.pos.units), 0)

    def _children(self, lives, t, m) -> set:
        rolls = dice_rolls(self.pos, len(m), self.reps)
        self.turns_played += len(rolls)
        if self.max_turns is not None and self.turns_played > self.max_turns:
            raise Timeout()
        return {after_turn(self.pos, lives, t, m, a, d) for a, d in rolls}

    def _node(self, lives, t: int) -> bool:
        key = (lives, t)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        pos = self.pos
        if won(pos, lives, self.side):
            val = True
        elif t == self.turns or not alive(pos, lives, self.side):
            val = False
        else:
            mover = pos.first if t % 2 == 0 else 1 - pos.first
            options = sorted(moves(pos, lives, mover), key=len, reverse=True)
            if mover == self.side:
                val = any(all(self._node(c, t + 1) for c in self._children(lives, t, m)) for m in options)
            else:
                replies = set().union(*(self._children(lives, t, m) for m in options))
                val = all(self._node(c, t + 1) for c in replies)
        self.memo[key] = val
        return val


class Retrograde:
    """Retrograde analysis: every (lives, turn) position reachable from the start, then decided backwards from the
    last turn (a position is won if won now, or the mover is the claimant and some move's every roll leads to a won
    position, or the mover is the opponent and every reply's every roll does)."""

    def __init__(self, pos: Position, side: int, rounds: int, max_turns: int | None = None) -> None:
        self.pos, self.side, self.turns = pos, side, 2 * rounds
        self.reps = pos.dice.representatives()
        #: the most turns it plays out (one move under one roll of the dice) before it gives up (Timeout)
        self.max_turns = max_turns
        self.nodes = 0
        self.turns_played = 0

    _children = MemoSearch._children

    def wins(self) -> bool:
        """Does ``side`` win within the rounds whatever the dice and the opponent do?"""
        pos, side = self.pos, self.side
        layers: list[dict[tuple, list[set]]] = []
        frontier = {tuple(u.life for u in pos.units)}
        for t in range(self.turns + 1):
            layer: dict[tuple, list[set]] = {}
            nxt: set = set()
            for lives in frontier:
                self.nodes += 1
                if t == self.turns or won(pos, lives, side) or not alive(pos, lives, side):
                    layer[lives] = []
                    continue
                mover = pos.first if t % 2 == 0 else 1 - pos.first
                opts = [self._children(lives, t, m) for m in moves(pos, lives, mover)]
                layer[lives] = opts
                for o in opts:
                    nxt |= o
            layers.append(layer)
            frontier = nxt
        value: dict[tuple, bool] = {}
        for t in range(self.turns, -1, -1):
            mover = pos.first if t % 2 == 0 else 1 - pos.first
            here = {}
            for lives, opts in layers[t].items():
                if won(pos, lives, side):
                    here[lives] = True
                elif not opts:
                    here[lives] = False
                else:
                    good = (all(value[c] for c in o) for o in opts)
                    here[lives] = any(good) if mover == side else all(good)
            value = here
        return value[tuple(u.life for u in pos.units)]


# -- running each method ---------------------------------------------------------------------------------------------
@dataclass
class Run:
    """One method on one position: its verdict, the nodes (or positions) it visited and its CPU seconds."""

    verdict: str
    nodes: int | None = None
    cpu: float | None = None

    def cell(self) -> str:
        """'verdict, nodes, seconds' for the table."""
        if self.cpu is None:
            return f"{self.verdict} | | "
        return f"{self.verdict} | {self.nodes} | {self.cpu:.3f}"


def _timed(make, verdict_of) -> Run:
    t0 = time.process_time()
    try:
        search = make()
        verdict = verdict_of(search)
    except Timeout:
        return Run("gave up", getattr(search, "nodes", None), time.process_time() - t0)
    return Run(verdict, search.nodes, time.process_time() - t0)


def run_naive(pos: Position, rounds: int, max_nodes: int = NAIVE_NODES) -> Run:
    """The plain minimax within ``max_nodes`` nodes."""
    return _timed(lambda: NaiveSearch(pos, 0, rounds, max_nodes=max_nodes),
                  lambda s: "proved" if s.wins() else "refuted")


def run_memo(pos: Position, rounds: int, max_turns: int = BASELINE_TURNS) -> Run:
    """The memoised AND/OR search within ``max_turns`` turns played out."""
    return _timed(lambda: MemoSearch(pos, 0, rounds, max_turns=max_turns),
                  lambda s: "proved" if s.wins() else "refuted")


def run_retro(pos: Position, rounds: int, max_turns: int = BASELINE_TURNS) -> Run:
    """The retrograde analysis within ``max_turns`` turns played out."""
    return _timed(lambda: Retrograde(pos, 0, rounds, max_turns=max_turns),
                  lambda s: "proved" if s.wins() else "refuted")


def run_arbiter(pos: Position, rounds: int, units: float = ARBITER_UNITS) -> Run:
    """Arbiter's check (``ForcedWin``) within ``units`` work units."""
    t0 = time.process_time()
    res = ForcedWin(pos, 0, rounds, meter=Meter(units)).run()
    return Run(res.verdict, res.nodes, time.process_time() - t0)


METHODS = {"naive": run_naive, "memo": run_memo, "retro": run_retro, "arbiter": run_arbiter}


def table(sizes, methods=tuple(METHODS)) -> list[dict]:
    """Every method on every position; a method that gave up on a position is not run on the larger ones."""
    rows, gave_up = [], {m: [] for m in methods}
    for n, h in sizes:
        pos, row = position(n, h), {"creatures": n, "rounds": h}
        for m in methods:
            if any(n >= a and h >= b for a, b in gave_up[m]):
                row[m] = Run("not run")
                continue
            row[m] = METHODS[m](pos, h)
            if row[m].verdict in ("gave up", "unknown"):
                gave_up[m].append((n, h))
        rows.append(row)
        print(_row(row, methods), flush=True)
    return rows


def ratio(row: dict) -> float | None:
    """The strong baseline's CPU (the faster of memo and retro that finished) over Arbiter's."""
    strong = [row[m].cpu for m in ("memo", "retro") if m in row and row[m].verdict in ("proved", "refuted")]
    arb = row.get("arbiter")
    if not strong or arb is None or arb.verdict not in ("proved", "refuted") or not arb.cpu:
        return None
    return min(strong) / arb.cpu


def _row(row: dict, methods) -> str:
    r = ratio(row)
    return (f"| {row['creatures']}v{row['creatures']} | {row['rounds']} | "
            + " | ".join(row[m].cell() for m in methods) + f" | {f'{r:.1f}x' if r is not None else '-'} |")


def header(methods) -> str:
    """The table's two header lines."""
    cols = "".join(f" {m} | {m} nodes | {m} CPU s |" for m in methods)
    return (f"| n v n | rounds |{cols} strong baseline / Arbiter |\n"
            + "|---|---|" + "---|---|---|" * len(methods) + "---|")


def blind_wins(pos: Position, rounds: int, side: int = 0) -> bool:
    """Does ``side`` have a winning strategy blind to the dice, one whose declarations depend only on the opponent's
    declarations so far? An AND/OR search over information sets (the positions the player cannot tell apart): a
    declaration is one for every position of the set (an attack the position does not allow is not made); the
    opponent's declaration splits the set. When none wins but a strategy that sees the dice does, the winning
    declaration depends on a die."""
    game = Game(pos)
    turns, mine, theirs = 2 * rounds, game.members[side], game.members[1 - side]
    decls = [tuple((a, x) for a, x in zip(mine, c) if x is not None)
             for c in itertools.product(*[[None] + list(theirs) for _ in mine])]
    memo: dict[tuple, bool] = {}

    def allowed(lives, decl):
        reach = dict(game.targets(game.mask(lives), side))
        return tuple((a, x) for a, x in decl if x in reach.get(a, ()))

    def value(info: frozenset, t: int) -> bool:
        if (info, t) in memo:
            return memo[info, t]
        live = [s for s in info if not game.won(s, side)]
        if not live:
            out = True
        elif t == turns or any(not any(s[i] > 0 for i in mine) for s in live):
            out = False
        elif turn_side(pos, t) == side:
            out = any(value(frozenset(set(info) - set(live) | {c for s in live
                                                              for c in game.successors(s, t, allowed(s, d))}), t + 1)
                      for d in decls)
        else:
            split: dict = {}
            for s in live:
                for m in game.moves(game.mask(s), 1 - side):
                    split.setdefault(m, set()).update(game.successors(s, t, m))
            out = all(value(frozenset(group), t + 1) for group in split.values())
        memo[info, t] = out
        return out

    return value(frozenset([tuple(u.life for u in pos.units)]), 0)


def fixed_plan(pos: Position, rounds: int) -> str:
    """Whether an attack plan fixed in advance wins (the CP-SAT two-model loop of ``ForcedWin.open_loop``): 'found',
    'none' or 'unknown'."""
    status = ForcedWin(pos, 0, rounds, meter=Meter(ARBITER_UNITS)).open_loop(tuple(u.life for u in pos.units), 0)[0]
    return {"proved": "found", "none": "none"}.get(status, "unknown")


def agreement_table(methods=("naive", "memo", "retro", "arbiter")) -> int:
    """Every method's verdict on every position of ``agreement()`` (the naive search within a small node count), and
    whether a fixed plan wins; the number of positions where two methods that finished disagree."""
    print("| position | rounds | kind | " + " | ".join(methods) + " | fixed plan (CP-SAT loop) | dice-blind strategy |")
    print("|---|---|---|" + "---|" * len(methods) + "---|---|")
    bad = 0
    for name, pos, rounds, kind in agreement():
        runs = {m: (run_naive(pos, rounds, 200_000) if m == "naive" else METHODS[m](pos, rounds)) for m in methods}
        verdicts = {r.verdict for r in runs.values()} & {"proved", "refuted"}
        bad += len(verdicts) > 1
        print(f"| {name} | {rounds} | {kind} | " + " | ".join(runs[m].verdict for m in methods)
              + f" | {fixed_plan(pos, rounds)} | {'wins' if blind_wins(pos, rounds) else 'none'} |", flush=True)
    return bad


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 1 when two methods that finished disagree."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.victory", description=__doc__.splitlines()[0])
    ap.add_argument("--size", action="append", default=[], metavar="NxH",
                    help="a position n creatures a side, h rounds (repeatable; default: the headline table)")
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated, of " + ", ".join(METHODS))
    ap.add_argument("--agreement", action="store_true", help="also: every method's verdict on the agreement set")
    args = ap.parse_args(argv)
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.size] or list(HEADLINE)
    methods = tuple(m for m in args.methods.split(",") if m)
    print(f"load average (1 min) at start: {os.getloadavg()[0]:.2f}")
    print(header(methods))
    rows = table(sizes, methods)
    print(f"load average (1 min) at end: {os.getloadavg()[0]:.2f}")
    bad = [r for r in rows if len({r[m].verdict for m in methods} & {"proved", "refuted"}) > 1]
    if bad:
        print(f"DISAGREEMENT between methods: {[(r['creatures'], r['rounds']) for r in bad]}")
    worse = 0
    if args.agreement:
        print()
        worse = agreement_table(methods)
        print(f"\n{len(agreement())} positions, {worse} with a disagreement")
    return 1 if bad or worse else 0


if __name__ == "__main__":
    raise SystemExit(main())
