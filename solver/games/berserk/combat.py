"""The Berserk reading of combat for the victory analysis: creatures, strikes by die tier, protection, reach.

The victory analysis (``solver/victory/``) is generic over units and positions: it
searches attack declarations and dice, lives and turns, and asks the game's combat
reading (registered as ``Game(combat=...)``) what a creature is, what one attack
deals and who may attack whom. This module is that reading for Berserk: every
``berserk.combat.*`` rule is written here at its clause, once as a CP-SAT clause
under its rule id (the ``*_clause`` methods of ``BerserkCombat``) and once as the
plain function the explicit searches apply (``damage``, ``reaches``,
``on_board_reach``), which state the same rule.

Creature data (object ``attributes`` / ``properties`` / ``abilities``):

- ``life`` (required), ``max_life`` (default: the life at the start of the scenario)
- ``strike: "2-3-4"`` property: the strike of each die tier, weak-medium-strong (one format,
  declared in the game's vocabulary)
- ``regen``: lives healed at the end of every round (never above ``max_life``)
- ``protection_nonmagical: X``: non-magical strikes of strength X or more do no damage
- ``protection_magical: X``: magical strikes of strength X or more do no damage
- abilities ``magical_attack`` (its strikes are magical), ``flying`` (only flying or
  ``ranged`` creatures can attack it), ``ranged``
- on a board: its ``cell``, ``move`` (default 1) and, if ranged, ``range`` (default 2); a creature an effect
  forbids to move (``allowed.<id>.move`` of the analysed state, the game's movement predicate) strikes only from
  its own cell
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.victory.model import TIERS, Board, CombatError, Dice

#: movement and range of a creature on a board when its data does not say
DEFAULT_MOVE, DEFAULT_RANGE = 1, 2
#: the state a position is read from, per creature: attributes, abilities and a property
COMBAT_ATTRIBUTES = ("life", "max_life", "regen", "protection_nonmagical", "protection_magical", "move", "range")
COMBAT_ABILITIES = ("flying", "ranged", "magical_attack")
COMBAT_PROPERTIES = ("strike",)


@dataclass(frozen=True)
class Unit:
    """A creature in the combat model; side 0 is the claimant, side 1 the opponent."""

    id: str
    side: int
    life: int
    max_life: int
    strikes: tuple[int, int, int]
    magical: bool = False
    flying: bool = False
    ranged: bool = False
    regen: int = 0
    protect_nonmagical: int | None = None
    protect_magical: int | None = None
    #: the cell it stands on (None: it flies, there is no board, or it stands on none)
    cell: str | None = None
    move: int = DEFAULT_MOVE
    range: int = DEFAULT_RANGE
    #: no effect forbids it to move (the game's movement predicate, read from the analysed state): one that cannot
    #: move strikes only from its own cell
    moves: bool = True

    @property
    def steps(self) -> int:
        """Cells it may move over before it strikes: its movement, none when it cannot move."""
        return self.move if self.moves else 0

    def protection_against(self, attacker: Unit) -> int | None:
        """The strength from which this unit blocks the attacker's strikes (None: it does not)."""
        return self.protect_magical if attacker.magical else self.protect_nonmagical


# -- the combat rules as plain functions (the explicit searches; the clauses below state the same rules) ----------
def strike(a: Unit, dice: Dice, v: int) -> int:
    """berserk.combat.tiers: the attacker's strike at die value ``v``, the strike of the value's tier."""
    return a.strikes[dice.tier(v)]


def damage(a: Unit, t: Unit, dice: Dice, v: int) -> int:
    """berserk.combat.strike, berserk.combat.protection: damage of ``a``'s strike at die value ``v`` against ``t``,
    zero when ``t``'s protection blocks it."""
    s = strike(a, dice, v)
    prot = t.protection_against(a)
    return 0 if prot is not None and s >= prot else s


def reaches(a: Unit, t: Unit) -> bool:
    """berserk.combat.reach: can ``a`` attack ``t`` at all: a flying creature is reached only by flying or ranged
    attackers."""
    return not t.flying or a.flying or a.ranged


def shoots(pos, a: Unit, t: Unit) -> bool:
    """berserk.combat.ranged: on the board, ``a`` is ranged and ``t`` (standing on a cell) is within its range."""
    return (pos.board is not None and a.ranged and a.cell is not None and t.cell is not None
            and pos.board.distance(a.cell, t.cell) <= a.range)


def walk(pos, a: Unit, standing, steps: int | None = None) -> set[str]:
    """The cells ``a`` can get to this turn: its own, and free cells within ``a.steps`` steps (or ``steps``) over free
    cells (a cell where a creature of ``standing`` other than ``a`` stands is in the way; none if it cannot move)."""
    if pos.board is None or a.cell is None:
        return set()
    taken = {u.cell for u in standing if u.id != a.id and u.cell is not None}
    seen, frontier = {a.cell}, [a.cell]
    for _ in range(a.steps if steps is None else steps):
        frontier = [d for c in frontier for d in pos.board.next_to(c) if d not in seen and d not in taken]
        seen.update(frontier)
    return seen


def on_board_reach(pos, a: Unit, t: Unit, standing) -> bool:
    """berserk.combat.melee, berserk.combat.ranged: on the board (with the creatures of ``standing`` alive): ``a``
    flies, or shoots ``t``, or gets next to it over free cells; no board: always. (Whether a flyer may be attacked
    at all is ``reaches``.)"""
    if pos.board is None or a.flying or t.flying:
        return True
    if shoots(pos, a, t):
        return True
    if t.cell is None:
        return False
    near = set(pos.board.next_to(t.cell))
    return bool(walk(pos, a, standing) & near)


def closes_in(pos, a: Unit, t: Unit) -> bool:
    """Whether ``a``, which cannot strike ``t`` this turn, could get next to it over several turns: walking any number
    of steps over free cells, ``t`` staying on its cell and every other creature gone. The analysis keeps creatures
    on their cells between rounds (``solver.victory.model``), so a refutation resting on ``a`` never reaching ``t``
    does not hold then (a creature that cannot move, or flies, or stands off the board, never closes in)."""
    if pos.board is None or a.flying or t.flying or a.cell is None or t.cell is None or a.steps == 0:
        return False
    if on_board_reach(pos, a, t, (a, t)):
        return False
    anywhere = walk(pos, a, (a, t), steps=len(pos.board.cells))  # any number of turns: every free cell it can get to
    return bool(anywhere & set(pos.board.next_to(t.cell)))


# -- reading a creature from a scenario ---------------------------------------------------------------------------
def _strikes(oid: str, text) -> tuple[int, int, int]:
    """The creature's strike per tier, from its ``strike`` property (weak-medium-strong, like 2-3-4)."""
    if text is None:
        raise CombatError(f"creature {oid}: no 'strike' property (weak-medium-strong, like 2-3-4) for the victory "
                          f"analysis")
    parts = str(text).split("-")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise CombatError(f"creature {oid}: strike '{text}' is not weak-medium-strong like 2-3-4")
    return tuple(int(p) for p in parts)  # type: ignore[return-value]


def unit_from(o, side: int, state: dict[str, str], board: Board | None) -> Unit | None:
    """One creature in play as the combat model reads it (None: it has no life left)."""
    attrs = dict(o.attributes)
    for k in COMBAT_ATTRIBUTES:
        if f"attr.{o.id}.{k}" in state:
            attrs[k] = int(state[f"attr.{o.id}.{k}"])
    if "life" not in attrs:
        raise CombatError(f"creature {o.id}: no 'life' attribute for the victory analysis")
    abil = {a for a in set(o.abilities) | set(COMBAT_ABILITIES) if state.get(f"ability.{o.id}.{a}",
                                                                             "1" if a in o.abilities else "0") == "1"}
    life = max(0, int(attrs["life"]))
    if life == 0:
        return None
    flying = "flying" in abil
    cell = state.get(f"cell.{o.id}", o.cell) if board is not None and not flying else None
    return Unit(
        id=o.id, side=side, life=life,
        max_life=int(attrs.get("max_life", max(o.attributes.get("life", life), life))),
        strikes=_strikes(o.id, state.get(f"prop.{o.id}.strike", o.properties.get("strike"))),
        magical="magical_attack" in abil, flying=flying, ranged="ranged" in abil, regen=int(attrs.get("regen", 0)),
        protect_nonmagical=attrs.get("protection_nonmagical"), protect_magical=attrs.get("protection_magical"),
        cell=None if cell in (None, "none") else cell, move=int(attrs.get("move", DEFAULT_MOVE)),
        range=int(attrs.get("range", DEFAULT_RANGE)), moves=state.get(f"allowed.{o.id}.move", "1") == "1")


class BerserkCombat:
    """The Berserk combat reading the victory analysis applies (``solver.victory.model.Combat``): each rule at its
    clause."""

    #: every rule id of the reading (a rule off among them: the analysis leaves the explicit searches for CP-SAT)
    rules = ("berserk.combat.tiers", "berserk.combat.strike", "berserk.combat.counterstrike",
             "berserk.combat.protection", "berserk.combat.reach", "berserk.combat.melee", "berserk.combat.ranged",
             "berserk.combat.attack", "berserk.combat.death", "berserk.combat.regen")

    # the explicit rules (plain functions above)
    strike = staticmethod(strike)
    damage = staticmethod(damage)
    reaches = staticmethod(reaches)
    shoots = staticmethod(shoots)
    on_board_reach = staticmethod(on_board_reach)
    closes_in = staticmethod(closes_in)

    def unit(self, o, side: int, state: dict[str, str], board: Board | None) -> Unit | None:
        """A creature of the scenario as a unit (None: no life left)."""
        return unit_from(o, side, state, board)

    def most_damage(self, u: Unit) -> int:
        """The most damage one strike of ``u`` can deal (its strongest strike)."""
        return max(u.strikes)

    def applied(self, pos) -> list[str]:
        """The combat rules the explicit search applies in this position."""
        units = pos.units
        out = ["berserk.combat.attack", "berserk.combat.tiers", "berserk.combat.strike", "berserk.combat.death"]
        if pos.counterstrike:
            out.append("berserk.combat.counterstrike")
        if any(u.protect_nonmagical is not None or u.protect_magical is not None for u in units):
            out.append("berserk.combat.protection")
        if any(u.flying for u in units):
            out.append("berserk.combat.reach")
        if pos.board is not None:
            out.append("berserk.combat.melee")
            if any(u.ranged for u in units):
                out.append("berserk.combat.ranged")
        if any(u.regen for u in units):
            out.append("berserk.combat.regen")
        return out

    # -- CP-SAT clauses, each under its rule id ----------------------------------------------------------------
    def attack_clause(self, cm, lits) -> None:
        """berserk.combat.attack: a creature attacks at most one of the attack literals ``lits`` a turn."""
        cm.rm.enforce("berserk.combat.attack", cm.m.add(sum(lits) <= 1))

    def reach_clause(self, cm, lit) -> None:
        """berserk.combat.reach: the attack ``lit`` on a flyer by a creature that neither flies nor shoots does not
        happen."""
        cm.rm.implies("berserk.combat.reach", [], cm.rm.neg(lit))

    def out_of_reach_clause(self, cm, lit) -> None:
        """berserk.combat.melee: an attack ``lit`` on a creature the attacker cannot get next to does not happen."""
        cm.rm.implies("berserk.combat.melee", [], cm.rm.neg(lit))

    def no_counterstrike_clause(self, cm, lit) -> None:
        """berserk.combat.counterstrike: only the creature attacked strikes back: ``lit`` (a strike back by another)
        does not happen."""
        cm.rm.implies("berserk.combat.counterstrike", [], cm.rm.neg(lit))

    def damage_clause(self, cm, a: Unit, t: Unit, die):
        """berserk.combat.tiers, .strike, .protection: the damage of ``a``'s strike at ``die`` against ``t``: tier by
        die value, strike by tier, protection."""
        rm, m, dice = cm.rm, cm.m, cm.pos.dice
        s = m.new_int_var(min(min(a.strikes), 0), max(a.strikes), cm._name(f"strike.{a.id}"))
        for v in dice.values():
            rm.enforce("berserk.combat.tiers", m.add(s == a.strikes[dice.tier(v)]), [rm.int_eq(die, v)])
        d = m.new_int_var(0, max(max(a.strikes), 0), cm._name(f"dmg.{a.id}.{t.id}"))
        prot = t.protection_against(a)
        if prot is None:
            rm.enforce("berserk.combat.strike", m.add(d == s), [rm.int_ge(s, 0)])
            rm.enforce("berserk.combat.strike", m.add(d == 0), [rm.neg(rm.int_ge(s, 0))])
            return d
        blocked = rm.int_ge(s, int(prot))
        rm.enforce("berserk.combat.protection", m.add(d == 0), [blocked])
        rm.enforce("berserk.combat.strike", m.add(d == s), [rm.neg(blocked), rm.int_ge(s, 0)])
        rm.enforce("berserk.combat.strike", m.add(d == 0), [rm.neg(rm.int_ge(s, 0))])
        return d

    def dealt_clause(self, cm, act, dmg, back: bool = False):
        """berserk.combat.strike (``back``: berserk.combat.counterstrike): the damage an attack ``act`` deals: its
        strike's damage if it happens, none otherwise."""
        return cm.dealt(act, dmg, "berserk.combat.counterstrike" if back else "berserk.combat.strike")

    def walk_layer(self, cm, lives, a: Unit) -> dict[str, object]:
        """Cell -> literal: ``a`` can get to that cell this turn (its own, or a free cell within ``a.steps`` steps
        over free cells; a cell where a living creature stands is not free). A definition over the lives."""
        rm, board = cm.rm, cm.pos.board
        standing: dict[str, list] = {}
        for u in cm.pos.units:
            if u.id != a.id and u.cell is not None:
                standing.setdefault(u.cell, []).append(cm.alive(lives[u.id]))
        free = {c: rm.neg(rm.any_of(standing.get(c, []))) for c in board.cells}
        layer = {a.cell: rm.true}
        for _ in range(a.steps):  # none when it cannot move
            nxt = dict(layer)
            for c in board.cells:
                via = [layer[d] for d in board.next_to(c) if d in layer]
                if via:
                    nxt[c] = rm.any_of([layer.get(c, rm.false), rm.all_of([free[c], rm.any_of(via)])])
            layer = nxt
        return layer

    def board_reach_clause(self, cm, lives, a: Unit, t: Unit):
        """berserk.combat.ranged, berserk.combat.melee: literal, on the board ``a`` can strike ``t`` this turn with
        these lives: it shoots ``t`` within range, or gets next to it over free cells (None: no board, or one of them
        flies, and ``reaches`` decides)."""
        rm, pos = cm.rm, cm.pos
        if pos.board is None or a.flying or t.flying:
            return None
        lit = rm.new_bool(cm._name(f"reach.{a.id}.{t.id}"))
        if shoots(pos, a, t):
            rm.implies("berserk.combat.ranged", [], lit)
        else:
            layer = cm.walk(lives, a) if a.cell is not None and t.cell is not None else {}
            near = rm.any_of([layer[c] for c in pos.board.next_to(t.cell) if c in layer]) if layer else rm.false
            rm.implies("berserk.combat.melee", [near], lit)
            rm.implies("berserk.combat.melee", [lit], near)
        return lit

    def death_clause(self, cm, new, raw, survives) -> None:
        """berserk.combat.death: a creature whose life drops to 0 or less is destroyed (its life is 0)."""
        cm.rm.enforce("berserk.combat.death", cm.m.add(new == raw), [survives])
        cm.rm.enforce("berserk.combat.death", cm.m.add(new == 0), [cm.rm.neg(survives)])

    def regen_clause(self, cm, new, healed, alive) -> None:
        """berserk.combat.regen: at the end of a round a living creature heals its regeneration, up to its maximum."""
        cm.rm.enforce("berserk.combat.regen", cm.m.add(new == healed), [alive])
        cm.rm.enforce("berserk.combat.regen", cm.m.add(new == 0), [cm.rm.neg(alive)])

    # -- explanations -------------------------------------------------------------------------------------------
    def describe_strike(self, a: Unit, t: Unit, dice: Dice, v: int) -> str:
        """'die v (tier) -> strike s -> d damage' (or blocked by protection) for ``a`` striking ``t``."""
        s, d = strike(a, dice, v), damage(a, t, dice, v)
        return (f"die {v} ({TIERS[dice.tier(v)]}) -> strike {s}"
                + (f" -> {d} damage" if d or s <= 0 else " -> blocked by protection, 0 damage"))

    def unblocked(self, a: Unit, t: Unit) -> str:
        """Why ``t``'s protection (if any) does not block ``a``'s strikes."""
        prot = t.protection_against(a)
        kind = "magical" if a.magical else "non-magical"
        return (f"{t.id} has no protection from {kind} attacks" if prot is None
                else f"{t.id}'s protection from {kind} attacks of strength {prot} or more does not block it")

    def has_protection(self, t: Unit) -> bool:
        """``t`` has some protection (from magical or non-magical strikes)."""
        return t.protect_nonmagical is not None or t.protect_magical is not None

    def unreachable_why(self, t: Unit) -> str:
        """Why no creature of the other side may strike ``t``."""
        return " (it flies and none of them flies or shoots)" if t.flying else ""


#: the Berserk combat reading (``Game(combat=...)``)
COMBAT = BerserkCombat()
