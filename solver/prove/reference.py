"""The third reading of the properties (issue 25): the solver-free reference enumerates every initial state and
event sequence of the space itself, with every trace its rules allow, and checks the same properties on them.

No CP-SAT here: the reference (``solver.reference``: the rule text read again, never the encoding) gives the traces,
and the properties are read on each state with the reference's own reading of an expectation
(``CoreRules.holds``). The assumptions are ``prove``'s: every property of the game holds in the initial state, and
an event's need (an action on the stack to resolve) holds in the state before it. ``compare`` says where the two
readings disagree (``arbiter soak --properties``, ``tests/test_prove.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.expectations import Expectation
from models.scenario import Scenario
from solver.prove.properties import (
    SORTS,
    Property,
    load,
    speaks_of,
    substitute,
    targets,
)
from solver.prove.spaces import SPACES, Bound, space
from solver.reference.brute import enumerate_traces
from solver.reference.world import build_world, rules_for


@dataclass
class RefResult:
    """What the reference found for one property over the space."""

    prop: Property
    #: proved | counterexample | unknown
    verdict: str = "proved"
    states: int = 0
    #: the first violation: scenario id, binding, the event after which it fails
    where: tuple | None = None
    skipped: list[str] = field(default_factory=list)


def _others(ids: dict, vars_: dict, b: dict):
    import itertools
    names = list(vars_)
    pools = [[i for i in ids[SORTS[vars_[n]]] if i not in b.values()] for n in names]
    for combo in itertools.product(*pools):
        if len(set(combo)) == len(combo):
            yield dict(zip(names, combo))


class _Read:
    """A property instance read on one reference trace."""

    def __init__(self, w, trace: list, ids: dict, sc=None) -> None:
        self.w, self.trace, self.ids, self.sc = w, trace, ids, sc

    def item(self, it: dict, b: dict, k: int) -> bool:
        if "not" in it:
            return not self.item(it["not"], b, k)
        if "before" in it:
            return self.item(it["before"], b, max(k - 1, 0))
        if "targets" in it:  # a fact of the scenario
            t = substitute(it["targets"], b)
            return targets(self.sc.objects, t["action"], t["player"])
        if "every_other" in it:
            return all(self.item(x, {**b, **e}, k) for e in _others(self.ids, it["every_other"], b)
                       for x in it.get("all") or [])
        if "some_other" in it:
            return any(all(self.item(x, {**b, **e}, k) for x in it.get("all") or [])
                       for e in _others(self.ids, it["some_other"], b))
        ex = Expectation.model_validate(substitute(it, b))
        return bool(self.w.rules.holds(self.w, self.trace[k], ex))

    def violated(self, p: Property, b: dict, k: int) -> bool:
        if not all(self.item(it, b, k) for it in p.when):
            return False
        if p.never is not None:
            return all(self.item(it, b, k) for it in p.never)
        return not all(self.item(it, b, k) for it in p.then)


def _applies(p: Property, n: int, ids: dict | None = None) -> bool:
    return n >= p.min_players and (not p.max_players or n <= p.max_players) and (ids is None or speaks_of(p, ids))


def reference_prove(game: str, bound: Bound, only: tuple[str, ...] = (), max_states: int = 5000,
                    given: tuple[Property, ...] = ()) -> list[RefResult]:
    """Every property of ``game`` (or those in ``only``, or the properties ``given`` instead) over the space, read by
    the reference."""
    ids_given = {p.id for p in given}
    props = [p for p in load(game) if p.id not in ids_given] + list(given)
    results = {p.id: RefResult(p) for p in (given or [p for p in props if not only or p.id in only])}
    if game not in SPACES:
        for r in results.values():
            r.verdict = "unknown"
        return list(results.values())
    for count, doc in enumerate(space(game, bound), 1):
        if count > max_states:
            for r in results.values():
                if r.verdict == "proved":
                    r.verdict = "unknown"
            break
        sc = Scenario.model_validate(doc)
        w = build_world(sc, rules_for(game))
        try:
            traces = enumerate_traces(sc, w)
        except ValueError as exc:  # the reference refuses the events (as the checker does): no trace
            for r in results.values():
                r.skipped.append(f"{doc['id']}: {exc}")
            continue
        traces = [t for t in traces if _can_happen(w, sc, t)]
        ids = {"players": [p.id for p in sc.players], "objects": [o.id for o in sc.objects],
               "cells": list(w.cells), "effects": [e.id for e in sc.effects]}
        n = len(sc.players)
        for t in traces:
            rd = _Read(w, t, ids, sc)
            if any(rd.violated(p, b, 0) for p in props if _applies(p, n, ids) for b in p.bindings(ids)):
                continue  # an initial state that breaks a property of the game: not a state of play
            for r in results.values():
                p = r.prop
                if r.verdict != "proved" or not _applies(p, n, ids):
                    continue
                bs = list(p.bindings(ids))
                if not bs:
                    continue
                r.states += 1
                for k in range(1, len(t)):
                    hit = next((b for b in bs if rd.violated(p, b, k)), None)
                    if hit is not None:
                        r.verdict, r.where = "counterexample", (doc["id"], hit, k)
                        break
    return list(results.values())


def _can_happen(w, sc: Scenario, trace: list) -> bool:
    """Every event's need holds in the state before it (``event_needs`` of the game's reference)."""
    for i, ev in enumerate(sc.events):
        need = w.rules.event_needs(w, ev)
        if need is not None and trace[i].get(need[0]) != need[1]:
            return False
    return True


def compare(game: str, bound: Bound) -> list[str]:
    """Where ``prove`` (CP-SAT) and the reference disagree on a property's verdict over the space (none: agree)."""
    from solver.prove.prove import prove

    mine = {r.prop.id: r.verdict for r in prove(game, bound)}
    out = []
    for r in reference_prove(game, bound):
        if r.verdict != mine[r.prop.id]:
            out.append(f"{game} {r.prop.id}: prove says {mine[r.prop.id]}, the reference {r.verdict}"
                       + (f" (at {r.where})" if r.where else ""))
    return out
