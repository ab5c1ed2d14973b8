"""The report of a check: check the scenarios on the batch runner (with explanations: cores and step traces), then
draw each one's boards from its file (its cards placed from the card files its job carried)."""
from __future__ import annotations

from pathlib import Path

from models.loader import load_scenario
from models.scenario import Scenario
from models.yamlsafe import LoadError, LoadErrors
from solver.run.batch import RunOptions, collect, in_order, run, run_dask, run_local_cluster
from solver.run.batch.jobs import Job
from solver.engine.budget import SAFETY_SECONDS
from solver.run.batch.progress import progress as progress_bar
from solver.run.exits import batch_code
from solver.run.report import check_report


def _scenario(job: Job) -> Scenario | None:
    """The scenario a job checked, to draw (None when it cannot be read: its record says why)."""
    if job.read_error or job.text is None:
        return None
    try:
        return load_scenario(job.path, job.cards).scenario
    except (LoadError, LoadErrors, OSError):
        return None


def checked_report(paths: list[Path], cards: list[Path], timeout: float, workers: int, cluster: str | None,
                   progress: bool = True, safety: float = SAFETY_SECONDS) -> tuple[str, int]:
    """The HTML report of checking these files and folders (``timeout``: the work budget per scenario), and the
    exit code of the check (``solver.run.exits``)."""
    jobs = collect(paths, cards)
    opts = RunOptions(timeout=timeout, why=True, safety=safety)
    if cluster == "local":
        results = run_local_cluster(jobs, opts, workers)
    elif cluster is not None:
        results = run_dask(jobs, opts, cluster)
    else:
        results = run(jobs, opts, workers)
    records = []
    with progress_bar(progress, len(jobs), 0) as advance:
        for rec in in_order(results):
            advance(rec)
            records.append(rec)
    items = [(_scenario(job), rec) for job, rec in zip(jobs, records)]
    return check_report(items), batch_code(records)
