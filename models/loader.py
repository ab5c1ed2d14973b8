"""Load scenario files: safe YAML, pydantic validation, every error located at file:line:col."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.scenario import Scenario
from models.yamlsafe import LineMap, LoadError, LoadErrors, load_yaml_file, load_yaml_text, validate

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
    m = _RULE.search(message)
    if m and isinstance(data, dict):
        for path in _paths_to_value(data, m.group(1)):
            return linemap.locate(path)
    m = _INDEXED.search(message)
    if m:
        return linemap.locate((m.group(1), int(m.group(2))))
    m = _NAMED.search(message)
    if m and isinstance(data, dict):
        section = {"object": "objects", "effect": "effects", "player": "players"}[m.group(1)]
        for i, item in enumerate(data.get(section) or []):
            if isinstance(item, dict) and item.get("id") == m.group(2):
                return linemap.locate((section, i))
    for quoted in _QUOTED.findall(message):
        for path in _paths_to_value(data, quoted):
            return linemap.locate(path)
    return linemap.locate(())


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


def _from_data(data: Any, linemap: LineMap, file: str) -> LoadedScenario:
    try:
        sc = validate(Scenario, data, linemap, file)
    except LoadErrors as errs:
        fixed = []
        for e in errs.errors:
            if (e.line, e.col) == (1, 1) and isinstance(data, dict):
                e = LoadError(file, *_locate_message(e.message, data, linemap), e.message)
            fixed.append(e)
        raise LoadErrors(fixed) from None
    return LoadedScenario(
        scenario=sc, path=file,
        expect_lines={i: linemap.locate(("expect", i))[0] for i in range(len(sc.expect))},
        claim_lines={i: linemap.locate(("claims", i))[0] for i in range(len(sc.claims))},
        linemap=linemap, data=data,
    )


def validate_data(data: Any, linemap: LineMap, file: str) -> LoadedScenario:
    """Validate parsed YAML (with its line map) into a scenario; raises LoadErrors located in the source."""
    return _from_data(data, linemap, file)


def load_scenario(path: str | Path) -> LoadedScenario:
    """Load and validate one scenario file; raises LoadError/LoadErrors with file:line:col."""
    data, linemap = load_yaml_file(path)
    return _from_data(data, linemap, str(path))


def load_scenario_text(text: str | bytes, file: str = "<string>") -> LoadedScenario:
    """Load and validate a scenario from YAML text."""
    data, linemap = load_yaml_text(text, file)
    return _from_data(data, linemap, file)


def find_scenarios(paths: list[str | Path]) -> list[Path]:
    """Scenario files under the given files and folders, sorted, each once."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir() and p.suffix not in SCENARIO_SUFFIXES:
            # a folder named like a scenario is listed itself, so that it is reported, never skipped
            out += sorted(q for q in p.rglob("*") if q.suffix in SCENARIO_SUFFIXES
                          and (q.is_file() or q.is_dir()))
        else:
            out.append(p)
    return list(dict.fromkeys(out))
