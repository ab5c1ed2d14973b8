"""The one table of report formats: each ``--format`` name, what it is for and, per command, its renderer.

``arbiter check``, ``sweep`` and ``diff`` validate ``--format`` against it, their ``--help`` lists its names, their
reports are rendered by the renderer it names, and ``tests/test_formats.py`` holds the README to it. It imports
nothing, so the command line's start-up stays short (renderers are ``module:name`` paths, imported when used).

A renderer's signature is its command's: ``check`` a ``solver.run.formats.Format`` class (given ``timings``),
``sweep`` ``(info, records, tally) -> Iterator[str]``, ``diff`` ``(document) -> str``. (``arbiter report``, and
``--report`` of ``sweep`` and ``diff``, write HTML only: they take no ``--format``.)
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class OutputFormat:
    """One ``--format`` name: a one-line description and, for each command that offers it, its renderer."""

    name: str
    description: str
    #: command -> renderer, as ``module:name``
    renderers: dict[str, str] = field(default_factory=dict)
    #: ``check`` writes it scenario by scenario as results come (when printed); the others at the end
    streams: bool = False
    #: a format for machines (its size is estimated before a sweep; timing is left out unless asked for)
    machine: bool = True


TABLE: tuple[OutputFormat, ...] = (
    OutputFormat("text", "for a person: what went wrong, then the counts (sweep: and the matrix for pairs)",
                 {"check": "solver.run.formats:TextFormat", "sweep": "solver.run.sweep.formats:text_chunks",
                  "diff": "solver.run.diff.formats:text"}, streams=True, machine=False),
    OutputFormat("json", "one JSON document: the summary and every result",
                 {"check": "solver.run.formats:JsonFormat", "sweep": "solver.run.sweep.formats:json_chunks",
                  "diff": "solver.run.diff.formats:json_text"}),
    OutputFormat("jsonl", "one JSON object per line, one line per scenario or combination",
                 {"check": "solver.run.formats:JsonlFormat", "sweep": "solver.run.sweep.formats:jsonl_chunks"},
                 streams=True),
    OutputFormat("junit", "JUnit XML for CI dashboards: a test case per scenario",
                 {"check": "solver.run.formats:JunitFormat"}),
    OutputFormat("github", "GitHub Actions annotations: an ::error at the file and line of each problem",
                 {"check": "solver.run.formats:GithubFormat"}, streams=True),
    OutputFormat("tap", "TAP version 13: an ok / not ok line per scenario or combination, problems as comments",
                 {"check": "solver.run.formats:TapFormat", "sweep": "solver.run.sweep.formats:tap_chunks"}),
)
#: every command that takes ``--format``
COMMANDS = ("check", "sweep", "diff")


def formats(command: str) -> tuple[OutputFormat, ...]:
    """The formats ``command`` offers, in table order."""
    return tuple(f for f in TABLE if command in f.renderers)


def names(command: str) -> tuple[str, ...]:
    """The ``--format`` names ``command`` accepts, in table order."""
    return tuple(f.name for f in formats(command))


def help_text(command: str) -> str:
    """The ``--format`` help of ``command``: its names, 'text | json | ...'."""
    return " | ".join(names(command))


def refusal(command: str, name: str) -> str | None:
    """The usage error of ``--format name`` for ``command`` (None: it offers that format)."""
    if name in names(command):
        return None
    return f"unknown format '{name}' (choose from {', '.join(names(command))})"


def spec(name: str) -> OutputFormat:
    """The table's row of a format name."""
    return {f.name: f for f in TABLE}[name]


def renderer(command: str, name: str):
    """The renderer of format ``name`` for ``command`` (imported now)."""
    module, attr = spec(name).renderers[command].split(":")
    return getattr(importlib.import_module(module), attr)
