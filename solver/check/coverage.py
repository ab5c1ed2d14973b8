"""Rule coverage: every rule of a game is tested by its scenarios.

A rule is covered when switching its literal off (leaving it out of the assumptions,
``SolverOptions.rules_off``) makes at least one library scenario fail: a verdict, a
``because`` or a claim goes wrong. A rule no scenario depends on is either dead or
untested; ``arbiter rules GAME --coverage`` lists it.

To stay fast, each scenario is compiled once to learn which rule literals its model
holds (switching off a rule its model does not hold changes nothing), and a rule is
tried first against the scenarios that cite it (``rules:`` or ``because:``), then the
others, stopping at the first failure. The core pseudo-game's rules are tried against
every game's scenarios.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from models.loader import LoadedScenario, find_scenarios, load_scenario
from models.results import ScenarioResult, ScenarioStatus
from models.yamlsafe import LoadError, LoadErrors
from solver.check import precedence, rulebook
from solver.check.checker import ScenarioCheck
from solver.encoding.compile import Compiler
from solver.engine.settings import SolverOptions
from solver.errors import Refusal
from solver.registry import combat_for, ruleset_for

#: work units per scenario with a rule off (``solver.engine.budget``): several times what any library scenario uses
#: with every rule on, so a rule counts as covered by an ``unknown`` only when leaving it out makes the search
#: that much harder (the same on every machine)
COVERAGE_BUDGET = 1.0


@dataclass
class Entry:
    """One library scenario: loaded, the rule ids its models hold, the rule ids it cites."""

    loaded: LoadedScenario
    holds: set[str]
    cites: set[str]


@dataclass
class Covered:
    """The coverage of one rule: the first scenario that fails with it off (None: none does), and how."""

    rule: str
    scenario: str | None = None
    how: str = ""
    tried: int = 0


def model_rules(loaded: LoadedScenario) -> set[str]:
    """The rule ids whose literals the checker's models of this scenario hold (events, expectations, precedence,
    and the combat rules when it has victory claims or asks a victory check for a decisive advantage)."""
    sc = loaded.scenario
    rs = ruleset_for(sc.game)
    comp = Compiler(sc, rs)
    comp.compile_events()
    for ex in sc.expect:
        if any(n not in ("unique", "outcomes") for n in ex.atom_names()):
            comp.expectation_lit(ex)
    precedence.prepare(comp, precedence.contests(comp), [comp.stage.index])
    out = set(comp.rm.rules)
    combat = combat_for(sc.game)
    if (sc.claims or comp.proofs) and combat is not None:
        out |= set(combat.rules)
    return out


def library(folder: Path) -> list[Entry]:
    """Every scenario under ``folder`` that loads and compiles, with what its models hold and what it cites."""
    out = []
    for path in find_scenarios([folder]):
        try:
            loaded = load_scenario(path)
            holds = model_rules(loaded)
        except (LoadError, LoadErrors, Refusal):
            continue  # a refused scenario is the checker's business, not coverage's (a bug is raised)
        sc = loaded.scenario
        cites = {rulebook.canonical(sc.game, r) for r in list(sc.rules) + [b for ex in sc.expect for b in ex.because]}
        out.append(Entry(loaded, holds, cites))
    return out


def _failure(res: ScenarioResult) -> str | None:
    """What no longer passes, in one line; None when the scenario still passes.

    A verdict or claim that becomes ``unknown`` counts (a scenario that is unknown does not pass), and says so:
    with the rule off, the search no longer concludes within its limit.
    """
    if res.status is ScenarioStatus.PASS:
        return None
    if res.status is ScenarioStatus.ERROR:
        return f"error: {res.error}"
    for e in res.expectations:
        if not e.passed:
            return f"line {e.line}: {e.description}: {e.message or e.verdict.value}"
    for c in res.claims:
        if not c.passed:
            return f"line {c.line}: claim {c.kind} {c.player}: {c.verdict} (expected {c.expected}) {c.message}".strip()
    return f"{res.status.value}: {res.error or ''}".rstrip(": ")


def cover(rule: str, entries: list[Entry], options: SolverOptions) -> Covered:
    """Switch ``rule`` off and check the scenarios that hold it, citing ones first, until one fails."""
    out = Covered(rule)
    mine = [e for e in entries if rule in e.holds]
    off = replace(options, rules_off=(rule,))
    for e in sorted(mine, key=lambda e: (rule not in e.cites, e.loaded.path)):
        out.tried += 1
        try:
            res = ScenarioCheck(e.loaded.scenario, e.loaded.path, e.loaded.expect_lines, off,
                                claim_lines=e.loaded.claim_lines).run()
        except Exception as exc:  # noqa: BLE001 - a model that breaks without the rule depends on it
            out.scenario, out.how = e.loaded.path, f"error: {type(exc).__name__}: {exc}"
            return out
        how = _failure(res)
        if how is not None:
            out.scenario, out.how = e.loaded.path, how
            return out
    return out


def coverage(game: str, folder: Path, rules: list[str] | None = None,
             options: SolverOptions | None = None, entries: list[Entry] | None = None) -> list[Covered]:
    """The coverage of every rule of ``game`` (or of ``rules``) by the scenarios under ``folder``."""
    opts = options or SolverOptions(max_outcomes=8, budget=COVERAGE_BUDGET)
    found = entries if entries is not None else library(folder)
    mine = [e for e in found if game == "core" or e.loaded.scenario.game == game]
    ids = rules if rules is not None else sorted(rulebook.rules(game) if game == "core" else
                                                 (r for r in rulebook.rules(game) if not r.startswith("core.")))
    return [cover(r, mine, opts) for r in ids]
