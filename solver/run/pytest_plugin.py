"""Pytest plugin: scenario files are test items, one per scenario; a failure shows the YAML file and line.

Collected: ``*.yaml``/``*.yml`` entries under a folder named ``scenarios`` (relative
to the rootdir), and any other such file named on the command line whose top
level has ``game:`` and ``id:``. Items carry the ``arbiter_scenario`` marker, so
``-m "not arbiter_scenario"`` leaves them out; ``-p no:arbiter`` disables the plugin.

A scenario is checked with the same work budget as ``arbiter check`` (``--arbiter-timeout``, in work units,
``solver.engine.budget``). A verdict that fails or is unknown is a test failure; a scenario whose input is refused
(or an internal error) is a test *error*, raised while the item is set up, so the summary tells them apart; the
terminal summary ends with the exit code ``arbiter check`` would give (``solver.run.exits``).

An item is checked exactly as ``arbiter check`` checks the file: the same job (its card library
found from the file's own place, whatever the working folder), the same result. Under a
scenarios folder every entry ``arbiter check`` reports is an item (a fifo, a dangling link, a link
loop, a folder named ``*.yaml`` are errors with their reason); card files (a top-level ``cards:``)
are not scenarios and are left out, as ``arbiter check`` leaves them out.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

SUFFIXES = (".yaml", ".yml")
MARKER = "arbiter_scenario"
_TOP_GAME = re.compile(r"^game\s*:", re.M)
_TOP_ID = re.compile(r"^id\s*:", re.M)


def pytest_addoption(parser: pytest.Parser) -> None:
    """--arbiter-timeout: the work budget per scenario."""
    from solver.engine.budget import DEFAULT_BUDGET

    group = parser.getgroup("arbiter", "Arbiter scenario files")
    group.addoption("--arbiter-timeout", type=float, default=None,
                    help=f"Work budget per scenario in work units, as arbiter check --timeout (default: ini "
                         f"arbiter_timeout or {DEFAULT_BUDGET:g}).")
    parser.addini("arbiter_timeout", "Work budget per scenario in work units (arbiter check --timeout).",
                  default=f"{DEFAULT_BUDGET:g}")


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


def _card_file(path: Path) -> bool:
    """Whether a regular file is a card file (``models.cards.is_card_file``), not a scenario."""
    from models.cards import is_card_file
    from models.yamlsafe import LoadError, read_bytes

    try:
        return is_card_file(read_bytes(path, str(path)))
    except LoadError:
        return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    """A ScenarioFile for scenario YAML files (not for card files)."""
    if file_path.suffix not in SUFFIXES:
        return None
    config = parent.config
    if _in_scenarios_folder(file_path, config.rootpath) or (
            _named_on_command_line(file_path, config) and looks_like_scenario(file_path)):
        return None if _card_file(file_path) else ScenarioFile.from_parent(parent, path=file_path)
    return None


def pytest_collect_directory(path: Path, parent: pytest.Collector):
    """Folders under a scenarios folder are collected as ``arbiter check`` walks them (``ScenarioDir``; a Python
    package stays pytest's)."""
    if _in_scenarios_folder(path / "_", parent.config.rootpath) and not (path / "__init__.py").is_file():
        return ScenarioDir.from_parent(parent, path=path)
    return None


class ScenarioDir(pytest.Dir):
    """A folder under a scenarios folder: each entry ``models.loader.scan`` finds is collected, the entries it reports
    (special files, dangling links, link loops, folders named like scenario files) as items that fail with their
    reason; other files as pytest collects them."""

    def collect(self):
        """The entries of the folder, sorted, as ``arbiter check`` lists them."""
        from models.loader import folder_entries

        above = getattr(self.parent, "above", frozenset())
        files, folders, self.above = folder_entries(self.path, above)
        for entry in files:
            if self.ihook.pytest_ignore_collect(collection_path=entry.path, config=self.config):
                continue
            if entry.problem is not None or not entry.path.is_file():
                item = ScenarioFile.from_parent(self, path=entry.path)
                item.problem = entry.problem
                yield item
            else:
                yield from self.ihook.pytest_collect_file(file_path=entry.path, parent=self)
        for sub in folders:
            if self.ihook.pytest_ignore_collect(collection_path=sub, config=self.config):
                continue
            col = self.ihook.pytest_collect_directory(path=sub, parent=self)
            if col is not None:
                yield col
        for other in _other_files(self.path):
            if not self.ihook.pytest_ignore_collect(collection_path=other, config=self.config):
                yield from self.ihook.pytest_collect_file(file_path=other, parent=self)


def _other_files(folder: Path) -> list[Path]:
    """Regular files of a folder not named like scenarios (a test module beside them is collected as usual)."""
    try:
        return sorted(Path(e.path) for e in os.scandir(folder)
                      if Path(e.name).suffix not in SUFFIXES and e.is_file())
    except OSError:
        return []


class ScenarioFile(pytest.File):
    """One scenario file: one item per scenario it holds (``problem``: why the entry cannot be read, as
    ``models.loader.scan`` found it)."""

    problem: str | None = None

    def collect(self):
        """The scenario's item, named by its id (or by the file name when it does not load)."""
        from models.loader import load_scenario
        from models.yamlsafe import LoadError, LoadErrors

        try:
            name = load_scenario(self.path).scenario.id if self.path.is_file() else self.path.name
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
    """Checks one scenario with the solver; fails unless its status is pass (unknown is not a pass); a refused
    scenario (or an internal error) is an error of its setup, not a failure."""

    result = None

    def _display_path(self) -> str:
        try:
            return self.path.relative_to(self.config.rootpath).as_posix()
        except ValueError:
            return str(self.path)

    def _timeout(self) -> float:
        opt = self.config.getoption("arbiter_timeout", None)
        return float(opt if opt is not None else self.config.getini("arbiter_timeout"))

    def setup(self) -> None:
        """Check the scenario in this process, as the job ``arbiter check`` makes of the file (its cards found from
        where the file is), named as pytest shows it; refused input (or an internal error) is an error of the setup."""
        from models.results import ScenarioResult
        from solver.run.batch import RunOptions, check_job
        from solver.run.batch.jobs import entry_job, problem_job
        from solver.run.exits import record_code

        name, problem = self._display_path(), getattr(self.parent, "problem", None)
        job = problem_job(name, f"{name}: {problem}") if problem else entry_job(self.path, name=name)
        record = check_job(job.payload(), RunOptions(timeout=self._timeout()))
        record.pop("hash", None)
        self.result = ScenarioResult.model_validate(record)
        self.user_properties.append(("arbiter_status", self.result.status.value))
        self.config.stash.setdefault(_CODES, []).append(record_code(record))
        if self.result.status.value == "error":
            pytest.fail(_describe(self.result), pytrace=False)

    def runtest(self) -> None:
        """Fail unless the scenario passed."""
        if self.result is not None and self.result.status.value != "pass":
            raise ScenarioFailed(self.result)

    def repr_failure(self, excinfo, style=None) -> str:
        """file:line and the failing expectation's message, no traceback."""
        if isinstance(excinfo.value, ScenarioFailed):
            return _describe(excinfo.value.result)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the item lives: the scenario file (line 1) and its id."""
        return self.path, 0, f"scenario {self.name}"


#: the exit code each checked scenario calls for, kept on the config for the terminal summary
_CODES = pytest.StashKey[list]()


def _describe(res) -> str:
    """'PATH: scenario ID STATUS' and each problem at its file:line, no traceback."""
    from solver.run.formats import failures

    lines = [f"{res.path}: scenario {res.id or ''} {res.status.value}".replace("  ", " ")]
    for line, title, msg in failures(res):
        lines.append(f"{res.path}:{line}: {title}: {msg}" if line else f"{res.path}: {title}: {msg}")
    return "\n".join(lines)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """One line: the scenarios by kind and the exit code ``arbiter check`` would give for them."""
    codes = config.stash.get(_CODES, [])
    if not codes:
        return
    from solver.run.exits import FAILED, INTERNAL, PASSED, REFUSED

    count = {c: codes.count(c) for c in (PASSED, FAILED, REFUSED, INTERNAL)}
    terminalreporter.write_line(
        f"arbiter: {count[PASSED]} scenarios passed, {count[FAILED]} failed or unknown, {count[REFUSED]} refused, "
        f"{count[INTERNAL]} internal errors; arbiter check would exit {max(codes)}")
