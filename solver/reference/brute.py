"""Brute force: every trace of states the rules allow, for small scenarios.

For each event, every value of every key's domain is tried against the rules of
that event (``Step.key_violations``); the surviving values are combined (a
Cartesian product) and every combination is kept if the rules on the whole state
accept it (``Step.checks``, static effects). Because each rule of an event
constrains a key through the state before the event, or through the state after
it as a whole, trying key by key and then the product is the same as trying the
whole product, only smaller. Every trace found is run through ``validate``.
"""
from __future__ import annotations

import itertools

from models.scenario import Scenario
from solver.reference.validate import initial_violations, step_violations, validate
from solver.reference.world import INT, State, Trace, World, build_world, orderings, rules_for

#: refuse scenarios whose candidate states would exceed this (a reference is for small scenarios)
MAX_CANDIDATES = 200_000


class TooLarge(Exception):
    """The scenario is too large to enumerate by brute force."""


def _candidates(w: World, k: str, prev: State, step) -> list[str]:
    values = list(w.domain(k))
    if w.domains[k] == INT or k.startswith("prop."):
        extra = [prev[k]] + [v for _, allowed in step.sets.get(k, []) for v in allowed]
        released = step.free.get(k, (None, None))[1]  # a choice among named values (a trigger's sums)
        extra += sorted(released or ())
        values = list(dict.fromkeys(values + extra))
    return [v for v in values if not step.key_violations(k, v, prev)]


def _statics(w: World, st: State, stage: int) -> State:
    for k, e in w.statics(stage).items():
        st[k] = "1" if w.rules.static_on(w, st, e) else "0"
    return st


def successors(w: World, i: int, prev: State) -> list[State]:
    """Every state the rules of event ``i`` allow after ``prev``."""
    ev = w.sc.events[i]
    step = w.rules.step(w, prev, ev)
    choices = {}
    for k in w.domains:
        if k in w.statics(i + 1):
            continue
        vals = _candidates(w, k, prev, step)
        if not vals:
            return []
        choices[k] = vals
    size = 1
    for vals in choices.values():
        size *= len(vals)
    if size > MAX_CANDIDATES:
        raise TooLarge(f"event {i}: {size} candidate states")
    keys = list(choices)
    out = []
    for combo in itertools.product(*(choices[k] for k in keys)):
        nxt = _statics(w, dict(zip(keys, combo)), i + 1)
        if not step_violations(w, i, prev, nxt, ev):
            out.append(nxt)
    return out


def enumerate_traces(sc: Scenario, world: World | None = None) -> list[Trace]:
    """Every trace the rules allow, each checked again by the validator (for every order the rules leave open
    between effects that entered together: the traces of all of them, each once)."""
    w = world or build_world(sc, rules_for(sc.game))
    out: list[Trace] = []
    seen: set = set()
    for _ in orderings(w):
        for t in _traces(w, sc):
            frozen = tuple(tuple(sorted(st.items())) for st in t)
            if frozen not in seen:
                seen.add(frozen)
                out.append(t)
    for t in out:
        bad = validate(sc, t, w)
        if bad:
            raise AssertionError(f"the enumerator produced a trace the validator rejects: {bad[0]}")
    return out


def _traces(w: World, sc: Scenario) -> list[Trace]:
    """Every trace the rules allow for the order of effects chosen now."""
    s0 = _statics(w, dict(w.initial), 0)
    if initial_violations(w, s0):
        return []
    traces: list[Trace] = [[s0]]
    for i in range(len(sc.events)):
        traces = [t + [nxt] for t in traces for nxt in successors(w, i, t[-1])]
    return traces
