"""Permanents tapped and untapped (110.5b): a permanent enters the battlefield untapped unless an effect puts it
onto the battlefield tapped (``put_onto`` with ``tapped``). Tapping and untapping is the core's ``set_flag``.

Only objects whose ``tapped`` flag the scenario gives, expects or an event changes have it (``("flag", o,
"tapped")``); for them, every transition in which they arrive on the battlefield sets it (``enter_untapped``, run
at each transition with 400.7), unless a rule of that transition already says how it enters (mtg.110.5b.tapped).
"""
from __future__ import annotations

from models.effects import Selector
from solver.encoding import derived
from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.errors import NotModelled
from solver.games.mtg.players import are_opponents, in_game

TAPPED = "tapped"
#: the static ability 'creatures your opponents control enter the battlefield tapped' (614.1d)
OPPONENTS_TAPPED = "opponents_enter_tapped"


def event_keys(ctx: RuleContext, ev) -> list[tuple]:
    """The tapped flag of an object put onto the battlefield tapped, or tapped or untapped by ``set_flag``."""
    if ev.type == "set_flag" and ev.flag == TAPPED:
        return [(("flag", ev.object, TAPPED), "bool", False)]
    if ev.type == "put_onto" and ev.tapped:
        if ev.zone != "battlefield":
            raise ScenarioError(f"put_onto {ev.object}: `tapped` is for the battlefield, not the {ev.zone}")
        return [(("flag", ev.object, TAPPED), "bool", False)]
    return []


def entered(ctx: RuleContext, tr, obj: str):
    """Literal: ``obj`` arrives on the battlefield in this transition (from another zone)."""
    rm = ctx.rm
    if not dict.__contains__(tr.next.vars, ("zone", obj)):
        return rm.false
    return rm.all_of([rm.neg(tr.prev["zone", obj].is_("battlefield")), tr.next.vars["zone", obj].is_("battlefield")])


def put_tapped(ctx: RuleContext, tr, ev) -> None:
    """mtg.110.5b.tapped: put onto the battlefield tapped (if it enters: 800.4b may keep it out)."""
    if ev.tapped:
        tr.set(("flag", ev.object, TAPPED), 1, "mtg.110.5b.tapped", entered(ctx, tr, ev.object))


def tapping_sources(ctx: RuleContext) -> list[str]:
    """Objects that may have 'creatures your opponents control enter the battlefield tapped' (printed or granted:
    ``derived.ability_names``). A control effect over a selector could apply to a creature as it enters (614.12):
    not modelled with such a source, refused."""
    sources = [o for o in ctx.objects if OPPONENTS_TAPPED in derived.ability_names(ctx, o)]
    if sources and any(e.kind == "control" and isinstance(e.targets, Selector) for e in ctx.effects.values()):
        raise NotModelled(f"{OPPONENTS_TAPPED} with a control effect over a selector: who controls a creature as it "
                          f"enters under such an effect (614.12) is not modelled", "614.12")
    return sources


def enters_tapped(ctx: RuleContext, tr, obj: str):
    """Literal: 614.1d: ``obj`` (a creature) enters under the control of an opponent of the controller of a permanent
    that was on the battlefield with 'creatures your opponents control enter the battlefield tapped'. 611.3a: the
    ability works while its source is on the battlefield, for whoever controls it then; 800.4a: a controller who
    left the game gives it no 'you'."""
    rm = ctx.rm
    if "creature" not in ctx.objects[obj].types:
        return rm.false
    ctrl = tr.next["ctrl", obj]  # the player under whose control it enters
    cases = []
    for s in tapping_sources(ctx):
        if s == obj:
            continue
        st = tr.prev
        on = rm.all_of([st["zone", s].is_("battlefield"), ctx.has_ability(st, s, OPPONENTS_TAPPED)])
        you = ctx.controller(st, s)
        for p in ctx.players:
            for c in ctx.players:
                if are_opponents(ctx, p, c):
                    cases.append(rm.all_of([on, you.is_(p), in_game(ctx, st, p), ctrl.is_(c)]))
    return rm.any_of(cases)


def enter_untapped(ctx: RuleContext, tr) -> None:
    """mtg.110.5b: "Permanents enter the battlefield untapped, unflipped, face up, and phased in unless a spell or
    ability says otherwise." (a rule of this transition that already set the flag says otherwise); mtg.614.1d: a
    creature an opponent's 'enter the battlefield tapped' static ability applies to enters tapped."""
    rm = ctx.rm
    said = {k for _, k, _, _ in tr.clauses}
    for k in [k for k in ctx.domains if k[0] == "flag" and k[2] == TAPPED]:
        if k in said:
            continue
        when = entered(ctx, tr, k[1])
        if when is rm.false:
            continue
        tapped = enters_tapped(ctx, tr, k[1]) if tapping_sources(ctx) else rm.false
        if tapped is not rm.false:
            tr.set(k, 1, "mtg.614.1d", rm.all_of([when, tapped]))
        tr.set(k, 0, "mtg.110.5b", rm.all_of([when, rm.neg(tapped)]))
