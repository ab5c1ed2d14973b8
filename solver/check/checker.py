"""The checker: outcomes, uniqueness, expectation verdicts, action legality and cores for one scenario.

A passing scenario with a unique outcome costs two solves: one finds the
outcome, one proves no other exists. Verdicts are then read off the outcomes.

Cores only when asked (``SolverOptions.lazy_cores``, the default): a rule core
(several solves) is computed for a failing verdict (its message names the rules),
with ``why`` (``arbiter explain``, ``check --why``: every verdict, action and
contradiction), and for a ``because`` that is not settled more cheaply: a
``because`` rule that every explanation needs (leaving out all of its rules makes
the query feasible: one solve) is in the core whatever core is chosen, so the
verdict passes without one. A passing scenario with no ``because`` costs only its
outcome solves. Without ``lazy_cores`` (the baseline), every ``impossible``
verdict, illegal or interrupted action and contradiction gets its core as well.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from models.expectations import Expectation
from models.results import (
    ActionResult, ExpectationResult, Outcome, ProofResult, ScenarioResult, ScenarioStatus, Step, Verdict,
)
from models.scenario import Scenario
from solver.encoding.compile import Compiler, ScenarioError
from solver.encoding.cp import Cat, Fixed, Lit
from solver.engine.budget import Meter
from solver.engine.cores import Core
from solver.engine.settings import Answer, SolverOptions
from solver.engine.solve import Engine
from solver.registry import ruleset_for, vocabulary_for
from solver.check import precedence, proofs, rulebook, trace
from solver.victory.analysis import check_claims


#: how the message of a verdict whose core search ran out of budget begins
CORE_STOPPED = "the core search stopped"
#: the observables a victory claim reads of an outcome's final state begin with this (``Ruleset.victory_state``)
CLAIM = "claim|"


@dataclass
class Observed:
    """One enumerated outcome: values of observable keys and of the literals we read (and its step trace)."""

    values: dict[str, str]
    reads: dict[str, bool]
    steps: list[Step] | None = None
    #: verdict reads (``ex<i>``, ``pre<k>``) that are true in one solution of this outcome and false in another: a
    #: value the outcome's observables do not determine (a derived value with its rule switched off, ``rules_off``)
    mixed: set[str] = field(default_factory=set)

    def read(self, name: str) -> bool | None:
        """A verdict read's value in this outcome: True, False, or None (true in one solution, false in another)."""
        return None if name in self.mixed else self.reads[name]


class Built(NamedTuple):
    """One build of a scenario's model and what the check reads of it."""

    comp: Compiler
    #: expectation index -> its literal (expectations about states)
    ex_lits: dict[int, Lit]
    #: observable name -> variable (or constant text outside the cone of influence)
    obs: dict[str, object]
    #: literal name -> literal, read in every outcome
    reads: dict[str, Lit]
    #: the contests of effects whose precedence is reported
    contests: list
    #: the proofs settled for this build (answers shared across builds)
    proofs: list[ProofResult]


def describe(ex: Expectation) -> str:
    """A one-line human description of an expectation."""
    if ex.description:
        return ex.description
    parts = [f"{n}={getattr(ex, n)}" for n in ex.atom_names()]
    subject = ex.object or ex.player or ex.action or ex.effect or ""
    return f"{subject}: {', '.join(parts)}".strip(": ")


class ScenarioCheck:
    """Checks one validated scenario."""

    #: the model builder (a sweep's read probe uses a subclass: ``solver.run.sweep.reads``)
    compiler: type[Compiler] = Compiler

    def __init__(self, sc: Scenario, path: str = "<memory>", lines: dict | None = None,
                 options: SolverOptions | None = None, why: bool = False, claim_lines: dict | None = None) -> None:
        self.sc = sc
        self.path = path
        self.lines = lines or {}
        self.claim_lines = claim_lines or {}
        options = options or SolverOptions()
        #: one work budget for every solve made for this scenario (``solver.engine.budget``)
        self.meter = Meter(options.budget, options.safety)
        self.options = replace(options, meter=self.meter, victory_memo={})
        self.why = why
        self.rs = ruleset_for(sc.game)
        self._proof_memo: dict = {}  # a proof's answer per position, shared by the builds of this scenario

    # -- building ----------------------------------------------------------------
    def _observables(self, comp: Compiler) -> dict[str, object]:
        """Every state key at every event boundary, by name: its variable, or (outside the cone of influence,
        ``Compiler.slicing``) its initial value as text, the same in every outcome."""
        obs: dict[str, object] = {}
        keys = sorted(comp.domains, key=lambda k: tuple(map(str, k)))
        names = {key: ".".join(str(k) for k in key) for key in keys}
        current = {key: comp.initial_text(key) for key in keys}  # each key's variable so far (a stage's own first)
        bounds = set(comp.boundaries)
        for st in comp.stages[:max(bounds) + 1]:
            current.update((k, v) for k, v in dict.items(st.vars) if k in current)
            if st.index in bounds:
                obs.update((f"{st.index}|{names[key]}", current[key]) for key in keys)
        for group in comp.open_orders():  # the order chosen among effects that entered together, in every state
            for eid in group:
                obs.update((f"{si}|order.{eid}", comp.rank(eid)) for si in bounds)
        for st in (comp.stages[0], comp.stage):
            for oid in comp.objects:
                if comp.effects_on(oid, "control"):
                    obs[f"{st.index}|controller.{oid}"] = comp.controller(st, oid)
        if self.sc.claims:  # a claim reads the final state as the victory analysis does (effective characteristics)
            obs.update((f"{CLAIM}{name}", var) for name, var in comp.rs.victory_state(comp, comp.stage).items())
        return obs

    def run(self) -> ScenarioResult:
        """Check the scenario and return its result."""
        t0 = time.perf_counter()
        res = ScenarioResult(path=self.path, id=self.sc.id, game=self.sc.game, title=self.sc.title,
                             status=ScenarioStatus.PASS, rules=list(self.sc.rules))
        self._check_rule_ids()
        built = self._build()
        if built.comp.late:  # rules read objects the scenario does not name: again, with them in the usual order
            built = self._build(frozenset(built.comp.late))
        comp, ex_lits, obs, reads, contests, res.proofs = built
        final = comp.stage.index
        engine = Engine(comp.rm, self.options)
        engine.cores.cited = {f"rule:{rulebook.canonical(self.sc.game, r)}" for r in self.sc.rules}
        engine.cores.shared = {f"rule:{r}" for r in trace.shared_owners(comp)}
        outcomes, complete, unknown = self._enumerate(engine, obs, reads, comp, contests)
        self._check_preconditions(comp, outcomes, None if complete else engine)
        res.outcomes_complete = complete
        stage0 = {k: v for k, v in outcomes[0].values.items() if k.startswith("0|")} if outcomes else {}
        res.outcomes = [_outcome(i, o, stage0, comp) for i, o in enumerate(outcomes)]
        if unknown:
            res.status = ScenarioStatus.UNKNOWN
            res.error = f"{self.meter.why()} while enumerating outcomes"
        if outcomes and complete:
            res.unique = len(outcomes) == 1
        if outcomes:  # explanations follow what happened: rules that did nothing in any outcome rank low
            active = set().union(*(trace.activity(comp, o.reads) for o in outcomes))
            engine.cores.demoted = {f"rule:{r}" for r in trace.transition_rules(comp) - active}
        res.open_orders = [_open_order(comp, group) for group in comp.open_orders()]
        res.precedence = precedence.report(contests, outcomes[0].reads, self.prec_stages, final) if outcomes else []
        res.actions = self._actions(comp, engine, outcomes)
        if outcomes:  # the core searches' witnesses lean away from the first outcome on every expectation's atoms: a
            # solution found for one question then answers the others' (``Engine.prefer``)
            engine.prefer([lit if outcomes[0].read(f"ex{i}") is False else comp.rm.neg(lit)
                           for i, lit in sorted(ex_lits.items()) if outcomes[0].read(f"ex{i}") is not None])
        for i, ex in enumerate(self.sc.expect):
            res.expectations.append(self._verdict(i, ex, ex_lits.get(i), outcomes, complete, unknown, engine, comp))
        _undecided_proofs(res, self.sc)
        claim_states = [{k[len(CLAIM):]: v for k, v in o.values.items() if k.startswith(CLAIM)} for o in outcomes]
        res.claims = check_claims(self.sc, self.claim_lines, self.options, claim_states,
                                  complete=res.outcomes_complete and not unknown)
        res.status = _status(res)
        if not outcomes and not unknown and (self.why or not self.options.lazy_cores
                                             or res.status is not ScenarioStatus.PASS):
            answer, core = engine.core()
            res.contradiction = _core_list(core) if core else []
        if res.status is ScenarioStatus.UNKNOWN and self.meter.stopped == "safety" and not res.error:
            res.error = self.meter.why()
        res.solves = engine.solves
        res.work = self.meter.used()
        res.seconds = round(time.perf_counter() - t0, 4)  # timing only: no answer reads it
        return res

    def _check_preconditions(self, comp: Compiler, outcomes: list[Observed], engine: Engine | None) -> None:
        """What an event needs in every outcome (an action on the stack to resolve): an outcome without it is a
        located error at the first such event, with the statuses it has there instead (in any order of enumeration).
        When the outcomes were not all enumerated (``engine`` given), a solve looks for one beyond them."""
        for k, (i, lit, message) in enumerate(comp.preconditions):
            ev = self.sc.events[i]
            if lit is comp.rm.false:  # known from the events alone
                raise ScenarioError(f"events[{i}] ({ev.type}): {message}")
            bad = [o for o in outcomes if o.read(f"pre{k}") is not True]
            if not bad and engine is not None and engine.solve([comp.rm.neg(lit)])[0] is Answer.SAT:
                raise ScenarioError(f"events[{i}] ({ev.type}): {message} (in an outcome beyond the first "
                                    f"{len(outcomes)})")
            if not bad:
                continue
            action = getattr(ev, "action", None)
            if action is None:  # a need that is no action's status (an MTG trigger's given controller)
                raise ScenarioError(f"events[{i}] ({ev.type}): {message}, in {len(bad)} of {len(outcomes)} outcome(s)")
            seen = sorted({o.values.get(f"{comp.boundaries[i]}|status.{action}", "?") for o in bad})
            raise ScenarioError(f"events[{i}] ({ev.type}): {message}, in {len(bad)} of {len(outcomes)} outcome(s) "
                                f"(where {action} was {' or '.join(seen)} before the event)")

    def _build(self, read: frozenset[str] = frozenset()) -> Built:
        """The model, its settled proofs, and what the check reads of it.

        ``read``: objects to create first with slicing, though the scenario does not name them (``Compiler.late``).
        """
        comp = self.compiler(self.sc, self.rs, slicing=self.options.slicing, read=read)
        comp.compile_events()
        settled = proofs.settle(comp, self.options, self._proof_memo)
        ex_lits = {i: _expectation_lit(comp, i, ex) for i, ex in enumerate(self.sc.expect) if _has_state_atoms(ex)}
        obs = self._observables(comp)
        reads = {f"ex{i}": lit for i, lit in ex_lits.items()}
        reads.update({f"pre{k}": lit for k, (_, lit, _) in enumerate(comp.preconditions)})
        self._verdict_reads = list(reads)  # what a verdict reads: enumeration blocks them too (``_enumerate``)
        contests = precedence.contests(comp)
        self.prec_stages = list(dict.fromkeys(comp.boundaries)) if self.why else [comp.stage.index]
        reads.update(precedence.prepare(comp, contests, self.prec_stages))
        reads.update(trace.condition_reads(comp))
        return Built(comp, ex_lits, obs, reads, contests, settled)

    def _check_rule_ids(self) -> None:
        for rid in list(self.sc.rules) + [b for ex in self.sc.expect for b in ex.because]:
            rulebook.lookup(self.sc.game, rid)

    # -- enumeration -------------------------------------------------------------
    def _enumerate(self, engine: Engine, obs: dict, reads: dict[str, Lit], comp: Compiler, contests: list):
        """Every outcome (distinct values of the observables), each solve blocking its observables and its verdict
        reads (``ex<i>``, ``pre<k>``): a verdict read the observables do not determine (a derived value whose rule is
        switched off, ``rules_off``) gets a second solution with the same observables, merged into the outcome as
        ``Observed.mixed``, so a verdict is proved over every solution, never read from one. Returns the outcomes,
        whether they are complete, and whether a solve ran out of budget. ``max_outcomes`` counts solutions."""
        outcomes: list[Observed] = []
        by_values: dict[tuple, Observed] = {}
        solutions, limit = 0, self.options.max_outcomes
        template = {name: var if isinstance(var, str) else None for name, var in obs.items()}  # constants: as text
        variables = [(name, var) for name, var in obs.items() if not isinstance(var, str)]
        verdict_reads = [(k, reads[k]) for k in self._verdict_reads]
        while True:
            answer, s = engine.solve(enumerate_=True)
            if answer is Answer.UNKNOWN:
                return outcomes, False, True
            if answer is Answer.UNSAT:
                return outcomes, True, False
            values, pairs, seen = dict(template), [], set()
            for name, var in variables:
                first = id(var) not in seen
                seen.add(id(var))
                if isinstance(var, Cat):
                    v = var.decode(s)
                    values[name] = v
                    if first and not isinstance(var, Fixed):
                        pairs.append((var.lits[v], 1))
                else:
                    val = s.value(var)
                    values[name] = str(val)
                    if first:
                        pairs.append((var, val))
            seen_reads = {k: bool(s.boolean_value(lit)) for k, lit in reads.items()}
            pairs += [(lit, int(seen_reads[k])) for k, lit in verdict_reads]
            same = by_values.get(tuple(values.values()))
            if same is None:
                steps = trace.steps(comp, seen_reads, s, contests, self.prec_stages) if self.why else None
                by_values[tuple(values.values())] = Observed(values, seen_reads, steps)
                outcomes.append(by_values[tuple(values.values())])
            else:  # the same outcome, a verdict read differs: it is not determined by the outcome
                same.mixed.update(k for k, _ in verdict_reads if seen_reads[k] != same.reads[k])
            solutions += 1
            if solutions >= limit:
                return outcomes, False, False
            engine.block(pairs)

    # -- verdicts ----------------------------------------------------------------
    def _verdict(self, i: int, ex: Expectation, lit: Lit | None, outcomes: list[Observed], complete: bool,
                 unknown: bool, engine: Engine, comp: Compiler) -> ExpectationResult:
        r = ExpectationResult(index=i, line=self.lines.get(i), description=describe(ex), expected=ex.verdict,
                              verdict=Verdict.UNKNOWN, passed=False)
        whole = _whole_outcome_verdict(ex, outcomes, complete, unknown)
        vals: list[bool | None] = []
        if whole is False:
            r.message = f"there are {len(outcomes)}{'' if complete else '+'} outcome(s)"
        if lit is None:
            r.verdict = Verdict.UNKNOWN if whole is None else (Verdict.HOLDS if whole else Verdict.IMPOSSIBLE)
        elif unknown:
            r.verdict = Verdict.UNKNOWN
        elif complete:
            vals = [o.read(f"ex{i}") for o in outcomes]  # None: true in one solution of the outcome, false in another
            r.verdict = _from_values(vals)
            r.witness_true = next((k for k, v in enumerate(vals) if v is not False), None)
            r.witness_false = next((k for k, v in enumerate(vals) if v is not True), None)
            if whole is False and r.verdict is Verdict.HOLDS:
                r.verdict = Verdict.IMPOSSIBLE
        else:
            r.verdict = self._verdict_by_solving(engine, lit)
        prefer = tuple(rulebook.canonical(self.sc.game, b) for b in ex.because)
        decided = r.verdict in (Verdict.IMPOSSIBLE, Verdict.HOLDS) and lit is not None
        query = ([lit] if r.verdict is Verdict.IMPOSSIBLE else [~lit]) if decided else []
        failing = r.verdict.value != ex.verdict  # the message names the rules behind the verdict
        judged = decided and not failing and bool(ex.because)  # the 'because' lines are put to the but-for test
        acted, because_unknown = self._because(ex, r, engine, comp, query) if judged else ({}, False)
        main = comp.stage_for(ex).index
        wrong = [b for b in ex.because if b not in acted] if judged else []
        if not self.options.lazy_cores:
            computed = decided and bool(r.verdict is Verdict.IMPOSSIBLE or ex.because or self.why or failing)
        else:
            computed = decided and bool(self.why or failing or wrong)
        self._cores_stopped = False  # a core search of this expectation ran out of budget
        if computed:
            answer, core = engine.core(query, prefer)
            if answer is Answer.UNKNOWN:
                self._cores_stopped = True
                r.message = f"{CORE_STOPPED}: {self.meter.why()}"
            elif core:
                r.rules, r.facts = core.rules, core.facts
                r.decided_by, r.also_needed, stopped = self._split(engine, query, core.rules)
                self._cores_stopped |= stopped
        r.no_core = _no_core(r, lit, outcomes, complete, computed)
        r.because_at = {b: _stage_name(comp, si) for b, si in acted.items() if si < main}
        r.passed = r.verdict.value == ex.verdict and (not judged or not wrong)
        if r.passed and r.verdict is Verdict.POSSIBLE and _undetermined_only(vals):
            r.passed = False  # no outcome where it is true and another where it is false: undetermined, not a choice
            r.message = (f"possible only inside outcome {vals.index(None)}: true in one solution and false in another "
                         f"(its state does not determine it: a derived value whose rule is switched off), not true in "
                         f"one outcome and false in another")
        if judged and wrong and (because_unknown or self._cores_stopped):
            # the verdict is right, but whether its 'because' decides it is not known: unknown, never a failure
            r.message = f"{r.verdict.value}, but whether {', '.join(wrong)} decide(s) it is unknown: {self.meter.why()}"
            r.verdict = Verdict.UNKNOWN
        elif r.verdict is Verdict.POSSIBLE and ex.because and r.verdict.value == ex.verdict:
            r.passed = False
            r.message = "a 'possible' verdict is decided by no rule: 'because' needs a holds or impossible verdict"
        if not r.passed and not r.message:
            later = self._later(ex, r, engine, comp, wrong) if judged else {}
            r.message = self._failure_message(ex, r, wrong, comp, later)
        return r

    def _later(self, ex: Expectation, r: ExpectationResult, engine: Engine, comp: Compiler,
               wrong: list[str]) -> dict[str, int]:
        """For the failure message: the first later event boundary where each wrong ``because`` id would decide the
        same verdict on the same atoms (the ``at`` that was perhaps meant)."""
        main = comp.stage_for(ex).index
        out: dict[str, int] = {}
        for si in sorted({b for b in comp.boundaries if b > main}):
            todo = [b for b in wrong if b not in out]
            if not todo:
                break
            q, _ = self._same_verdict_at(ex, r, engine, comp, si)
            if q is None:
                continue
            ok, _ = self._deciding(engine, q, todo)
            out.update({b: si for b in ok})
        return out

    # -- the deciding rule (but-for) ------------------------------------------------
    def _group(self, engine: Engine, ids) -> frozenset[str]:
        """The assumption names of every rule under the ids or sections ``ids``."""
        return frozenset(n for n in engine.named if n.startswith("rule:")
                         and any(rulebook.covers(self.sc.game, b, n[5:]) for b in ids))

    def _flips(self, engine: Engine, query: list[Lit], group: frozenset[str]) -> Answer:
        """But-for: with every rule of ``group`` left out (everything else as it is), can ``query`` hold? SAT: the
        group decides the verdict ``query`` contradicts; UNSAT: the verdict stands without it. One solve, memoised by
        the engine (``Engine.without``, shared with the core search)."""
        if not group:
            return Answer.UNSAT  # nothing of it is in the model: it cannot decide anything
        return engine.holds_without(query, group)

    def _deciding(self, engine: Engine, query: list[Lit], because: list[str]) -> tuple[set[str], bool]:
        """The ``because`` ids that decide the verdict ``query`` contradicts: alone (but for it, the verdict goes), or
        as a needed member of the whole list (the list decides jointly, the list without it does not); and whether a
        solve ran out of budget."""
        single = {b: self._flips(engine, query, self._group(engine, [b])) for b in because}
        ok = {b for b, a in single.items() if a is Answer.SAT}
        unknown = Answer.UNKNOWN in single.values()
        rest = [b for b in because if single[b] is Answer.UNSAT]
        if rest and len(because) > 1:
            whole = self._flips(engine, query, self._group(engine, because))
            unknown |= whole is Answer.UNKNOWN
            if whole is Answer.SAT:
                for b in rest:
                    without = self._flips(engine, query, self._group(engine, [x for x in because if x != b]))
                    unknown |= without is Answer.UNKNOWN
                    if without is Answer.UNSAT:
                        ok.add(b)
        return ok, unknown

    def _because(self, ex: Expectation, r: ExpectationResult, engine: Engine, comp: Compiler,
                 query: list[Lit]) -> tuple[dict[str, int], bool]:
        """For each ``because`` id that decides the verdict: the stage where it does, the expectation's own first,
        then earlier stages (latest first) where the verdict on the same atoms is the same (never the opposite);
        and whether a solve ran out of budget on the way."""
        main = comp.stage_for(ex).index
        ok, unknown = self._deciding(engine, query, ex.because)
        out = {b: main for b in ok}
        for si in range(main - 1, -1, -1):
            if all(b in out for b in ex.because):
                break
            q, same = self._same_verdict_at(ex, r, engine, comp, si)
            if q is None:
                unknown |= same is Answer.UNKNOWN
                continue
            ok, u = self._deciding(engine, q, ex.because)
            unknown |= u
            out.update({b: si for b in ok if b not in out})
        return out, unknown

    def _same_verdict_at(self, ex: Expectation, r: ExpectationResult, engine: Engine, comp: Compiler,
                         si: int) -> tuple[list[Lit] | None, Answer]:
        """The query against ``r``'s verdict on the same atoms at stage ``si``, if the verdict there is the same (its
        opposite cannot hold: UNSAT), else None; and the answer of that solve."""
        at = comp.expectation_lit(ex, comp.stages[si])
        q = [at] if r.verdict is Verdict.IMPOSSIBLE else [comp.rm.neg(at)]
        same, _ = engine.solve(q)
        return (q if same is Answer.UNSAT else None), same

    def _split(self, engine: Engine, query: list[Lit], rules: list[str]) -> tuple[list[str], list[str], bool]:
        """A core's rules split by the but-for test: those whose removal alone flips the verdict (decided by), and
        the rest of the minimal core (also needed); and whether a solve ran out of budget."""
        flips = {c: self._flips(engine, query, frozenset({f"rule:{c}"})) for c in rules}
        decided = [c for c in rules if flips[c] is Answer.SAT]
        return decided, [c for c in rules if c not in decided], Answer.UNKNOWN in flips.values()

    def _verdict_by_solving(self, engine: Engine, lit: Lit) -> Verdict:
        yes, _ = engine.solve([lit])
        no, _ = engine.solve([~lit])
        if Answer.UNKNOWN in (yes, no):
            return Verdict.UNKNOWN
        if yes is Answer.SAT and no is Answer.SAT:
            return Verdict.POSSIBLE
        return Verdict.HOLDS if yes is Answer.SAT else Verdict.IMPOSSIBLE

    def _failure_message(self, ex: Expectation, r: ExpectationResult, wrong: list[str], comp: Compiler,
                         later: dict[str, int] | None = None) -> str:
        if r.verdict is Verdict.UNKNOWN:
            return f"no verdict: {self.meter.why()}"
        if r.verdict.value != ex.verdict:
            msg = f"expected {ex.verdict}, but it is {r.verdict.value}"
            if r.rules:
                msg += f" (excluded by {', '.join(r.rules)})" if r.verdict is Verdict.IMPOSSIBLE else \
                    f" (forced by {', '.join(r.rules)})"
            if r.verdict is Verdict.POSSIBLE and r.witness_true is not None and r.witness_true == r.witness_false:
                msg += (f": in outcome {r.witness_true} it is true in one solution and false in another (its state "
                        f"does not determine it: a derived value whose rule is switched off)")
            elif r.verdict is Verdict.POSSIBLE:
                msg += f": true in outcome {r.witness_true}, false in outcome {r.witness_false}" \
                    if r.witness_true is not None and r.witness_false is not None else ": true in some outcome, false in another"
            return msg
        at = len(self.sc.events) if ex.at is None else ex.at
        msg = (f"verdict right, but {', '.join(wrong)} {'does' if len(wrong) == 1 else 'do'} not decide it: with "
               f"{'it' if len(wrong) == 1 else 'them'} switched off the verdict on {_state_name(at, self.sc.events, ex.step)} "
               f"still holds (nor at an earlier stage with the same verdict)")
        if r.decided_by:
            msg += f"; decided by {', '.join(r.decided_by)}"
        else:
            msg += "; no rule decides it alone (each has a stand-in)" if r.rules else "; no rule decides it"
        if r.also_needed:
            msg += f"; only supporting (also needed): {', '.join(r.also_needed)}"
        for b in wrong:
            if b not in (later or {}):
                msg += f"; {b} decides these atoms at no stage, up to the end"
        for b, si in (later or {}).items():
            k = next(i for i, bound in enumerate(comp.boundaries) if bound >= si)
            msg += (f"; {b} would be needed after event {k} ({trace.event_label(self.sc.events[k - 1])}), but this "
                    f"expectation is about {_state_name(at, self.sc.events, ex.step)}: set at: {k}")
        return msg

    # -- actions -------------------------------------------------------------------
    def _actions(self, comp: Compiler, engine: Engine, outcomes: list[Observed]) -> list[ActionResult]:
        out = []
        final = comp.stage.index
        for a in comp.actions:
            key = f"{final}|status.{a}"
            statuses = sorted({o.values[key] for o in outcomes if key in o.values})
            ar = ActionResult(id=a, statuses=statuses)
            if statuses in (["illegal"], ["interrupted"]) and (self.why or not self.options.lazy_cores):
                query = [~comp.stage["status", a].is_(statuses[0])]
                answer, core = engine.core(query)
                if core:
                    ar.rules = core.rules
                    ar.decided_by, ar.also_needed, _ = self._split(engine, query, core.rules)
            out.append(ar)
        return out


# -- helpers ---------------------------------------------------------------------------
def _expectation_lit(comp: Compiler, i: int, ex: Expectation) -> Lit:
    """The literal of expectation ``i``; a state it names that the scenario does not have is an error at it."""
    try:
        return comp.expectation_lit(ex)
    except ScenarioError as exc:
        raise ScenarioError(f"expect[{i}]: {exc}") from None


def _undecided_proofs(res: ScenarioResult, sc: Scenario) -> None:
    """A proof left ``unknown`` leaves its fact free in some position: an expectation about a state from its event
    on whose verdict could hang on it (``possible``, or a count of outcomes) is ``unknown``, never a pass."""
    open_ = [p for p in res.proofs if p.verdict == "unknown" and p.ruling is None]  # a ruling decides where unknown
    if not open_:
        return
    first = min(p.event for p in open_)
    names = "; ".join(f"{p.kind} of {p.player} at event {p.event}" + (f" ({p.message})" if p.message else "")
                      for p in open_)
    for e in res.expectations:
        ex = sc.expect[e.index]
        after = ex.at is None or ex.at >= first
        whole = ex.unique is not None or ex.outcomes is not None
        if after and (e.verdict is Verdict.POSSIBLE or whole):
            e.verdict, e.passed = Verdict.UNKNOWN, False
            e.message = f"depends on a proof that is unknown: {names}"


def _has_state_atoms(ex: Expectation) -> bool:
    return any(n not in ("unique", "outcomes") for n in ex.atom_names())


def _whole_outcome_verdict(ex: Expectation, outcomes: list, complete: bool, unknown: bool) -> bool | None:
    """True/False for the 'unique'/'outcomes' atoms (None if not stated or undecided)."""
    checks = []
    if ex.unique is not None:
        if unknown or (not complete and ex.unique and len(outcomes) < 2):  # two outcomes found: not unique
            return None
        checks.append((len(outcomes) == 1) == ex.unique)
    if ex.outcomes is not None:
        if unknown or (not complete and len(outcomes) <= ex.outcomes):
            return None
        checks.append(len(outcomes) == ex.outcomes)
    return all(checks) if checks else True


def _undetermined_only(vals: list[bool | None]) -> bool:
    """Some outcome leaves the value open (None) and no two outcomes decide it both ways (one true, one false)."""
    return None in vals and not (True in vals and False in vals)


def _from_values(vals: list[bool | None]) -> Verdict:
    """The verdict over every outcome's value (None: true in one solution of the outcome, false in another)."""
    if vals and all(v is True for v in vals):
        return Verdict.HOLDS
    if any(v is not False for v in vals):
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


def _stage_name(comp: Compiler, si: int) -> str:
    """Where a stage is: 'the initial state', or 'event N (label), stage "label"'."""
    if si == 0:
        return "the initial state"
    k = next(i for i, bound in enumerate(comp.boundaries) if bound >= si)
    return f"event {k} ({trace.event_label(comp.sc.events[k - 1])}), stage '{comp.stages[si].label}'"


def _state_name(at: int, events: list, step: str | None = None) -> str:
    """'the initial state', 'the state after event N (label)' or 'the state after step 'S' of event N (label)'."""
    if at == 0:
        return "the initial state"
    inside = f"step '{step}' of " if step is not None else ""
    return f"the state after {inside}event {at} ({trace.event_label(events[at - 1])})"


def _no_core(r: ExpectationResult, lit: Lit | None, outcomes: list[Observed], complete: bool, computed: bool) -> str:
    """Why a holds or impossible verdict shows no rule, or '' when it shows some (or is neither)."""
    if r.verdict not in (Verdict.HOLDS, Verdict.IMPOSSIBLE) or r.rules:
        return ""
    if lit is None:
        return f"about the whole outcome set: decided by enumerating the outcomes ({len(outcomes)}" \
               f"{'' if complete else '+'}), not by a core"
    if not computed:
        return "not computed (arbiter explain or check --why computes the rules behind every verdict)"
    if r.message.startswith(CORE_STOPPED):
        return r.message
    if r.facts:
        return "no rule is involved: the initial facts decide it and no rule could change them"
    return "no rule or fact is needed: " + ("the atoms hold in every state the model can express"
                                            if r.verdict is Verdict.HOLDS else
                                            "the atoms cannot hold in any state the model can express")


def _core_list(core: Core) -> list[str]:
    return [f"rule {r}" for r in core.rules] + [f"fact {f}" for f in core.facts]


def _open_order(comp: Compiler, group: tuple[str, ...]) -> str:
    """Why the order of effects of cards that entered together is open: the rule giving it to a player, or none."""
    stamp = comp.effects[group[0]].timestamp
    rule = comp.rs.open_order_rule()
    why = (f"{rule}: {rulebook.lookup(comp.sc.game, rule).rstrip('.')}" if rule else "no rule orders these effects")
    return (f"effects {', '.join(group)}: their sources entered together (timestamp {stamp}); {why}: every order is "
            f"an outcome (order.<effect> in each outcome, 0 applied first)")


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
    states = [by_stage.get(str(si), {}) for si in comp.boundaries]
    return Outcome(index=i, changes=changes, state=state, trace=states, steps=o.steps or [])


def _zone_label(comp: Compiler, state: dict[str, str], k: str, value: str) -> str:
    """A zone value with whose it is, for a zone each player has one of ("graveyard (bianca's)")."""
    if not k.startswith("zone."):
        return value
    obj = k[len("zone."):]
    holder = state.get(f"controller.{obj}", state.get(f"ctrl.{obj}"))
    whose = vocabulary_for(comp.sc.game).whose(value, comp.owner_of(obj), holder)
    return f"{value} ({whose}'s)" if whose and whose != "none" else value
