"""``arbiter bench``: one table of start-up, throughput, growth and YAML load, before and after, in one run.

Each measurement runs twice in the same run, the baseline first: *before* is the
path before the speed work (``SolverOptions.baseline``: every key a variable of
stage 0, a core for every excluded verdict and action, CP-SAT's default settings outside core searches,
one deletion per core member; the CLI's start-up imports of then, pandas with
OR-Tools included), *after* the default path; the note gives the ratio. Rows: cold start of the commands (fresh
processes, median), the bundled library and generated scenarios in-process
(``--jobs 1``), the generated ones in two spawned workers (``--jobs 2``) and on a
Dask LocalCluster of two single-threaded worker processes, time per scenario by
size (objects), and YAML load time per MB with the pure-Python parser (before) and
libyaml's C parser (after). The unit is a minimal CP-SAT solve (one Boolean, one
constraint, the engine's settings) timed in the same run, so a scenario's cost
reads as "N minimal solves". Nothing here is asserted; it is reported.
"""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from solver.run import batch
from solver.run.batch import Job, RunOptions

#: Per-scenario work budget in the benchmark (units, ``solver.engine.budget``): large enough that 5,000-object
#: scenarios finish on the baseline path.
BENCH_TIMEOUT = 300.0

#: What the command line imported up front before the speed work (the result models), for the start-up baseline;
#: a command that solves also imported pandas then (through OR-Tools, see ``solver.encoding.cpsat``).
STARTUP_BEFORE = "import models.results\n"
SOLVING_BEFORE = "import pandas\n"
#: ``arbiter schema`` generated the scenario schema from the models before it shipped (``models/schema.py``)
SCHEMA_BEFORE = "import models.schema as _schema\n_schema.SHIPPED = _schema.SHIPPED.with_name('absent.json')\n"


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
        s.parameters.max_deterministic_time = 10.0
        s.parameters.max_time_in_seconds = 60.0  # wall-clock safety net only
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
class Timed:
    """One figure measured before and after (seconds, or ms per MB for YAML), with what it is about."""

    name: str
    before: float
    after: float
    note: str = ""


@dataclass
class Bench:
    """The benchmark's settings and its rows."""

    generated: int = 2000
    sizes: list[int] = field(default_factory=lambda: [10, 100, 1000, 5000])
    per_size: int = 3
    dask: bool = True
    library: Path = Path("scenarios")
    #: measure the baseline path beside the default one
    baseline: bool = True
    #: fresh processes per command for the cold-start figures
    starts: int = 5
    rows: list[Row] = field(default_factory=list)
    startup: list[Timed] = field(default_factory=list)
    yaml: list[Timed] = field(default_factory=list)
    unit: float = 0.0
    load: list[float] = field(default_factory=list)
    #: the because / explain cost rows (``solver.bench.because``)
    because: list[str] = field(default_factory=list)

    def _measure(self, name: str, jobs: list[Job], runner, cores: int, note: str = "") -> Row:
        t0 = time.perf_counter()
        records = [rec for _, rec in runner(jobs)]
        wall = time.perf_counter() - t0
        row = Row(name, len(jobs), cores, wall, sum(r.get("solves", 0) for r in records),
                  sum(r["status"] != "pass" for r in records), note)
        self.rows.append(row)
        return row

    def _pair(self, name: str, jobs: list[Job], opts: RunOptions) -> Row:
        """The same jobs in-process on the baseline path, then on the default path; the ratio in the note."""
        before = replace(opts, baseline=True)
        old = self._measure(f"{name}, baseline", jobs, lambda js: batch.run_inline(js, before), 1) \
            if self.baseline else None
        new = self._measure(name, jobs, lambda js: batch.run_inline(js, opts), 1)
        if old is not None and new.wall > 0:
            new.note = f"x{old.wall / new.wall:.1f} scen/s/core over the baseline, " \
                       f"{old.solves / max(1, new.solves):.1f}x fewer solves"
        return new

    def run(self) -> str:
        """Run every measurement and return the table."""
        opts = RunOptions(timeout=BENCH_TIMEOUT)
        self.load = [os.getloadavg()[0]]
        self.unit = minimal_solve_seconds()
        pool = lambda jobs: batch.run_local(jobs, opts, 2)  # noqa: E731
        with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
            from solver.bench.generate import generate

            lib = batch.collect([self.library]) if self.library.exists() else []
            if self.starts:
                self._startup(Path(tmp), self._one_scenario(lib, Path(tmp)))
            if lib:
                self._pair(f"library ({self.library}), --jobs 1", lib, opts)
            gen = batch.collect(generate(Path(tmp) / "gen", self.generated, 10, seed=1))
            one = self._pair("generated, 10 objects, --jobs 1", gen, opts)
            two = self._measure("generated, 10 objects, --jobs 2", gen, pool, 2)
            two.note = f"speed-up x{one.wall / two.wall:.2f} over --jobs 1"
            if self.dask:
                self._dask_row(gen, opts, two)
            for k in self.sizes:
                n = self.per_size if k < 1000 else 1
                jobs = batch.collect(generate(Path(tmp) / f"k{k}", n, k, seed=2))
                self._pair(f"size {k} objects, --jobs 1", jobs, opts)
            self._yaml()
            if self.library.exists():
                from solver.bench import because
                self.because = because.table(because.measure(self.library))
        self.load.append(os.getloadavg()[0])
        return self.table()

    # -- cold start -------------------------------------------------------------------------------
    def _one_scenario(self, lib: list[Job], tmp: Path) -> Path:
        """The scenario ``check`` starts on: the README's example if the library has it, else a generated one."""
        named = self.library / "berserk" / "524.2-archmage-joker.yaml"
        if named.exists():
            return named
        if lib:
            return Path(lib[0].path)
        from solver.bench.generate import generate

        return generate(tmp / "one", 1, 10, seed=3)[0]

    def _startup(self, tmp: Path, scenario: Path) -> None:
        """Cold start of four commands, before and after, in fresh processes taken in turn (median)."""
        commands = [("arbiter --help", ["--help"]), ("arbiter schema", ["schema"]),
                    ("arbiter rules mtg", ["rules", "mtg"]),
                    (f"arbiter check {scenario.name}", ["check", str(scenario)])]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")  # compiled once, as an installed package is
        for label, args in commands:
            after = [sys.executable, "-c", _entry(""), *args]
            solving = args[0] == "check"
            prelude = STARTUP_BEFORE + (SOLVING_BEFORE if solving else "") + (SCHEMA_BEFORE if args[0] == "schema" else "")
            before = [sys.executable, "-c", _entry(prelude), *args] \
                + (["--baseline"] if solving else [])
            times: dict[str, list[float]] = {"before": [], "after": []}
            for i in range(self.starts + 1):  # the first round warms the caches and is not counted
                for which, cmd in (("before", before), ("after", after)) if self.baseline else (("after", after),):
                    t0 = time.perf_counter()
                    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                    if i:
                        times[which].append(time.perf_counter() - t0)
            self.startup.append(Timed(label, statistics.median(times["before"]) if times["before"] else float("nan"),
                                      statistics.median(times["after"])))

    # -- YAML ---------------------------------------------------------------------------------------
    def _yaml(self) -> None:
        """Load time per MB of the files of ``solver.bench.yamlload``: the pure-Python parser, then libyaml's."""
        from solver.bench import yamlload

        for label, text in yamlload.cases():
            mb = len(text.encode()) / 1e6
            pure, outcome = yamlload.measure(text, True, repeat=3)
            c, _ = yamlload.measure(text, False, repeat=3)
            self.yaml.append(Timed(f"{label} ({mb:.2f} MB)", pure * 1e3 / mb, c * 1e3 / mb, outcome))

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

    # -- the table ----------------------------------------------------------------------------------
    def table(self) -> str:
        """The rows as fixed-width tables, with the unit and the machine."""
        import ortools

        unit_ms = self.unit * 1000
        head = [f"Arbiter benchmark: {os.cpu_count()} cores, Python {platform.python_version()}, "
                f"OR-Tools {ortools.__version__}, per-scenario budget {BENCH_TIMEOUT:g} work units",
                f"unit: one minimal CP-SAT solve = {unit_ms:.3f} ms (median of 200, same run)"]
        if self.load:
            head.append("load average (1 min) at start / end: " + " / ".join(f"{x:.1f}" for x in self.load))
        lines = head + [""]
        if self.startup:
            lines += _timed_table(f"cold start, wall s (median of {self.starts} fresh processes)", self.startup,
                                  "{:.3f}")
        cols = f"{'run':46} {'scen':>5} {'wall s':>8} {'scen/s/core':>11} {'ms/scen':>9} {'solves/scen':>11} " \
               f"{'cost (units)':>12} {'!pass':>5}  note"
        lines += [cols, "-" * len(cols)]
        for r in self.rows:
            if not r.scenarios:
                lines.append(f"{r.name:46} {'-':>5}  {r.note}")
                continue
            per = r.per_scenario()
            lines.append(f"{r.name:46} {r.scenarios:5d} {r.wall:8.1f} {1 / per:11.2f} {per * 1000:9.1f} "
                         f"{r.solves / r.scenarios:11.1f} {per / self.unit:12.0f} {r.not_passed:5d}  {r.note}")
        lines.append("")
        if self.yaml:
            lines += _timed_table("YAML load, ms per MB (median of 3): before pure-Python, after libyaml C",
                                  self.yaml, "{:.0f}")
        if self.because:
            lines += self.because + [""]
        lines += ["scen/s/core = scenarios / (wall x cores used); cost = (wall x cores / scenario) / unit; "
                  "!pass = scenarios not passing (all should pass); baseline = the path before the speed work."]
        return "\n".join(lines)


def _entry(prelude: str) -> str:
    """The console script's code (``arbiter``), after ``prelude`` (the start-up imports of the baseline)."""
    return f"import sys\n{prelude}from solver.cli import main\nsys.argv[0] = 'arbiter'\nmain()\n"


def _timed_table(title: str, items: list[Timed], fmt: str) -> list[str]:
    """A before / after / ratio table."""
    lines = [f"{title:58} {'before':>8} {'after':>8} {'ratio':>7}  note", "-" * 92]
    for t in items:
        ratio = t.before / t.after if t.after and t.before == t.before else float("nan")
        lines.append(f"{t.name:58} {fmt.format(t.before):>8} {fmt.format(t.after):>8} {f'x{ratio:.1f}':>7}  {t.note}")
    return lines + [""]
