"""Differential check: the checker's outcomes and verdicts against the reference's, for one scenario.

It reads the reference (``solver.reference``, which never imports the checker, the
encoding or the engine) and runs the checker through its public entry point; it
lives beside the checker so that the reference folder holds only the reading.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.expectations import Expectation
from models.results import ScenarioResult, ScenarioStatus
from models.scenario import Scenario
from solver.reference.brute import enumerate_traces
from solver.reference.rules import Unsupported
from solver.check import rulebook
from solver.reference.validate import DERIVED, applied_rules, broken_rules, validate
from solver.reference.world import World, build_world, rules_for


@dataclass
class Comparison:
    """The result of comparing the checker with the reference on one scenario."""

    scenario: str
    agree: bool = True
    skipped: str = ""
    solver_outcomes: int = 0
    reference_outcomes: int = 0
    verdicts: int = 0
    problems: list[str] = field(default_factory=list)

    def disagree(self, message: str) -> None:
        """Record a disagreement."""
        self.agree = False
        self.problems.append(message)


def project(w: World, trace: list[dict]) -> tuple:
    """A trace as a hashable value over the keys the reference models (missing keys: unchanged)."""
    out, prev = [], dict(w.initial)
    for st in trace:
        cur = {k: st.get(k, prev[k]) for k in w.domains}
        out.append(tuple(sorted(cur.items())))
        prev = cur
    return tuple(out)


def reference_verdict(w: World, ex: Expectation, traces: list) -> str:
    """holds / possible / impossible over the reference's traces, read like the checker reads outcomes."""
    has_state = any(n not in ("unique", "outcomes") for n in ex.atom_names())
    whole = True
    if ex.unique is not None:
        whole = whole and (len(traces) == 1) == ex.unique
    if ex.outcomes is not None:
        whole = whole and len(traces) == ex.outcomes
    if not has_state:
        return "holds" if whole else "impossible"
    n = len(w.sc.events)
    at = n if ex.at is None else ex.at
    states = [t[at] if ex.step is None else step_state(w, t, at, ex.step) for t in traces]
    if any(st is None for st in states):
        return f"unaddressed: the reference reads no step '{ex.step}' inside event {at}"
    vals = [w.rules.holds(w, st, ex) for st in states]
    verdict = "holds" if vals and all(vals) else ("possible" if any(vals) else "impossible")
    return "impossible" if verdict == "holds" and not whole else verdict


def step_state(w: World, t: list, at: int, name: str) -> dict | None:
    """The state after the step ``name`` inside event ``at`` of trace ``t`` (the reference's own reading of that
    event's steps, ``Step.inside``), or None where it reads no such step."""
    return w.rules.step(w, t[at - 1], w.sc.events[at - 1]).inside.get(name)


def compare_result(sc: Scenario, res: ScenarioResult) -> Comparison:
    """Compare a checker result with the reference: outcome sets, every outcome validated, every verdict; and an event
    that needs what it does not have (an action not on the stack to resolve) is a located error on both sides."""
    cmp = Comparison(scenario=sc.id)
    w = build_world(sc, rules_for(sc.game))
    traces = enumerate_traces(sc, w) if has_needs(w, sc) else None
    bad = needs_broken(w, sc, traces) if traces is not None else None
    if bad is not None:
        error = res.error or ""
        if res.status is not ScenarioStatus.ERROR:
            cmp.disagree(f"events[{bad}] ({sc.events[bad].type}) needs what it does not have in a reference trace, "
                         f"but the checker reports no error")
        elif f"events[{bad}] " not in error:
            cmp.disagree(f"the reference finds events[{bad}] in error first; the checker: {error}")
        return cmp
    if res.status is ScenarioStatus.ERROR:
        cmp.skipped = f"checker error: {res.error}"
        if traces is None and (res.error_kind == "not_modelled" or "NotModelled" in (res.error or "")):
            try:  # a mechanic the checker does not model: a gap only where the reference reads it
                enumerate_traces(sc, w)
            except Unsupported as exc:
                cmp.skipped = f"neither reading models it: the checker: {res.error}; the reference: {exc}"
        return cmp
    if not res.outcomes_complete or res.status is ScenarioStatus.UNKNOWN:
        cmp.skipped = "checker enumeration incomplete"
        return cmp
    if any(p.verdict == "unknown" for p in res.proofs):
        cmp.skipped = "a proof the scenario asks for is unknown"
        return cmp
    for o in res.outcomes:
        bad_trace = validate(sc, o.trace, w)
        if bad_trace:
            cmp.disagree(f"outcome {o.index} breaks {', '.join(broken_rules(bad_trace))}: {bad_trace[0]}")
    traces = traces if traces is not None else enumerate_traces(sc, w)
    mine = {project(w, t) for t in traces}
    theirs = {project(w, o.trace) for o in res.outcomes}
    cmp.solver_outcomes, cmp.reference_outcomes = len(theirs), len(mine)
    if len(theirs) != len(res.outcomes):
        cmp.disagree("two checker outcomes are the same state trace")
    for t in sorted(mine - theirs)[:2]:
        cmp.disagree(f"missing from the checker (incomplete): {_diff(t, theirs)}")
    for t in sorted(theirs - mine)[:2]:
        cmp.disagree(f"extra in the checker (unsound): {_diff(t, mine)}")
    cmp.verdicts = len(res.expectations)
    for er in res.expectations:
        want = reference_verdict(w, sc.expect[er.index], traces)
        if er.verdict.value != want:
            cmp.disagree(f"expect[{er.index}] ({er.description}): checker {er.verdict.value}, reference {want}")
    compare_rules(cmp, w, sc, res, traces, _but_for(sc, res))
    return cmp


def _but_for(sc: Scenario, res: ScenarioResult):
    """``decides(rule, index)``: with ``rule`` switched off, the verdict of expectation ``index`` (or, with an action's
    id, that action's statuses) changes. A rule in one minimal core that another minimal core does without (the frames
    relaxed with the rules that own them) is only supporting: the but-for test tells the two apart. One check per
    rule asked about, cached."""
    from solver.check.checker import ScenarioCheck
    from solver.engine.settings import SolverOptions

    runs: dict[str, ScenarioResult | None] = {}

    def decides(rule: str, index: int | None) -> bool:
        if rule not in runs:
            try:
                runs[rule] = ScenarioCheck(sc, res.path, options=SolverOptions(
                    max_outcomes=512, lazy_cores=False, rules_off=(rule,))).run()
            except Exception:  # noqa: BLE001 - no verdict without the rule: count it as deciding (compared)
                runs[rule] = None
        off = runs[rule]
        if off is None or off.status is ScenarioStatus.ERROR:
            return True
        if isinstance(index, str):  # an action's id: another set of statuses
            return ({a.id: a.statuses for a in off.actions}.get(index)
                    != {a.id: a.statuses for a in res.actions}.get(index))
        return off.expectations[index].verdict is not res.expectations[index].verdict
    return decides


def has_needs(w: World, sc: Scenario) -> bool:
    """Does some event need something of the state before it (``event_needs`` of the game's reference)?"""
    return any(w.rules.event_needs(w, ev) is not None for ev in sc.events)


def needs_broken(w: World, sc: Scenario, traces: list) -> int | None:
    """The first event whose need fails in some reference trace (the state before it), or None."""
    for i, ev in enumerate(sc.events):
        need = w.rules.event_needs(w, ev)
        if need is not None and any(t[i].get(need[0]) != need[1] for t in traces):
            return i
    return None


def compare_rules(cmp: Comparison, w: World, sc: Scenario, res: ScenarioResult, traces: list,
                  decides=None) -> None:
    """The rule ids behind each verdict.

    Every ``because`` of the scenario must be a rule the reference applies along some trace up to the state the
    expectation is about (a wrong ``because`` disagrees); every game rule in a checker core must be one the
    reference applies somewhere in the scenario (the checker never blames a rule the scenario does not involve),
    unless it only supports the verdict: ``decides(rule, index)`` says whether switching it off changes the verdict
    (another minimal core does without it).
    Core rules (``core.*``: the frame, precedence, the action lifecycle) hold everywhere and are not compared.
    """
    if not traces:
        return  # no legal outcome: nothing to read the rules along (the contradiction's core is the checker's)
    n = len(sc.events)
    upto = {er.index: set().union(*(applied_rules(w, t, n if sc.expect[er.index].at is None else sc.expect[er.index].at,
                                                 sc.expect[er.index]) for t in traces)) for er in res.expectations}
    anywhere = set().union(*(applied_rules(w, t, n) for t in traces), *upto.values())
    for er in res.expectations:
        ex = sc.expect[er.index]
        at = n if ex.at is None else ex.at
        applied = upto[er.index]
        for b in ex.because:
            if not any(rulebook.covers(sc.game, b, r) for r in applied):
                cmp.disagree(f"expect[{er.index}] ({er.description}): because {b}, but the reference never applies it"
                             f"{'' if ex.at is None else f' by event {at}'}")
        for rule in sorted(r for r in set(er.rules) - anywhere if not r.startswith("core.")):
            if decides is not None and not decides(rule, er.index):
                continue
            cmp.disagree(f"expect[{er.index}] ({er.description}): the checker names {rule}, "
                         f"which the reference never applies")
    for ar in res.actions:
        for rule in sorted(r for r in set(ar.rules) - anywhere if not r.startswith("core.")):
            if decides is not None and not decides(rule, ar.id):
                continue
            cmp.disagree(f"action {ar.id}: the checker names {rule}, which the reference never applies")


def _diff(t: tuple, others: set) -> str:
    if not others:
        return f"a trace of {len(t)} states (the other side has none)"
    near = min(others, key=lambda o: sum(a != b for sa, sb in zip(t, o) for a, b in zip(sa, sb)))
    for i, (sa, sb) in enumerate(zip(t, near)):
        d = [f"{a[0]}={a[1]} (other: {b[1]})" for a, b in zip(sa, sb) if a != b]
        if d:
            return f"state {i}: " + ", ".join(d[:4])
    return "identical?"


def differential(sc: Scenario, options=None, path: str = "<generated>") -> Comparison:
    """Check ``sc`` with the checker (complete enumeration) and compare with the reference."""
    from solver.check.checker import ScenarioCheck
    from solver.engine.settings import SolverOptions

    opts = options or SolverOptions(max_outcomes=512, lazy_cores=False)  # every core the rules are compared on
    try:
        res = ScenarioCheck(sc, path, options=opts).run()
    except Exception as exc:  # noqa: BLE001 - an encoding error is compared with the reference's reading
        res = ScenarioResult(path=path, status=ScenarioStatus.ERROR, error=f"{type(exc).__name__}: {exc}")
    return compare_result(sc, res)


__all__ = ["Comparison", "DERIVED", "compare_result", "compare_rules", "differential", "project", "reference_verdict"]
