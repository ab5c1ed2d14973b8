"""Berserk triggered effects (card text, berserk.trigger): 'at the start (end) of your turn, heal 1 life of an adjacent
creature of yours'.

A trigger fires at a ``begin_turn`` of the player who controls its source (``at: start_of_turn``) or at an ``end_turn``
of the turn of that player (``at: end_of_turn``), while the source is in play, all read in the state before the event.
It then adds its value to the attribute of ONE object in play its selector matches at that moment: a choice the
solver makes (each legal choice is an outcome); with none matching nothing happens. The candidates are the objects
of the initial state that have the attribute (the types and ``other`` of the selector narrow them).
"""
from __future__ import annotations

from models.effects import Effect, Trigger
from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.games.berserk.elements import element_is


def triggers(ctx: RuleContext, at: str) -> list[tuple[str, Trigger]]:
    """(source, trigger) of every trigger of an object of the scenario that fires ``at``."""
    return [(oid, t) for oid, info in ctx.objects.items() if info.data is not None
            for t in info.data.triggers if t.at == at]


def candidates(ctx: RuleContext, source: str, t: Trigger) -> list[str]:
    """The objects a trigger may choose among by its static criteria: objects of the scenario that give the attribute;
    types, other."""
    sel, types = t.targets, set(t.targets.types or [])
    ids = sel.objects or list(ctx.objects)
    return [o for o in ids if o in ctx.objects and ctx.objects[o].data is not None
            and t.attribute in ctx.objects[o].data.attributes
            and (not types or types & set(ctx.objects[o].types)) and not (sel.other and o == source)]


def _as_effect(source: str, t: Trigger) -> Effect:
    """The trigger as an effect of its source, for the selector's relative criteria (cell, controlled_by)."""
    return Effect(id=f"{source}.{t.id}", source=source, kind="add", attribute=t.attribute, value=t.value,
                  targets=t.targets)


def matches(ctx: RuleContext, st, source: str, t: Trigger, obj: str):
    """Literal: ``obj`` is in play and the trigger's selector matches it at ``st``."""
    rm, sel, e = ctx.rm, t.targets, _as_effect(source, t)
    conds = [st["zone", obj].one_of(ctx.rs.play_zones)]
    if sel.zone:
        conds.append(st["zone", obj].is_(sel.zone))
    if sel.controlled_by:
        conds.append(derived._controlled_by(ctx, st, e, obj, sel.controlled_by))
    if sel.cell:
        conds.append(derived._on_cell(ctx, st, e, obj, sel.cell))
    if sel.element:  # the element it has then (berserk.element.selector)
        conds.append(element_is(ctx, st, obj, sel.element))
    return rm.all_of(conds, f"s{st.index}:trigger.{source}.{t.id}.{obj}")


def fire(ctx: RuleContext, tr, at: str, player) -> None:
    """berserk.trigger: every trigger ``at`` whose source is in play and controlled by the turn's player (``player``:
    a player id, or the Cat of the player whose turn it is) adds its value to one object its selector matches, chosen;
    none matching, nothing. Two triggers that choose one object both add to it."""
    rm, st = ctx.rm, tr.prev
    gets: dict[tuple, list[tuple[object, int]]] = {}
    for source, t in triggers(ctx, at):
        ctrl = ctx.controller(st, source)
        whose = ctrl.is_(player) if isinstance(player, str) else rm.any_of(
            [rm.all_of([ctrl.is_(p), player.is_(p)]) for p in ctx.players])
        fires = rm.all_of([st["zone", source].one_of(ctx.rs.play_zones), whose])
        if fires is rm.false:
            continue
        objs = candidates(ctx, source, t)
        ok = {o: rm.all_of([fires, matches(ctx, st, source, t, o)]) for o in objs}
        chosen = {o: rm.new_bool(f"s{tr.next.index}:chosen.{source}.{t.id}.{o}") for o in objs}
        for o in objs:
            rm.implies("berserk.trigger", [chosen[o]], ok[o])  # only an object the selector matches, when it fires
            gets.setdefault(("attr", o, t.attribute), []).append((chosen[o], t.value))
        if objs:
            rm.enforce("berserk.trigger", rm.model.add(sum(chosen.values()) <= 1))  # one object
            rm.clause("berserk.trigger", list(chosen.values()), [rm.any_of(list(ok.values()))])  # one, when one matches
    for key, given in gets.items():
        tr.set(key, st[key] + sum(v * c for c, v in given), "berserk.trigger", rm.any_of([c for c, _ in given]))
