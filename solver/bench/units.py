"""What a work unit (``--timeout``, ``solver.engine.budget``) is worth in seconds, measured on this machine.

Run it on a quiet machine (it is not part of the test run):

    python -m solver.bench.units scenarios/            # the library, scenario by scenario
    python -m solver.bench.units scenarios/ --spend 1  # also: a victory analysis that spends a whole budget of 1 unit

For every scenario: the work it spent (deterministic, the same on every machine) and the CPU seconds of its
check in this process (a measurement); then the seconds per unit over the scenarios that spend at least
``--min-work`` units (the others are mostly model building), their median and range, and the largest use of the
default budget with its margin. ``--spend U`` runs the bounded forced-win search (the explicit AND/OR search) on
``solver.bench.victory``'s position of 6 creatures a side and 3 rounds with a budget of U units, which it spends
entirely for U below 1.9 (the proof takes 1.93): seconds per unit of pure search.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from models.loader import find_scenarios
from solver.engine.budget import DEFAULT_BUDGET, Meter
from solver.engine.settings import SolverOptions
from solver.run.single import check_file


def measure(paths: list[Path], budget: float) -> list[tuple[str, str, float, float]]:
    """(path, status, work units, CPU seconds) of each scenario checked with ``budget``."""
    rows = []
    for p in find_scenarios(paths):
        t0 = time.process_time()
        res = check_file(p, SolverOptions(budget=budget))
        rows.append((str(p), res.status.value, res.work, time.process_time() - t0))
    return rows


def spend(units: float) -> tuple[float, float, str]:
    """(work spent, CPU seconds, verdict) of a forced-win search given ``units`` (it runs out on this position)."""
    from solver.bench.victory import position
    from solver.victory.bounded import ForcedWin

    pos = position(6, 3)
    meter = Meter(units)
    t0 = time.process_time()
    res = ForcedWin(pos, 0, 3, meter=meter).run()
    return meter.spent, time.process_time() - t0, res.verdict


def main(argv: list[str] | None = None) -> int:
    """Print the table and the figures."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.units", description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, default=[Path("scenarios")])
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--min-work", type=float, default=0.02, help="scenarios below this are left out of the ratio")
    ap.add_argument("--spend", type=float, default=0.0, help="also spend a whole budget of this many units")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    print(f"load average (1 min) at start: {os.getloadavg()[0]:.2f}")
    check_file(next(iter(find_scenarios(args.paths))), SolverOptions(budget=args.budget))  # imports paid first
    rows = measure(args.paths, args.budget)
    rows.sort(key=lambda r: -r[2])
    for path, status, work, cpu in rows[:args.top]:
        print(f"{work:8.4f} units {cpu:7.3f} s cpu {cpu / work if work else 0:6.2f} s/unit  {status:7} {path}")
    big = [r for r in rows if r[2] >= args.min_work]
    ratios = [r[3] / r[2] for r in big]
    total_w, total_c = sum(r[2] for r in rows), sum(r[3] for r in rows)
    print(f"\n{len(rows)} scenarios: {total_w:.4f} units, {total_c:.2f} s cpu ({total_c / total_w:.2f} s/unit overall)")
    if ratios:
        print(f"{len(big)} scenarios spending >= {args.min_work:g} units: median "
              f"{statistics.median(ratios):.2f} s/unit (range {min(ratios):.2f} to {max(ratios):.2f})")
    if rows:
        print(f"largest use: {rows[0][2]:.4f} units ({rows[0][0]}): {args.budget / rows[0][2]:.0f}x under the "
              f"budget of {args.budget:g}; not passing: {sum(r[1] != 'pass' for r in rows)}")
    if args.spend:
        w, c, verdict = spend(args.spend)
        print(f"forced-win search given {args.spend:g} units: spent {w:.4f}, {c:.2f} s cpu ({c / w:.2f} s/unit), "
              f"verdict {verdict}")
    print(f"load average (1 min) at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
