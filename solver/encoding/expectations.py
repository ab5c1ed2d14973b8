"""The compiler's expectation literals: each atom of an expectation (``models.expectations``) is read at its stage
by one predicate of ``ATOMS`` (atom kind -> predicate), and the expectation's literal is their conjunction.

A predicate takes the compiler, the stage and the expectation, and returns the literals of its atom (none when
the expectation does not state it). The table's order is the order the atoms are read in (it fixes the order in
which the model meets their variables). ``Expectations`` is one part of ``solver.encoding.compile.Compiler``.
"""
from __future__ import annotations

from collections.abc import Callable

from models.expectations import Expectation
from solver.encoding.cp import Cat, Lit
from solver.encoding.state import NONE, Stage
from solver.encoding.world import TURN_KEYS
from solver.errors import ScenarioError
from solver.registry import vocabulary_for


def _polar(rm, lit: Lit, want: bool) -> Lit:
    """``lit`` when the expectation wants it to hold, else its negation."""
    return lit if want else rm.neg(lit)


def _zone(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``zone``: the object is in that zone."""
    return [c._cat_is(st, ("zone", ex.object), ex.zone)] if ex.zone is not None else []


def _zone_owner(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``zone_owner``: the object is in one of that player's zones."""
    return [c.in_zone_of(st, ex.object, ex.zone_owner)] if ex.zone_owner is not None else []


def _owner(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``owner``: the object's owner (static)."""
    if ex.owner is None:
        return []
    return [c.rm.true if c.owner_of(ex.object) == ex.owner else c.rm.false]


def _exists(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``exists``: the object is not in a zone where it no longer exists for the game."""
    if ex.exists is None:
        return []
    exists = c.rm.neg(st["zone", ex.object].one_of(c.rs.gone_zones))
    return [_polar(c.rm, exists, ex.exists)]


def _controller(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``controller``: the object's effective controller."""
    if ex.controller is None:
        return []
    return [c._value_is(c.controller(st, ex.object), "controller", ex.controller)]


def _cell(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``cell``: the object's cell (``none`` without a board)."""
    if ex.cell is None:
        return []
    if c.cells:
        return [c._cat_is(st, ("cell", ex.object), ex.cell)]
    return [c.rm.true if ex.cell == NONE else c.rm.false]


def _attached_to(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``attached_to``: what the object is attached to (``none`` when nothing can be)."""
    if ex.attached_to is None:
        return []
    if ("attach", ex.object) in c.domains:
        return [c._cat_is(st, ("attach", ex.object), ex.attached_to)]
    return [c.rm.true if ex.attached_to == NONE else c.rm.false]


def _attributes(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``attributes``: the object's effective numeric values."""
    return [c.rm.int_eq(c.value(st, ex.object, a), v) for a, v in ex.attributes.items()]


def _properties(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``properties``: the object's effective categorical properties."""
    return [c.prop(st, ex.object, p).is_(v) for p, v in ex.properties.items()]


def _flags(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``flags``: the object's flags (a game's derived flag by its rule)."""
    out = []
    for f, v in ex.flags.items():
        flag = c.rs.derived_flag(c, st, ex.object, f) if f in c.rs.derived_flags else st["flag", ex.object, f]
        out.append(_polar(c.rm, flag, v))
    return out


def _abilities(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``abilities``: the object has (or lacks) each ability after grant/remove effects."""
    return [_polar(c.rm, c.has_ability(st, ex.object, ab), v) for ab, v in ex.abilities.items()]


def _allowed(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``allowed``: the object may (or may not) perform or undergo each action."""
    return [_polar(c.rm, c.allowed(st, ex.object, act), v) for act, v in ex.allowed.items()]


def _action_status(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``action_status``: the action's status."""
    if ex.action is None or ex.action_status is None:
        return []
    return [c._cat_is(st, ("status", ex.action), ex.action_status)]


def _effect_active(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``effect_active``: the effect is (or is not) active."""
    if ex.effect is None or ex.effect_active is None:
        return []
    return [_polar(c.rm, st["active", ex.effect], ex.effect_active)]


def _status(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``status``: the player's status."""
    if ex.player is None or ex.status is None:
        return []
    return [c._cat_is(st, ("pstatus", ex.player), ex.status)]


def _player_attributes(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``player_attributes``: the player's numeric values."""
    if ex.player is None:
        return []
    return [c.rm.int_eq(c._read(st, ("pattr", ex.player, a), f"player attribute '{a}'"), v)
            for a, v in ex.player_attributes.items()]


def _player_flags(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``player_flags``: the player's flags."""
    if ex.player is None:
        return []
    return [_polar(c.rm, c._read(st, ("pflag", ex.player, f), f"player flag '{f}'"), v)
            for f, v in ex.player_flags.items()]


def _turn(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``turn``: whose turn, priority and focus it is, and whether a showdown is on."""
    if ex.turn is None:
        return []
    out = [c._cat_is(st, ("turn", name), getattr(ex.turn, name)) for name in TURN_KEYS
           if getattr(ex.turn, name) is not None]
    if ex.turn.showdown is not None:
        out.append(_polar(c.rm, st["gflag", "showdown"], ex.turn.showdown))
    return out


def _winner(c, st: Stage, ex: Expectation) -> list[Lit]:
    """``winner``: the game's winner (its own rule)."""
    return [c.rs.winner_lit(c, st, ex.winner)] if ex.winner is not None else []


Atom = Callable[[object, Stage, Expectation], list[Lit]]

#: atoms about the expectation's object (read only when it names one)
OBJECT_ATOMS: dict[str, Atom] = {
    "zone": _zone, "zone_owner": _zone_owner, "owner": _owner, "exists": _exists, "controller": _controller,
    "cell": _cell, "attached_to": _attached_to, "attributes": _attributes, "properties": _properties,
    "flags": _flags, "abilities": _abilities, "allowed": _allowed,
}
#: every atom kind -> its predicate, in the order they are read
ATOMS: dict[str, Atom] = {
    **OBJECT_ATOMS,
    "action_status": _action_status, "effect_active": _effect_active, "status": _status,
    "player_attributes": _player_attributes, "player_flags": _player_flags, "turn": _turn, "winner": _winner,
}


class Expectations:
    """Expectation literals read at a stage (a part of ``Compiler``)."""

    def stage_for(self, ex: Expectation) -> Stage:
        """The stage an expectation speaks about: after event ``at`` (the end by default), or after its step named
        ``step`` inside event ``at`` (``event_steps``; an unknown name is an error listing the event's steps)."""
        if ex.step is None:
            return self.stages[self.boundaries[ex.at] if ex.at is not None else -1]
        steps = self.event_steps(ex.at)
        if ex.step not in steps:
            names = ", ".join(f"'{n}'" for n in steps) or "none (it is one state change)"
            raise ScenarioError(f"step '{ex.step}' is not a step of event {ex.at} ({self.sc.events[ex.at - 1].type}): "
                                f"its steps are {names}")
        return self.stages[steps[ex.step]]

    def event_steps(self, k: int) -> dict[str, int]:
        """The steps inside event ``k`` (1-based) by name (its stages' labels, in order), each with the index of the
        stage after it; a name used twice names its last step."""
        return {self.stages[si].label: si for si in range(self.boundaries[k - 1] + 1, self.boundaries[k] + 1)}

    def expectation_lit(self, ex: Expectation, stage: Stage | None = None) -> Lit:
        """A literal equal to the conjunction of the expectation's atoms (whole-outcome atoms excluded), at its
        stage (or at ``stage``: the same atoms read at another stage)."""
        st = stage or self.stage_for(ex)
        lits: list[Lit] = []
        for kind, atom in ATOMS.items():
            if ex.object is None and kind in OBJECT_ATOMS:
                continue
            lits.extend(atom(self, st, ex))
        return self.rm.all_of(lits, "expect")

    def in_zone_of(self, st: Stage, obj: str, player: str) -> Lit:
        """Literal: ``obj`` is in one of ``player``'s zones: an owner zone of its owner, or a holder zone of the player
        who controls it (the game's vocabulary says which zones are whose)."""
        rm, lits = self.rm, []
        for z in vocabulary_for(self.sc.game).player_zones():
            if z.name not in st["zone", obj].domain:
                continue
            whose = ((rm.true if self.owner_of(obj) == player else rm.false) if z.whose == "owner"
                     else self.controller(st, obj).is_(player))
            lits.append(rm.all_of([st["zone", obj].is_(z.name), whose]))
        return rm.any_of(lits)

    def _read(self, st: Stage, key: tuple, what: str):
        """The variable of ``key`` an expectation reads; a located-error message when the scenario has no such state
        (nothing gives it a value and the game declares no default)."""
        if key not in self.domains:
            raise ScenarioError(f"nothing to check: {key[1]} has no {what} in this scenario (none is given, no event "
                                f"of it sets one and the {self.sc.game} rules give it no default): give it one in "
                                f"the scenario")
        return st[key]

    def _value_is(self, cat: Cat, what: str, value: str) -> Lit:
        if value not in cat.domain:
            raise ScenarioError(f"expectation: '{value}' is not a possible {what} (possible: {', '.join(cat.domain)})")
        return cat.is_(value)

    def _cat_is(self, st: Stage, key: tuple, value: str) -> Lit:
        if key not in st.vars:
            raise ScenarioError(f"nothing to check: no state variable {'.'.join(key)}")
        if value not in st[key].domain:
            raise ScenarioError(f"expectation: '{value}' is not a possible {key[0]} "
                                f"(possible: {', '.join(st[key].domain)})")
        return st[key].is_(value)

