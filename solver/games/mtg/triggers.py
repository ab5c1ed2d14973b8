"""Triggered abilities: who controls them (603.3a, 603.10a, 603.7d) and whether they are put on the stack (800.4d).

The controller of a triggered ability is a value the rules give, not the scenario: the player who controlled its
source when it triggered (mtg.603.3a), or, for a leaves-the-battlefield ability, the player who controlled the
source just before it left (mtg.603.10a: a state key ``("left_ctrl", source)`` recorded at every transition in
which the source leaves the battlefield). A delayed triggered ability is controlled by whoever controlled what
created it (603.7d): the scenario gives that (``controller``, with ``delayed``), as it must for an ability with no
source. A ``controller`` the scenario gives for a computed one must agree with the rules in every outcome, else the
checker reports a located error. A triggered ability whose controller left is not put on the stack (800.4d).
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.encoding.cp import Cat
from solver.encoding.state import NONE
from solver.games.mtg.players import in_game


def check_event(ctx: RuleContext, ev) -> None:
    """The fields a trigger needs to have its controller (ScenarioError otherwise)."""
    if ev.source is not None and ev.source not in ctx.objects:
        raise ScenarioError(f"trigger {ev.id}: unknown source '{ev.source}'")
    if ev.controller is None and (ev.source is None or ev.delayed):
        why = "a delayed triggered ability (603.7d)" if ev.delayed else "with no source to take it from (603.3a)"
        raise ScenarioError(f"trigger {ev.id}: give its `controller`: {why}, the rules cannot compute it")
    if ev.from_graveyard and (ev.source is None or ev.delayed or ev.leaves):
        raise ScenarioError(f"trigger {ev.id}: `from_graveyard` is an ability of its `source` that works from its "
                            f"graveyard (113.6): give the source, and neither `delayed` nor `leaves`")
    if ev.from_graveyard and ev.controller not in (None, ctx.owner_of(ev.source)):
        raise ScenarioError(f"trigger {ev.id}: controller '{ev.controller}' contradicts 113.8: an ability of a card in "
                            f"a graveyard is controlled by its owner, {ctx.owner_of(ev.source)}")
    if ev.leaves and (ev.source is None or ev.delayed):
        raise ScenarioError(f"trigger {ev.id}: `leaves` is a leaves-the-battlefield ability of its `source` "
                            f"(603.10a): give the source, and not `delayed`")


def declare_keys(ctx: RuleContext) -> None:
    """The source's controller when it last left the battlefield, for every leaves-the-battlefield ability."""
    for ev in ctx.sc.events:
        if ev.type == "trigger" and ev.leaves and ev.source in ctx.objects:
            ctx.add_key(("left_ctrl", ev.source), ctx.domains["ctrl", ev.source], NONE)


def possible_controllers(ctx: RuleContext, ev) -> set[str]:
    """Static: every player who may control the trigger: the one given for a delayed one or one with no source, else
    whoever may control its source (its controller or owner, a control effect's player, whoever it is put onto the
    battlefield or created under)."""
    if ev.source is None or ev.delayed:
        return {ev.controller} - {None}
    src = ev.source
    data = ctx.objects[src].data
    out = {data.controller, data.owner} if data is not None else {ctx.owner_of(src)}
    out |= {e.player for e in ctx.effects_on(src, "control")}
    for other in ctx.sc.events:
        if other.type == "put_onto" and other.object == src:
            out.add(other.controller or ctx.owner_of(src))
        elif other.type == "create" and other.id == src:
            out.add(other.controller)
    return out - {None}


def record_departures(ctx: RuleContext, tr) -> None:
    """mtg.603.10a: in a transition where a source leaves the battlefield, ``left_ctrl`` takes the controller it had
    just before (the rules 'look back in time')."""
    rm = ctx.rm
    for k in [k for k in ctx.domains if k[0] == "left_ctrl"]:
        src = k[1]
        if not dict.__contains__(tr.next.vars, ("zone", src)):
            continue  # its zone did not change here
        left = rm.all_of([tr.prev["zone", src].is_("battlefield"), rm.neg(tr.next.vars["zone", src].is_("battlefield"))])
        if left is rm.false:
            continue
        # 603.10a: "... leaves-the-battlefield abilities ... the game has to 'look back in time' to determine if
        # these abilities trigger, using the existence of those abilities and the appearance of objects immediately
        # prior to the event."
        tr.set(k, ctx.controller(tr.prev, src), "mtg.603.10a", left)


def controller(ctx: RuleContext, st, ev) -> tuple[object, str]:
    """The trigger's controller (a player's name or a variable over players and none) and the rule that gives it."""
    if ev.source is None or ev.delayed:
        return ev.controller, ("mtg.603.7d" if ev.delayed else "mtg.603.3")
    if ev.leaves:
        return st["left_ctrl", ev.source], "mtg.603.10a"
    if ev.from_graveyard:  # 113.8: a source with no controller (in a graveyard): its owner controls the ability
        return ctx.owner_of(ev.source) or NONE, "mtg.113.8"
    # 603.3a: "A triggered ability is controlled by the player who controlled its source when it triggered, unless
    # it's a delayed triggered ability."
    return ctx.controller(st, ev.source), "mtg.603.3a"


def trigger(ctx: RuleContext, ev, choices_legal=None) -> None:
    """Under its controller onto the stack (mtg.603.3); not if that player left (800.4d); not at all if its source
    gives it no controller (outside the game, or a leaves-the-battlefield ability whose source has not left);
    removed at once when a target it names is not legal (``choices_legal``: the literal, mtg.603.3d)."""
    check_event(ctx, ev)
    rm, st = ctx.rm, ctx.stage
    ctrl, rule = controller(ctx, st, ev)
    if isinstance(ctrl, Cat):
        present = rm.any_of([rm.all_of([ctrl.is_(p), in_game(ctx, st, p)]) for p in ctx.players])
        nobody = ctrl.is_(NONE)
        if ev.controller is not None:
            agrees = rm.any_of([ctrl.is_(ev.controller), nobody])
            ctx.require(agrees, (
                f"trigger {ev.id}: controller '{ev.controller}' contradicts {rule[4:]}: its controller is whoever "
                f"controlled {ev.source} {'when it left the battlefield' if ev.leaves else 'when it triggered'} "
                f"(omit `controller`: the rules give it)"))
    else:
        present, nobody = in_game(ctx, st, ctrl) if ctrl != NONE else rm.false, rm.true if ctrl == NONE else rm.false
    works = st["zone", ev.source].is_("graveyard") if ev.from_graveyard else rm.true  # 113.6
    idle = rm.neg(works)
    present, nobody = rm.all_of([works, present]), rm.all_of([works, nobody])
    left = rm.all_of([works, rm.neg(present), rm.neg(nobody)])
    # 603.3d: "If a choice is required when the triggered ability goes on the stack but no legal choices can be
    # made for it ... the ability is simply removed from the stack": a target it names must be legal now (115.1)
    aimed = choices_legal(ctx, st, ev.id, ctrl) if choices_legal is not None else rm.true
    removed = rm.all_of([present, rm.neg(aimed)])
    present = rm.all_of([present, aimed])
    with ctx.step(f"{ev.id} triggers") as tr:
        tr.set(("zone", ev.id), "stack", "mtg.603.3", present)
        tr.set(("status", ev.id), "on_stack", "mtg.603.3", present)
        tr.set(("ctrl", ev.id), ctrl, rule, present)
        tr.keep(("zone", ev.id), "mtg.603.3d", removed)
        tr.set(("status", ev.id), "illegal", "mtg.603.3d", removed)
        # 800.4d: "... If a triggered ability controlled by a player who has left the game would be put on the
        # stack, it isn't put on the stack."
        tr.keep(("zone", ev.id), "mtg.800.4d.trigger", left)
        tr.keep(("status", ev.id), "mtg.800.4d.trigger", left)
        tr.keep(("zone", ev.id), "mtg.603.3a.none", nobody)
        tr.keep(("status", ev.id), "mtg.603.3a.none", nobody)
        if ev.from_graveyard:  # 113.6: it works only while its source is in a graveyard (where the card says)
            tr.keep(("zone", ev.id), "mtg.113.6", idle)
            tr.keep(("status", ev.id), "mtg.113.6", idle)
