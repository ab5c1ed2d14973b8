"""Check one scenario: from a file, YAML text, plain data or an in-memory object; never raises on bad input.

Every scenario is first held against its game's vocabulary (``solver.vocabulary.check``): a word
outside it, or a field no rule of the game reads, is an ``error`` result listing every such
problem of the file, located. Errors go by kind (``solver.errors``), never by Python exception
type: bad input and what the rules do not model become an ``error`` result with a located
message (``error_kind`` 'input' or 'not_modelled'); anything else is an internal error (a bug,
``error_kind`` 'internal', with a line asking for a bug report).
This is what a batch worker runs for each scenario; ``solver.run.api`` is the
public face for scripts.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from models.cards import CardSource
from models.loader import LoadedScenario, scan
from models.results import ScenarioResult, ScenarioStatus
from models.scenario import Scenario
from models.yamlsafe import LoadError, LoadErrors, display_name
from pydantic import ValidationError
from solver.check.checker import ScenarioCheck
from solver.engine.settings import SolverOptions
from solver.errors import Refusal, internal_message
from solver.load import load_checked, load_checked_text, loaded_errors


def error_result(path: str, message: str, sc: Scenario | None = None, kind: str = "input") -> ScenarioResult:
    """A result for a scenario that could not be checked: refused (``kind`` 'input' or 'not_modelled') or an
    internal error ('internal')."""
    return ScenarioResult(path=path, id=sc.id if sc else None, game=sc.game if sc else None,
                          status=ScenarioStatus.ERROR, error=message, error_kind=kind)


def internal_error(path: str, exc: BaseException, sc: Scenario | None = None) -> ScenarioResult:
    """The result of a bug met while checking a scenario: never shown as a mistake in it."""
    return error_result(path, f"{path}: {internal_message(exc)}", sc, "internal")


def check_loaded(loaded: LoadedScenario, options: SolverOptions | None = None, why: bool = False) -> ScenarioResult:
    """Check a loaded scenario: its words against its game's vocabulary, then the rules; problems become an error
    result, never an exception."""
    words = loaded_errors(loaded)
    if words is not None:
        return error_result(loaded.path, str(words), loaded.scenario)
    return _solve(loaded, options, why)


def _solve(loaded: LoadedScenario, options: SolverOptions | None, why: bool) -> ScenarioResult:
    """Check a scenario whose words are known; rule/scenario inconsistencies become an error result."""
    sc = loaded.scenario
    try:
        return ScenarioCheck(sc, loaded.path, loaded.expect_lines, options, why, loaded.claim_lines).run()
    except Refusal as exc:  # bad input, or a word or mechanic the rules do not model: located
        msg = str(exc.args[0] if exc.args else exc)
        line, col = loaded.locate(msg)
        return error_result(loaded.path, f"{loaded.path}:{line}:{col}: {msg}", sc, exc.kind)
    except MemoryError:
        raise  # out of memory is the run's problem, not the scenario's: the caller stops or retries
    except Exception as exc:  # noqa: BLE001 - one bad scenario never takes a batch down: a bug, reported as one
        return internal_error(loaded.path, exc, sc)


def check_file(path: str | Path, options: SolverOptions | None = None, why: bool = False,
               cards: list[CardSource] | None = None) -> ScenarioResult:
    """Load and check one scenario file (its cards from ``cards``, card files, or its library)."""
    try:
        loaded = load_checked(path, cards)  # its words are checked with everything else in the file
    except (LoadError, LoadErrors) as exc:
        return error_result(display_name(path), str(exc))
    return _solve(loaded, options, why)


def check_text(text: str | bytes, file: str = "<string>", options: SolverOptions | None = None,
               why: bool = False, cards: list[CardSource] | None = None,
               card_errors: list[LoadError] = ()) -> ScenarioResult:
    """Check a scenario given as YAML text (its cards from ``cards``, card files with ``card_errors`` the problems met
    finding them, or the library of ``file``)."""
    try:
        loaded = load_checked_text(text, file, cards, card_errors)
    except (LoadError, LoadErrors) as exc:
        return error_result(file, str(exc))
    return _solve(loaded, options, why)


def check_scenario_data(data: dict, name: str = "<memory>", options: SolverOptions | None = None,
                        why: bool = False) -> ScenarioResult:
    """Check a scenario given as plain data (a dict, as shipped to a worker)."""
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as exc:
        return error_result(name, f"{name}: invalid scenario: {' '.join(str(exc).splitlines())}")
    return check_loaded(LoadedScenario(scenario=sc, path=name), options, why)


def check_scenario(sc: Scenario, options: SolverOptions | None = None, name: str = "<memory>",
                   why: bool = False) -> ScenarioResult:
    """Check an in-memory scenario object."""
    return check_loaded(LoadedScenario(scenario=sc, path=name), options, why)


def check_paths(paths: Iterable[str | Path], options: SolverOptions | None = None) -> Iterator[ScenarioResult]:
    """Check every scenario entry under the given files and folders (an unreadable one is an error result)."""
    for e in scan(list(paths)):
        yield error_result(e.name, f"{e.name}: {e.problem}") if e.problem else check_file(e.path, options)
