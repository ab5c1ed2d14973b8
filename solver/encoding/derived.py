"""Characteristics derived from continuous effects, per stage, as rule clauses.

These are shared mechanisms: each game names the rules they enforce and passes
the ids in (``allowed(..., prohibit_wins="berserk.524.2")``), through its
ruleset's methods of the same names (``solver.encoding.ruleset``).

- object identity (``new_objects``): an object that changes zone or attachment is a
  new object: its visit begins then (``("since", obj)``). An effect that lists an
  object names the visit it was created for and does not follow it to the next
  (``Compiler.named_visit``); a static ability counts from when its source last
  entered or was attached (``Compiler.effect_time``);
- the latest applicable effect on a characteristic wins (``latest_wins``), "latest"
  by the time each was applied as the solver sees it (``Compiler.later``, a model
  quantity: a re-entry makes an effect the latest); when it stops applying, the
  next latest applies again, because winners are recomputed at every stage;
- control: the winning control effect's player, else the default controller; an
  object outside the game (a gone zone) has no controller;
- permission: allowed = (base or some permit) and no prohibit; when both a
  permit and a prohibit apply, the prohibition wins (its own rule id).

Every derived variable is created lazily and cached on the stage. Nested
characteristics (the controller a selector reads, the ability a permission
starts from) are asked of the game's ruleset, so they carry the game's ids.
"""
from __future__ import annotations

from models.effects import SOURCE_CONTROLLER, Effect, Selector
from solver.encoding.context import RuleContext
from solver.encoding.cp import Cat, Lit
from solver.encoding.state import NONE, Stage
from solver.errors import ScenarioError


def _cached(st: Stage, key: tuple, build):
    if key not in st.derived:
        st.derived[key] = build()
    return st.derived[key]


def applies(ctx: RuleContext, st: Stage, eff: Effect, obj: str) -> Lit:
    """Literal: effect ``eff`` is active and applies to ``obj`` at this stage (no rule: a definition)."""
    def build() -> Lit:
        conds = [st["active", eff.id]]
        sel = eff.targets
        if isinstance(sel, Selector):
            if sel.zone:
                conds.append(st["zone", obj].is_(sel.zone))
            if sel.controlled_by:
                conds.append(_controlled_by(ctx, st, eff, obj, sel.controlled_by))
            if sel.cell:
                conds.append(_on_cell(ctx, st, eff, obj, sel.cell))
            if sel.element:  # the game reads which element the effect sees (it may be set by effects)
                conds.append(ctx.rs.selects_element(ctx, st, eff, obj, sel.element))
        if eff.kind == "control" and eff.player == SOURCE_CONTROLLER:  # a game's rule on who may receive it
            conds.append(ctx.rs.may_receive(ctx, st, eff))
        if ("released", eff.id, obj) in ctx.domains:  # a game rule ended the effect for this object only
            conds.append(ctx.rm.neg(st["released", eff.id, obj]))
        conds.append(ctx.named_visit(st, eff, obj))  # an effect that listed it named an earlier visit: not this one
        return ctx.rm.all_of(conds, f"s{st.index}:applies.{eff.id}.{obj}")
    return _cached(st, ("applies", eff.id, obj), build)


def _controlled_by(ctx: RuleContext, st: Stage, eff: Effect, obj: str, who: str) -> Lit:
    rm = ctx.rm
    mine = ctx.controller(st, obj)
    if who not in ("source_controller", "source_opponent"):
        return mine.is_(who)
    src = ctx.controller(st, eff.source)
    same = [rm.all_of([mine.is_(p), src.is_(p)]) for p in ctx.players]
    if who == "source_controller":
        return rm.any_of(same)
    other = [rm.all_of([mine.is_(p), rm.neg(src.is_(p)), rm.neg(src.is_(NONE))]) for p in ctx.players]
    return rm.any_of(other)


def _on_cell(ctx: RuleContext, st: Stage, eff: Effect, obj: str, cell: str) -> Lit:
    """Literal: ``obj`` is on ``cell`` ('source': on the same cell as the effect's source; 'adjacent': on a cell next
    to it)."""
    rm = ctx.rm
    if ("cell", obj) not in st.vars:
        return rm.false
    if cell not in ("source", "adjacent"):
        return st["cell", obj].is_(cell)
    if ("cell", eff.source) not in st.vars:
        return rm.false
    if cell == "adjacent":  # on a cell next to the source's (the board's adjacency)
        return rm.any_of([rm.all_of([st["cell", obj].is_(c), st["cell", eff.source].is_(d)])
                          for c in ctx.cells for d in ctx.adjacency.get(c, ())])
    return rm.any_of([rm.all_of([st["cell", obj].is_(c), st["cell", eff.source].is_(c)]) for c in ctx.cells])


def latest_wins(ctx: RuleContext, st: Stage, char: tuple, effects: list[Effect], obj: str, *,
                latest: str, sole: str) -> list[tuple[Effect, Lit]]:
    """Rule ``latest``: among effects on one characteristic, the one applied latest (``Compiler.later``: by the time
    each was applied as of this stage, a re-entry included) of those that apply wins. Rule ``sole`` (the rule that
    applies an effect at all): an effect that applies alone wins, and only one that applies wins; no conflict, so
    ``latest`` does not decide it."""
    def build():
        rm = ctx.rm
        app = [applies(ctx, st, e, obj) for e in effects]
        wins = []
        for i, e in enumerate(effects):
            w = rm.new_bool(f"s{st.index}:wins.{e.id}.{'.'.join(char)}")
            others = [a for j, a in enumerate(app) if j != i]
            rm.implies(sole, [w], app[i])  # only an effect that applies wins: the sole rule's, never the conflict's
            rm.clause(sole, [w, rm.neg(app[i])] + others)
            beaten = []
            for j, f in enumerate(effects):
                later = ctx.later(st, f, e) if j != i else rm.false
                if later is rm.false:
                    continue
                if later is rm.true:
                    rm.implies(latest, [w], rm.neg(app[j]))
                else:
                    rm.implies(latest, [w, app[j]], rm.neg(later))
                beaten.append(rm.all_of([app[j], later]))
            # in a conflict (another applies too) the one not beaten wins; alone, the sole rule's clause decides
            rm.clause(latest, [w, rm.neg(app[i]), rm.neg(rm.any_of(others))] + beaten)
            wins.append((e, w))
        return wins
    return _cached(st, ("wins",) + char, build)


def none_applies(ctx: RuleContext, st: Stage, effects: list[Effect], obj: str) -> Lit:
    """Literal: none of ``effects`` applies to ``obj``."""
    return ctx.rm.neg(ctx.rm.any_of([applies(ctx, st, e, obj) for e in effects]))


def given_to(ctx: RuleContext, st: Stage, e: Effect) -> Cat | str:
    """The player a control effect gives control to at ``st``: its ``player``, or for ``source_controller`` (a
    static ability's "you") whoever controls its source then."""
    return ctx.controller(st, e.source) if e.player == SOURCE_CONTROLLER else e.player


def gives_to(ctx: RuleContext, st: Stage, e: Effect, player: str) -> Lit:
    """Literal: control effect ``e`` gives control to ``player`` at ``st`` (``given_to``)."""
    who = given_to(ctx, st, e)
    if isinstance(who, str):
        return ctx.rm.true if who == player else ctx.rm.false
    return who.is_(player)


def receiver_in_game(ctx: RuleContext, st: Stage, e: Effect, rule: str) -> Lit:
    """Literal: rule ``rule`` lets a static ability's "you" (its source's controller) receive control at ``st`` only
    while that player is in the game (``RuleModel.requirement``: owned only where the player left). Cached."""
    key = ("receives", e.id)
    if key not in st.derived:
        rm = ctx.rm
        present = rm.any_of([rm.all_of([gives_to(ctx, st, e, p), in_game(ctx, st, p)]) for p in ctx.players])
        st.derived[key] = rm.requirement(rule, present, f"s{st.index}:receives.{e.id}")
    return st.derived[key]


#: marks a controller being built (a control effect whose player is its source's controller asks for another)
_BUILDING = object()


def controller(ctx: RuleContext, st: Stage, obj: str, *, latest: str, control: str, outside: str) -> Cat:
    """Rule ``control``: the effective controller is the latest applicable control effect's player, else the default;
    rule ``outside``: an object outside the game (in a gone zone) has no controller."""
    effects = ctx.effects_on(obj, "control")
    gone = st["zone", obj].one_of(ctx.rs.gone_zones) if ("zone", obj) in ctx.domains else ctx.rm.false
    if not effects and gone is ctx.rm.false:
        return st["ctrl", obj]

    def build() -> Cat:
        rm = ctx.rm
        c = Cat(rm, f"s{st.index}:controller.{obj}", ctx.domains["ctrl", obj])
        c.assign(NONE, [rm.rule(outside), gone])
        here = rm.neg(gone)
        for e, w in latest_wins(ctx, st, ("control", obj), effects, obj, latest=latest, sole=control):
            who = given_to(ctx, st, e)
            if isinstance(who, str):
                c.assign(who, [rm.rule(control), w, here])
            else:  # "you": whoever controls the source now
                c.equal_to(who, [rm.rule(control), w, here])
        c.equal_to(st["ctrl", obj], [rm.rule(control), none_applies(ctx, st, effects, obj), here])
        return c
    key = ("controller", obj)
    if st.derived.get(key) is _BUILDING:
        raise ScenarioError(f"the controller of {obj} depends on itself: a control effect gives it to whoever "
                            f"controls a source whose controller depends on {obj}")
    if key not in st.derived:
        st.derived[key] = _BUILDING
        try:
            st.derived[key] = build()
        except BaseException:
            del st.derived[key]
            raise
    return st.derived[key]


def value(ctx: RuleContext, st: Stage, obj: str, attr: str, *, latest: str, value: str, add: str, receives=None):
    """Rules ``value`` and ``add``: base or the latest 'set', plus every applicable 'add'.

    ``receives`` (a game's rule limiting what a card receives): None, or ``(rule, may)`` with ``may`` the literal
    that the object may receive ``attr``: under ``rule``, an 'add' of a positive value adds nothing where ``may``
    fails (the effect applies to the card, but it does not receive what the effect gives).
    """
    sets = ctx.effects_on(obj, "set", attr)
    adds = ctx.effects_on(obj, "add", attr)
    base = st["attr", obj, attr]
    if not sets and not adds:
        return base

    def build():
        rm = ctx.rm
        pre = base
        if sets:
            pre = rm.new_int(f"s{st.index}:set.{obj}.{attr}")
            for e, w in latest_wins(ctx, st, ("attr", obj, attr), sets, obj, latest=latest, sole=value):
                rm.enforce(value, rm.model.add(pre == int(e.value)), [w])
            rm.enforce(value, rm.model.add(pre == base), [none_applies(ctx, st, sets, obj)])
        if not adds:
            return pre
        v = rm.new_int(f"s{st.index}:value.{obj}.{attr}")
        total = sum(int(e.value) * _received(ctx, st, e, obj, add=add, receives=receives) for e in adds)
        rm.enforce(add, rm.model.add(v == pre + total))
        return v
    return _cached(st, ("value", obj, attr), build)


def _received(ctx: RuleContext, st: Stage, eff: Effect, obj: str, *, add: str, receives) -> Lit:
    """Literal: the 'add' effect counts for ``obj``: it applies (rule ``add``) and, for a positive value under a
    ``receives`` rule, the object may receive it (that rule: it receives nothing it may not)."""
    app = applies(ctx, st, eff, obj)
    if receives is None or int(eff.value) <= 0:
        return app
    rule, may = receives
    rm = ctx.rm
    got = rm.new_bool(f"s{st.index}:received.{eff.id}.{obj}")
    rm.implies(add, [app, may], got)
    rm.implies(add, [rm.neg(app)], rm.neg(got))
    rm.implies(rule, [rm.neg(may)], rm.neg(got))
    return got


def prop(ctx: RuleContext, st: Stage, obj: str, name: str, *, latest: str, value: str) -> Cat:
    """Rule ``value``: the effective categorical property is the latest 'set' effect's value, else the base value."""
    sets = ctx.effects_on(obj, "set", name)
    base = st["prop", obj, name]
    if not sets:
        return base

    def build() -> Cat:
        rm = ctx.rm
        c = Cat(rm, f"s{st.index}:prop.{obj}.{name}", ctx.domains["prop", obj, name])
        for e, w in latest_wins(ctx, st, ("prop", obj, name), sets, obj, latest=latest, sole=value):
            c.assign(str(e.value), [rm.rule(value), w])
        c.equal_to(base, [rm.rule(value), none_applies(ctx, st, sets, obj)])
        return c
    return _cached(st, ("prop", obj, name), build)


def ability_names(ctx: RuleContext, obj: str) -> list[str]:
    """Every ability the object may have at some stage: printed, or named by a grant effect that may apply to it. A
    rule that reads 'each [ability] the card has' asks ``has_ability`` of each of these, never the printed list."""
    printed = {k[2] for k in ctx.domains if k[0] == "ability" and k[1] == obj}
    granted = {g[2] for g in ctx.effect_groups() if g[0] == "grant" and g[1] == obj}
    return sorted(printed | granted)


def has_ability(ctx: RuleContext, st: Stage, obj: str, ability: str, *, latest: str, value: str) -> Lit:
    """Rule ``value``: the latest grant/remove effect decides whether the object has the ability, else its base."""
    effects = ctx.effects_on(obj, "grant", ability) + ctx.effects_on(obj, "remove", ability)
    effects.sort(key=ctx.effect_order)
    base = st.vars.get(("ability", obj, ability), ctx.rm.false)
    if not effects:
        return base

    def build() -> Lit:
        rm = ctx.rm
        b = rm.new_bool(f"s{st.index}:has.{obj}.{ability}")
        for e, w in latest_wins(ctx, st, ("ability", obj, ability), effects, obj, latest=latest, sole=value):
            rm.implies(value, [w], b if e.kind == "grant" else rm.neg(b))
        rm.enforce(value, rm.model.add(b == base), [none_applies(ctx, st, effects, obj)])
        return b
    return _cached(st, ("has", obj, ability), build)


def allowed(ctx: RuleContext, st: Stage, obj: str, action: str, default: bool = False, *,
            permit: str, cannot: str, prohibit_wins: str) -> Lit:
    """May the object perform (or undergo) ``action``.

    Rule ``permit``: allowed when it has the ability (or ``default``) or some effect permits it, and none prohibits
    it; rule ``cannot``: a prohibition alone forbids it; rule ``prohibit_wins``: a prohibition beats a permission.
    An effect that grants the ability, while the card has it, permits the action too (seeds/003, 524.2: the
    Archmage's "creatures gain the ability to accumulate tokens" against the Joker's "cannot accumulate").
    """
    def build() -> Lit:
        rm = ctx.rm
        if ("ability", obj, action) in ctx.domains or ctx.effects_on(obj, "grant", action) \
                or ctx.effects_on(obj, "remove", action):
            base = ctx.has_ability(st, obj, action)
        else:
            base = rm.true if default else rm.false
        grants = rm.any_of([applies(ctx, st, e, obj) for e in ctx.effects_on(obj, "grant", action)])
        permits = rm.any_of([applies(ctx, st, e, obj) for e in ctx.effects_on(obj, "permit", action)]
                            + [rm.all_of([grants, base])])
        prohibit = rm.any_of([applies(ctx, st, e, obj) for e in ctx.effects_on(obj, "prohibit", action)])
        ok = rm.new_bool(f"s{st.index}:allowed.{obj}.{action}")
        rm.implies(permit, [rm.neg(prohibit), rm.any_of([base, permits])], ok)
        rm.implies(permit, [rm.neg(base), rm.neg(permits)], rm.neg(ok))
        rm.implies(cannot, [prohibit, rm.neg(permits)], rm.neg(ok))
        rm.implies(prohibit_wins, [prohibit, permits], rm.neg(ok))
        st.derived["permission", obj, action] = (permits, prohibit, ok)
        return ok
    return _cached(st, ("allowed", obj, action, bool(default)), build)  # the default is part of the question


def statics(ctx: RuleContext, st: Stage, *, rule: str) -> None:
    """Rule ``rule``: a static effect is active exactly while its source is in a zone where it works."""
    for eid, e in ctx.effects.items():
        if e.duration != "static" or ctx.is_pending(eid):
            continue
        key = ("active", eid)
        st.defined.add(key)
        st.defined_by[key] = rule
        on = st["zone", e.source].one_of(ctx.rs.play_zones)
        if ("ended", eid) in ctx.domains:  # a game rule ended it while its source stays (e.g. mtg.800.4a)
            on = ctx.rm.all_of([on, ctx.rm.neg(st["ended", eid])])
        ctx.rm.enforce(rule, ctx.rm.model.add(st[key] == on))


def changed(ctx: RuleContext, before, after) -> Lit:
    """Literal (a definition): two categorical variables of one key differ."""
    rm = ctx.rm
    if before is after:
        return rm.false
    return rm.any_of([rm.all_of([before.is_(v), rm.neg(after.is_(v))]) for v in before.domain])


def new_objects(ctx: RuleContext, tr, *, rule: str) -> None:
    """Rule ``rule``: an object that changes zone, or is attached anew, is a new object: its visit begins now (the
    event's time, ``Compiler.since``). Only for the objects whose identity some rule reads (``Compiler.identity``)."""
    rm, now = ctx.rm, ctx.event_index + 1
    for obj in ctx.identity:
        keys = [k for k in (("zone", obj), ("attach", obj)) if dict.__contains__(tr.next.vars, k)]
        if not keys:
            continue
        moved = rm.any_of([changed(ctx, tr.prev.vars[k], tr.next.vars[k]) for k in keys])
        if moved is not rm.false:
            tr.set(("since", obj), now, rule, moved)


def in_game(ctx: RuleContext, st: Stage, player: str) -> Lit:
    """Literal: the player is still in the game."""
    return st["pstatus", player].is_("in_game")
