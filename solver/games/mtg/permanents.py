"""Permanents tapped and untapped (110.5b): a permanent enters the battlefield untapped unless an effect puts it
onto the battlefield tapped (``put_onto`` with ``tapped``). Tapping and untapping is the core's ``set_flag``.

Only objects whose ``tapped`` flag the scenario gives, expects or an event changes have it (``("flag", o,
"tapped")``); for them, every transition in which they arrive on the battlefield sets it (``enter_untapped``, run
at each transition with 400.7), unless a rule of that transition already says how it enters (mtg.110.5b.tapped).
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError

TAPPED = "tapped"


def event_keys(comp, ev) -> list[tuple]:
    """The tapped flag of an object put onto the battlefield tapped."""
    if ev.type == "put_onto" and ev.tapped:
        if ev.zone != "battlefield":
            raise ScenarioError(f"put_onto {ev.object}: `tapped` is for the battlefield, not the {ev.zone}")
        return [(("flag", ev.object, TAPPED), "bool", False)]
    return []


def entered(comp, tr, obj: str):
    """Literal: ``obj`` arrives on the battlefield in this transition (from another zone)."""
    rm = comp.rm
    if not dict.__contains__(tr.next.vars, ("zone", obj)):
        return rm.false
    return rm.all_of([rm.neg(tr.prev["zone", obj].is_("battlefield")), tr.next.vars["zone", obj].is_("battlefield")])


def put_tapped(comp, tr, ev) -> None:
    """mtg.110.5b.tapped: put onto the battlefield tapped (if it enters: 800.4b may keep it out)."""
    if ev.tapped:
        tr.set(("flag", ev.object, TAPPED), 1, "mtg.110.5b.tapped", entered(comp, tr, ev.object))


def enter_untapped(comp, tr) -> None:
    """mtg.110.5b: "Permanents enter the battlefield untapped, unflipped, face up, and phased in unless a spell or
    ability says otherwise." (a rule of this transition that already set the flag says otherwise)."""
    said = {k for _, k, _, _ in tr.clauses}
    for k in [k for k in comp.domains if k[0] == "flag" and k[2] == TAPPED]:
        if k in said:
            continue
        when = entered(comp, tr, k[1])
        if when is not comp.rm.false:
            tr.set(k, 0, "mtg.110.5b", when)
