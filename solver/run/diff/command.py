"""``arbiter diff`` from the command line: its usage errors (exit 2), the run, and the HTML view when asked."""
from __future__ import annotations

from solver.errors import UsageError

import os
import sys
from pathlib import Path
from typing import Callable

import yaml

from models.yamlsafe import display_name
from solver.registry import names
from solver.run.diff.cards import Version, VersionError
from solver.run.format_table import refusal


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with the value read as YAML (a number, true/false, else text); UsageError when malformed."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--option {text!r}: give KEY=VALUE")
    try:
        parsed = yaml.safe_load(value) if value.strip() else ""
    except yaml.YAMLError:
        parsed = value
    if not isinstance(parsed, (str, int, float, bool)):
        parsed = value
    return key.strip(), parsed


def known_rule(rule: str) -> bool:
    """Whether some game's rulebook has this rule id."""
    from solver.check import rulebook

    return any(rulebook.canonical(g, rule) in rulebook.rules(g) for g in names())


def known_option(key: str) -> bool:
    """Whether some game's vocabulary has this option."""
    from solver.registry import vocabulary_for

    return any(key in vocabulary_for(g).names("options") for g in names())


def diff_command(paths: list[Path], old: str | None, new: str | None, templates: list[Path], pool: list[Path],
                 rules_off: list[str], options: list[str], format: str, timeout: float, jobs: int,
                 cluster: str | None, output: Path | None, resume: bool, progress: bool, cluster_timeout: float,
                 cards: list[Path], report: Path | None, usage: Callable[[str], None], safety: float | None = None) -> int:
    """Check the input, run the diff, write the HTML view when asked; the exit code."""
    from solver.run.diff import DiffRun

    if refusal("diff", format):
        usage(refusal("diff", format))
    if not paths and not templates:
        usage("give scenario files or folders, or --template")
    if old is None and new is None and not rules_off and not options:
        usage("nothing to compare: give --old (and --new), --rules-off or --option")
    missing = [display_name(p) for p in [*paths, *templates, *pool, *cards] if not os.path.lexists(p)]
    if missing:
        usage(f"no such file or folder: {', '.join(missing)}")
    unknown = [r for r in rules_off if not known_rule(r)]
    if unknown:
        usage(f"--rules-off: no such rule: {', '.join(unknown)} (arbiter rules GAME lists them)")
    parsed: dict[str, object] = {}
    for text in options:
        try:
            key, value = parse_option(text)
        except UsageError as exc:
            usage(str(exc))
        if not known_option(key):
            usage(f"--option: no game has the option '{key}' (arbiter rules GAME lists them)")
        parsed[key] = value
    try:
        versions = Version.parse(old), Version.parse(new)
    except VersionError as exc:
        usage(str(exc))
    run = DiffRun(paths=list(paths), format=format, timeout=timeout, jobs=jobs, cluster=cluster, output=output,
                  resume=resume, progress=progress, cluster_timeout=cluster_timeout, cards=list(cards),
                  old=versions[0], new=versions[1], rules_off=tuple(rules_off), ruleset_options=parsed,
                  templates=list(templates), pool=list(pool))
    if safety is not None:
        run.safety = safety
    code = run.execute()
    if report is not None and run.document is not None:
        from solver.run.report.diff import diff_report

        report.write_text(diff_report(run.document), encoding="utf-8")
        print(f"wrote {report}", file=sys.stderr)
    return code
