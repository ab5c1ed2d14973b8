"""``arbiter prove``: a property of the rules for every state and event sequence of a bounded space, or the smallest
counterexample (issue 25, first slice).

The space (``solver.prove.spaces``) lists every initial state and every event sequence within the bound, up to
renaming of players and objects; the initial values are enumerated in Python, not symbolic (a stated limitation:
each one is a fact of its own model). For each of them the game's CP-SAT model is compiled once, and for each
property two solves are asked:

1. is there an outcome whose initial state satisfies every property of the game (the game's invariants, assumed
   together: a state that breaks one of them cannot arise in play) and whose events can happen (what an event
   needs, as an action on the stack to resolve, holds)? If not, the state is *vacuous*. With rules switched off
   (``rules_off``, the rule-off test) only the properties being proved are assumed: another one may hold only
   by the rules switched off, and assuming it would mask them;
2. is there such an outcome that violates the property at the end of some event?

No outcome of 2 for every state: ``proved`` within the bound (the count of states, non-vacuous states and the bound
are stated). An outcome: a ``counterexample``, the smallest one (states are listed by size, fewest events first),
written as a scenario whose check fails on the property and shown as its step trace. A solve that runs out of the
property's work budget, or a space larger than the state budget: ``unknown``, never a pass. With the properties
assumed in the initial state, a proof for one event over every state of the space is the induction step within
the space; it proves every length only if the space is closed under its events (each state one event reaches is
again in the space): ``solver.prove.closure`` decides it, and ``arbiter prove`` says "proved for every length
(inductive)" only when the space is closed, else why not (the value that leaves the space).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

from models.expectations import Expectation
from models.scenario import Scenario
from solver.check import trace
from solver.encoding.compile import Compiler
from solver.engine.budget import SAFETY_SECONDS, Meter
from solver.engine.settings import Answer, SolverOptions
from solver.engine.solve import Engine
from solver.errors import Refusal
from solver.prove.properties import (
    SORTS,
    Property,
    load,
    speaks_of,
    substitute,
    targets,
)
from solver.prove.spaces import SPACES, Bound, space
from solver.registry import ruleset_for
from solver.vocabulary.check import problems

#: the items that are not atoms (``solver.prove.properties``)
SPECIAL = {"not", "before", "every_other", "some_other", "targets"}
#: work units per property (all its solves over the space): ``--budget``
DEFAULT_BUDGET = 60.0
#: wall-clock seconds per property after which it is unknown whatever its budget: a safety net only, far above
#: any budget (a property's work spans every state of the space: ten times a scenario's net)
SAFETY = 10 * SAFETY_SECONDS
#: initial states and event sequences per game run: past it every property is ``unknown`` (``--states``)
DEFAULT_STATES = 20_000


@dataclass
class Result:
    """What ``prove`` established for one property."""

    prop: Property
    #: proved | counterexample | unknown
    verdict: str
    bound: Bound
    #: the states and event sequences of the space gone through, and those checked (not vacuous, of a size the
    #: property speaks of)
    space: int = 0
    states: int = 0
    #: states where no outcome satisfies the property initially (they prove nothing)
    vacuous: int = 0
    work: float = 0.0
    #: states whose events the rules refuse (a located error, so no outcome), and the first such message
    refused: int = 0
    refusal: str = ""
    #: the counterexample as scenario data (its check fails on the property), with where it fails
    counterexample: dict | None = None
    #: its expectations say exactly the property instance (``counterexample``)
    exact: bool = False
    at: int | None = None
    binding: dict = field(default_factory=dict)
    trace: list[str] = field(default_factory=list)
    #: proved for one event from every state of the space that keeps the game's properties: the induction step
    #: within the space (every length needs the space closed under the events too: ``inductive``)
    step: bool = False
    why: str = ""
    #: the scenario of the space the counterexample comes from
    scenario: str = ""
    #: proved for every length: the induction step, and the space closed under its events (``solver.prove.closure``)
    inductive: bool = False
    #: why every length is claimed or not (the closure's answer, or what keeps it from being asked)
    closure: str = ""


def _others(ids: dict[str, list[str]], vars_: dict[str, str], b: dict):
    """Every binding of ``vars_`` to distinct ids not bound in ``b``."""
    names = list(vars_)
    pools = [[i for i in ids[SORTS[vars_[n]]] if i not in b.values()] for n in names]
    for combo in itertools.product(*pools):
        if len(set(combo)) == len(combo):
            yield dict(zip(names, combo))


class _Others:
    """The ids of a scenario document, for ``every_other``."""

    def __init__(self, doc: dict) -> None:
        self.ids = {"players": [p["id"] for p in doc["players"]], "objects": [o["id"] for o in doc.get("objects") or []]}

    def bindings(self, vars_: dict[str, str], b: dict):
        """Every binding of the ``every_other`` variables."""
        return _others(self.ids, vars_, b)


class _Reader:
    """The literals of one property instance, read from a compiled scenario."""

    def __init__(self, comp: Compiler) -> None:
        self.comp = comp
        sc = comp.sc
        self.ids = {"players": [p.id for p in sc.players], "objects": [o.id for o in sc.objects],
                    "cells": list(comp.cells), "effects": [e.id for e in sc.effects]}

    def atoms(self, atoms: dict, b: dict, k: int):
        ex = Expectation.model_validate(substitute(atoms, b))
        return self.comp.expectation_lit(ex, self.comp.stages[self.comp.boundaries[k]])

    def item(self, it: dict, b: dict, k: int):
        """An item at the end of event ``k`` (0: the initial state)."""
        rm = self.comp.rm
        if "not" in it:
            return rm.neg(self.item(it["not"], b, k))
        if "before" in it:
            return self.item(it["before"], b, max(k - 1, 0))
        if "targets" in it:  # a fact of the scenario (what a stack object targets), not of an outcome
            t = substitute(it["targets"], b)
            return rm.true if targets(self.comp.sc.objects, t["action"], t["player"]) else rm.false
        if "some_other" in it:  # for some other binding, every item holds
            return rm.any_of([rm.all_of([self.item(x, {**b, **extra}, k) for x in it.get("all") or []], "some")
                              for extra in self._others(it["some_other"], b)], "some_other")
        if "every_other" in it:
            lits = []
            for extra in self._others(it["every_other"], b):
                full = {**b, **extra}
                lits += [self.item(x, full, k) for x in it.get("all") or []]
            return rm.all_of(lits, "every")
        return self.atoms(it, b, k)

    def _others(self, vars_: dict[str, str], b: dict):
        return _others(self.ids, vars_, b)

    def violated(self, p: Property, b: dict, k: int):
        """The instance ``b`` of ``p`` is false at the end of event ``k``."""
        rm = self.comp.rm
        when = []
        for it in p.when:  # a fact of the scenario that is false (a targets item) ends it: the rest may not apply
            when.append(self.item(it, b, k))
            if when[-1] is rm.false:
                return rm.false
        if p.never is not None:
            return rm.all_of(when + [self.item(it, b, k) for it in p.never], "violated")
        then = rm.all_of([self.item(it, b, k) for it in p.then], "then")
        return rm.all_of(when + [rm.neg(then)], "violated")


def prove(game: str, bound: Bound, only: tuple[str, ...] = (), rules_off: tuple[str, ...] = (),
          budget: float = DEFAULT_BUDGET, max_states: int = DEFAULT_STATES,
          given: tuple[Property, ...] = (), safety: float = SAFETY, first: bool = False) -> list[Result]:
    """Prove every property of ``game`` (or those named in ``only``, or the properties ``given`` instead) within
    ``bound``; ``rules_off``: rule ids switched off in every model (the rule-off test of a property); ``first``: stop
    at the first counterexample of any property (the closure check needs one)."""
    props = list(given) or [p for p in load(game) if not only or p.id in only]
    missing = set(only) - {p.id for p in props}
    if missing:
        raise ValueError(f"unknown property id(s) for {game}: {', '.join(sorted(missing))}")
    results = {p.id: Result(p, "proved", bound) for p in props}
    meters = {p.id: Meter(budget, safety) for p in props}
    open_ = set(results)  # properties still being proved (a counterexample or unknown settles one)
    if game not in SPACES:  # a located limitation, never a proof
        for r in results.values():
            r.verdict = "unknown"
            r.why = f"no space for {game} yet: its initial states are not enumerated (SPACES in solver/prove/spaces.py)"
        return list(results.values())
    rs = ruleset_for(game)
    count = 0
    for doc in space(game, bound):
        if not open_:
            break
        count += 1
        if count > max_states:
            for pid in open_:
                results[pid].verdict = "unknown"
                results[pid].why = f"the space has more than {max_states} states (--states)"
            open_ = set()
            break
        _one(doc, rs, _union(load(game), given), results, meters, open_, rules_off)
        if first and any(r.verdict == "counterexample" for r in results.values()):
            break
    for r in results.values():
        r.work = meters[r.prop.id].used()
        r.space = count
        if r.verdict == "proved" and r.states == 0:  # nothing checked it: never a pass
            r.verdict = "unknown"
            r.why = (f"no state of the space checks it ({r.vacuous} vacuous; games of "
                     f"{r.prop.min_players or 1}-{r.prop.max_players or 'any'} players)")
        r.step = r.verdict == "proved" and bound.events == 1
    return list(results.values())


def _union(game_props: tuple, given: tuple) -> list:
    """The game's properties, with the given ones in place of those of the same id."""
    ids = {p.id for p in given}
    return [p for p in game_props if p.id not in ids] + list(given)


def _one(doc: dict, rs, props, results, meters, open_: set, rules_off) -> None:
    """Check one initial state and event sequence against every open property (``props``: all of the game's, which
    the initial state is assumed to keep; those being proved have a result)."""
    found = problems(doc)
    if found:  # the space writes only valid scenarios: anything else is a bug of the space
        raise ValueError(f"the space wrote an invalid scenario {doc.get('id')}: {found[:3]}")
    sc = Scenario.model_validate(doc)
    comp = Compiler(sc, rs)  # the cone of influence, as the checker builds it
    try:
        comp.compile_events()
    except Refusal as exc:  # the rules refuse this event sequence (a located error): no outcome to check
        for pid in open_:
            results[pid].refused += 1
            results[pid].refusal = results[pid].refusal or f"{doc['id']}: {exc}"
        return
    rd = _Reader(comp)
    rm = comp.rm
    queries, initial = {}, []
    for p in props:
        n = len(sc.players)
        if n < p.min_players or (p.max_players and n > p.max_players):
            continue
        bs = list(p.bindings(rd.ids)) if speaks_of(p, rd.ids) else []
        if not bs:  # nothing to quantify over in this state (no object, or not one it names): it checks nothing
            continue
        if p.id in results or not rules_off:  # with rules off, the others may depend on them: only p is assumed
            initial += [rd.violated(p, b, 0) for b in bs]
        if p.id not in open_ or p.id not in results:
            continue
        ends = [len(comp.boundaries) - 1] if p.final else range(1, len(comp.boundaries))
        later = {(k, i): rd.violated(p, b, k) for k in ends if k > 0 for i, b in enumerate(bs)}
        queries[p.id] = (rm.any_of(list(later.values()), "v"), later, bs)
    # every property of the game holds in the initial state, and the events can happen: what an event needs (an
    # action on the stack to resolve) holds, as the checker requires of every outcome (``Compiler.preconditions``)
    hold0 = rm.all_of([rm.neg(rm.any_of(initial, "v0"))] + [lit for _, lit, _ in comp.preconditions], "hold0")
    reads = trace.condition_reads(comp)
    engine = Engine(rm, SolverOptions(rules_off=tuple(rules_off)))
    first = None
    for p in props:
        if p.id not in queries:
            continue
        r, (viol, later, bs) = results[p.id], queries[p.id]
        engine.meter = meters[p.id]
        if first is None:
            first, _ = engine.solve([hold0])
        if first is Answer.UNSAT:
            r.vacuous += 1
            continue
        answer, s = (first, None) if first is Answer.UNKNOWN else engine.solve([hold0, viol])
        if answer is Answer.UNKNOWN:  # this property's budget, or (the first solve) the one that paid for it
            spent = engine.meter.stopped or "another property's meter, which paid the state's first solve"
            r.verdict, r.why = "unknown", f"{doc['id']}: a solve stopped ({spent}) after {r.states} states"
            open_.discard(p.id)
            continue
        r.states += 1
        if answer is Answer.SAT:
            k, i = next(key for key, lit in later.items() if s.boolean_value(lit))
            r.verdict, r.at, r.binding, r.scenario = "counterexample", k, bs[i], doc["id"]
            values = {n: bool(s.boolean_value(lit)) for n, lit in reads.items()}
            r.trace = trace.render(trace.steps(comp, values, s, [], [comp.stage.index]))
            r.counterexample, r.exact = counterexample(doc, p, bs[i], k)
            open_.discard(p.id)


def counterexample(doc: dict, p: Property, b: dict, at: int) -> tuple[dict, bool]:
    """The scenario with the property instance as expectations at the state after event ``at``: its check fails.
    Also whether the expectations say exactly the property instance (else they say less: a ``not`` or
    ``every_other`` item of ``when``, or two items about different players, cannot be written in one expectation;
    its check fails all the same, on the outcome found)."""
    out = dict(doc)
    out["id"] = f"{doc['game']}-prove-{p.id}"
    out["title"] = f"counterexample to property {p.id} ({p.rule}): {p.says}"
    out["rules"] = [p.rule]
    expect = []
    plain = [it for it in p.when if not SPECIAL & set(it)]
    exact = len(plain) == len(p.when)
    said = f"{p.id}, with {', '.join(f'{k}={v}' for k, v in b.items())}"
    if p.never is not None:
        merged: dict = {}
        never = [it for it in p.never if not SPECIAL & set(it)]
        exact = exact and len(never) == len(p.never)
        for it in [substitute(it, b) for it in plain + never]:
            clash = any(k in merged and merged[k] != v for k, v in it.items())
            exact = exact and not clash
            merged.update(it)
        expect.append({"description": f"{said}: never", "at": at, "verdict": "impossible", **merged})
    else:
        exact = exact and not plain
        for it in p.then:
            if "before" in it:  # said of the state before the event: an expectation there (it says less)
                exact = False
                expect.append({"description": f"{said}: then, before event {at}", "at": at - 1,
                               **substitute(it["before"], b)})
            elif "not" in it and "before" in it["not"]:
                exact = False
                expect.append({"description": f"{said}: not, before event {at}", "at": at - 1,
                               "verdict": "impossible", **substitute(it["not"]["before"], b)})
            elif "not" in it:
                expect.append({"description": f"{said}: not", "at": at, "verdict": "impossible",
                               **substitute(it["not"], b)})
            elif "some_other" in it:
                exact = False
            elif "every_other" not in it:
                expect.append({"description": f"{said}: then", "at": at, **substitute(it, b)})
            else:  # every other player (or object) in the scenario
                for extra in _Others(doc).bindings(it["every_other"], b):
                    for x in it.get("all") or []:
                        if "not" in x:
                            expect.append({"description": f"{said}: not", "at": at, "verdict": "impossible",
                                           **substitute(x["not"], {**b, **extra})})
                        else:
                            expect.append({"description": f"{said}: then", "at": at,
                                           **substitute(x, {**b, **extra})})
    out["expect"] = expect
    return out, exact


def with_bound(b: Bound, **kw) -> Bound:
    """A copy of a bound with some fields changed."""
    return replace(b, **kw)
