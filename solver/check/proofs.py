"""Facts the rules read that an outside proof settles: a decisive advantage asked at a victory check.

A rule that needs such a fact (Berserk 602.1: "the player holds a decisive advantage")
reads a literal and registers a ``ProofRequest`` with the compiler. Before the
scenario is solved, each request is settled here:

1. every state the rules allow at the request's stage is projected on what the proof
   reads (creatures, zones, controllers, lives, cells ...) and enumerated (CP-SAT,
   with blocking clauses, under every rule and fact of the scenario so far);
2. the proof (its own CP-SAT searches: the victory analysis) decides each position;
3. its verdict enters the model explicitly, under one fact literal named after the
   proof: ``fact -> (position -> claim == proved)``. A core that needs the verdict
   names that fact; the certificate or counterexample is in the result.

``unknown`` (the work budget ran out, too many positions) leaves the claim free in that
position and is reported: the verdicts that depend on it are ``unknown``, never a
pass (``solver.check.checker``).
"""
from __future__ import annotations

from models.results import ProofResult
from solver.encoding.compile import Compiler, ProofRequest, ScenarioError
from solver.encoding.cp import Cat
from solver.engine.settings import Answer, SolverOptions
from solver.engine.solve import Engine
from solver.victory.model import CombatError

#: most positions enumerated for one proof request
MAX_POSITIONS = 32


def _is_literal(var) -> bool:
    """A Boolean variable, a negated one or a Boolean constant (not an integer variable)."""
    proto = getattr(var, "proto", None)
    return proto is None or set(proto.domain) <= {0, 1}


def decode(s, observe: dict[str, object]) -> dict[str, str]:
    """The values of the observed variables in a solution, as state text ("1"/"0" for literals)."""
    out = {}
    for name, var in observe.items():
        if isinstance(var, Cat):
            out[name] = var.decode(s)
        elif _is_literal(var):
            out[name] = "1" if s.boolean_value(var) else "0"
        else:
            out[name] = str(s.value(var))
    return out


def decisive(req: ProofRequest, values: dict[str, str]) -> dict[str, str]:
    """The values that decide the position (``ProofRequest.needed``; all of them by default)."""
    if req.needed is None:
        return values
    return {name: values[name] for name in req.needed(values)}


def at(comp: Compiler, observe: dict[str, object], values: dict[str, str]):
    """Literal: the observed variables named in ``values`` take those values (one position)."""
    rm, lits = comp.rm, []
    for name, v in values.items():
        var = observe[name]
        if isinstance(var, Cat):
            lits.append(var.is_(v))
        elif _is_literal(var):
            lits.append(var if v == "1" else rm.neg(var))
        else:
            lits.append(rm.int_eq(var, int(v)))
    return rm.all_of(lits, "position")


def positions(comp: Compiler, req: ProofRequest, options: SolverOptions) -> tuple[list[dict[str, str]], str]:
    """Every position the rules allow at the request's stage (at most MAX_POSITIONS), and why the list is incomplete
    ('' when it is complete)."""
    engine = Engine(comp.rm, options)
    found: list[dict[str, str]] = []
    more = comp.rm.new_bool(f"positions.{req.name}")
    while True:
        answer, s = engine.solve([more])
        if answer is Answer.UNKNOWN:
            return found, f"{engine.meter.why()} while enumerating the positions"
        if answer is Answer.UNSAT:
            return found, ""
        if len(found) == MAX_POSITIONS:
            return found, f"more than {MAX_POSITIONS} positions"
        values = decisive(req, decode(s, req.observe))
        found.append(values)
        comp.rm.model.add_bool_or([comp.rm.neg(at(comp, req.observe, values))]).only_enforce_if(more)


def settle(comp: Compiler, options: SolverOptions | None = None, memo: dict | None = None) -> list[ProofResult]:
    """Settle every proof request of the compiled scenario, in event order; the results to report.

    ``memo``: the proof's answers by request and position, kept by the caller across builds of the same scenario
    (the checker builds the model again when the cone of influence grows), so a position is proved once."""
    options = options or SolverOptions()
    memo = {} if memo is None else memo
    return [settle_one(comp, req, options, memo) for req in comp.proofs]


def settle_one(comp: Compiler, req: ProofRequest, options: SolverOptions, memo: dict) -> ProofResult:
    """Enumerate the positions, ask the proof about each (unless ``memo`` has its answer), and state its verdicts
    under the request's fact."""
    rm = comp.rm
    found, incomplete = positions(comp, req, options)
    fact = rm.fact(req.name)
    res = ProofResult(event=req.event + 1, kind=req.kind, player=req.player, fact=req.name, verdict="unknown",
                      positions=len(found), ruling=req.ruling)
    verdicts = []
    for k, values in enumerate(found):
        key = (req.name, tuple(sorted(values.items())))
        try:
            answer = memo[key] if key in memo else memo.setdefault(key, req.decide(values, options))
        except CombatError as exc:  # the position's combat data cannot be analysed: bad input, located at the event
            raise ScenarioError(f"events[{req.event}] ({req.kind} of {req.player}): {exc}") from None
        verdicts.append(answer.verdict)
        how = getattr(answer, "decided_by", "") or answer.verdict
        res.decided_by = "; ".join(x for x in (res.decided_by, f"position {k + 1}: {how}" if len(found) > 1 else how)
                                   if x)
        if answer.verdict in ("proved", "refuted"):
            rm.model.add(req.claim == int(answer.verdict == "proved")).only_enforce_if([fact, at(comp, req.observe,
                                                                                                 values)])
        head = f"position {k + 1} of {len(found)}: {answer.verdict}" if len(found) > 1 else ""
        res.certificate += ([head] if head and answer.certificate else []) + list(answer.certificate)
        res.counterexample += ([head] if head and answer.counterexample else []) + list(answer.counterexample)
        if answer.message:
            res.message = "; ".join(x for x in (res.message, answer.message) if x)
    if incomplete:
        res.verdict, res.message = "unknown", "; ".join(x for x in (incomplete, res.message) if x)
        res.decided_by = "; ".join(x for x in (f"unknown: {incomplete} ({work_used(options)})", res.decided_by) if x)
    elif not found:
        res.verdict, res.message = "none", "no legal state reaches this event: nothing to prove"
        res.decided_by = "none: no legal state reaches this event"
    elif "unknown" in verdicts:
        res.verdict = "unknown"
    else:
        res.verdict = verdicts[0] if len(set(verdicts)) == 1 else "mixed"
    if req.ruling is not None:
        res.message = "; ".join(x for x in (res.message, _ruled(req, verdicts, bool(incomplete))) if x)
    return res


def work_used(options: SolverOptions) -> str:
    """The work the scenario's meter has spent, in words."""
    meter = options.meter
    return f"{meter.used():g} of {meter.budget:g} units spent" if meter is not None else "no meter"


def _ruled(req: ProofRequest, verdicts: list[str], incomplete: bool) -> str:
    """What a judge's ruling on the same claim does next to the proof's verdicts."""
    out = []
    if "refuted" in verdicts:
        out.append(f"the judge's ruling ({req.ruling}) contradicts the refutation: no outcome where the proof refutes "
                   f"the claim (the contradiction's core names both facts)")
    if "unknown" in verdicts or incomplete:
        out.append(f"where the proof is unknown the judge's ruling ({req.ruling}) decides")
    return "; ".join(out)
