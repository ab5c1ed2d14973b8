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
    line = loaded.linemap.locate(()) if loaded.linemap else (1, 1)
    try:
        checker = ScenarioCheck(sc, loaded.path, loaded.expect_lines, options, why)
        checker.claim_lines = loaded.claim_lines
        return checker.run()
    except (ScenarioError, UnknownRule, NotImplementedError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        return error_result(loaded.path, f"{loaded.path}:{line[0]}:{line[1]}: {msg}", sc)
    except Exception as exc:  # noqa: BLE001 - one bad scenario never takes a batch down
        return error_result(loaded.path, f"{loaded.path}: internal error: {type(exc).__name__}: {exc}", sc)


def check_file(path: str | Path, options: SolverOptions | None = None, why: bool = False) -> ScenarioResult:
    """Load and check one scenario file."""
    try:
        loaded = load_scenario(path)
    except (LoadError, LoadErrors) as exc:
        return error_result(str(path), str(exc))
    return check_loaded(loaded, options, why)


def check_text(text: str, file: str = "<string>", options: SolverOptions | None = None) -> ScenarioResult:
    """Check a scenario given as YAML text."""
    try:
        loaded = load_scenario_text(text, file)
    except (LoadError, LoadErrors) as exc:
        return error_result(file, str(exc))
    return check_loaded(loaded, options)


def check_scenario(sc: Scenario, options: SolverOptions | None = None, name: str = "<memory>") -> ScenarioResult:
    """Check an in-memory scenario object."""
    return check_loaded(LoadedScenario(scenario=sc, path=name), options)


def check_paths(paths: Iterable[str | Path], options: SolverOptions | None = None) -> Iterator[ScenarioResult]:
    """Check every scenario file under the given files and folders, in sorted order."""
    for p in find_scenarios(list(paths)):
        yield check_file(p, options)
