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

import sys
from dataclasses import dataclass, field
from pathlib import Path

from solver.run.batch import CheckRun, RunOptions, run, run_dask, run_local_cluster
from solver.run.exits import batch_code
from solver.run.sweep.formats import SweepInfo, decorate, json_text, jsonl_item, text
from solver.run.sweep.jobs import sweep_job, sweep_jobs
from solver.run.sweep.template import Pool, Template, load_pool, load_template

__all__ = ["SweepRun", "Sweep", "prepare"]


@dataclass(frozen=True)
class Sweep:
    """A sweep ready to run: the template, the pool, the combinations and their jobs."""

    template: Template
    pool: Pool
    info: SweepInfo
    combinations: list[tuple[str, ...]]

    def jobs(self):
        """One job per combination, in combination order."""
        return sweep_jobs(self.template.name, self.template.raw, self.pool.sources, self.combinations)


def prepare(template: Path, pool: list[Path], only: list[str] | None = None, ordered: bool = False) -> Sweep:
    """Load the template and the pool and list the combinations; LoadError / LoadErrors located in the files."""
    t = load_template(template)
    p = load_pool(pool, t, only)
    info = SweepInfo(t.name, p.ids, t.k, ordered, t.asks_for_one_outcome())
    return Sweep(t, p, info, p.combinations(t.k, ordered))


@dataclass
class SweepRun(CheckRun):
    """``arbiter sweep``: run every combination on the batch runner, keep each result in the journal as it arrives,
    report them in combination order (and write the HTML report when asked)."""

    sweep: Sweep | None = None
    #: write no report to stdout (``arbiter report`` renders the records itself)
    quiet: bool = False
    #: the decorated records of the last run, in combination order (for the HTML report)
    records: list[dict] = field(default_factory=list)

    def execute(self) -> int:
        """Run and report; the exit code (``solver.run.exits``: 0 every combination passes, 1 one does not, 2 one is
        refused or the cluster was lost, 3 internal error, 130 interrupted)."""
        assert self.sweep is not None
        jobs, info = self.sweep.jobs(), self.sweep.info
        stream = self.output is None and self.format == "jsonl" and not self.quiet

        def show(i: int, rec: dict) -> None:
            if stream:
                sys.stdout.write(jsonl_item(decorate({**rec, "cards": list(jobs[i].slots)}, info, self.timings)))
                sys.stdout.flush()
        records, stopped = self.collect_results(jobs, show)
        if stopped is not None:
            return stopped
        self.records = [decorate({**records[i], "cards": list(jobs[i].slots)}, info, self.timings)
                        for i in range(len(jobs))]
        body = {"text": text, "json": json_text}.get(self.format)
        body_text = body(info, self.records) if body else "".join(jsonl_item(r) for r in self.records)
        self.write(body_text, "" if stream or self.quiet else None)
        return batch_code(self.records)

    def _runner(self, jobs, opts: RunOptions):
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout, fn=sweep_job)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, sweep_job, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs, fn=sweep_job)
