"""The ``arbiter`` command line: check, explain, schema, rules.

Start-up is kept short: this module imports only typer and the registry (a list of
import paths); each command imports what it needs when it runs, so ``--help``,
``schema`` and ``rules`` never import ortools (``tests/test_cli.py`` checks it).

Exit codes (``solver.run.exits``): 0 all pass, 1 a verdict failed or is unknown, 2 input refused or usage error,
3 internal error, 130 interrupted.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from solver import registry
from solver.run import format_table
from solver.run.exits import FAILED, INTERNAL, INTERRUPTED, PASSED, REFUSED
from solver.engine.budget import DEFAULT_BUDGET, SAFETY_SECONDS

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Arbiter: check card and board game rules scenarios with a constraint solver.")


#: options every batch command (check, sweep, report) takes the same way
JOBS = typer.Option(1, "--jobs", "-j", help="Worker processes (1: in this process; 0: one per core).")
CLUSTER = typer.Option(None, help="Dask scheduler address (tcp://HOST:PORT), or 'local' for a LocalCluster of --jobs "
                                  "workers. Needs the dask extra.")
TIMEOUT = typer.Option(DEFAULT_BUDGET, help="Work budget per scenario (or combination), in work units: CP-SAT "
                                            "deterministic time of every solve for it, plus a fixed charge per solve and "
                                            "per search node; one unit is roughly 2 to 17 s of one core. Spent: "
                                            "'unknown', the same on every machine under any load.")
SAFETY = typer.Option(SAFETY_SECONDS, "--safety-limit", help="Wall-clock seconds per scenario after which it is "
                                                             "stopped whatever its budget: 'unknown (wall-clock "
                                                             "safety limit)'. A safety net only.")
MAX_OUTCOMES = typer.Option(32, help="Outcomes enumerated before verdicts fall back to solving.")
OUTPUT = typer.Option(None, "--output", "-o", help="Write the report to FILE; every result is kept as it finishes, "
                                                   "even if interrupted.")
RESUME = typer.Option(False, help="With --output: re-check only what is missing from FILE or changed.")
TIMINGS = typer.Option(False, help="Include timing (seconds) in machine formats (breaks byte-identity).")
PROGRESS = typer.Option(True, help="Progress bar on stderr (only when stderr is a terminal).")
CLUSTER_TIMEOUT = typer.Option(30.0, help="With --cluster: seconds the scheduler may have no live worker before the "
                                          "run stops with an error.")
CARDS = typer.Option([], "--cards", help="Card library (file or folder, repeatable) for the scenarios' card: "
                                         "references (default: cards/<game>/ up each scenario's folders).")


def _usage(message: str) -> None:
    """A usage error (exit 2); what the message quotes from files and names is escaped as ``check`` escapes it."""
    from solver.run.formats import visible

    typer.echo("\n".join(visible(line) for line in f"arbiter: {message}".split("\n")), err=True)
    raise typer.Exit(REFUSED)  # usage errors share the code of refused input


def _format_usage(command: str, name: str) -> None:
    """A usage error (exit 2) when ``command`` does not offer ``--format name`` (``solver.run.format_table``)."""
    refused = format_table.refusal(command, name)
    if refused:
        _usage(refused)


@app.command()
def check(
    paths: list[Path] = typer.Argument(..., help="Scenario files or folders."),
    format: str = typer.Option("text", "--format", "-f", help=format_table.help_text("check")),
    timeout: float = TIMEOUT,
    max_outcomes: int = MAX_OUTCOMES,
    why: bool = typer.Option(False, help="Compute the rules behind every verdict, not only the excluded ones."),
    jobs: int = JOBS,
    cluster: Optional[str] = CLUSTER,
    output: Optional[Path] = OUTPUT,
    resume: bool = RESUME,
    timings: bool = TIMINGS,
    progress: bool = PROGRESS,
    cluster_timeout: float = CLUSTER_TIMEOUT,
    cards: list[Path] = CARDS,
    baseline: bool = typer.Option(False, "--baseline", hidden=True,
                                  help="Check by the slower path before the speed work (for benchmarks)."),
    safety: float = SAFETY,
) -> None:
    """Check scenarios; exit 0 when all pass, 1 when a verdict fails or is unknown, 2 when input is refused (or on
    usage errors), 3 on an internal error (the gravest of these first), 130 when interrupted."""
    from models.yamlsafe import display_name
    from solver.run.batch import CheckRun

    _format_usage("check", format)
    _batch_usage(jobs, timeout, cluster_timeout, resume, output, cluster, safety)
    missing = [display_name(p) for p in list(paths) + list(cards) if not os.path.lexists(p)]  # a broken link is reported
    if missing:
        _usage(f"no such file or folder: {', '.join(missing)}")
    run = CheckRun(paths=list(paths), format=format, timeout=timeout, max_outcomes=max_outcomes, why=why,
                   jobs=jobs or (os.cpu_count() or 1), cluster=cluster, output=output, resume=resume,
                   timings=timings, progress=progress, cluster_timeout=cluster_timeout, cards=list(cards),
                   baseline=baseline, safety=safety)
    raise typer.Exit(run.execute())


@app.command()
def sweep(
    template: Path = typer.Argument(..., help="Template scenario: objects with card: $1 (and $2, $3) are slots."),
    pool: list[Path] = typer.Option([], "--pool", "-p", help="Card files or folders (repeatable; default: the "
                                                             "template's library, cards/<game>/ up its folders)."),
    only: Optional[str] = typer.Option(None, "--only", help="Only these cards of the pool, in this order "
                                                            "(comma-separated ids)."),
    ordered: bool = typer.Option(False, help="Place every order of each subset (when the slots differ); default: "
                                             "each subset once, its cards in pool order."),
    format: str = typer.Option("text", "--format", "-f", help=format_table.help_text("sweep")),
    timeout: float = TIMEOUT,
    max_outcomes: int = MAX_OUTCOMES,
    why: bool = typer.Option(False, help="Compute the rules behind every verdict and the step traces."),
    jobs: int = JOBS,
    cluster: Optional[str] = CLUSTER,
    output: Optional[Path] = OUTPUT,
    resume: bool = RESUME,
    timings: bool = TIMINGS,
    progress: bool = PROGRESS,
    cluster_timeout: float = CLUSTER_TIMEOUT,
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the HTML report (heat map, every "
                                                                 "combination) to this file."),
    safety: float = SAFETY,
    fast: bool = typer.Option(False, "--fast", help="Settle combinations from representatives whose checks read "
                                                    "the same (the same results; README: Fast sweeps), and give "
                                                    "each flagged one its minimal cause."),
) -> None:
    """Place every k-subset of a card pool into a template; one result per combination: passing, contradiction,
    ambiguity, expectation broken or unknown. Exit 0 when every combination passes, 1 when one does not, 2 when one
    is refused (or on usage errors), 3 on an internal error, 130 when interrupted."""
    _format_usage("sweep", format)
    _batch_usage(jobs, timeout, cluster_timeout, resume, output, cluster, safety)
    if report is not None:
        _writable("--report", report)
    run = _sweep_run(template, pool, only, ordered, format=format, timeout=timeout, max_outcomes=max_outcomes,
                     why=why or report is not None, jobs=jobs or (os.cpu_count() or 1), cluster=cluster,
                     output=output, resume=resume, timings=timings, progress=progress,
                     cluster_timeout=cluster_timeout, safety=safety, fast=fast, keep=report is not None)
    code = run.execute()
    if report is not None and run.records and code != INTERRUPTED:
        from solver.run.output import atomic_write
        from solver.run.report import sweep_report

        atomic_write(report, sweep_report(run.sweep, run.records))
        typer.echo(f"wrote {report}", err=True)
    raise typer.Exit(code)


def _batch_usage(jobs: int, timeout: float, cluster_timeout: float, resume: bool, output: Optional[Path],
                 cluster: Optional[str], safety: float = SAFETY_SECONDS) -> None:
    """The usage errors of a batch's options (exit 2)."""
    if jobs < 0:
        _usage("--jobs must be 0 (one per core) or more")
    if timeout <= 0:
        _usage("--timeout must be positive")
    if safety <= 0:
        _usage("--safety-limit must be positive")
    if cluster_timeout <= 0:
        _usage("--cluster-timeout must be positive")
    if resume and output is None:
        _usage("--resume needs --output FILE (the report to resume)")
    if output is not None and output.is_dir():
        _usage(f"--output {output} is a folder; give a file name")
    if cluster is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            _usage("--cluster needs Dask: pip install 'arbiter[dask]'")


def _writable(option: str, path: Path) -> None:
    """A file to write at the end of a run: a usage error (exit 2) before any work when it cannot be (a folder, a
    missing or read-only folder)."""
    from models.yamlsafe import display_name

    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        _usage(f"{option} {display_name(path)} is a folder; give a file name")
    if not folder.is_dir():
        _usage(f"{option} {display_name(path)}: no such folder {display_name(folder)} (make it first)")
    if not os.access(folder, os.W_OK | os.X_OK):
        _usage(f"{option} {display_name(path)}: the folder {display_name(folder)} cannot be written to")


def _sweep_run(template: Path, pool: list[Path], only: Optional[str], ordered: bool, fast: bool = False, **options):
    """A sweep run of a template and a pool; a template or pool that cannot be read is a usage error (exit 2) listing
    every located problem."""
    from models.yamlsafe import LoadError, LoadErrors, display_name
    from solver.run.sweep import SweepRun, prepare

    missing = [display_name(p) for p in [template, *pool] if not os.path.lexists(p)]
    if missing:
        _usage(f"no such file or folder: {', '.join(missing)}")
    try:
        prepared = prepare(template, list(pool), [c.strip() for c in only.split(",") if c.strip()] if only else None,
                           ordered)
    except (LoadError, LoadErrors) as exc:
        _usage(f"cannot sweep:\n{exc}")
    if fast:
        from solver.run.sweep.fastrun import FastSweepRun

        return FastSweepRun(paths=[], sweep=prepared, **options)
    return SweepRun(paths=[], sweep=prepared, **options)


@app.command()
def report(
    paths: Optional[list[Path]] = typer.Argument(None, help="Scenario files or folders (the report of a check)."),
    output: Path = typer.Option(..., "--output", "-o", help="The HTML file to write."),
    template: Optional[Path] = typer.Option(None, "--template", help="A sweep's template instead (the report of a "
                                                                     "sweep: heat map and every combination)."),
    pool: list[Path] = typer.Option([], "--pool", "-p", help="With --template: card files or folders."),
    only: Optional[str] = typer.Option(None, "--only", help="With --template: only these cards (comma-separated)."),
    ordered: bool = typer.Option(False, help="With --template: place every order of each subset."),
    cards: list[Path] = CARDS,
    timeout: float = TIMEOUT,
    jobs: int = JOBS,
    cluster: Optional[str] = CLUSTER,
    progress: bool = PROGRESS,
    safety: float = SAFETY,
    diff: Optional[Path] = typer.Option(None, "--diff", help="The JSON of an arbiter diff (-f json) instead: its "
                                                             "HTML view."),
) -> None:
    """Write one self-contained HTML file: boards before and after (SVG), verdicts, cores with rule texts, step
    traces, refuted claims as a line of play; for a sweep, the heat map; for a diff, what flipped. Exit codes as for
    check (and sweep; for a diff, 1 when something flipped)."""
    from models.yamlsafe import display_name

    from solver.run.output import atomic_write

    _batch_usage(jobs, timeout, 30.0, False, None, cluster, safety)
    _writable("--output", output)
    if diff is not None:
        from solver.run.report.diff import render_file

        raise typer.Exit(render_file(diff, output, _usage))
    if template is not None:
        if paths:
            _usage("give scenario paths or --template, not both")
        from solver.run.report import sweep_report

        run = _sweep_run(template, pool, only, ordered, format="jsonl", timeout=timeout, max_outcomes=32, why=True,
                         jobs=jobs or (os.cpu_count() or 1), cluster=cluster, progress=progress, quiet=True,
                         safety=safety)
        code = run.execute()
        if run.records and code != INTERRUPTED:
            atomic_write(output, sweep_report(run.sweep, run.records))
            typer.echo(f"wrote {output}", err=True)
        raise typer.Exit(code)
    if not paths:
        _usage("give scenario files or folders, or --template")
    missing = [display_name(p) for p in list(paths) + list(cards) if not os.path.lexists(p)]
    if missing:
        _usage(f"no such file or folder: {', '.join(missing)}")
    from solver.run.report.checked import checked_report

    html, code = checked_report(list(paths), list(cards), timeout, jobs or (os.cpu_count() or 1), cluster, progress,
                                safety)
    atomic_write(output, html)
    typer.echo(f"wrote {output}", err=True)
    raise typer.Exit(code)


@app.command()
def diff(
    paths: Optional[list[Path]] = typer.Argument(None, help="Scenario files or folders to re-decide."),
    old: Optional[str] = typer.Option(None, "--old", help="The old card library: a file or folder (it stands for "
                                                          "every library of its game), or a git revision (each "
                                                          "library file read at it). Default: the working tree."),
    new: Optional[str] = typer.Option(None, "--new", help="The new card library, the same way (default: the working "
                                                          "tree)."),
    template: list[Path] = typer.Option([], "--template", help="Sweep templates to re-decide, every combination "
                                                               "(repeatable)."),
    pool: list[Path] = typer.Option([], "--pool", "-p", help="With --template: card files or folders of the pool."),
    rules_off: list[str] = typer.Option([], "--rules-off", help="A ruleset change: this rule switched off on the "
                                                                "new side (repeatable)."),
    option: list[str] = typer.Option([], "--option", help="A ruleset change: KEY=VALUE, the ruleset's option on the "
                                                          "new side (where a scenario does not set it; repeatable)."),
    format: str = typer.Option("text", "--format", "-f", help=format_table.help_text("diff")),
    timeout: float = TIMEOUT,
    jobs: int = JOBS,
    cluster: Optional[str] = CLUSTER,
    output: Optional[Path] = OUTPUT,
    resume: bool = RESUME,
    progress: bool = PROGRESS,
    cluster_timeout: float = CLUSTER_TIMEOUT,
    cards: list[Path] = CARDS,
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the HTML view to this file."),
    safety: float = SAFETY,
) -> None:
    """What an errata or a ruleset change breaks: every verdict that differs between the old and the new version,
    with the changed card lines and the deciding rules. Exit 0 when nothing flipped, 1 when something did, 2 for
    input refused."""
    from solver.run.diff.command import diff_command

    _batch_usage(jobs, timeout, cluster_timeout, resume, output, cluster, safety)
    code = diff_command(list(paths or []), old, new, list(template), list(pool), list(rules_off), list(option),
                        format, timeout, jobs or (os.cpu_count() or 1), cluster, output, resume, progress,
                        cluster_timeout, list(cards), report, _usage, safety)
    raise typer.Exit(code)


@app.command()
def generate(
    out: Path = typer.Option(..., "--out", help="Folder to write the scenarios to (created if missing)."),
    count: int = typer.Option(100, help="Number of scenarios."),
    objects: int = typer.Option(10, help="Objects (creatures) per scenario."),
    game: str = typer.Option("berserk", help="Game with a scale generator (berserk)."),
    seed: int = typer.Option(0, help="Random seed: the same seed writes the same files."),
    declared: int = typer.Option(3, help="Declared actions per scenario."),
    cores: bool = typer.Option(False, help="Add expectations whose verdicts need rule cores (slower)."),
) -> None:
    """Write COUNT valid scenarios with known-by-construction expectations, for benchmarks and soak tests."""
    from solver.bench.generate import generate as _generate
    from solver.errors import UsageError

    try:
        paths = _generate(out, count, objects, game, seed, declared, cores)
    except (UsageError, OSError) as exc:
        _usage(str(exc))
    typer.echo(f"wrote {len(paths)} scenarios to {out}", err=True)


@app.command()
def bench(
    generated: int = typer.Option(2000, help="Generated scenarios (10 objects each) for the throughput rows."),
    sizes: str = typer.Option("10,100,1000,5000", help="Object counts for the growth rows."),
    per_size: int = typer.Option(3, help="Scenarios per size in the growth rows (1 for sizes of 1000 and more)."),
    dask: bool = typer.Option(True, help="Include the Dask LocalCluster row (needs the dask extra)."),
    library: Path = typer.Option(Path("scenarios"), help="The bundled library."),
    baseline: bool = typer.Option(True, help="Measure the path before the speed work beside the default one."),
    starts: int = typer.Option(5, help="Fresh processes per command for the cold-start figures (0: none)."),
) -> None:
    """Benchmark, before and after: cold start, scenarios/s per core, solves per scenario, cost in minimal CP-SAT
    solves, --jobs 2 speed-up, Dask, growth by size, YAML load per MB."""
    from solver.bench.bench import Bench

    try:
        size_list = [int(x) for x in sizes.split(",") if x.strip()]
    except ValueError:
        _usage(f"--sizes must be comma-separated integers, not '{sizes}'")
    if starts < 0 or generated < 0:
        _usage("--starts and --generated must be 0 or more")
    typer.echo(Bench(generated=generated, sizes=size_list, per_size=per_size, dask=dask, library=library,
                     baseline=baseline, starts=starts).run())


@app.command()
def explain(path: Path = typer.Argument(..., help="One scenario file."),
            json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (with the step trace)."),
            timeout: float = TIMEOUT, safety: float = SAFETY) -> None:
    """Show outcomes, the step trace (rules fired per event, which effect won and why), and the rule cores. Exit codes
    as for check."""
    from solver.check.trace import render
    from solver.engine.settings import SolverOptions
    from solver.run.exits import record_code
    from solver.run.formats import visible
    from solver.run.memory import memory_limited
    from solver.run.single import check_file

    _batch_usage(1, timeout, 30.0, False, None, None, safety)
    res = _explained(path, timeout, safety) if memory_limited() else \
        check_file(path, SolverOptions(budget=timeout, safety=safety), why=True)
    code = record_code(res.model_dump(mode="json"))
    if json_out:
        typer.echo(res.model_dump_json(indent=2))
        raise typer.Exit(code)
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
    if res.outcomes and res.outcomes[0].steps:
        out.append("steps" + (" (outcome 0)" if n > 1 else "") + ":")
        out += [f"  {line}" for line in render(res.outcomes[0].steps)]
    if res.precedence:
        out.append("precedence (final state):")
        out += [f"  {p}" for p in res.precedence]
    for a in res.actions:
        out.append(f"action {a.id}: {', '.join(a.statuses)}" + (f"  because {', '.join(a.rules)}" if a.rules else ""))
        if a.rules:
            out.append(f"      decided by: {', '.join(a.decided_by) or '-'}; also needed: {', '.join(a.also_needed) or '-'}")
    for p in res.proofs:
        out.append(f"proof at event {p.event}: {p.kind} of {p.player}: {p.verdict} ({p.positions} position(s); "
                   f"fact {p.fact})" + (f": {p.message}" if p.message else ""))
        out += [f"    decided by: {p.decided_by}"] if p.decided_by else []
        out += [f"    certificate: {x}" for x in p.certificate] + [f"    counterexample: {x}" for x in p.counterexample]
    out.append("expectations:")
    for e in res.expectations:
        out.append(f"  [{'ok' if e.passed else 'FAIL'}] line {e.line}: {e.description}: {e.verdict.value}"
                   f" (expected {e.expected})")
        if e.rules or e.facts:
            out.append(f"      decided by: {', '.join(e.decided_by) or '-'}; also needed: {', '.join(e.also_needed) or '-'}; "
                       f"facts: {', '.join(e.facts) or '-'}")
        if e.no_core:
            out.append(f"      no rule core: {e.no_core}")
        for b, where in e.because_at.items():
            out.append(f"      because {b}: decides the same verdict at {where}")
        if e.message:
            out.append(f"      {e.message}")
    for c in res.claims:
        out.append(f"  [{'ok' if c.passed else 'FAIL'}] claim {c.kind} {c.player}: {c.verdict} (expected {c.expected})")
        out += [f"      decided by: {c.decided_by}"] if c.decided_by else []
        out += [f"      message: {c.message}"] if c.message and not c.passed else []
        out += [f"      certificate: {x}" for x in c.certificate] + [f"      counterexample: {x}" for x in c.counterexample]
    typer.echo("\n".join(visible(line) for line in "\n".join(out).split("\n")))
    raise typer.Exit(code)


def _explained(path: Path, timeout: float, safety: float):
    """``explain``'s check under a memory limit: in a spawned worker, so running out of memory there is a located
    error here, never an abort or a hang of this process."""
    from models.results import ScenarioResult
    from solver.run.batch import RunOptions, file_job, run

    [(_, record)] = list(run([file_job(path)], RunOptions(timeout=timeout, why=True, safety=safety)))
    record.pop("hash", None)
    return ScenarioResult.model_validate(record)


@app.command()
def schema(
    game: Optional[str] = typer.Option(None, "--game", "-g", help="One game's schema (default: every game, "
                                                                 "selected by the scenario's 'game:')."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to a file instead of stdout."),
) -> None:
    """Print the JSON Schema (draft-07) of scenario files with each game's words, for editor completion."""
    import json

    from solver.vocabulary.schema import combined_schema, game_schema

    if game is not None and game not in registry.names():
        _usage(f"unknown game '{game}' (choose from {', '.join(registry.names())})")
    text = json.dumps(game_schema(game) if game else combined_schema(), indent=2, ensure_ascii=False)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        typer.echo(text)


@app.command()
def rules(
    game: str = typer.Argument("core", help=f"{' | '.join(registry.names())}"),
    where: Optional[Path] = typer.Option(None, "--where", help="Also list the scenarios under this folder that cite each rule."),
    coverage: bool = typer.Option(False, "--coverage", help="For each rule, switch it off and name the first scenario "
                                  "(under --where, default scenarios/) that then fails; exit 1 if a rule has none."),
    clauses: bool = typer.Option(False, "--clauses", help="Every rule id with the file:line of its clauses in the "
                                 "encoding and of its reading in the reference (where the rule-id literal is written)."),
) -> None:
    """A game's reference: rule ids with their texts, every word with its meaning, the events with their fields and
    a minimal example (docs/games/<game>.md); with --where, the rule ids and the scenarios citing each; with
    --clauses, where the encoding and the reference write each rule id."""
    from solver.check import rulebook
    from solver.vocabulary.docs import render

    if game not in registry.names():
        _usage(f"unknown game '{game}' (choose from {', '.join(registry.names())})")
    if coverage:
        raise typer.Exit(_coverage(game, where or Path("scenarios")))
    if clauses:
        _clauses(game)
        return
    if where is None:
        typer.echo(render(game), nl=False)
        return
    from solver.run.formats import visible

    cited = _citations(where, game)
    for rid, text in sorted(rulebook.rules(game).items()):
        typer.echo(f"{rid:34} {text}")
        files = cited.get(rid, [])
        typer.echo("".join(f"{'':34}   - {visible(f)}\n" for f in files).rstrip("\n") if files
                   else f"{'':34}   (no scenario)")


def _clauses(game: str) -> None:
    """Print every rule id of ``game`` with the ``file:line`` of its clauses in the encoding and the reference."""
    from solver.check.clauses import clauses

    for c in clauses(game):
        typer.echo(c.rule)
        for part, places in (("encoding", c.encoding), ("reference", c.reference)):
            typer.echo("".join(f"  {part:9} {p}\n" for p in places).rstrip("\n") if places else f"  {part:9} (none)")


def _coverage(game: str, folder: Path) -> int:
    """Print the rule coverage of ``game`` by the scenarios under ``folder``; 1 if some rule is not covered."""
    from solver.check.coverage import coverage

    if not folder.exists():
        _usage(f"no such folder: {folder}")
    found = coverage(game, folder)
    for c in found:
        if c.scenario:
            typer.echo(f"{c.rule:34} covered by {c.scenario}: {c.how}")
        else:
            typer.echo(f"{c.rule:34} NOT COVERED: switched off, no scenario fails ({c.tried} tried)")
    missing = [c.rule for c in found if not c.scenario]
    typer.echo(f"\n{len(found) - len(missing)} of {len(found)} rules covered" +
               (f"; not covered: {', '.join(missing)}" if missing else ""))
    return FAILED if missing else PASSED


def _citations(folder: Path, game: str) -> dict[str, list[str]]:
    """Rule id -> scenario files under ``folder`` that cite it in ``rules:`` or ``because:``."""
    from models.loader import find_scenarios, load_scenario
    from models.yamlsafe import LoadError, LoadErrors
    from solver.check import rulebook

    out: dict[str, list[str]] = {}
    for path in find_scenarios([folder]):
        try:
            sc = load_scenario(path).scenario
        except (LoadError, LoadErrors):
            continue
        ids = set(sc.rules) | {b for ex in sc.expect for b in ex.because}
        for rid in sorted(rulebook.canonical(game, i) for i in ids):
            out.setdefault(rid, []).append(str(path))
    return out


@app.command()
def soak(
    game: list[str] = typer.Option([], "--game", help="Ruleset (repeatable; default: every ruleset the reference covers)."),
    count: int = typer.Option(1000, help="Random scenarios per ruleset."),
    seed: int = typer.Option(0),
    keep: Optional[Path] = typer.Option(None, help="Write disagreeing scenarios to this folder."),
    properties: bool = typer.Option(False, "--properties", help="Instead: arbiter prove and the reference, which "
                                    "enumerates the same space itself, agree on every property (issue 25)."),
) -> None:
    """Compare the checker with the solver-free reference on random scenarios; print compared/disagreed."""
    from solver.bench.soak import soak_command

    unknown = [g for g in game if g not in registry.names()]
    if unknown:
        _usage(f"unknown game {', '.join(unknown)} (choose from {', '.join(registry.names())})")
    if properties:
        from solver.prove.command import soak_properties
        raise typer.Exit(soak_properties(game or list(registry.names())))
    raise typer.Exit(soak_command(game or list(registry.names()), count, seed, keep))


# -- arbiter prove (issue 25): properties of the rules over a bounded space; the logic is in solver/prove/ --------
@app.command()
def prove(
    game: str = typer.Argument(..., help="The game whose properties (properties.yaml in its folder under solver/games/) to prove."),
    prop: list[str] = typer.Option([], "--property", help="Only this property id (repeatable)."),
    players: int = typer.Option(3, "--players", help="At most this many players."),
    objects: int = typer.Option(1, "--objects", help="At most this many objects."),
    events: int = typer.Option(1, "--events", help="Event sequences of at most this length."),
    board: Optional[str] = typer.Option(None, "--board", help="The board, RxC (Berserk)."),
    budget: float = typer.Option(60.0, "--budget", help="Work units per property (all its solves): spent: unknown."),
    states: int = typer.Option(20000, "--states", help="States of the space at most: more: unknown."),
    rules_off: list[str] = typer.Option([], "--rules-off", help="Switch this rule off in every model (repeatable)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each counterexample as a scenario file here."),
    json_out: bool = typer.Option(False, "--json", help="Print the answer as JSON (with the closure's answer)."),
) -> None:
    """Prove each property for every state and event sequence within the bound, or show the smallest counterexample."""
    from solver.prove.command import prove_command
    from solver.prove.spaces import Bound

    if game not in registry.names():
        _usage(f"unknown game {game} (choose from {', '.join(registry.names())})")
    rc = None
    if board:
        r, _, c = board.partition("x")
        if not (r.isdigit() and c.isdigit()):
            _usage(f"--board {board}: give rows x columns, as 2x3")
        rc = (int(r), int(c))
    raise typer.Exit(prove_command(game, list(prop), Bound(players, objects, events, rc), budget, states,
                                   list(rules_off), out, json_out))


def _terminate(signum, frame) -> None:
    """SIGTERM ends a batch like Ctrl-C: results written so far are kept."""
    raise KeyboardInterrupt


def main() -> None:
    """Console entry point: usage errors exit 2; internal errors exit 3 with a line asking for a bug report (the
    traceback only with ARBITER_DEBUG=1); a report that cannot be written in full (a full disk, a file-size limit)
    and running out of memory exit 2 with a message."""
    import signal

    from solver.errors import internal_message
    from solver.run.memory import limit_note
    from solver.run.output import OutputError, flush_stdout, install_strict_stdout

    signal.signal(signal.SIGTERM, _terminate)
    # no BLAS work is done here: one OpenBLAS thread saves ~40 MB of address space per process (and its failing
    # allocation under ulimit -v exits the process with no word from us)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    install_strict_stdout()
    code: int | str | None
    try:
        result = app(standalone_mode=False)  # not click's standalone mode: it makes Ctrl-C exit 1, like a failure
        code = result if isinstance(result, int) else PASSED
    except SystemExit as exc:
        code = exc.code
    except (KeyboardInterrupt, typer.Abort):
        code = INTERRUPTED
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.TyperException as exc:  # a usage error (click's): its message, exit 2
        exc.show()
        code = getattr(exc, "exit_code", REFUSED)
    except OutputError as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        code = REFUSED
    except MemoryError:
        print(f"arbiter: out of memory{limit_note()}", file=sys.stderr)
        code = REFUSED
    except ImportError as exc:  # a library that cannot be mapped into memory is out of memory too
        if "map segment" in str(exc) or "allocate memory" in str(exc):
            print(f"arbiter: out of memory{limit_note()} (loading {exc.name or 'a library'})", file=sys.stderr)
            code = REFUSED
        else:
            print(f"arbiter: {internal_message(exc)}", file=sys.stderr)
            code = INTERNAL
    except OSError as exc:  # the machine's, not the input's nor a bug: a full disk, a file-size limit, a closed pipe
        where = f": {exc.filename}" if exc.filename else ""
        print(f"arbiter: {exc.strerror or exc}{where}", file=sys.stderr)
        code = REFUSED
    except Exception as exc:  # noqa: BLE001 - a bug: said as one, never as the user's mistake
        print(f"arbiter: {internal_message(exc)}", file=sys.stderr)
        code = INTERNAL
    cut = flush_stdout()
    if cut is not None:
        print(f"arbiter: {cut}", file=sys.stderr)
        code = REFUSED if code in (PASSED, FAILED, None) else code
    sys.exit(code)


if __name__ == "__main__":
    main()
