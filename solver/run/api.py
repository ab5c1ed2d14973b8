"""Python API for scripts: check files, folders or in-memory scenarios and get typed results."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from models.loader import LoadedScenario, find_scenarios, load_scenario, load_scenario_text
from models.results import ScenarioResult, ScenarioStatus
from models.scenario import Scenario
from models.yamlsafe import LoadError, LoadErrors
from solver.checker import ScenarioCheck
from solver.compile import ScenarioError
from solver.engine import SolverOptions
from solver.rules import UnknownRule


def error_result(path: str, message: str, sc: Scenario | None = None) -> ScenarioResult:
    """A result for a scenario that could not be checked."""
    return ScenarioResult(path=path, id=sc.id if sc else None, game=sc.game if sc else None,
                          status=ScenarioStatus.ERROR, error=message)


def check_loaded(loaded: LoadedScenario, options: SolverOptions | None = None, why: bool = False) -> ScenarioResult:
    """Check a loaded scenario; rule/scenario inconsistencies become an error result, never an exception."""
    sc = loaded.scenario
    try:
        checker = ScenarioCheck(sc, loaded.path, loaded.expect_lines, options, why)
        checker.claim_lines = loaded.claim_lines
        return checker.run()
    except (ScenarioError, UnknownRule, NotImplementedError, KeyError, ValueError) as exc:
        msg = str(exc.args[0] if exc.args else exc)
        line, col = loaded.locate(msg)
        return error_result(loaded.path, f"{loaded.path}:{line}:{col}: {msg}", sc)
    except Exception as exc:  # noqa: BLE001 - one bad scenario never takes a batch down
        return error_result(loaded.path, f"{loaded.path}: internal error: {type(exc).__name__}: {exc}", sc)


def check_file(path: str | Path, options: SolverOptions | None = None, why: bool = False) -> ScenarioResult:
    """Load and check one scenario file."""
    try:
        loaded = load_scenario(path)
    except (LoadError, LoadErrors) as exc:
        return error_result(str(path), str(exc))
    return check_loaded(loaded, options, why)


def check_text(text: str | bytes, file: str = "<string>", options: SolverOptions | None = None,
               why: bool = False) -> ScenarioResult:
    """Check a scenario given as YAML text."""
    try:
        loaded = load_scenario_text(text, file)
    except (LoadError, LoadErrors) as exc:
        return error_result(file, str(exc))
    return check_loaded(loaded, options, why)


def check_scenario_data(data: dict, name: str = "<memory>", options: SolverOptions | None = None,
                        why: bool = False) -> ScenarioResult:
    """Check a scenario given as plain data (a dict, as shipped to a worker)."""
    try:
        sc = Scenario.model_validate(data)
    except ValueError as exc:
        return error_result(name, f"{name}: invalid scenario: {' '.join(str(exc).splitlines())}")
    return check_loaded(LoadedScenario(scenario=sc, path=name), options, why)


def check_scenario(sc: Scenario, options: SolverOptions | None = None, name: str = "<memory>") -> ScenarioResult:
    """Check an in-memory scenario object."""
    return check_loaded(LoadedScenario(scenario=sc, path=name), options)


def check_paths(paths: Iterable[str | Path], options: SolverOptions | None = None) -> Iterator[ScenarioResult]:
    """Check every scenario file under the given files and folders, in sorted order."""
    for p in find_scenarios(list(paths)):
        yield check_file(p, options)


Source = str | Path | Scenario


def _jobs(sources: Source | Iterable[Source]):
    """Batch jobs for files, folders and in-memory scenarios, files sorted by path, scenarios after, in order."""
    from solver.batch import collect, scenario_job

    if isinstance(sources, (str, Path, Scenario)):
        sources = [sources]
    items = list(sources)
    jobs = collect([p for p in items if not isinstance(p, Scenario)])
    scs = [s for s in items if isinstance(s, Scenario)]
    return jobs + [scenario_job(s, f"<memory:{k}:{s.id}>") for k, s in enumerate(scs)]


def iter_results(sources: Source | Iterable[Source], options: SolverOptions | None = None, why: bool = False,
                 jobs: int = 1, cluster: object = None, timeout: float | None = None) -> Iterator[ScenarioResult]:
    """Check files, folders and scenario objects (``jobs`` processes or a Dask ``cluster``); yield results in order.

    Results come in a stable order: files sorted by path, then in-memory scenarios
    in the order given, whatever the number of workers.
    """
    from solver.batch import RunOptions, in_order, run

    opts = options or SolverOptions()
    run_opts = RunOptions(timeout=timeout or opts.time_limit, max_outcomes=opts.max_outcomes, why=why)
    work = _jobs(sources)
    for rec in in_order(run(work, run_opts, jobs, cluster)):
        rec.pop("hash", None)
        yield ScenarioResult.model_validate(rec)


def check_folder(folder: str | Path, options: SolverOptions | None = None, jobs: int = 1) -> list[ScenarioResult]:
    """Check every scenario file under a folder, sorted by path."""
    return list(iter_results(Path(folder), options, jobs=jobs))
