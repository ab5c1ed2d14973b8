"""Characteristics derived from continuous effects, per stage, as rule clauses.

- the latest applicable effect on a characteristic wins (``latest``); when it
  stops applying, the next latest applies again, because winners are recomputed
  at every stage from the effects active there;
- control: the winning control effect's player, else the default controller;
- permission: allowed = (base or some permit) and no prohibit; when both a
  permit and a prohibit apply, the prohibition wins (its own rule id).

Every derived variable is created lazily and cached on the stage.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from models.effects import Effect, Selector
from solver.cp import Cat, Lit
from solver.state import NONE, Stage

if TYPE_CHECKING:
    from solver.compile import Compiler


def _cached(st: Stage, key: tuple, build):
    if key not in st.derived:
        st.derived[key] = build()
    return st.derived[key]


def applies(comp: "Compiler", st: Stage, eff: Effect, obj: str) -> Lit:
    """Literal: effect ``eff`` is active and applies to ``obj`` at this stage."""
    def build() -> Lit:
        conds = [st["active", eff.id]]
        sel = eff.targets
        if isinstance(sel, Selector):
            if sel.zone:
                conds.append(st["zone", obj].is_(sel.zone))
            if sel.controlled_by:
                conds.append(_controlled_by(comp, st, eff, obj, sel.controlled_by))
            if sel.cell:
                conds.append(_on_cell(comp, st, eff, obj, sel.cell))
        if ("released", eff.id, obj) in comp.domains:  # a game rule ended the effect for this object only
            conds.append(comp.rm.neg(st["released", eff.id, obj]))
        return comp.rm.all_of(conds, f"s{st.index}:applies.{eff.id}.{obj}")
    return _cached(st, ("applies", eff.id, obj), build)


def _controlled_by(comp: "Compiler", st: Stage, eff: Effect, obj: str, who: str) -> Lit:
    rm = comp.rm
    mine = controller(comp, st, obj)
    if who not in ("source_controller", "source_opponent"):
        return mine.is_(who)
    src = controller(comp, st, eff.source)
    same = [rm.all_of([mine.is_(p), src.is_(p)]) for p in comp.players]
    if who == "source_controller":
        return rm.any_of(same)
    other = [rm.all_of([mine.is_(p), rm.neg(src.is_(p)), rm.neg(src.is_(NONE))]) for p in comp.players]
    return rm.any_of(other)


def _on_cell(comp: "Compiler", st: Stage, eff: Effect, obj: str, cell: str) -> Lit:
    """Literal: ``obj`` is on ``cell`` ('source': on the same cell as the effect's source)."""
    rm = comp.rm
    if ("cell", obj) not in st.vars:
        return rm.false
    if cell != "source":
        return st["cell", obj].is_(cell)
    if ("cell", eff.source) not in st.vars:
        return rm.false
    return rm.any_of([rm.all_of([st["cell", obj].is_(c), st["cell", eff.source].is_(c)]) for c in comp.cells])


def latest_wins(comp: "Compiler", st: Stage, char: tuple, effects: list[Effect], obj: str) -> list[tuple[Effect, Lit]]:
    """Rule clauses: among effects on one characteristic, the latest applicable one wins."""
    def build():
        rm, rid = comp.rm, comp.ids["latest"]
        app = [applies(comp, st, e, obj) for e in effects]
        wins = []
        for i, e in enumerate(effects):
            w = rm.new_bool(f"s{st.index}:wins.{e.id}.{'.'.join(char)}")
            later = app[i + 1:]
            rm.implies(rid, [w], app[i])
            for a in later:
                rm.implies(rid, [w], rm.neg(a))
            rm.implies(rid, [app[i]] + [rm.neg(a) for a in later], w)
            wins.append((e, w))
        return wins
    return _cached(st, ("wins",) + char, build)


def none_applies(comp: "Compiler", st: Stage, effects: list[Effect], obj: str) -> Lit:
    """Literal: none of ``effects`` applies to ``obj``."""
    return comp.rm.neg(comp.rm.any_of([applies(comp, st, e, obj) for e in effects]))


def controller(comp: "Compiler", st: Stage, obj: str) -> Cat:
    """The effective controller: the latest applicable control effect's player, else the default controller."""
    effects = comp.effects_on(obj, "control")
    if not effects:
        return st["ctrl", obj]

    def build() -> Cat:
        rm, rid = comp.rm, comp.ids["control"]
        c = Cat(rm, f"s{st.index}:controller.{obj}", comp.domains["ctrl", obj])
        for e, w in latest_wins(comp, st, ("control", obj), effects, obj):
            c.assign(e.player, [rm.rule(rid), w])
        c.equal_to(st["ctrl", obj], [rm.rule(rid), none_applies(comp, st, effects, obj)])
        return c
    return _cached(st, ("controller", obj), build)


def value(comp: "Compiler", st: Stage, obj: str, attr: str):
    """The effective numeric value: base or the latest 'set', plus every applicable 'add'."""
    sets = comp.effects_on(obj, "set", attr)
    adds = comp.effects_on(obj, "add", attr)
    base = st["attr", obj, attr]
    if not sets and not adds:
        return base

    def build():
        rm = comp.rm
        pre = base
        if sets:
            rid = comp.ids["value"]
            pre = rm.new_int(f"s{st.index}:set.{obj}.{attr}")
            for e, w in latest_wins(comp, st, ("attr", obj, attr), sets, obj):
                rm.enforce(rid, rm.model.add(pre == int(e.value)), [w])
            rm.enforce(rid, rm.model.add(pre == base), [none_applies(comp, st, sets, obj)])
        if not adds:
            return pre
        v = rm.new_int(f"s{st.index}:value.{obj}.{attr}")
        total = sum(int(e.value) * applies(comp, st, e, obj) for e in adds)
        rm.enforce(comp.ids["add"], rm.model.add(v == pre + total))
        return v
    return _cached(st, ("value", obj, attr), build)


def prop(comp: "Compiler", st: Stage, obj: str, name: str) -> Cat:
    """The effective categorical property: the latest 'set' effect's value, else the base value."""
    sets = comp.effects_on(obj, "set", name)
    base = st["prop", obj, name]
    if not sets:
        return base

    def build() -> Cat:
        rm, rid = comp.rm, comp.ids["value"]
        c = Cat(rm, f"s{st.index}:prop.{obj}.{name}", comp.domains["prop", obj, name])
        for e, w in latest_wins(comp, st, ("prop", obj, name), sets, obj):
            c.assign(str(e.value), [rm.rule(rid), w])
        c.equal_to(base, [rm.rule(rid), none_applies(comp, st, sets, obj)])
        return c
    return _cached(st, ("prop", obj, name), build)


def has_ability(comp: "Compiler", st: Stage, obj: str, ability: str) -> Lit:
    """Does the object have the ability: latest grant/remove effect wins, else its base abilities."""
    effects = comp.effects_on(obj, "grant", ability) + comp.effects_on(obj, "remove", ability)
    effects.sort(key=comp.effect_order)
    base = st.vars.get(("ability", obj, ability), comp.rm.false)
    if not effects:
        return base

    def build() -> Lit:
        rm, rid = comp.rm, comp.ids["value"]
        b = rm.new_bool(f"s{st.index}:has.{obj}.{ability}")
        for e, w in latest_wins(comp, st, ("ability", obj, ability), effects, obj):
            rm.implies(rid, [w], b if e.kind == "grant" else rm.neg(b))
        none = none_applies(comp, st, effects, obj)
        rm.enforce(rid, rm.model.add(b == base), [none])
        return b
    return _cached(st, ("has", obj, ability), build)


def allowed(comp: "Compiler", st: Stage, obj: str, action: str, default: bool = False) -> Lit:
    """May the object perform (or undergo) ``action``: (base or permit) and no prohibit; prohibition beats permission."""
    def build() -> Lit:
        rm, ids = comp.rm, comp.ids
        if ("ability", obj, action) in comp.domains or comp.effects_on(obj, "grant", action) or comp.effects_on(obj, "remove", action):
            base = has_ability(comp, st, obj, action)
        else:
            base = rm.true if default else rm.false
        permit = rm.any_of([applies(comp, st, e, obj) for e in comp.effects_on(obj, "permit", action)])
        prohibit = rm.any_of([applies(comp, st, e, obj) for e in comp.effects_on(obj, "prohibit", action)])
        ok = rm.new_bool(f"s{st.index}:allowed.{obj}.{action}")
        rm.implies(ids["permission"], [rm.neg(prohibit), rm.any_of([base, permit])], ok)
        rm.implies(ids["permission"], [rm.neg(base), rm.neg(permit)], rm.neg(ok))
        rm.implies(ids["cannot"], [prohibit, rm.neg(permit)], rm.neg(ok))
        rm.implies(ids["prohibit_beats_permit"], [prohibit, permit], rm.neg(ok))
        st.derived["permission", obj, action] = (permit, prohibit, ok)
        return ok
    return _cached(st, ("allowed", obj, action, bool(default)), build)  # the default is part of the question


def in_game(comp: "Compiler", st: Stage, player: str) -> Lit:
    """Literal: the player is still in the game."""
    return st["pstatus", player].is_("in_game")
