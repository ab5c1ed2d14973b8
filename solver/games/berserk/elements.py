"""Berserk selection by element (стихия): "forest creatures get ...", "all other heroes are dark" (issue 27).

A selector's ``element`` reads the card's element, which effects change (Kanor-Vain makes heroes neutral, the
Blade of the Fallen darkness): which cards an effect applies to then depends on what effects set, a cycle. The
seeds give no order of characteristics; seed 003 orders conflicting effects by when they were applied (the last
applied wins). So, rule ``berserk.element.selector``:

- an effect on the element (a ``set`` of ``element``) sees the element the effects on the element applied
  before it produce: the printed element, then each of them in the order applied (the last applied wins),
  each selecting by what the earlier ones produced. The order is the model's (``Compiler.later``: a card that
  comes back applies its static abilities anew), so no effect ever reads its own result;
- any other effect, and a trigger, sees the card's element now (every effect on the element applied: nothing
  but those changes an element, so they come first).

A genuine cycle: a control effect choosing by element while an effect on the element chooses by controller
(the controller depends on the element and the element on the controller, with no order between them): a
located error naming both effects, never a pick.
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.encoding.cp import Cat
from solver.errors import ScenarioError

#: the property selectors read
ELEMENT = "element"


def on_element(e) -> bool:
    """The effect sets the element."""
    return e.kind == "set" and e.attribute == ELEMENT


def place(ctx: RuleContext, e) -> str:
    """Where an effect is written: ``effects[i] (effect X)`` or ``events[i] (begin_effect X)`` (the loader locates
    it)."""
    for i, x in enumerate(ctx.sc.effects):
        if x.id == e.id:
            return f"effects[{i}] (effect {e.id})"
    for i, ev in enumerate(ctx.sc.events):
        if getattr(ev, "effect", None) is not None and getattr(ev.effect, "id", None) == e.id:
            return f"events[{i}] (begin_effect {e.id})"
    return f"effect {e.id}"


def check_cycle(ctx: RuleContext, eff) -> None:
    """A control effect choosing by element, and an effect on the element choosing by controller: the two depend
    on each other with no order between them (a located error naming both)."""
    if eff.kind != "control":
        return
    for e in ctx.effects.values():
        sel = e.targets
        if on_element(e) and not isinstance(sel, list) and sel.controlled_by:
            raise ScenarioError(f"{place(ctx, eff)}: a control effect choosing its cards by element while "
                                f"{place(ctx, e)} sets the element of cards chosen by who controls them: each "
                                f"depends on the other and no rule orders them (a cycle: list the targets of one)")


def printed(ctx: RuleContext, obj: str) -> str | None:
    """The element printed on the card (its property), or None."""
    data = ctx.objects[obj].data
    value = data.properties.get(ELEMENT) if data else None
    return None if value is None else str(value)


def element_is(ctx: RuleContext, st, obj: str, element: str):
    """Literal: ``obj``'s element now (every effect on it applied, ``Ruleset.prop``) is ``element``; a card no effect
    sets the element of has its printed one (false for a card that has none)."""
    if ("prop", obj, ELEMENT) not in ctx.domains:
        return ctx.rm.true if printed(ctx, obj) == element else ctx.rm.false
    return ctx.prop(st, obj, ELEMENT).is_(element)


def seen_before(ctx: RuleContext, st, eff, obj: str):
    """The element of ``obj`` the element effect ``eff`` sees: the printed one, then the last applied of the effects
    on the element applied before ``eff`` that apply (``Compiler.later``); a Cat, or None for a card without one."""
    if ("prop", obj, ELEMENT) not in ctx.domains:  # no effect sets it: only the printed one
        return None
    base = st["prop", obj, ELEMENT]
    others = [f for f in ctx.effects_on(obj, "set", ELEMENT) if f.id != eff.id]
    if not others:
        return base
    key = ("element_before", eff.id, obj)
    if key in st.derived:
        return st.derived[key]
    rm = ctx.rm
    seen = Cat(rm, f"s{st.index}:element_before.{eff.id}.{obj}", ctx.domains["prop", obj, ELEMENT])
    st.derived[key] = seen  # cached before its clauses: an earlier effect's own reading may ask for it
    earlier = {f.id: rm.all_of([ctx.later(st, eff, f), derived.applies(ctx, st, f, obj)]) for f in others}
    for f in others:
        beaten = [rm.all_of([earlier[g.id], ctx.later(st, g, f)]) for g in others if g.id != f.id]
        wins = rm.all_of([earlier[f.id]] + [rm.neg(b) for b in beaten])
        seen.assign(str(f.value), [rm.rule("berserk.element.selector"), wins])
    seen.equal_to(base, [rm.rule("berserk.element.selector"), rm.neg(rm.any_of(list(earlier.values())))])
    return seen


def selects(ctx: RuleContext, st, eff, obj: str, element: str):
    """Literal (rule ``berserk.element.selector``): ``eff``'s selector ``element`` matches ``obj`` at ``st``: an
    effect on the element reads what the earlier ones produced, any other the element now."""
    check_cycle(ctx, eff)
    if not on_element(eff):
        return element_is(ctx, st, obj, element)
    seen = seen_before(ctx, st, eff, obj)
    if seen is None:
        return ctx.rm.true if printed(ctx, obj) == element else ctx.rm.false
    return seen.is_(element)
