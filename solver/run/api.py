"""Python API for scripts: check files, folders or in-memory scenarios and get typed results.

``check_file``, ``check_text``, ``check_scenario`` check one scenario here;
``iter_results`` and ``check_folder`` check many, in worker processes or on a
Dask cluster, and yield results in a stable order.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from models.results import ScenarioResult
from models.scenario import Scenario
from solver.engine.settings import SolverOptions
from solver.run.batch import RunOptions, collect, in_order, run, scenario_job
from solver.run.single import (
    check_file, check_loaded, check_paths, check_scenario, check_scenario_data, check_text, error_result,
)

__all__ = ["check_file", "check_folder", "check_loaded", "check_paths", "check_scenario", "check_scenario_data",
           "check_text", "error_result", "iter_results"]

Source = str | Path | Scenario


def _jobs(sources: Source | Iterable[Source]):
    """Batch jobs for files, folders and in-memory scenarios, files sorted by path, scenarios after, in order."""
    if isinstance(sources, (str, Path, Scenario)):
        sources = [sources]
    items = list(sources)
    jobs = collect([p for p in items if not isinstance(p, Scenario)])
    scs = [s for s in items if isinstance(s, Scenario)]
    return jobs + [scenario_job(s, f"<memory:{k}:{s.id}>") for k, s in enumerate(scs)]


def iter_results(sources: Source | Iterable[Source], options: SolverOptions | None = None, why: bool = False,
                 jobs: int = 1, cluster: object = None, timeout: float | None = None) -> Iterator[ScenarioResult]:
    """Check files, folders and scenario objects (``jobs`` processes or a Dask ``cluster``); yield results in order.

    ``timeout``: the work budget per scenario in work units (default: ``options.budget``; ``solver.engine.budget``).

    Results come in a stable order: files sorted by path, then in-memory scenarios
    in the order given, whatever the number of workers.
    """
    opts = options or SolverOptions()
    run_opts = RunOptions(timeout=timeout or opts.budget, max_outcomes=opts.max_outcomes, why=why, safety=opts.safety)
    work = _jobs(sources)
    for rec in in_order(run(work, run_opts, jobs, cluster)):
        rec.pop("hash", None)
        yield ScenarioResult.model_validate(rec)


def check_folder(folder: str | Path, options: SolverOptions | None = None, jobs: int = 1) -> list[ScenarioResult]:
    """Check every scenario file under a folder, sorted by path."""
    return list(iter_results(Path(folder), options, jobs=jobs))
