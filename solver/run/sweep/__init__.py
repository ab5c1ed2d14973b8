"""``arbiter sweep``: every k-subset of a card pool placed into a template, one result per combination.

- ``template``: the template's slots (``card: $1``), the pool, the combinations, filling one;
- ``jobs``: what a worker receives for a combination and does with it;
- ``classify``: passing, contradiction (with the core), ambiguity (two differing outcomes), expectation
  broken (with the core), unknown, error;
- ``formats``: text (with the pool-by-pool matrix for pairs), JSON, JSONL;
- here: one run, on the batch runner of ``arbiter check`` (``--jobs``, ``--cluster``, ``--output`` and
  ``--resume`` the same way, results in combination order whatever runs them).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from solver.run.batch import CheckRun, Indexed, RunOptions, memory_limited, run, run_dask, run_local_cluster
from solver.run.batch.journal import stamped, result_options
from solver.run.exits import PASSED, record_code
from solver.run.format_table import renderer, spec
from solver.run.formats import visible
from solver.run.output import EXIT_OUTPUT, OutputError, emit
from solver.run.sweep.formats import SweepInfo, Tally, decorate, jsonl_item
from solver.run.sweep.jobs import SweepJobs, sweep_job, sweep_jobs
from solver.run.sweep.template import Combinations, Pool, Template, load_pool, load_template

__all__ = ["SweepRun", "Sweep", "prepare"]

#: combinations checked in this process before the run starts, to time them for the estimate
CALIBRATE = 3


@dataclass(frozen=True)
class Sweep:
    """A sweep ready to run: the template, the pool, the combinations (counted, made as they are read) and their
    jobs."""

    template: Template
    pool: Pool
    info: SweepInfo
    combinations: Combinations

    def jobs(self) -> SweepJobs:
        """One job per combination, in combination order (made as they are read)."""
        return sweep_jobs(self.template.name, self.template.raw, self.pool.sources, self.combinations)


def prepare(template: Path, pool: list[Path], only: list[str] | None = None, ordered: bool = False) -> Sweep:
    """Load the template and the pool and count the combinations; LoadError / LoadErrors located in the files."""
    t = load_template(template)
    p = load_pool(pool, t, only)
    info = SweepInfo(t.name, p.ids, t.k, ordered, t.asks_for_one_outcome())
    return Sweep(t, p, info, p.combinations(t.k, ordered))


def _duration(seconds: float) -> str:
    """'3 h 20 min', '4 min 10 s', '12 s', '0.4 s'."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60)} s"
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"


def _size(n: float) -> str:
    """'63 GB', '4.1 MB', '820 KB'."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}" if n < 10 * scale else f"{n / scale:.0f} {unit}"
    return f"{n:.0f} bytes"


class _Spool:
    """Where a sweep's decorated records go as they come, in combination order, so the report is written from disk:
    the jsonl report itself (its temporary file, renamed at the end), or a temporary file read back for text and
    JSON. Memory holds none of them."""

    def __init__(self, run: "SweepRun") -> None:
        self.run, self.fmt = run, run.format
        self.direct = run.output is None and self.fmt == "jsonl"  # streamed to stdout as it comes
        self.file = None
        self.path: Path | None = None
        if self.direct or run.quiet:
            return
        try:
            if run.output is not None and self.fmt == "jsonl":
                self.path = run.output.with_name(run.output.name + ".ordered.tmp")
                self.file = open(self.path, "w", encoding="utf-8")
            else:
                folder = run.output.parent if run.output is not None else None
                self.file = tempfile.TemporaryFile("w+", encoding="utf-8", dir=folder, prefix=".arbiter-sweep-")
        except OSError as exc:
            raise OutputError(f"cannot write the sweep's records next to {run.output or 'the report'}: "
                              f"{exc.strerror or exc}") from None

    def add(self, rec: dict) -> None:
        """One decorated record."""
        try:
            if self.direct:
                emit(jsonl_item(rec))
            elif self.file is not None:
                self.file.write(jsonl_item(rec) if self.fmt == "jsonl" else json.dumps(rec) + "\n")
        except OSError as exc:
            raise OutputError(f"cannot write {self.path or 'the sweep spool'}: {exc.strerror or exc}") from None

    def records(self) -> Iterator[dict]:
        """The records back, in order (text and JSON reports)."""
        self.file.flush()
        self.file.seek(0)
        for line in self.file:
            yield json.loads(line)

    def finish(self, info: SweepInfo, tally: Tally) -> None:
        """Write the report (or, for jsonl to a file, put the records' file in its place)."""
        run = self.run
        if self.direct or run.quiet:
            return
        if self.fmt == "jsonl":
            try:
                self.file.close()
                os.replace(self.path, run.output)
            except OSError as exc:
                self.discard()
                raise OutputError(f"cannot write {run.output}: {exc.strerror or exc}") from None
            if run.journal_path != run.output:
                run.journal_path.unlink(missing_ok=True)
            return
        chunks = renderer("sweep", self.fmt)(info, self.records(), tally)
        run.write(chunks)

    def discard(self) -> None:
        """Remove what was written (a run that stopped early or failed)."""
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
            if self.path is not None:
                try:
                    self.path.unlink(missing_ok=True)
                except OSError:
                    pass


@dataclass
class SweepRun(CheckRun):
    """``arbiter sweep``: run every combination on the batch runner, keep each result in the journal as it arrives,
    report them in combination order (and write the HTML report when asked).

    Memory is bounded by the combinations in flight: combinations are made as workers need them, and results go
    to the journal and to a file the report is written from (``keep``: also held, for the HTML report)."""

    sweep: Sweep | None = None
    #: write no report to stdout (``arbiter report`` renders the records itself)
    quiet: bool = False
    #: hold the decorated records (``records``) for the HTML report (implied by ``quiet``)
    keep: bool = False
    #: the decorated records of the last run, in combination order (with ``keep`` or ``quiet``)
    records: list[dict] = field(default_factory=list)

    def execute(self) -> int:
        """Run and report; the exit code (``solver.run.exits``: 0 every combination passes, 1 one does not, 2 one is
        refused, the cluster was lost or the report cannot be written, 3 internal error, 130 interrupted)."""
        assert self.sweep is not None
        jobs, info = self.sweep.jobs(), self.sweep.info
        keep = self.keep or self.quiet
        self.records = []
        tally = Tally(info)
        try:
            spool = _Spool(self)
        except OutputError as exc:
            print(f"arbiter: {exc}", file=sys.stderr)
            return EXIT_OUTPUT

        code = [PASSED]  # the gravest record's (``solver.run.exits.batch_code``), as they come

        def show(i: int, rec: dict) -> None:
            cards = rec["cards"] if "cards" in rec else list(jobs[i].slots)
            out = decorate({**rec, "cards": cards}, info, self.timings)
            tally.add(out)
            code[0] = max(code[0], record_code(out))
            spool.add(out)
            if keep:
                self.records.append(out)
        self._announce(jobs)
        _, stopped = self.collect_results(jobs, show, keep=False)
        if stopped is not None:
            spool.discard()
            return stopped
        try:
            spool.finish(info, tally)
        except OutputError as exc:
            spool.discard()
            print(f"arbiter: {exc}{self._resume_hint(tally.total, len(jobs))}", file=sys.stderr)
            return EXIT_OUTPUT
        return code[0]

    def _announce(self, jobs: Sequence) -> None:
        """What is swept and how many combinations, on stderr, before anything runs."""
        info = self.sweep.info
        how = "every order placed" if info.ordered else "each subset once, its cards in pool order"
        print(f"arbiter: sweep {visible(info.template)}: {len(info.pool)} cards, {info.k} per combination: {len(jobs):,} "
              f"combinations ({how})", file=sys.stderr)

    def _estimate(self, timed: list[tuple[float, int]], left: int) -> None:
        """The estimate from the first combinations, timed here: time with the workers asked for, output size."""
        if not timed:
            print("arbiter: estimate: none (no combination was timed before the run: under a memory limit each runs "
                  f"in a worker){self._bounds()}", file=sys.stderr)
            return
        per = sorted(t for t, _ in timed)[len(timed) // 2]  # the median: the first pays for warming up
        size = sum(n for _, n in timed) / len(timed)
        workers = 1 if self.cluster is not None else max(1, self.jobs)
        where = "on the cluster's workers" if self.cluster is not None else f"with --jobs {workers}"
        total = left * per / workers
        out = f", about {_size(size * left)} of {self.format.upper()}" if spec(self.format).machine else ""
        print(f"arbiter: estimate: {_duration(total)} for the {left:,} combinations left {where} "
              f"({per * 1000:.0f} ms each, from the first {len(timed)}{'' if self.cluster is None else ', per worker'})"
              f"{out}{self._bounds()}", file=sys.stderr)

    def _bounds(self) -> str:
        """'; each is bounded by its work budget ... and the safety limit ...', for the estimate."""
        return (f"; each is bounded by its work budget ({self.timeout:g} units, --timeout) and the safety limit "
                f"({self.safety:g} s)")

    def _runner(self, jobs: Indexed, opts: RunOptions):
        """The first few combinations checked here and timed (for the estimate), then the rest on the runner."""
        items = iter(jobs.items)
        timed: list[tuple[float, int]] = []
        first = []
        for i, job in items if not memory_limited() else ():  # under a memory limit every check runs in a worker
            start = time.perf_counter()
            rec = sweep_job(job.payload(), opts)
            timed.append((time.perf_counter() - start, len(jsonl_item(stamped(rec, result_options(opts))))))
            first.append((i, rec))
            if len(first) >= min(CALIBRATE, jobs.total):
                break
        self._estimate(timed, jobs.total - len(first))
        yield from first
        rest = Indexed(jobs.total - len(first), items)
        if self.cluster == "local":
            yield from run_local_cluster(rest, opts, self.jobs, self.cluster_timeout, fn=sweep_job)
        elif self.cluster is not None:
            yield from run_dask(rest, opts, self.cluster, sweep_job, no_worker_timeout=self.cluster_timeout)
        else:
            yield from run(rest, opts, self.jobs, fn=sweep_job)
