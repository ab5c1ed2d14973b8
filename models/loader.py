"""Load scenario files: safe YAML, pydantic validation, every error located at file:line:col."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.card_use import placed
from models.cards import CardSource
from models.scenario import Scenario
from models.yamlsafe import (
    LineMap, LoadError, LoadErrors, alias_note, display_name, link_problem, load_yaml_file, load_yaml_text, validate,
)

SCENARIO_SUFFIXES = (".yaml", ".yml")
_INDEXED = re.compile(r"\b(events|expect|claims|objects|effects|players)\[(\d+)\]")
_RULE = re.compile(r"rule id '([^']+)'")
_QUOTED = re.compile(r"'([^']+)'")
_NAMED = re.compile(r"\b(object|effect|player) ([A-Za-z_][A-Za-z0-9_.\-]*)")


@dataclass
class LoadedScenario:
    """A validated scenario with where it came from and the source line of each expectation and claim."""

    scenario: Scenario
    path: str
    expect_lines: dict[int, int] = field(default_factory=dict)
    claim_lines: dict[int, int] = field(default_factory=dict)
    linemap: LineMap | None = None
    data: Any = None

    def locate(self, message: str) -> tuple[int, int]:
        """The source position a consistency error message speaks of (the document start if unknown)."""
        if self.linemap is None:
            return (1, 1)
        return _locate_message(message, self.data, self.linemap)


def _locate_message(message: str, data: Any, linemap: LineMap) -> tuple[int, int]:
    """Find the most specific place a cross-reference error message speaks of."""
    return linemap.locate(_message_path(message, data))


def _message_path(message: str, data: Any) -> tuple:
    """The data path a cross-reference error message speaks of (() for the document)."""
    m = _RULE.search(message)
    if m and isinstance(data, dict):
        for path in _paths_to_value(data, m.group(1)):
            return path
    m = _INDEXED.search(message)
    if m:
        return (m.group(1), int(m.group(2)))
    m = _NAMED.search(message)
    if m and isinstance(data, dict):
        section = {"object": "objects", "effect": "effects", "player": "players"}[m.group(1)]
        for i, item in enumerate(data.get(section) or []):
            if isinstance(item, dict) and item.get("id") == m.group(2):
                return (section, i)
    for quoted in _QUOTED.findall(message):
        for path in _paths_to_value(data, quoted):
            return path
    return ()


def _other_places(message: str, linemap: LineMap, file: str) -> str:
    """' (effects[0] at f.yaml:3:5)' for every item but the first a message names: each place it speaks of."""
    items = list(dict.fromkeys(_INDEXED.findall(message)))
    places = [f"{section}[{i}] at {file}:{':'.join(map(str, linemap.locate((section, int(i)))))}"
              for section, i in items[1:]]
    return f" ({'; '.join(places)})" if places else ""


def _paths_to_value(node: Any, value: str, path: tuple = ()):
    """Yield key paths under which ``value`` occurs as a string."""
    if node == value:
        yield path
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _paths_to_value(v, value, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths_to_value(v, value, path + (i,))


def _from_data(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None,
               path: Path | None = None) -> LoadedScenario:
    placement = placed(data, linemap, file, cards, path)  # library cards the objects name (none: unchanged)
    data, linemap = placement.data, placement.linemap
    try:
        sc = validate(Scenario, data, linemap, file)
    except LoadErrors as errs:
        raise LoadErrors(placement.annotate(locate_errors(errs.errors, data, linemap, file))) from None
    return LoadedScenario(
        scenario=sc, path=file,
        expect_lines={i: linemap.locate(("expect", i))[0] for i in range(len(sc.expect))},
        claim_lines={i: linemap.locate(("claims", i))[0] for i in range(len(sc.claims))},
        linemap=linemap, data=data,
    )


def locate_errors(errors: list[LoadError], data: Any, linemap: LineMap, file: str) -> list[LoadError]:
    """Errors a validator raised about the whole document, located at what their message names."""
    fixed = []
    for e in errors:
        if (e.line, e.col) == (1, 1) and isinstance(data, dict):
            path = _message_path(e.message, data)
            e = LoadError(file, *linemap.locate(path), e.message + alias_note(linemap, path)
                          + _other_places(e.message, linemap, file))
        fixed.append(e)
    return fixed


def validate_data(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None) -> LoadedScenario:
    """Validate parsed YAML (with its line map) into a scenario, its cards placed; raises LoadErrors located in the
    source (or in a card file)."""
    return _from_data(data, linemap, file, cards)


def load_scenario(path: str | Path, cards: list[CardSource] | None = None) -> LoadedScenario:
    """Load and validate one scenario file (its cards from its library); raises LoadError/LoadErrors with
    file:line:col."""
    data, linemap = load_yaml_file(path)
    return _from_data(data, linemap, display_name(path), cards, Path(path))


def load_scenario_text(text: str | bytes, file: str = "<string>",
                       cards: list[CardSource] | None = None) -> LoadedScenario:
    """Load and validate a scenario from YAML text (``file`` names where it lives, for its card library)."""
    data, linemap = load_yaml_text(text, file)
    return _from_data(data, linemap, file, cards)


@dataclass(frozen=True)
class Entry:
    """A scenario entry found under the paths given: a path to read, or a located reason it cannot be read."""

    path: Path
    problem: str | None = None

    @property
    def name(self) -> str:
        """The path as reports show it (undecodable bytes escaped)."""
        return display_name(self.path)


def scan(paths: list[str | Path]) -> list[Entry]:
    """Every scenario entry under the given files and folders, each once, in the order found (folders sorted).

    Nothing is skipped silently: a ``.yaml``/``.yml`` entry of any kind is listed (reading refuses
    what is not a regular file); a folder that cannot be listed, a symbolic link that cannot be
    followed (dangling, or a loop) and a link back to a folder that contains it are entries with
    their problem.
    """
    out: list[Entry] = []
    for p in map(Path, paths):
        if p.suffix not in SCENARIO_SUFFIXES and p.is_dir():
            out += _walk(p, frozenset())
        else:
            out.append(Entry(p))
    return list(dict.fromkeys(out))


def _walk(folder: Path, above: frozenset) -> list[Entry]:
    """Entries under one folder; ``above`` holds the (device, inode) of the folders that contain it."""
    entries, folders, below = folder_entries(folder, above)
    out = list(entries)
    for sub in folders:
        out += _walk(sub, below)
    return out


def folder_entries(folder: Path, above: frozenset) -> tuple[list[Entry], list[Path], frozenset]:
    """One folder, sorted: its scenario entries (problems included), its sub-folders to walk, and the folders above
    those (``above`` with this one). A folder that cannot be listed, or that leads back to one containing it, is
    itself the one entry."""
    try:
        st = os.stat(folder)
        key = (st.st_dev, st.st_ino)
        if key in above:
            return [Entry(folder, "symbolic link loop: it leads back to a folder that contains it")], [], above
        with os.scandir(folder) as it:
            names = sorted(entry.name for entry in it)
    except PermissionError:
        return [Entry(folder, "cannot list folder: permission denied")], [], above
    except FileNotFoundError:
        return [Entry(folder, "vanished while its folder was read")], [], above
    except OSError as exc:
        return [Entry(folder, f"cannot list folder: {exc.strerror or exc}")], [], above
    entries: list[Entry] = []
    folders: list[Path] = []
    for name in names:
        path = folder / name
        problem = link_problem(path)
        if problem is not None:
            entries.append(Entry(path, problem))
        elif path.suffix in SCENARIO_SUFFIXES:
            entries.append(Entry(path))  # a file, or anything named like one: reading reports what it is
        elif path.is_dir():
            folders.append(path)
    return entries, folders, above | {key}


def find_scenarios(paths: list[str | Path]) -> list[Path]:
    """Scenario files under the given files and folders, each once (see ``scan`` for entries with problems)."""
    return [e.path for e in scan(paths)]
