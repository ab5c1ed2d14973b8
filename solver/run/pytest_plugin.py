"""Pytest plugin: scenario files are test items, one per scenario; a failure shows the YAML file and line.

Collected: ``*.yaml``/``*.yml`` files under a folder named ``scenarios`` (relative
to the rootdir), and any other such file named on the command line whose top
level has ``game:`` and ``id:``. Items carry the ``arbiter_scenario`` marker, so
``-m "not arbiter_scenario"`` leaves them out; ``-p no:arbiter`` disables the plugin.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

SUFFIXES = (".yaml", ".yml")
MARKER = "arbiter_scenario"
_TOP_GAME = re.compile(r"^game\s*:", re.M)
_TOP_ID = re.compile(r"^id\s*:", re.M)


def pytest_addoption(parser: pytest.Parser) -> None:
    """--arbiter-timeout: the time limit per scenario."""
    group = parser.getgroup("arbiter", "Arbiter scenario files")
    group.addoption("--arbiter-timeout", type=float, default=None,
                    help="Time limit per scenario in seconds (default: ini arbiter_timeout or 10).")
    parser.addini("arbiter_timeout", "Time limit per scenario in seconds.", default="10")


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker of scenario items."""
    config.addinivalue_line("markers", f"{MARKER}: an Arbiter scenario file checked by the solver")


def looks_like_scenario(path: Path) -> bool:
    """Whether a YAML file's top level has both ``game:`` and ``id:``."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:20000]
    except OSError:
        return False
    return bool(_TOP_GAME.search(head) and _TOP_ID.search(head))


def _in_scenarios_folder(path: Path, root: Path) -> bool:
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        parts = path.parts
    return "scenarios" in parts[:-1]


def _named_on_command_line(path: Path, config: pytest.Config) -> bool:
    args = {Path(a.split("::")[0]).resolve() for a in config.args}
    return path.resolve() in args


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    """A ScenarioFile for scenario YAML files."""
    if file_path.suffix not in SUFFIXES:
        return None
    config = parent.config
    if _in_scenarios_folder(file_path, config.rootpath) or (
            _named_on_command_line(file_path, config) and looks_like_scenario(file_path)):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    """One scenario file: one item per scenario it holds."""

    def collect(self):
        """The scenario's item, named by its id (or by the file name when it does not load)."""
        from models.loader import load_scenario
        from models.yamlsafe import LoadError, LoadErrors

        try:
            name = load_scenario(self.path).scenario.id
        except (LoadError, LoadErrors):
            name = self.path.stem
        except Exception:  # noqa: BLE001 - the item reports it
            name = self.path.stem
        item = ScenarioItem.from_parent(self, name=name)
        item.add_marker(MARKER)
        yield item


class ScenarioFailed(Exception):
    """A scenario did not pass: carries its result."""

    def __init__(self, result) -> None:
        super().__init__(result.status.value)
        self.result = result


class ScenarioItem(pytest.Item):
    """Checks one scenario with the solver; fails unless its status is pass (unknown is not a pass)."""

    def _display_path(self) -> str:
        try:
            return self.path.relative_to(self.config.rootpath).as_posix()
        except ValueError:
            return str(self.path)

    def _timeout(self) -> float:
        opt = self.config.getoption("arbiter_timeout", None)
        return float(opt if opt is not None else self.config.getini("arbiter_timeout") or 10)

    def runtest(self) -> None:
        """Check the scenario in this process."""
        from models.results import ScenarioResult
        from solver.run.batch import RunOptions, check_job, file_job

        job = file_job(self.path)
        job = type(job)(self._display_path(), job.hash, job.text, job.data, job.read_error)
        record = check_job(job.payload(), RunOptions(timeout=self._timeout()))
        record.pop("hash", None)
        result = ScenarioResult.model_validate(record)
        self.user_properties.append(("arbiter_status", result.status.value))
        if result.status.value != "pass":
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo, style=None) -> str:
        """file:line and the failing expectation's message, no traceback."""
        if isinstance(excinfo.value, ScenarioFailed):
            from solver.run.formats import failures

            res = excinfo.value.result
            lines = [f"{res.path}: scenario {res.id or ''} {res.status.value}".replace("  ", " ")]
            for line, title, msg in failures(res):
                lines.append(f"{res.path}:{line}: {title}: {msg}" if line else f"{res.path}: {title}: {msg}")
            return "\n".join(lines)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the item lives: the scenario file (line 1) and its id."""
        return self.path, 0, f"scenario {self.name}"
