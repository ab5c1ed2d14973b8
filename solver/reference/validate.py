"""The validator: does a proposed trace of states obey every rule? Rule by rule, no solver.

A trace is the state at each event boundary: ``trace[0]`` the initial state,
``trace[i]`` the state after the first ``i`` events (the checker's
``Outcome.trace``). A key missing from a state is read as unchanged; a key the
reference does not model must never change (core.inertia).
"""
from __future__ import annotations

from dataclasses import dataclass

from models.scenario import Scenario
from solver.reference.world import State, Trace, World, build_world, orderings, rules_for

#: derived keys the checker may add to a state: name prefix -> how the reference computes it
DERIVED = ("controller.",)


@dataclass(frozen=True)
class Violation:
    """A rule the trace breaks, where, and how."""

    stage: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"state {self.stage}: {self.rule}: {self.message}"


def filled(w: World, st: State, prev: State) -> State:
    """The state with every modelled key, missing ones read as unchanged from ``prev``."""
    out = {k: st.get(k, prev[k]) for k in w.domains}
    out.update({k: v for k, v in st.items() if k.startswith(DERIVED)})
    return out


def initial_violations(w: World, st: State) -> list[Violation]:
    """The initial state must be the scenario's (facts), static effects following their sources."""
    out = [Violation(0, f"fact:{k}", f"{k}={st[k]}, the scenario says {v}")
           for k, v in w.initial.items() if k not in w.statics(0) and st[k] != v]
    return out + [Violation(0, r, m) for r, m in w.rules.stage_checks(w, st, 0)]


def step_violations(w: World, i: int, prev: State, nxt: State, ev) -> list[Violation]:
    """The rules of event ``i`` (0-based) between the state before it and the state after it."""
    step = w.rules.step(w, prev, ev)
    out = []
    for k in w.domains:
        if k in w.statics(i + 1) and k not in step.sets:
            continue  # defined by core.static in every state, never by inertia
        out += [Violation(i + 1, r, m) for r, m in step.key_violations(k, nxt[k], prev)]
    out += [Violation(i + 1, r, what) for r, pred, what in step.checks if not pred(nxt)]
    return out + [Violation(i + 1, r, m) for r, m in w.rules.stage_checks(w, nxt, i + 1)]


def derived_violations(w: World, i: int, st: State) -> list[Violation]:
    """Derived characteristics shown in a state must be what the effects make them."""
    out = []
    for k, v in st.items():
        if k.startswith("controller."):
            want = w.rules.controller(w, st, k.split(".", 1)[1])
            if v != want:
                out.append(Violation(i, "core.control", f"{k}={v}, the effects make it {want}"))
    return out


def unmodelled_violations(w: World, trace: Trace) -> list[Violation]:
    """Keys the reference does not model (no rule changes them) must keep their first value."""
    out = []
    first = trace[0]
    for i, st in enumerate(trace):
        for k, v in st.items():
            if k not in w.domains and not k.startswith(DERIVED) and k in first and v != first[k]:
                out.append(Violation(i, "core.inertia", f"{k} changed {first[k]} -> {v} but no rule changes it"))
    return out


def validate(sc: Scenario, trace: Trace, world: World | None = None) -> list[Violation]:
    """Every rule the proposed trace breaks (empty: the trace obeys every rule under some order the rules leave open
    between effects that entered together; otherwise what it breaks under the first such order)."""
    w = world or build_world(sc, rules_for(sc.game))
    first = None
    for _ in orderings(w):
        bad = _validate(sc, trace, w)
        if not bad:
            return []
        first = bad if first is None else first
    return first or []


def _validate(sc: Scenario, trace: Trace, w: World) -> list[Violation]:
    """Every rule the proposed trace breaks under the order of effects chosen now."""
    if len(trace) != len(sc.events) + 1:
        return [Violation(len(trace), "trace", f"{len(trace)} states for {len(sc.events)} events")]
    states = [filled(w, trace[0], w.initial)]
    for st in trace[1:]:
        states.append(filled(w, st, states[-1]))
    out = initial_violations(w, states[0])
    for i, ev in enumerate(sc.events):
        out += step_violations(w, i, states[i], states[i + 1], ev)
    for i, st in enumerate(states):
        out += derived_violations(w, i, st)
    return out + unmodelled_violations(w, trace)


def broken_rules(violations: list[Violation]) -> list[str]:
    """The distinct rule names of violations, sorted."""
    return sorted({v.rule for v in violations})


def applied_rules(w: World, trace: Trace, upto: int, expectation=None) -> set[str]:
    """The rules the reference applies along ``trace`` through event ``upto`` (and, given an expectation, in
    reading its atoms in the state after it): the rules a verdict about that state can rest on."""
    states = [filled(w, trace[0], w.initial)]
    for st in trace[1:]:
        states.append(filled(w, st, states[-1]))
    saved, w.trail = w.trail, set()
    try:
        for i, ev in enumerate(w.sc.events[:upto]):
            w.trail |= w.rules.step(w, states[i], ev).rules()
        for i in range(upto + 1):
            w.rules.stage_checks(w, states[i], i)
        for i in sorted({0, upto}):  # the controllers the checker shows, at the start and at the end
            for obj in w.objects:
                if w.effects_on(obj, "control"):
                    w.rules.controller(w, states[i], obj)
        if expectation is not None:
            list(w.rules.atoms(w, states[upto], expectation))
        return set(w.trail)
    finally:
        w.trail = saved
