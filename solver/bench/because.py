"""What ``because`` lines and ``explain`` cost beside a plain ``check``, per game, in CPU seconds.

``python -m solver.bench.because [LIBRARY]`` (and ``arbiter bench``) checks every library scenario that has a
``because`` three ways in one run: with its ``because`` lines removed (the plain check), with them on the baseline
path (``SolverOptions.baseline()``: a core for every verdict with a ``because``, the path before the speed work) and
on the default path (the but-for test: one solve per ``because`` id, cores only when a line fails), and then
``explain`` (``why``: every verdict's core, split into deciding and supporting rules), on the baseline path (before)
and on the default path (after). Prints per game the CPU seconds of each and the ratios ``because`` / plain and
``explain`` / plain (goals: at most 3x and 5x), and the slowest ``explain``.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from models.loader import find_scenarios, load_scenario
from solver.engine.settings import SolverOptions
from solver.run.single import check_loaded


@dataclass
class Cost:
    """CPU seconds of one game's scenarios with a ``because``, each way, and the slowest ``explain``."""

    scenarios: int = 0
    plain: float = 0.0
    baseline: float = 0.0
    because: float = 0.0
    explain: float = 0.0
    explain_baseline: float = 0.0
    slowest: tuple[float, str] = (0.0, "")
    failed: list[str] = field(default_factory=list)


def _cpu(fn) -> tuple[float, object]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def measure(library: Path) -> dict[str, Cost]:
    """Per game, the cost of every library scenario that has a ``because``."""
    costs: dict[str, Cost] = {}
    for path in find_scenarios([library]):
        loaded = load_scenario(path)
        sc = loaded.scenario
        if not any(e.because for e in sc.expect):
            continue
        c = costs.setdefault(sc.game, Cost())
        bare = replace(loaded, scenario=sc.model_copy(update={
            "expect": [e.model_copy(update={"because": []}) for e in sc.expect]}))
        t_plain, _ = _cpu(lambda: check_loaded(bare))
        t_base, _ = _cpu(lambda: check_loaded(loaded, SolverOptions.baseline()))
        t_because, res = _cpu(lambda: check_loaded(loaded))
        t_explain_base, _ = _cpu(lambda: check_loaded(loaded, SolverOptions.baseline(), why=True))
        t_explain, _ = _cpu(lambda: check_loaded(loaded, why=True))
        c.scenarios += 1
        c.plain += t_plain
        c.baseline += t_base
        c.because += t_because
        c.explain += t_explain
        c.explain_baseline += t_explain_base
        c.slowest = max(c.slowest, (t_explain, str(path)))
        if res.status.value != "pass":
            c.failed.append(str(path))
    return costs


def table(costs: dict[str, Cost]) -> list[str]:
    """The per-game rows."""
    cols = f"{'game':10} {'scen':>5} {'plain s':>8} {'because s':>10} {'x plain':>8} {'baseline s':>11} " \
           f"{'x plain':>8} {'explain s':>10} {'x plain':>8} {'baseline s':>11} {'x plain':>8}  slowest explain"
    lines = ["because and explain cost, CPU s (scenarios with a because; goals: because <= 3x, explain <= 5x plain; "
             "baseline: the path before the speed work, beside each)",
             cols, "-" * len(cols)]
    for game, c in sorted(costs.items()):
        p = max(c.plain, 1e-9)
        lines.append(f"{game:10} {c.scenarios:5d} {c.plain:8.2f} {c.because:10.2f} {c.because / p:8.2f} "
                     f"{c.baseline:11.2f} {c.baseline / p:8.2f} {c.explain:10.2f} {c.explain / p:8.2f} "
                     f"{c.explain_baseline:11.2f} {c.explain_baseline / p:8.2f}  "
                     f"{c.slowest[0]:.2f} s {Path(c.slowest[1]).name}"
                     + (f"  ({len(c.failed)} not passing)" if c.failed else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command line: the table for a library (default ``scenarios``)."""
    args = sys.argv[1:] if argv is None else argv
    print("\n".join(table(measure(Path(args[0] if args else "scenarios")))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
