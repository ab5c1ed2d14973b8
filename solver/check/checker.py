"""The checker: outcomes, uniqueness, expectation verdicts, action legality and cores for one scenario.

A passing scenario with a unique outcome costs two solves: one finds the
outcome, one proves no other exists. Verdicts are then read off the outcomes;
cores (more solves) are computed only for what is excluded or asked about.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from models.expectations import Expectation
from models.results import (
    ActionResult, ExpectationResult, Outcome, ScenarioResult, ScenarioStatus, Verdict,
)
from models.scenario import Scenario
from solver.encoding.compile import Compiler
from solver.encoding.cp import Cat, Lit
from solver.engine.cores import Core
from solver.engine.settings import Answer, SolverOptions
from solver.engine.solve import Engine
from solver.registry import ruleset_for, vocabulary_for
from solver.check import rulebook
from solver.victory.analysis import check_claims


@dataclass
class Observed:
    """One enumerated outcome: values of observable keys and of the literals we read."""

    values: dict[str, str]
    reads: dict[str, bool]


def describe(ex: Expectation) -> str:
    """A one-line human description of an expectation."""
    if ex.description:
        return ex.description
    parts = [f"{n}={getattr(ex, n)}" for n in ex.atom_names()]
    subject = ex.object or ex.player or ex.action or ex.effect or ""
    return f"{subject}: {', '.join(parts)}".strip(": ")


class ScenarioCheck:
    """Checks one validated scenario."""

    def __init__(self, sc: Scenario, path: str = "<memory>", lines: dict | None = None,
                 options: SolverOptions | None = None, why: bool = False, claim_lines: dict | None = None) -> None:
        self.sc = sc
        self.path = path
        self.lines = lines or {}
        self.claim_lines = claim_lines or {}
        self.options = options or SolverOptions()
        self.why = why
        self.rs = ruleset_for(sc.game)

    # -- building ----------------------------------------------------------------
    def _observables(self, comp: Compiler) -> dict[str, object]:
        obs: dict[str, object] = {}
        for si in dict.fromkeys(comp.boundaries):
            for key, var in sorted(comp.stages[si].vars.items(), key=lambda kv: tuple(map(str, kv[0]))):
                obs[f"{si}|" + ".".join(str(k) for k in key)] = var
        for st in (comp.stages[0], comp.stage):
            for oid in comp.objects:
                if comp.effects_on(oid, "control"):
                    obs[f"{st.index}|controller.{oid}"] = comp.controller(st, oid)
        return obs

    def run(self) -> ScenarioResult:
        """Check the scenario and return its result."""
        t0 = time.perf_counter()
        res = ScenarioResult(path=self.path, id=self.sc.id, game=self.sc.game, title=self.sc.title,
                             status=ScenarioStatus.PASS, rules=list(self.sc.rules))
        self._check_rule_ids()
        comp = Compiler(self.sc, self.rs)
        comp.compile_events()
        ex_lits = {i: comp.expectation_lit(ex) for i, ex in enumerate(self.sc.expect) if _has_state_atoms(ex)}
        obs = self._observables(comp)
        reads = {f"ex{i}": lit for i, lit in ex_lits.items()}
        reads.update(_precedence_reads(comp))
        engine = Engine(comp.rm, self.options)
        outcomes, complete, unknown = self._enumerate(engine, obs, reads)
        res.outcomes_complete = complete
        stage0 = {k: v for k, v in outcomes[0].values.items() if k.startswith("0|")} if outcomes else {}
        res.outcomes = [_outcome(i, o, stage0, comp) for i, o in enumerate(outcomes)]
        if unknown:
            res.status = ScenarioStatus.UNKNOWN
            res.error = "time limit reached while enumerating outcomes"
        elif not outcomes:
            answer, core = engine.core()
            res.contradiction = _core_list(core) if core else []
        if outcomes and complete:
            res.unique = len(outcomes) == 1
        res.precedence = _precedence_report(outcomes[0].reads if outcomes else {}, reads)
        res.actions = self._actions(comp, engine, outcomes)
        for i, ex in enumerate(self.sc.expect):
            res.expectations.append(self._verdict(i, ex, ex_lits.get(i), outcomes, complete, unknown, engine))
        res.claims = check_claims(self.sc, self.claim_lines, self.options, res.outcomes,
                                  complete=res.outcomes_complete and not unknown)
        res.solves = engine.solves
        res.seconds = round(time.perf_counter() - t0, 4)
        res.status = _status(res)
        return res

    def _check_rule_ids(self) -> None:
        for rid in list(self.sc.rules) + [b for ex in self.sc.expect for b in ex.because]:
            rulebook.lookup(self.sc.game, rid)

    # -- enumeration -------------------------------------------------------------
    def _enumerate(self, engine: Engine, obs: dict, reads: dict[str, Lit]):
        outcomes: list[Observed] = []
        limit = self.options.max_outcomes
        while True:
            answer, s = engine.solve(enumerate_=True)
            if answer is Answer.UNKNOWN:
                return outcomes, False, True
            if answer is Answer.UNSAT:
                return outcomes, True, False
            values, pairs, seen = {}, [], set()
            for name, var in obs.items():
                first = id(var) not in seen
                seen.add(id(var))
                if isinstance(var, Cat):
                    v = var.decode(s)
                    values[name] = v
                    if first:
                        pairs.append((var.lits[v], 1))
                else:
                    val = s.value(var)
                    values[name] = str(val)
                    if first:
                        pairs.append((var, val))
            outcomes.append(Observed(values, {k: bool(s.boolean_value(lit)) for k, lit in reads.items()}))
            if len(outcomes) >= limit:
                return outcomes, False, False
            engine.block(pairs)

    # -- verdicts ----------------------------------------------------------------
    def _verdict(self, i: int, ex: Expectation, lit: Lit | None, outcomes: list[Observed], complete: bool,
                 unknown: bool, engine: Engine) -> ExpectationResult:
        r = ExpectationResult(index=i, line=self.lines.get(i), description=describe(ex), expected=ex.verdict,
                              verdict=Verdict.UNKNOWN, passed=False)
        whole = _whole_outcome_verdict(ex, outcomes, complete, unknown)
        if whole is False:
            r.message = f"there are {len(outcomes)}{'' if complete else '+'} outcome(s)"
        if lit is None:
            r.verdict = Verdict.UNKNOWN if whole is None else (Verdict.HOLDS if whole else Verdict.IMPOSSIBLE)
        elif unknown:
            r.verdict = Verdict.UNKNOWN
        elif complete:
            vals = [o.reads[f"ex{i}"] for o in outcomes]
            r.verdict = _from_values(vals)
            r.witness_true = next((k for k, v in enumerate(vals) if v), None)
            r.witness_false = next((k for k, v in enumerate(vals) if not v), None)
            if whole is False and r.verdict is Verdict.HOLDS:
                r.verdict = Verdict.IMPOSSIBLE
        else:
            r.verdict = self._verdict_by_solving(engine, lit)
        if r.verdict in (Verdict.IMPOSSIBLE, Verdict.HOLDS) and lit is not None and (
                r.verdict is Verdict.IMPOSSIBLE or ex.because or self.why):
            query = [lit] if r.verdict is Verdict.IMPOSSIBLE else [~lit]
            answer, core = engine.core(query, tuple(rulebook.canonical(self.sc.game, b) for b in ex.because))
            if answer is Answer.UNKNOWN:
                r.message = "core search hit the time limit"
            elif core:
                r.rules, r.facts = core.rules, core.facts
        r.passed = r.verdict.value == ex.verdict and self._because_ok(ex, r)
        if not r.passed and not r.message:
            r.message = self._failure_message(ex, r)
        return r

    def _verdict_by_solving(self, engine: Engine, lit: Lit) -> Verdict:
        yes, _ = engine.solve([lit])
        no, _ = engine.solve([~lit])
        if Answer.UNKNOWN in (yes, no):
            return Verdict.UNKNOWN
        if yes is Answer.SAT and no is Answer.SAT:
            return Verdict.POSSIBLE
        return Verdict.HOLDS if yes is Answer.SAT else Verdict.IMPOSSIBLE

    def _because_ok(self, ex: Expectation, r: ExpectationResult) -> bool:
        return not self._missing_because(ex, r)

    def _missing_because(self, ex: Expectation, r: ExpectationResult) -> list[str]:
        """The ``because`` ids (or sections) with no rule of the core under them, compared by canonical id."""
        return [b for b in ex.because if not any(rulebook.covers(self.sc.game, b, c) for c in r.rules)]

    def _failure_message(self, ex: Expectation, r: ExpectationResult) -> str:
        if r.verdict is Verdict.UNKNOWN:
            return "the solver hit its time limit: no verdict"
        if r.verdict.value != ex.verdict:
            msg = f"expected {ex.verdict}, but it is {r.verdict.value}"
            if r.rules:
                msg += f" (excluded by {', '.join(r.rules)})" if r.verdict is Verdict.IMPOSSIBLE else \
                    f" (forced by {', '.join(r.rules)})"
            if r.verdict is Verdict.POSSIBLE:
                msg += f": true in outcome {r.witness_true}, false in outcome {r.witness_false}"
            return msg
        missing = self._missing_because(ex, r)
        return f"verdict right, but the rules behind it ({', '.join(r.rules) or 'none'}) do not include {', '.join(missing)}"

    # -- actions -------------------------------------------------------------------
    def _actions(self, comp: Compiler, engine: Engine, outcomes: list[Observed]) -> list[ActionResult]:
        out = []
        final = comp.stage.index
        for a in comp.actions:
            key = f"{final}|status.{a}"
            statuses = sorted({o.values[key] for o in outcomes if key in o.values})
            ar = ActionResult(id=a, statuses=statuses)
            if statuses in (["illegal"], ["interrupted"]):
                answer, core = engine.core([~comp.stage["status", a].is_(statuses[0])])
                if core:
                    ar.rules = core.rules
            out.append(ar)
        return out


# -- helpers ---------------------------------------------------------------------------
def _has_state_atoms(ex: Expectation) -> bool:
    return any(n not in ("unique", "outcomes") for n in ex.atom_names())


def _whole_outcome_verdict(ex: Expectation, outcomes: list, complete: bool, unknown: bool) -> bool | None:
    """True/False for the 'unique'/'outcomes' atoms (None if not stated or undecided)."""
    checks = []
    if ex.unique is not None:
        if unknown or (not complete and ex.unique):
            return None
        checks.append((len(outcomes) == 1) == ex.unique)
    if ex.outcomes is not None:
        if unknown or (not complete and len(outcomes) <= ex.outcomes):
            return None
        checks.append(len(outcomes) == ex.outcomes)
    return all(checks) if checks else True


def _from_values(vals: list[bool]) -> Verdict:
    if vals and all(vals):
        return Verdict.HOLDS
    if any(vals):
        return Verdict.POSSIBLE
    return Verdict.IMPOSSIBLE


def _status(res: ScenarioResult) -> ScenarioStatus:
    if any(not e.passed and e.verdict is not Verdict.UNKNOWN for e in res.expectations):
        return ScenarioStatus.FAIL
    if any(not c.passed and c.verdict != "unknown" for c in res.claims):
        return ScenarioStatus.FAIL
    if res.status is ScenarioStatus.UNKNOWN or any(e.verdict is Verdict.UNKNOWN for e in res.expectations) \
            or any(c.verdict == "unknown" and not c.passed for c in res.claims):
        return ScenarioStatus.UNKNOWN
    return ScenarioStatus.PASS


def _core_list(core: Core) -> list[str]:
    return [f"rule {r}" for r in core.rules] + [f"fact {f}" for f in core.facts]


def _outcome(i: int, o: Observed, stage0: dict[str, str], comp: Compiler) -> Outcome:
    final = comp.stage.index
    state = {k.split("|", 1)[1]: v for k, v in o.values.items() if k.startswith(f"{final}|")}
    changes = []
    start = {k.split("|", 1)[1]: v for k, v in stage0.items()}
    for k, v in state.items():
        before = start.get(k)
        if before is not None and before != v:
            changes.append(f"{k}: {_zone_label(comp, start, k, before)} -> {_zone_label(comp, state, k, v)}")
    by_stage: dict[str, dict[str, str]] = {}
    for k, v in o.values.items():
        si, _, name = k.partition("|")
        by_stage.setdefault(si, {})[name] = v
    trace = [by_stage.get(str(si), {}) for si in comp.boundaries]
    return Outcome(index=i, changes=changes, state=state, trace=trace)


def _zone_label(comp: Compiler, state: dict[str, str], k: str, value: str) -> str:
    """A zone value with whose it is, for a zone each player has one of ("graveyard (bianca's)")."""
    if not k.startswith("zone."):
        return value
    obj = k[len("zone."):]
    holder = state.get(f"controller.{obj}", state.get(f"ctrl.{obj}"))
    whose = vocabulary_for(comp.sc.game).whose(value, comp.owner_of(obj), holder)
    return f"{value} ({whose}'s)" if whose and whose != "none" else value


def _precedence_reads(comp: Compiler) -> dict[str, Lit]:
    reads = {}
    st = comp.stage
    for key, val in list(st.derived.items()):
        if key[0] == "wins" and len(val) >= 2:
            for e, w in val:
                reads[f"wins|{'.'.join(key[1:])}|{e.id}"] = w
        if key[0] == "permission":
            permit, prohibit, ok = val
            name = ".".join(key[1:])
            reads.update({f"perm|{name}|permit": permit, f"perm|{name}|prohibit": prohibit, f"perm|{name}|ok": ok})
    return reads


def _precedence_report(values: dict[str, bool], reads: dict[str, Lit]) -> list[str]:
    groups: dict[str, list[tuple[str, bool]]] = {}
    for k in reads:
        if k.startswith("wins|"):
            _, char, eff = k.split("|")
            groups.setdefault(char, []).append((eff, values.get(k, False)))
    out = []
    perms = sorted({k.split("|")[1] for k in reads if k.startswith("perm|")})
    for name in perms:
        permit, prohibit, ok = (values.get(f"perm|{name}|{x}", False) for x in ("permit", "prohibit", "ok"))
        if permit and prohibit:
            out.append(f"{name}: prohibition beats permission -> not allowed")
        elif prohibit:
            out.append(f"{name}: prohibited -> not allowed")
        elif permit:
            out.append(f"{name}: permitted -> allowed")
    for char, effs in groups.items():
        winners = [e for e, w in effs if w]
        others = [e for e, w in effs if not w]
        if winners:
            out.append(f"{char}: effect {winners[0]} wins over {', '.join(others)} (latest timestamp)")
        else:
            out.append(f"{char}: no effect applies; base value")
    return out
