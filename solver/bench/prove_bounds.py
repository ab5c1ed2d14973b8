"""The largest bound each property of each game is proved at within a time limit (issue 25's table).

``python -m solver.bench.prove_bounds [--game G] [--limit 60]``: for every property, ``arbiter prove`` one
property at a time over a ladder of bounds (players <= 3, objects <= 3, events <= 2; Berserk on 1x3 then 2x3),
smallest first, each run in its own process under the time limit; a bound whose run is not ``proved`` within the
limit (or answers otherwise, except a rung with too few players for it) stops the ladder for the bounds above it. Prints one row per property: the largest
bound proved, its seconds, and what stopped the ladder. A measurement (seconds on this machine), never a verdict.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from solver.prove.properties import load

LADDER = [(p, o, e) for e in (1, 2) for o in (1, 2, 3) for p in (2, 3)]
BERSERK = [(board, o, e) for e in (1, 2) for board in ("1x3", "2x3") for o in (1, 2, 3)]


def _args(game: str, step) -> list[str]:
    """The ``arbiter prove`` arguments of one rung."""
    if game == "berserk":
        board, o, e = step
        return ["--board", board, "--objects", str(o), "--events", str(e)]
    p, o, e = step
    return ["--players", str(p), "--objects", str(o), "--events", str(e)]


def _above(a, b) -> bool:
    """Rung ``a`` is at least rung ``b`` in every coordinate (so it cannot be faster)."""
    return all(x >= y for x, y in zip(a, b))


def run(game: str, pid: str, step, limit: float) -> tuple[str, float, str]:
    """One rung: (verdict, seconds, why) of ``arbiter prove`` for one property."""
    cmd = [sys.executable, "-m", "solver.cli", "prove", game, "--property", pid, "--json", *_args(game, step)]
    t0 = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout", limit, f"over {limit:g} s"
    secs = time.perf_counter() - t0
    try:
        r = json.loads(out.stdout)["properties"][0]
    except (ValueError, KeyError, IndexError):
        tail = (out.stderr or out.stdout).strip().splitlines()
        return "error", secs, tail[-1] if tail else ""
    return r["verdict"], secs, r.get("why") or ""


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.prove_bounds", description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", default=None)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    args = ap.parse_args(argv)
    for game in args.game or ["mtg", "riftbound", "ti4", "berserk"]:
        ladder = BERSERK if game == "berserk" else LADDER
        for prop in load(game):
            best, stops = None, []
            for step in ladder:
                if any(_above(step, s) for s in stops):
                    continue
                verdict, secs, why = run(game, prop.id, step, args.limit)
                if verdict == "proved":
                    best = (step, secs)
                elif why.startswith("no state of the space checks it"):
                    continue  # too few players for it at this rung: says nothing about the rungs above
                else:
                    stops.append(step)
                    print(f"#   {game} {prop.id} {' '.join(_args(game, step))}: {verdict} ({secs:.1f} s) {why[:160]}",
                          flush=True)
            where = " ".join(_args(game, best[0])) + f" ({best[1]:.1f} s)" if best else "none"
            print(f"{game}\t{prop.id}\t{where}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
