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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.engine.budget import DEFAULT_BUDGET, SAFETY_SECONDS
from solver.run.batch.dask import NO_WORKER_TIMEOUT, run_dask, run_local_cluster
from solver.run.batch.jobs import (
    ClusterError, Indexed, Job, Record, RunOptions, ScenarioTimeout, check_job, chunk_size, collect, deadline,
    file_job, indexed, scenario_job,
)
from solver.run.batch.journal import atomic_write, chain, read_records, result_options, reusable
from solver.run.batch.pool import LocalPool, run_inline, run_local
from solver.run.batch.progress import progress
from solver.run.exits import batch_code
from solver.run.formats import STREAMING, formatter, jsonl_line, visible
from solver.run.memory import memory_limited
from solver.run.output import EXIT_OUTPUT, Journal, OutputError, emit

__all__ = ["CheckRun", "ClusterError", "Indexed", "Job", "LocalPool", "Record", "RunOptions", "ScenarioTimeout",
           "check_job", "chunk_size", "collect", "deadline", "file_job", "in_order", "read_records", "reusable", "run",
           "run_dask", "run_inline", "run_local", "scenario_job"]


def run(jobs: Indexed | list[Job], opts: RunOptions, workers: int = 1, cluster: Any = None,
        fn=check_job, cluster_timeout: float = NO_WORKER_TIMEOUT) -> Iterator[tuple[int, Record]]:
    """Pick the runner: a cluster if given, spawned workers for ``workers > 1`` (or under a memory limit), else
    in-process."""
    work = indexed(jobs)
    if cluster is not None:
        return run_dask(work, opts, cluster, fn, no_worker_timeout=cluster_timeout)
    if (workers > 1 and work.total > 1) or (work.total and memory_limited()):
        return run_local(work, opts, workers, fn)
    return run_inline(work, opts, fn)


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

    @property
    def options(self) -> RunOptions:
        """The options every check of the run gets."""
        return RunOptions(self.timeout, self.max_outcomes, self.why, self.baseline, self.safety)

    def execute(self) -> int:
        """Run and report; the exit code (``solver.run.exits``: 0 all pass, 1 a verdict failed or is unknown, 2 input
        refused, 3 internal error, the gravest first; 2 cluster lost or the report cannot be written, 130
        interrupted)."""
        skipped: list[str] = []
        jobs = collect(self.paths, self.cards, skipped)
        note_skipped(skipped)
        fmt = formatter(self.format, self.timings, self.why)
        stream = self.output is None and self.format in STREAMING

        def show(i: int, rec: Record) -> None:
            if stream:
                emit(fmt.item(rec))
        records, stopped = self.collect_results(jobs, show)
        if stopped is not None:
            return stopped
        ordered = [records[i] for i in range(len(jobs))]
        try:
            self.write("".join(fmt.item(r) for r in ordered) + fmt.end(ordered), fmt.end(ordered))
        except OutputError as exc:
            print(f"arbiter: {exc}{self._resume_hint(len(ordered), len(ordered))}", file=sys.stderr)
            return EXIT_OUTPUT
        return batch_code(ordered)

    def collect_results(self, jobs: Sequence[Job], show, keep: bool = True) -> tuple[dict[int, Record], int | None]:
        """Run the jobs not kept from a previous report (``--resume``), keep each result in the journal as it
        arrives and hand each to ``show(index, record)`` in job order; the records by index (none unless ``keep``),
        and the exit code when the run stopped early (2: the cluster was lost or a result cannot be written, 130:
        interrupted), else None. ``jobs`` may be a lazy sequence (a sweep's combinations): it is read in order, as
        the workers need jobs."""
        total = len(jobs)
        opts = self.options
        kept = self._previous(jobs)
        todo = Indexed(total - len(kept), ((i, j) for i, j in enumerate(jobs) if i not in kept))
        records: dict[int, Record] = dict(kept) if keep else {}
        count = [len(kept)]
        journal = None
        try:
            journal = self._open_journal(kept)
            with progress(self.progress, total, len(kept)) as advance:
                def counted(rec: Record) -> None:
                    count[0] += 1
                    advance(rec)
                arrivals = chain(sorted(kept.items()), self._runner(todo, opts), journal, records if keep else None,
                                 counted, result_options(opts))
                for i, rec in enumerate(in_order(arrivals)):
                    show(i, rec)
        except ClusterError as exc:
            print(f"arbiter: {exc}{self._kept(journal, count[0], total)}", file=sys.stderr)
            return records, 2
        except OutputError as exc:
            print(f"arbiter: {exc}{self._kept(journal, count[0], total)}", file=sys.stderr)
            return records, EXIT_OUTPUT
        except KeyboardInterrupt:
            print(f"arbiter: interrupted{self._kept(journal, count[0], total)}", file=sys.stderr)
            return records, 130
        if journal:
            journal.close()
        return records, None

    def write(self, body, shown: str | None = None) -> None:
        """The report (text, or the chunks of it): to ``--output`` (in one step, the journal then removed), else
        ``shown`` (what streaming has not printed yet) to stdout. OutputError when it cannot be written in full."""
        if self.output is None:
            pending: list[str] = []
            size = 0
            for chunk in ([body] if isinstance(body, str) else body) if shown is None else [shown]:
                pending.append(chunk)
                size += len(chunk)
                if size > 1 << 16:
                    emit("".join(pending))
                    pending, size = [], 0
            emit("".join(pending))
            return
        atomic_write(self.output, body)
        if self.journal_path != self.output:
            self.journal_path.unlink(missing_ok=True)

    def _kept(self, journal, done: int, total: int) -> str:
        """Close the journal of a run that stops early; '; N of M results kept in FILE ...' for the message."""
        if journal:
            try:
                journal.close()
            except OutputError:
                pass
        return self._resume_hint(done, total)

    def _resume_hint(self, done: int, total: int) -> str:
        """'; N of M results kept in FILE, rerun with --resume' (nothing without --output)."""
        if not self.output or self.journal_path is None or not self.journal_path.exists():
            return ""
        return f"; {done} of {total} results kept in {visible(str(self.journal_path))}, rerun with --resume"

    def _previous(self, jobs) -> dict[int, Record]:
        if not (self.resume and self.output):
            return {}
        previous = read_records(self.output)
        previous.update(read_records(self.journal_path))
        return reusable(jobs, previous, result_options(self.options))

    def _open_journal(self, kept: dict[int, Record]):
        """Start the journal afresh, with the reused records first."""
        if self.journal_path is None:
            return None
        try:
            self.journal_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot make the folder of {visible(str(self.journal_path))}: "
                              f"{exc.strerror or exc}") from None
        atomic_write(self.journal_path, (jsonl_line(kept[i]) for i in sorted(kept)))
        return Journal(self.journal_path)

    def _runner(self, jobs: Indexed, opts: RunOptions) -> Iterator[tuple[int, Record]]:
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs)


def note_skipped(skipped: list[str]) -> None:
    """The note on stderr naming the card files left out of a check (they are no scenarios)."""
    if skipped:
        shown = ", ".join(visible(n) for n in skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5
                                                               else "")
        print(f"arbiter: note: skipped {len(skipped)} card file(s), not scenarios (a top-level `cards:`): {shown}",
              file=sys.stderr)
