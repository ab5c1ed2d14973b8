"""Benchmark: the CP-SAT bounded forced-win check against a naive explicit minimax, on the same positions.

Run it (it is not part of the test run):

    python -m solver.bench.victory                # 1-3 creatures a side, 1-3 rounds
    python -m solver.bench.victory --max-creatures 4 --max-rounds 3 --cap 10 --max-nodes 3000000

The positions stand on a board of two rows and n columns: n protected creatures (life 4,
strike 2-3-4, protection from non-magical attacks of strength 3 or more, movement 1) on the
first row, each facing one of n creatures striking 3-4-5 with 2h lives on the second row,
where h is the horizon. A creature reaches only what stands next to a cell it can get to
over free cells, so at first each one reaches only the creature in front of it; a gap opens
as creatures fall. The claimant wins within h rounds whatever the dice and the replies,
so both searches must prove a forced win (the naive one by trying every reply and every die
value). Both are limited by counted work, never seconds: the solver by a work budget (``--cap`` units,
``solver.engine.budget``), the naive search by a node count (``--max-nodes``); once a size gives up, larger ones are
skipped. The seconds in the table are measurements only.
"""
from __future__ import annotations

import argparse
import time

from solver.engine.budget import Meter
from solver.victory.bounded import ForcedWin
from solver.registry import ruleset_for
from models.scenario import Board as SBoard
from solver.victory.model import DEFAULT_COMBAT, Board, Position, Unit, dice_from
from solver.victory.naive import NaiveSearch, Timeout


def position(n: int, rounds: int) -> Position:
    """On a 2 x n board, n protected creatures facing n creatures that need ``rounds`` weak strikes each."""
    grid = SBoard(rows=2, cols=n)
    mine = [Unit(f"k{i}", 0, 4, 4, (2, 3, 4), protect_nonmagical=3, cell=f"r1c{i + 1}") for i in range(n)]
    theirs = [Unit(f"o{i}", 1, 2 * rounds, 2 * rounds, (3, 4, 5), cell=f"r2c{i + 1}") for i in range(n)]
    return Position(tuple(mine + theirs), dice_from(DEFAULT_COMBAT), ("alice", "bob"), ruleset_for("berserk").combat_rules,
                    board=Board.of(grid.all_cells(), grid.neighbours()))


def run_solver(pos: Position, rounds: int, cap: float) -> tuple[str, float]:
    """The CP-SAT check within ``cap`` work units: verdict and seconds (measured)."""
    t0 = time.perf_counter()
    res = ForcedWin(pos, 0, rounds, meter=Meter(cap)).run()
    return res.verdict, time.perf_counter() - t0


def run_naive(pos: Position, rounds: int, max_nodes: int) -> tuple[str, float | None]:
    """The naive minimax within ``max_nodes`` nodes: verdict and seconds (None when it gave up)."""
    t0 = time.perf_counter()
    try:
        win = NaiveSearch(pos, 0, rounds, max_nodes=max_nodes).wins()
    except Timeout:
        return "timeout", None
    return ("proved" if win else "refuted"), time.perf_counter() - t0


def table(max_creatures: int, max_rounds: int, cap: float, max_nodes: int = 3_000_000) -> list[dict]:
    """Measure every size; naive runs beyond a timed-out size are skipped."""
    rows, timed_out = [], []
    for n in range(1, max_creatures + 1):
        for h in range(1, max_rounds + 1):
            pos = position(n, h)
            verdict, secs = run_solver(pos, h, cap)
            if any(n >= a and h >= b for a, b in timed_out):
                naive, nsecs = "skipped", None
            else:
                naive, nsecs = run_naive(pos, h, max_nodes)
                if naive == "timeout":
                    timed_out.append((n, h))
            rows.append({"creatures": n, "rounds": h, "solver": verdict, "solver_s": secs,
                         "naive": naive, "naive_s": nsecs})
            print(_row(rows[-1]), flush=True)
    return rows


def _row(r: dict) -> str:
    ns = f"{r['naive_s']:.3f}" if r["naive_s"] is not None else "-"
    ratio = f"{r['naive_s'] / r['solver_s']:.1f}x" if r["naive_s"] is not None and r["solver_s"] > 0 else "-"
    return (f"| {r['creatures']}v{r['creatures']} | {r['rounds']} | {r['solver']} | {r['solver_s']:.3f} | "
            f"{r['naive']} | {ns} | {ratio} |")


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table and the ratio at the largest size the naive search finishes."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-creatures", type=int, default=3)
    ap.add_argument("--max-rounds", type=int, default=3)
    ap.add_argument("--cap", type=float, default=10.0, help="work units per solver run (solver.engine.budget)")
    ap.add_argument("--max-nodes", type=int, default=3_000_000, help="nodes per naive run")
    args = ap.parse_args(argv)
    print("| creatures | rounds | solver | solver s | naive | naive s | naive/solver |")
    print("|---|---|---|---|---|---|---|")
    rows = table(args.max_creatures, args.max_rounds, args.cap, args.max_nodes)
    done = [r for r in rows if r["naive_s"] is not None]
    if done:
        big = max(done, key=lambda r: (r["naive_s"], r["creatures"], r["rounds"]))
        print(f"\nlargest size the naive search finished within {args.max_nodes} nodes: "
              f"{big['creatures']}v{big['creatures']}, "
              f"{big['rounds']} round(s): naive {big['naive_s']:.3f} s, solver {big['solver_s']:.3f} s, "
              f"ratio {big['naive_s'] / big['solver_s']:.1f}x")
    mismatch = [r for r in done if r["naive"] != r["solver"]]
    if mismatch:
        print(f"DISAGREEMENT between solver and naive search: {mismatch}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
