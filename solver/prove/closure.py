"""Induction for every length (issue 25): is the space closed under its events?

A property proved for one event from every state of the space that keeps the game's properties (the induction step
within the space) holds after every sequence of events, of any length, when every state one event reaches from a
state of the space is again (up to renaming) a state of the space. Each space says what its states are as
statements in the property language (``Space.within``: life 1, at most one player out, no two cards on a cell...);
closure is decided with the same solver queries as a property: for each statement, is there an outcome of one event
from a state of the space (keeping the game's properties, its events able to happen) whose final state (the
compiled model's observables, read by the statement's atoms) breaks it? Such an outcome is a value that leaves the
space, shown as the witness. Closure is claimed only when no statement can break, the statements say exactly what a
state of the space is (``Space.inexact`` is empty) and the state representation holds everything the rules read
(``Space.omits`` is empty); otherwise ``prove`` says why not, never more than the bound.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.prove.properties import Property, load, validate
from solver.prove.prove import DEFAULT_BUDGET, DEFAULT_STATES, Result, prove, with_bound
from solver.prove.spaces import SPACES, Bound


@dataclass(frozen=True)
class Closure:
    """Whether the space is closed under its events, and why (not)."""

    closed: bool
    why: str
    #: the statement a reached state breaks, the scenario it comes from and the step trace (the witness)
    leaves: str = ""
    scenario: str = ""
    trace: tuple[str, ...] = ()


def statements(game: str) -> tuple[Property, ...]:
    """The game's space statements as properties read at the end of the last event only (a Berserk declared move is
    two events, one step: the state between them is not a state of the space)."""
    out = []
    for d in SPACES[game].within:
        p = Property(game=game, id=f"space:{d['id']}", rule="space", quote="", says=d["says"], forall=dict(d["forall"]),
                     when=tuple(d.get("when") or ()), then=tuple(d["then"]) if "then" in d else None,
                     never=tuple(d["never"]) if "never" in d else None, min_players=d.get("min_players", 0),
                     max_players=d.get("max_players", 0), final=True,
                     where=f"solver/prove/spaces.py: SPACES[{game!r}].within ({d['id']})")
        validate(p)
        out.append(p)
    return tuple(out)


def closure(game: str, bound: Bound, rules_off: tuple[str, ...] = (), budget: float = 60.0,
            max_states: int = 20_000) -> Closure:
    """Decide whether one event from any state of the space within ``bound`` stays in the space (see the module)."""
    sp = SPACES[game]
    if not sp.within:
        return Closure(False, "the space does not say what its states are (Space.within): closure is not checked")
    results = prove(game, with_bound(bound, events=1), rules_off=rules_off, budget=budget, max_states=max_states,
                    given=statements(game), first=True)
    for r in results:
        if r.verdict == "counterexample":
            where = ", ".join(f"{k}={v}" for k, v in r.binding.items())
            changes = [line.strip() for line in r.trace if line.startswith("    ")]
            return Closure(False, f"not closed: one event leaves the space, a reached state breaks '{r.prop.says}'"
                                  f" ({where}) after one event from {r.scenario}: "
                                  f"{'; '.join(changes) or 'see its trace'}",
                           r.prop.says, r.scenario, tuple(r.trace))
    for r in results:
        if r.verdict != "proved":
            return Closure(False, f"closure unknown (never claimed): '{r.prop.says}': {r.why}")
    if sp.inexact:
        return Closure(False, f"every reached state keeps the space's statements, but {sp.inexact}: a state keeping "
                              "them may lie outside the space, so closure is not claimed")
    if sp.omits:
        return Closure(False, f"the space's state representation omits what the rules read: {sp.omits}; closure is "
                              "not claimed")
    return Closure(True, "closed: every state one event reaches from a state of the space is again one (its "
                         "statements, which say exactly what a state of the space is, hold after every event)")


def prove_every_length(game: str, bound: Bound, only: tuple[str, ...] = (), rules_off: tuple[str, ...] = (),
                       budget: float = DEFAULT_BUDGET, max_states: int = DEFAULT_STATES) -> list[Result]:
    """``prove``, then every length claimed or not for the properties proved by the induction step
    (``arbiter prove``)."""
    results = prove(game, bound, only, rules_off, budget, max_states)
    every_length(game, bound, results, rules_off, budget, max_states)
    return results


def every_length(game: str, bound: Bound, results: list[Result], rules_off, budget: float, max_states: int) -> None:
    """Claim every length for the properties proved by the induction step when the space is closed under its events
    (``solver.prove.closure``); else say why not. The step assumes every property of the game in the state before
    the event, so the claim needs all of them proved by it in this run."""
    stepped = [r for r in results if r.step]
    if not stepped:
        return
    why = ""
    if {p.id for p in load(game)} - {r.prop.id for r in stepped}:
        why = ("the induction step assumes every property of the game before the event, "
               "and not all of them were proved by it in this run (prove them all, with --events 1)")
    else:
        c = closure(game, bound, rules_off, budget, max_states)
        why = c.why
        for r in stepped:
            r.inductive = c.closed
    for r in stepped:
        r.closure = why
