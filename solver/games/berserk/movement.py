"""Berserk movement (seed 003, conservation, 524.2, 525.2): may this card move to that cell now (``can_move``).

One predicate, called by every path that moves a card over the board:

- a declared movement (the action kind ``move``, ``params: {cell: X}``): illegal (525.1) unless ``can_move``;
- a free Choice subphase (``choice_subphase`` with ``free: true``): an obliged card stays in play only on a cell
  ``can_move`` allows (``conservation.Conservation``), else it dies;
- the victory analysis' reach: a creature an effect forbids to move strikes only from its own cell
  (``may_move``, read into the combat position by ``victory.combat_state``).

``can_move`` is the conjunction of its parts, each under its rule id:

- ``may_move``: no effect forbids the card to move: 'cannot move' (berserk.525.2), and a prohibition beats a
  permission (berserk.524.2);
- ``next_to``: it stands in play on a cell adjacent to X (berserk.movement.adjacent);
- ``free_for``: when it counts for conservation, no other card that counts stands on X (berserk.movement.free).

A placement that is no movement (a summon, revival, incarnation, recruit or a forced move onto a cell) is not
limited by it: a card may be put on an occupied cell, and then takes the duty to move (``free_for`` decides it,
``conservation.Conservation.arrive``). There is no push in the rules modelled here.
"""
from __future__ import annotations

from solver.encoding.context import RuleContext
from solver.encoding.ruleset import ActionKind
from solver.encoding.state import NONE
from solver.errors import ScenarioError

#: the duty flag
OBLIGATION = "must_move"
#: the action an effect permits or prohibits to say a card may (not) move
MOVE = "move"


# -- who stands on the board and who counts for conservation -----------------------------------------------
def leave_play(ctx: RuleContext, tr, obj: str, zone: str, rule_id: str, when) -> None:
    """The card goes to ``zone`` (out of play) under ``rule_id`` where ``when`` holds, and leaves its cell
    (berserk.cell.leave): every path that takes a card off the board (a death, a destruction) calls this."""
    tr.set(("zone", obj), zone, rule_id, when)
    if ("cell", obj) in ctx.domains:
        tr.set(("cell", obj), NONE, "berserk.cell.leave", when)
    off_the_board(ctx, tr, obj, when)


def off_the_board(ctx: RuleContext, tr, obj: str, when=None) -> None:
    """A card that leaves play has no duty to move (berserk.conservation: the duty is to take this card off the
    occupied cell; a card that comes back is a new card, berserk.conflict.anew)."""
    if ("flag", obj, OBLIGATION) in ctx.domains:
        tr.set(("flag", obj, OBLIGATION), 0, "berserk.conservation", when)


def exemption(ctx: RuleContext, obj: str) -> str | None:
    """The rule that exempts the card from conservation, under which its clauses sit: a symbiote
    (berserk.conservation.symbiote) or equipment (berserk.conservation.equipment); None: it counts."""
    types = ctx.objects[obj].types
    if "symbiote" in types:
        return "berserk.conservation.symbiote"
    if "equipment" in types:
        return "berserk.conservation.equipment"
    return None


def on_cells(ctx: RuleContext) -> list[str]:
    """The cards that can stand on a cell of the board (not declared actions)."""
    return [o for o, info in ctx.objects.items() if ("cell", o) in ctx.domains and info.action is None]


def counts(ctx: RuleContext, obj: str):
    """Literal: the card counts for conservation. A symbiote or equipment does not, under its exemption's rule."""
    rm = ctx.rm
    if ("cell", obj) not in ctx.domains or ctx.objects[obj].action is not None:
        return rm.false
    rule = exemption(ctx, obj)
    if rule is None:
        return rm.true
    cache = ctx.stages[0].derived
    if ("counts", obj) not in cache:
        lit = rm.new_bool(f"counts.{obj}")
        rm.implies(rule, [], rm.neg(lit))
        cache["counts", obj] = lit
    return cache["counts", obj]


def occupied(ctx: RuleContext, st, cell: str, obj: str):
    """Literal: another card that counts for conservation stands on ``cell`` in play at stage ``st``."""
    rm = ctx.rm
    return rm.any_of([rm.all_of([st["zone", q].is_("play"), st["cell", q].is_(cell), counts(ctx, q)])
                      for q in on_cells(ctx) if q != obj])


# -- may this card move to that cell now --------------------------------------------------------------------------
def _defined(ctx: RuleContext, st, rule_id: str, cond, name: str):
    """A literal: rule ``rule_id``'s requirement ``cond`` is met (``RuleModel.requirement``); cached."""
    rm = ctx.rm
    if cond is rm.true or cond is rm.false:
        return cond
    key = ("can_move", rule_id, name)
    if key not in st.derived:
        st.derived[key] = rm.requirement(rule_id, cond, f"s{st.index}:{rule_id}.{name}")
    return st.derived[key]


def may(ctx: RuleContext, st, card: str, action: str):
    """Literal: no effect forbids ``card`` the ``action`` at ``st`` (a move, an obligatory ability): 'cannot' forbids
    it (berserk.525.2), a prohibition beats a permission (berserk.524.2). True when no effect speaks of it."""
    if not (ctx.effects_on(card, "prohibit", action) or ctx.effects_on(card, "permit", action)):
        return ctx.rm.true
    return ctx.allowed(st, card, action, default=True)


def may_move(ctx: RuleContext, st, card: str):
    """Literal: no effect forbids ``card`` to move at ``st`` (``may``)."""
    return may(ctx, st, card, MOVE)


def next_to(ctx: RuleContext, st, card: str, cell: str):
    """Literal (berserk.movement.adjacent): ``card`` stands in play on a cell adjacent to ``cell``."""
    rm = ctx.rm
    here = [st["cell", card].is_(c) for c in ctx.cells if cell in ctx.adjacency.get(c, ())]
    return _defined(ctx, st, "berserk.movement.adjacent", rm.all_of([st["zone", card].is_("play"), rm.any_of(here)]),
                    f"{card}.{cell}")


def free_for(ctx: RuleContext, st, card: str, cell: str):
    """Literal (berserk.movement.free): ``cell`` is free for ``card``: it does not count for conservation, or no other
    card that counts stands there."""
    return _defined(ctx, st, "berserk.movement.free", ctx.rm.neg(blocked(ctx, st, card, cell)), f"{card}.{cell}")


def blocked(ctx: RuleContext, st, card: str, cell: str):
    """Literal: ``cell`` is not free for ``card``: the card counts for conservation and another card that counts
    stands there (what a move and a named cell of an entering card both read)."""
    return ctx.rm.all_of([counts(ctx, card), occupied(ctx, st, cell, card)])


def move_requirements(ctx: RuleContext, st, card: str, cell: str) -> list[tuple[str | None, object]]:
    """The parts of ``can_move``, each with the rule it sits under (the permission's own ids are inside it)."""
    return [(None, may_move(ctx, st, card)), ("berserk.movement.adjacent", next_to(ctx, st, card, cell)),
            ("berserk.movement.free", free_for(ctx, st, card, cell))]


def can_move(ctx: RuleContext, st, card: str, cell: str):
    """Literal: ``card`` may move to ``cell`` at ``st``: no effect forbids it (berserk.525.2, berserk.524.2), it stands
    next to the cell (berserk.movement.adjacent), and the cell is free for it (berserk.movement.free)."""
    return ctx.rm.all_of([lit for _, lit in move_requirements(ctx, st, card, cell)], f"s{st.index}:can_move")


# -- the declared movement ------------------------------------------------------------------------------------------
def mover(spec) -> str:
    """The card that moves: the action's source."""
    if not getattr(spec, "source", None):
        raise ScenarioError("action 'move' needs the moving card as its source")
    return spec.source


def destination(ctx: RuleContext, spec) -> str:
    """The cell a move names (a cell of the board)."""
    cell = str(spec.params["cell"])
    if not ctx.cells:
        raise ScenarioError("action 'move' needs a board (give the scenario a 'board')")
    if cell not in ctx.cells:
        raise ScenarioError(f"action 'move': unknown cell '{cell}'")
    return cell


def move() -> ActionKind:
    """Move the source to the named cell: legal only if ``can_move``."""
    def requirements(ctx: RuleContext, st, spec):
        card, cell = mover(spec), destination(ctx, spec)
        return [(rule, lit) for rule, lit in move_requirements(ctx, st, card, cell)]

    def apply(ctx: RuleContext, tr, spec, when):
        card = mover(spec)
        tr.set(("cell", card), destination(ctx, spec), "berserk.movement", when)
        if ("flag", card, OBLIGATION) in ctx.domains:
            tr.set(("flag", card, OBLIGATION), 0, "berserk.movement", when)
    return ActionKind(requirements, apply, None)


def move_or_die(ctx: RuleContext, tr, obj: str, due) -> None:
    """An undeclared choice (a free Choice subphase): the obliged card dies (berserk.conservation), or stays in play on
    a cell it ``can_move`` to from where it stood; two cards moving at once never end up sharing a cell
    (berserk.movement.free)."""
    rm, prev, nxt = ctx.rm, tr.prev, tr.next
    tr.free(("zone", obj), due, "berserk.conservation")
    tr.free(("cell", obj), due, "berserk.conservation")
    tr.set(("flag", obj, OBLIGATION), 0, "berserk.conservation", due)
    dies, stays = nxt["zone", obj].is_("graveyard"), nxt["zone", obj].is_("play")
    rm.clause("berserk.conservation", [dies, stays], [due])
    rm.implies("berserk.cell.leave", [due, dies], nxt["cell", obj].is_(NONE))  # a dead card leaves its cell
    rm.clause("berserk.conservation", [nxt["cell", obj].is_(d) for d in ctx.cells], [due, stays])
    for d in ctx.cells:
        rm.implies("berserk.conservation", [due, stays, nxt["cell", obj].is_(d)], can_move(ctx, prev, obj, d))
        for q in on_cells(ctx):
            if q != obj:  # two cards moving at once cannot end up sharing a cell either
                rm.implies("berserk.movement.free", [due, stays, counts(ctx, obj), counts(ctx, q),
                                                     nxt["zone", q].is_("play"), nxt["cell", q].is_(d)],
                           rm.neg(nxt["cell", obj].is_(d)))


#: action kind -> its requirements and effect
ACTIONS = {"move": move()}
