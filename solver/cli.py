"""The ``arbiter`` command line: check, explain, schema, rules."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from models.results import BatchSummary, ScenarioResult, ScenarioStatus
from solver.engine import SolverOptions

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Arbiter: check card and board game rules scenarios with a constraint solver.")

FORMATS = ("text", "json")


def _options(timeout: float, max_outcomes: int) -> SolverOptions:
    return SolverOptions(time_limit=timeout, max_outcomes=max_outcomes)


def render_text(res: ScenarioResult) -> str:
    """A person-readable report of one scenario."""
    mark = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "unknown": "UNKNOWN"}[res.status.value]
    lines = [f"{mark:7} {res.path}" + (f"  [{res.id}]" if res.id else "")]
    if res.error:
        lines.append(f"        {res.error}")
    for e in res.expectations:
        if not e.passed or res.status is not ScenarioStatus.PASS:
            where = f"{res.path}:{e.line}" if e.line else res.path
            ok = "ok " if e.passed else "BAD"
            lines.append(f"   {ok} {where}: {e.description}: {e.verdict.value} (expected {e.expected})"
                         + (f" -- {e.message}" if e.message and not e.passed else ""))
    for c in res.claims:
        if not c.passed:
            lines.append(f"   BAD {res.path}:{c.line}: {c.kind} {c.player}: {c.verdict} (expected {c.expected}) {c.message}")
    if res.contradiction and res.status is not ScenarioStatus.PASS:
        lines.append(f"        no legal outcome; core: {', '.join(res.contradiction)}")
    return "\n".join(lines)


def summarize(results: list[ScenarioResult]) -> BatchSummary:
    """Counts of a batch."""
    s = BatchSummary()
    for r in results:
        s.add(r.status)
    return s


def render_json(results: list[ScenarioResult]) -> str:
    """One JSON document: summary counts and every scenario result."""
    doc = {"summary": summarize(results).model_dump(),
           "scenarios": [r.model_dump(mode="json") for r in results]}
    return json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=False)


@app.command()
def check(
    paths: list[Path] = typer.Argument(..., help="Scenario files or folders."),
    format: str = typer.Option("text", "--format", "-f", help="text | json"),
    timeout: float = typer.Option(10.0, help="Time limit per solve, seconds (a hit gives 'unknown')."),
    max_outcomes: int = typer.Option(32, help="Outcomes enumerated before verdicts fall back to solving."),
    why: bool = typer.Option(False, help="Compute the rules behind every verdict, not only the excluded ones."),
) -> None:
    """Check scenarios; exit 0 when all pass, 1 when any fails, errors or is unknown."""
    from models.loader import find_scenarios
    from solver.api import check_file

    if format not in FORMATS:
        typer.echo(f"arbiter: unknown format '{format}' (choose from {', '.join(FORMATS)})", err=True)
        raise typer.Exit(2)
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        typer.echo(f"arbiter: no such file or folder: {', '.join(missing)}", err=True)
        raise typer.Exit(2)
    opts = _options(timeout, max_outcomes)
    results = []
    for p in find_scenarios(list(paths)):
        res = check_file(p, opts, why)
        results.append(res)
        if format == "text":
            typer.echo(render_text(res))
    summary = summarize(results)
    if format == "json":
        typer.echo(render_json(results))
    else:
        typer.echo(f"\n{summary.passed} passed, {summary.failed} failed, {summary.errors} errors, "
                   f"{summary.unknown} unknown, {summary.total} total")
    raise typer.Exit(0 if summary.passed == summary.total else 1)


@app.command()
def explain(path: Path = typer.Argument(..., help="One scenario file.")) -> None:
    """Show outcomes, which effect won each contested characteristic, and the rule cores."""
    from solver.api import check_file

    res = check_file(path, why=True)
    out = [f"{res.path}  [{res.id}]  {res.title or ''}".rstrip(), f"status: {res.status.value}"]
    if res.error:
        out.append(f"error: {res.error}")
    n = len(res.outcomes)
    out.append(f"outcomes: {n}{'' if res.outcomes_complete else '+'}"
               + (" (unique: proven by re-solving with it excluded)" if res.unique else ""))
    for o in res.outcomes[:2]:
        out.append(f"  outcome {o.index}:")
        out += [f"    {c}" for c in o.changes] or ["    (no change)"]
    if res.contradiction:
        out.append("no legal outcome; minimal core: " + ", ".join(res.contradiction))
    if res.precedence:
        out.append("precedence:")
        out += [f"  {p}" for p in res.precedence]
    for a in res.actions:
        out.append(f"action {a.id}: {', '.join(a.statuses)}" + (f"  because {', '.join(a.rules)}" if a.rules else ""))
    out.append("expectations:")
    for e in res.expectations:
        out.append(f"  [{'ok' if e.passed else 'FAIL'}] line {e.line}: {e.description}: {e.verdict.value}"
                   f" (expected {e.expected})")
        if e.rules or e.facts:
            out.append(f"      rules: {', '.join(e.rules) or '-'}; facts: {', '.join(e.facts) or '-'}")
        if e.message:
            out.append(f"      {e.message}")
    for c in res.claims:
        out.append(f"  [{'ok' if c.passed else 'FAIL'}] claim {c.kind} {c.player}: {c.verdict} (expected {c.expected})")
        out += [f"      certificate: {x}" for x in c.certificate] + [f"      counterexample: {x}" for x in c.counterexample]
    typer.echo("\n".join(out))
    raise typer.Exit(0 if res.status is ScenarioStatus.PASS else 1)


@app.command()
def schema(output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to a file instead of stdout.")) -> None:
    """Print the JSON Schema (draft-07) of scenario files, for editor completion."""
    from models.schema import scenario_schema

    text = json.dumps(scenario_schema(), indent=2, ensure_ascii=False)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        typer.echo(text)


@app.command()
def rules(game: str = typer.Argument("core", help="berserk | mtg | riftbound | ti4 | core")) -> None:
    """List the rule ids of a game with their descriptions."""
    from solver.games import GAMES, ruleset_for
    from solver.rules import RULEBOOK

    if game not in GAMES:
        typer.echo(f"arbiter: unknown game '{game}' (choose from {', '.join(GAMES)})", err=True)
        raise typer.Exit(2)
    ruleset_for(game)
    for rid, text in sorted(RULEBOOK.rules(game).items()):
        typer.echo(f"{rid:34} {text}")


def main() -> None:
    """Console entry point: usage errors exit 2, internal errors exit 2 without a traceback."""
    try:
        app(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001
        print(f"arbiter: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
