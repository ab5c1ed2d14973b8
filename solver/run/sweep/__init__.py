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

from solver.run.batch import CheckRun, ClusterError, RunOptions, chain, in_order, run, run_dask, run_local_cluster
from solver.run.batch.journal import atomic_write
from solver.run.batch.progress import progress
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
        """Run and report; the exit code (0 every combination passes, 1 otherwise, 2 cluster lost, 130 interrupted)."""
        assert self.sweep is not None
        jobs = self.sweep.jobs()
        info = self.sweep.info
        kept = self._previous(jobs)
        todo = [i for i in range(len(jobs)) if i not in kept]
        opts = RunOptions(self.timeout, self.max_outcomes, self.why)
        journal = self._open_journal(jobs, kept)
        records: dict[int, dict] = dict(kept)
        stream = self.output is None and self.format == "jsonl" and not self.quiet
        try:
            with progress(self.progress, len(jobs), len(kept)) as advance:
                pending = ((todo[k], rec) for k, rec in self._runner([jobs[i] for i in todo], opts))
                for i, rec in enumerate(in_order(chain(sorted(kept.items()), pending, journal, records, advance))):
                    if stream:
                        sys.stdout.write(jsonl_item(decorate({**rec, "cards": list(jobs[i].slots)}, info,
                                                             self.timings)))
                        sys.stdout.flush()
        except ClusterError as exc:
            print(f"arbiter: {exc}{self._kept(journal, records, jobs)}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"arbiter: interrupted{self._kept(journal, records, jobs)}", file=sys.stderr)
            return 130
        if journal:
            journal.close()
        self.records = [decorate({**records[i], "cards": list(jobs[i].slots)}, info, self.timings)
                        for i in range(len(jobs))]
        body = {"text": text, "json": json_text}.get(self.format)
        body_text = body(info, self.records) if body else "".join(jsonl_item(r) for r in self.records)
        if self.output is None:
            if not stream and not self.quiet:
                sys.stdout.write(body_text)
        else:
            atomic_write(self.output, body_text)
            if self.journal_path != self.output:
                self.journal_path.unlink(missing_ok=True)
        return 0 if all(r["result"] == "pass" for r in self.records) else 1

    def _runner(self, jobs, opts: RunOptions):
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout, fn=sweep_job)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, sweep_job, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs, fn=sweep_job)
