"""``arbiter sweep --fast``: the sweep settled by the fast path (``solver.run.sweep.fast``), on the batch runner of
``arbiter check``, with the minimal cause of every flagged combination (``solver.run.sweep.cause``).

The records are those of the exhaustive sweep (the same bytes for every combination, ``tests/test_fast_sweep.py``),
each flagged one with its ``cause``; the text report adds the cause under each flagged combination.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from solver.run.batch import RunOptions, run, run_dask, run_local_cluster
from solver.run.sweep import SweepRun
from solver.run.sweep.cause import FLAGGED, causes
from solver.run.sweep.fast import FastStats, FastSweep, Rounds, RoundsStopped, fast_job
from solver.run.format_table import renderer
from solver.run.sweep.formats import Tally, jsonl_item


@dataclass
class FastSweepRun(Rounds, SweepRun):
    """A sweep whose combinations are settled from representatives (``fast``), flagged ones with their cause."""

    #: what the fast path did (combinations, representatives checked, rounds), once run
    stats: FastStats | None = None

    def execute(self) -> int:
        """Run and report; the exit code (0 every combination passes, 1 otherwise, 2 cluster lost, 130 interrupted)."""
        assert self.sweep is not None
        sw = self.sweep
        fs = FastSweep(sw.template, sw.pool.ids, sw.pool.library, sw.pool.sources, sw.info, ordered=sw.info.ordered)

        def runner(jobs):
            return enumerate(self.batch(jobs))
        try:
            rep_of = fs.run(runner)
            results = fs.results(rep_of)
            flagged = [c for c, r in zip(fs._combos(), results) if r in FLAGGED]
            cause = causes(fs, flagged, runner) if sw.info.k >= 2 else None
        except RoundsStopped as stop:
            return stop.code
        self.stats = fs.stats
        code = 0 if all(r == "pass" for r in results) else 1

        def records():
            for combo, rec in zip(fs._combos(), fs.decorated(rep_of, self.timings)):
                found = cause.of(combo) if cause is not None and rec["result"] in FLAGGED else None
                yield {**rec, "cause": found} if found else rec
        if self.format == "jsonl" and not self.quiet:  # streamed: a million combinations are never held at once
            self._stream(jsonl_item(r) for r in records())
        else:
            self.records = list(records())
            if not self.quiet:
                self.write("".join(renderer("sweep", self.format)(sw.info, self.records,
                                                                  Tally.of(sw.info, self.records))))
        if not self.quiet:
            print(f"fast sweep: {fs.stats.combinations} combinations, {fs.stats.checked} checked "
                  f"({fs.stats.rounds} rounds), {fs.stats.settled} settled from them", file=sys.stderr)
        return code

    def _stream(self, lines) -> None:
        """Write lines to ``--output`` (whole when done: a temporary file renamed) or stdout as they come, in full or
        an OutputError naming the file (``CheckRun.write``)."""
        self.write(lines)

    def _runner(self, jobs, opts: RunOptions):
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout, fn=fast_job)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, fast_job, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs, fn=fast_job)
