"""``arbiter bench``: one table of batch throughput, measured in one run on this machine.

Rows: the bundled library and generated scenarios in-process (``--jobs 1``), the
generated ones in two spawned workers (``--jobs 2``) and on a Dask LocalCluster of
two single-threaded worker processes, and time per scenario by size (objects).
The unit is a minimal CP-SAT solve (one Boolean, one constraint, the engine's
settings) timed in the same run, so a scenario's cost reads as "N minimal solves".
Nothing here is asserted; it is reported.
"""
from __future__ import annotations

import os
import platform
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from solver.run import batch
from solver.run.batch import Job, RunOptions

#: Per-scenario time limit in the benchmark: large enough that 1,000-object scenarios finish.
BENCH_TIMEOUT = 300.0


def minimal_solve_seconds(repeat: int = 200) -> float:
    """Median wall time of a minimal CP-SAT solve with the engine's settings (one worker, fixed seed)."""
    from ortools.sat.python import cp_model

    times = []
    for _ in range(repeat):
        m = cp_model.CpModel()
        x = m.new_bool_var("x")
        m.add_bool_or([x])
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        s.parameters.random_seed = 0
        s.parameters.max_time_in_seconds = 10.0
        s.parameters.catch_sigint_signal = False
        t0 = time.perf_counter()
        s.solve(m)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


@dataclass
class Row:
    """One measured run."""

    name: str
    scenarios: int
    cores: int
    wall: float
    solves: int
    not_passed: int
    note: str = ""

    def per_scenario(self) -> float:
        """Wall seconds per scenario per core (CPU-time equivalent)."""
        return self.wall * self.cores / max(1, self.scenarios)


@dataclass
class Bench:
    """The benchmark's settings and its rows."""

    generated: int = 2000
    sizes: list[int] = field(default_factory=lambda: [10, 100, 1000])
    per_size: int = 3
    dask: bool = True
    library: Path = Path("scenarios")
    rows: list[Row] = field(default_factory=list)
    unit: float = 0.0
    load: list[float] = field(default_factory=list)

    def _measure(self, name: str, jobs: list[Job], runner, cores: int, note: str = "") -> Row:
        t0 = time.perf_counter()
        records = [rec for _, rec in runner(jobs)]
        wall = time.perf_counter() - t0
        row = Row(name, len(jobs), cores, wall, sum(r.get("solves", 0) for r in records),
                  sum(r["status"] != "pass" for r in records), note)
        self.rows.append(row)
        return row

    def run(self) -> str:
        """Run every measurement and return the table."""
        opts = RunOptions(timeout=BENCH_TIMEOUT)
        self.load = [os.getloadavg()[0]]
        self.unit = minimal_solve_seconds()
        inline = lambda jobs: batch.run_inline(jobs, opts)  # noqa: E731
        pool = lambda jobs: batch.run_local(jobs, opts, 2)  # noqa: E731
        with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
            from solver.bench.generate import generate

            lib = batch.collect([self.library]) if self.library.exists() else []
            if lib:
                self._measure(f"library ({self.library}), --jobs 1", lib, inline, 1)
            gen = batch.collect(generate(Path(tmp) / "gen", self.generated, 10, seed=1))
            one = self._measure("generated, 10 objects, --jobs 1", gen, inline, 1)
            two = self._measure("generated, 10 objects, --jobs 2", gen, pool, 2)
            two.note = f"speed-up x{one.wall / two.wall:.2f} over --jobs 1"
            if self.dask:
                self._dask_row(gen, opts, two)
            for k in self.sizes:
                n = self.per_size if k < 1000 else 1
                jobs = batch.collect(generate(Path(tmp) / f"k{k}", n, k, seed=2))
                self._measure(f"size {k} objects, --jobs 1", jobs, inline, 1)
        self.load.append(os.getloadavg()[0])
        return self.table()

    def _dask_row(self, gen: list[Job], opts: RunOptions, pool_row: Row) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            self.rows.append(Row("dask LocalCluster (not installed)", 0, 2, 0.0, 0, 0, "pip install 'arbiter[dask]'"))
            return
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)
        t0 = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as lc, Client(lc) as client:
            start = time.perf_counter() - t0
            row = self._measure("generated, 10 objects, dask 2 workers", gen,
                                lambda jobs: batch.run_dask(jobs, opts, client), 2)
        row.note = f"x{pool_row.wall / row.wall:.2f} the speed of --jobs 2 (cluster start {start:.1f} s not counted)"

    def table(self) -> str:
        """The rows as one fixed-width table, with the unit and the machine."""
        import ortools

        unit_ms = self.unit * 1000
        head = [f"Arbiter benchmark: {os.cpu_count()} cores, Python {platform.python_version()}, "
                f"OR-Tools {ortools.__version__}, per-scenario limit {BENCH_TIMEOUT:g} s",
                f"unit: one minimal CP-SAT solve = {unit_ms:.3f} ms (median of 200, same run)"]
        if self.load:
            head.append("load average (1 min) at start / end: " + " / ".join(f"{x:.1f}" for x in self.load))
        head.append("")
        cols = f"{'run':40} {'scen':>5} {'wall s':>8} {'scen/s/core':>11} {'ms/scen':>9} {'solves/scen':>11} " \
               f"{'cost (units)':>12} {'!pass':>5}  note"
        lines = head + [cols, "-" * len(cols)]
        for r in self.rows:
            if not r.scenarios:
                lines.append(f"{r.name:40} {'-':>5}  {r.note}")
                continue
            per = r.per_scenario()
            lines.append(f"{r.name:40} {r.scenarios:5d} {r.wall:8.1f} {1 / per:11.2f} {per * 1000:9.1f} "
                         f"{r.solves / r.scenarios:11.1f} {per / self.unit:12.0f} {r.not_passed:5d}  {r.note}")
        lines += ["", "scen/s/core = scenarios / (wall x cores used); cost = (wall x cores / scenario) / unit; "
                  "!pass = scenarios not passing (all should pass)."]
        return "\n".join(lines)

