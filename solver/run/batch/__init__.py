"""Batch runs: check many scenarios in-process, in spawned worker processes or on a Dask cluster, losing none.

- ``jobs``: what a worker receives and does with one scenario;
- ``pool``: in-process and spawned local workers with a watchdog;
- ``dask``: a Dask cluster;
- ``journal``: results kept as they arrive (``--output``), reused by ``--resume``;
- ``progress``: the progress bar;
- here: picking the runner, ordering results, and one ``arbiter check`` run.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.engine.budget import DEFAULT_BUDGET, SAFETY_SECONDS
from solver.run.batch.dask import NO_WORKER_TIMEOUT, run_dask, run_local_cluster
from solver.run.batch.jobs import (
    ClusterError, Job, Record, RunOptions, ScenarioTimeout, check_job, chunk_size, collect, deadline, file_job,
    scenario_job,
)
from solver.run.batch.journal import atomic_write, chain, read_records, reusable
from solver.run.batch.pool import LocalPool, run_inline, run_local
from solver.run.batch.progress import progress
from solver.run.exits import batch_code
from solver.run.formats import STREAMING, formatter, jsonl_line

__all__ = ["CheckRun", "ClusterError", "Job", "LocalPool", "Record", "RunOptions", "ScenarioTimeout", "check_job",
           "chunk_size", "collect", "deadline", "file_job", "in_order", "read_records", "reusable", "run", "run_dask",
           "run_inline", "run_local", "scenario_job"]


def run(jobs: list[Job], opts: RunOptions, workers: int = 1, cluster: Any = None,
        fn=check_job, cluster_timeout: float = NO_WORKER_TIMEOUT) -> Iterator[tuple[int, Record]]:
    """Pick the runner: a cluster if given, spawned workers for ``workers > 1``, else in-process."""
    if cluster is not None:
        return run_dask(jobs, opts, cluster, fn, no_worker_timeout=cluster_timeout)
    if workers > 1 and len(jobs) > 1:
        return run_local(jobs, opts, workers, fn)
    return run_inline(jobs, opts, fn)


def in_order(results: Iterable[tuple[int, Record]], start: int = 0) -> Iterator[Record]:
    """Re-order (index, record) pairs by index, yielding each as soon as all before it have arrived."""
    waiting: dict[int, Record] = {}
    nxt = start
    for i, rec in results:
        waiting[i] = rec
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    for i in sorted(waiting):
        yield waiting[i]


@dataclass
class CheckRun:
    """``arbiter check``: run the batch, keep every result in the journal as it arrives, write the report in order."""

    paths: list[Path]
    format: str = "text"
    #: the work budget per scenario, in work units (``solver.engine.budget``)
    timeout: float = DEFAULT_BUDGET
    max_outcomes: int = 32
    why: bool = False
    jobs: int = 1
    cluster: str | None = None
    output: Path | None = None
    resume: bool = False
    timings: bool = False
    progress: bool = True
    cluster_timeout: float = NO_WORKER_TIMEOUT
    cards: list[Path] = field(default_factory=list)
    #: check by the path before the speed work (benchmarks)
    baseline: bool = False
    #: wall-clock seconds per scenario: the outer safety net only
    safety: float = SAFETY_SECONDS

    @property
    def journal_path(self) -> Path | None:
        """Where results are appended as they finish: the jsonl report itself, or FILE.partial."""
        if self.output is None:
            return None
        return self.output if self.format == "jsonl" else self.output.with_name(self.output.name + ".partial")

    def execute(self) -> int:
        """Run and report; the exit code (``solver.run.exits``: 0 all pass, 1 a verdict failed or is unknown, 2 input
        refused, 3 internal error, the gravest first; 2 cluster lost, 130 interrupted)."""
        jobs = collect(self.paths, self.cards)
        fmt = formatter(self.format, self.timings)
        stream = self.output is None and self.format in STREAMING

        def show(i: int, rec: Record) -> None:
            if stream:
                sys.stdout.write(fmt.item(rec))
                sys.stdout.flush()
        records, stopped = self.collect_results(jobs, show)
        if stopped is not None:
            return stopped
        ordered = [records[i] for i in range(len(jobs))]
        self.write("".join(fmt.item(r) for r in ordered) + fmt.end(ordered), fmt.end(ordered))
        return batch_code(ordered)

    def collect_results(self, jobs: list[Job], show) -> tuple[dict[int, Record], int | None]:
        """Run the jobs not kept from a previous report (``--resume``), keep each result in the journal as it
        arrives and hand each to ``show(index, record)`` in job order; the records by index, and the exit code when
        the run stopped early (2: the cluster was lost, 130: interrupted), else None."""
        kept = self._previous(jobs)
        todo = [i for i in range(len(jobs)) if i not in kept]
        opts = RunOptions(self.timeout, self.max_outcomes, self.why, self.baseline, self.safety)
        journal = self._open_journal(jobs, kept)
        records: dict[int, Record] = dict(kept)
        try:
            with progress(self.progress, len(jobs), len(kept)) as advance:
                pending = _remap(self._runner([jobs[i] for i in todo], opts), todo)
                arrivals = chain(sorted(kept.items()), pending, journal, records, advance)
                for i, rec in enumerate(in_order(arrivals)):
                    show(i, rec)
        except ClusterError as exc:
            print(f"arbiter: {exc}{self._kept(journal, records, jobs)}", file=sys.stderr)
            return records, 2
        except KeyboardInterrupt:
            print(f"arbiter: interrupted{self._kept(journal, records, jobs)}", file=sys.stderr)
            return records, 130
        if journal:
            journal.close()
        return records, None

    def write(self, body: str, shown: str | None = None) -> None:
        """The report: to ``--output`` (in one step, the journal then removed), else ``shown`` (what streaming has
        not printed yet) to stdout."""
        if self.output is None:
            sys.stdout.write(body if shown is None else shown)
            return
        atomic_write(self.output, body)
        if self.journal_path != self.output:
            self.journal_path.unlink(missing_ok=True)

    def _kept(self, journal, records: dict[int, Record], jobs: list[Job]) -> str:
        """Close the journal of a run that stops early; '; N of M results kept in FILE ...' for the message."""
        if journal:
            journal.close()
        if not self.output:
            return ""
        return f"; {len(records)} of {len(jobs)} results kept in {self.journal_path}, rerun with --resume"

    def _previous(self, jobs: list[Job]) -> dict[int, Record]:
        if not (self.resume and self.output):
            return {}
        previous = read_records(self.output)
        previous.update(read_records(self.journal_path))
        return reusable(jobs, previous)

    def _open_journal(self, jobs: list[Job], kept: dict[int, Record]):
        """Start the journal afresh, with the reused records first."""
        if self.journal_path is None:
            return None
        self.journal_path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.journal_path, "".join(jsonl_line(kept[i]) for i in sorted(kept)))
        return open(self.journal_path, "a", encoding="utf-8")

    def _runner(self, jobs: list[Job], opts: RunOptions) -> Iterator[tuple[int, Record]]:
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs)


def _remap(results: Iterator[tuple[int, Record]], todo: list[int]) -> Iterator[tuple[int, Record]]:
    """Indices of a sub-batch back to the indices of the whole batch."""
    for k, rec in results:
        yield todo[k], rec
