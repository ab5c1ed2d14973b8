"""CP-SAT encoding of combat rounds for the victory analysis; every combat rule sits under its rule id.

One ``CombatModel`` holds any number of unrolled copies of the game (the
counterexample-guided loops add one copy per counterexample). Dice, moves and
lives are variables or constants, so the same encoding serves the universally
quantified side (free variables in a counterexample search) and the existential
side (a candidate strategy).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from solver.encoding.cp import RuleModel
from solver.encoding.cpsat import cp_model
from solver.engine.budget import Meter
from solver.victory.model import Position, Unit, reaches, shoots

Lives = dict[str, object]
Moves = dict[tuple[str, str], object]


@dataclass
class TurnVars:
    """The choices of one turn: attack literals per (attacker, target) and the dice of every attack."""

    side: int
    moves: Moves
    att_die: dict[str, object]
    def_die: dict[str, object]


class CombatModel:
    """A CP-SAT model of combat turns under the rules of one position."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.rm = RuleModel()
        self.m = self.rm.model
        self.units = {u.id: u for u in pos.units}
        self.max_strike = max([max(u.strikes) for u in pos.units] + [1])
        self._n = itertools.count()
        self._reach: dict[tuple, object] = {}

    def _name(self, base: str) -> str:
        return f"{base}#{next(self._n)}"

    # -- variables ------------------------------------------------------------------------
    def die(self, value: int | None = None):
        """A die: a free variable over its values, or a constant."""
        if value is not None:
            return self.m.new_constant(int(value))
        return self.m.new_int_var(1, self.pos.dice.sides, self._name("die"))

    def const_lives(self, lives: dict[str, int]) -> Lives:
        """Lives fixed to given values."""
        return {u: self.m.new_constant(int(v)) for u, v in lives.items()}

    def free_life(self, u: Unit, lo: int = 0):
        """A life variable ranging over every value the unit can have."""
        return self.m.new_int_var(lo, max(u.max_life, u.life), self._name(f"life.{u.id}"))

    def turn_vars(self, side: int, moves: dict | None = None, dice: dict | None = None) -> TurnVars:
        """Moves and dice of one turn of ``side``: given values become constants, the rest are free."""
        mv = self.move_lits(side, moves)
        att = {a.id: self.die(None if dice is None else dice[0][a.id]) for a in self.pos.side(side)}
        dfn = {a.id: self.die(None if dice is None else dice[1][a.id]) for a in self.pos.side(side)}
        tv = TurnVars(side, mv, att, dfn)
        self.legal_moves(tv)
        return tv

    def move_lits(self, side: int, moves: dict | None = None) -> Moves:
        """Attack literals of a turn: free, or constants from attacker -> target (None: no attack)."""
        rm, mv = self.rm, {}
        for a in self.pos.side(side):
            for t in self.pos.side(1 - side):
                if moves is None:
                    mv[a.id, t.id] = rm.new_bool(self._name(f"atk.{a.id}.{t.id}"))
                else:
                    mv[a.id, t.id] = rm.true if moves.get(a.id) == t.id else rm.false
        return mv

    def legal_moves(self, tv: TurnVars) -> None:
        """Rules: a creature attacks at most once a turn, and only a creature it can reach."""
        for a in self.pos.side(tv.side):
            lits = [tv.moves[a.id, t.id] for t in self.pos.side(1 - tv.side)]
            self.rm.enforce(self.pos.rules.attack, self.m.add(sum(lits) <= 1))
            for t in self.pos.side(1 - tv.side):
                if not reaches(a, self.units[t.id]):
                    self.rm.implies(self.pos.rules.reach, [], self.rm.neg(tv.moves[a.id, t.id]))

    # -- rules ------------------------------------------------------------------------------
    def damage(self, a: Unit, t: Unit, die):
        """The damage of ``a``'s strike at ``die`` against ``t``: tier by die value, strike by tier, protection."""
        rm, m, pos = self.rm, self.m, self.pos
        s = m.new_int_var(min(min(a.strikes), 0), max(a.strikes), self._name(f"strike.{a.id}"))
        for v in pos.dice.values():
            rm.enforce(pos.rules.tiers, m.add(s == a.strikes[pos.dice.tier(v)]), [rm.int_eq(die, v)])
        d = m.new_int_var(0, max(max(a.strikes), 0), self._name(f"dmg.{a.id}.{t.id}"))
        prot = t.protection_against(a)
        if prot is None:
            rm.enforce(pos.rules.strike, m.add(d == s), [rm.int_ge(s, 0)])
            rm.enforce(pos.rules.strike, m.add(d == 0), [rm.neg(rm.int_ge(s, 0))])
            return d
        blocked = rm.int_ge(s, int(prot))
        rm.enforce(pos.rules.protection, m.add(d == 0), [blocked])
        rm.enforce(pos.rules.strike, m.add(d == s), [rm.neg(blocked), rm.int_ge(s, 0)])
        rm.enforce(pos.rules.strike, m.add(d == 0), [rm.neg(rm.int_ge(s, 0))])
        return d

    def walk(self, lives: Lives, a: Unit) -> dict[str, object]:
        """Cell -> literal: ``a`` can get to that cell this turn (its own, or a free cell within ``a.move`` steps over
        free cells; a cell where a living creature stands is not free). A definition over the lives."""
        key = ("walk", _ids(lives), a.id)
        if key in self._reach:
            return self._reach[key]
        rm, board = self.rm, self.pos.board
        standing: dict[str, list] = {}
        for u in self.pos.units:
            if u.id != a.id and u.cell is not None:
                standing.setdefault(u.cell, []).append(self.alive(lives[u.id]))
        free = {c: rm.neg(rm.any_of(standing.get(c, []))) for c in board.cells}
        layer = {a.cell: rm.true}
        for _ in range(a.steps):  # none when it cannot move
            nxt = dict(layer)
            for c in board.cells:
                via = [layer[d] for d in board.next_to(c) if d in layer]
                if via:
                    nxt[c] = rm.any_of([layer.get(c, rm.false), rm.all_of([free[c], rm.any_of(via)])])
            layer = nxt
        self._reach[key] = layer
        return layer

    def reach(self, lives: Lives, a: Unit, t: Unit):
        """Literal: on the board, ``a`` can strike ``t`` this turn with these lives: it gets next to ``t`` over free
        cells (the melee rule) or shoots it within range (the ranged rule). Always true without a board, and for a
        flyer (``reaches`` decides who may attack a flyer)."""
        rm, pos = self.rm, self.pos
        if pos.board is None or a.flying or t.flying:
            return rm.true
        key = ("reach", _ids(lives), a.id, t.id)
        if key in self._reach:
            return self._reach[key]
        lit = rm.new_bool(self._name(f"reach.{a.id}.{t.id}"))
        if shoots(pos, a, t):
            rm.implies(pos.rules.ranged, [], lit)
        else:
            layer = self.walk(lives, a) if a.cell is not None and t.cell is not None else {}
            near = rm.any_of([layer[c] for c in pos.board.next_to(t.cell) if c in layer]) if layer else rm.false
            rm.implies(pos.rules.melee, [near], lit)
            rm.implies(pos.rules.melee, [lit], near)
        self._reach[key] = lit
        return lit

    def _dealt(self, act, dmg, rule: str):
        e = self.m.new_int_var(0, self.max_strike, self._name("dealt"))
        self.rm.enforce(rule, self.m.add(e == dmg), [act])
        self.rm.enforce(rule, self.m.add(e == 0), [self.rm.neg(act)])
        return e

    def alive(self, life):
        """Literal: a unit with this life is in play."""
        return self.rm.int_ge(life, 1)

    def turn(self, lives: Lives, tv: TurnVars) -> tuple[Lives, dict]:
        """One turn: every declared attack on a living target within reach strikes it, and the target strikes back
        (an attack out of reach does not happen)."""
        rm, m, pos = self.rm, self.m, self.pos
        incoming: dict[str, list] = {u: [] for u in lives}
        acts = {}
        for (a, t), x in tv.moves.items():
            act = rm.all_of([x, self.alive(lives[a]), self.alive(lives[t]), self.reach(lives, self.units[a],
                                                                                       self.units[t])])
            acts[a, t] = act
            ua, ut = self.units[a], self.units[t]
            incoming[t].append(self._dealt(act, self.damage(ua, ut, tv.att_die[a]), pos.rules.strike))
            if pos.counterstrike:
                incoming[a].append(self._dealt(act, self.damage(ut, ua, tv.def_die[a]), pos.rules.counterstrike))
        out: Lives = {}
        for u, life in lives.items():
            if not incoming[u]:
                out[u] = life
                continue
            raw = life - sum(incoming[u])
            new = m.new_int_var(0, max(self.units[u].max_life, self.units[u].life), self._name(f"life.{u}"))
            survives = rm.new_bool(self._name("survives"))
            m.add(raw >= 1).only_enforce_if(survives)
            m.add(raw <= 0).only_enforce_if(~survives)
            rm.enforce(pos.rules.death, m.add(new == raw), [survives])
            rm.enforce(pos.rules.death, m.add(new == 0), [rm.neg(survives)])
            out[u] = new
        return out, acts

    def end_round(self, lives: Lives) -> Lives:
        """End of round: every living creature heals its regeneration, never above its maximum life."""
        rm, m, pos = self.rm, self.m, self.pos
        out: Lives = {}
        for u, life in lives.items():
            unit = self.units[u]
            if unit.regen <= 0:
                out[u] = life
                continue
            top = max(unit.max_life, unit.life)
            healed = m.new_int_var(0, top, self._name(f"healed.{u}"))
            m.add_min_equality(healed, [life + unit.regen, top])
            new = m.new_int_var(0, top, self._name(f"life.{u}"))
            rm.enforce(pos.rules.regen, m.add(new == healed), [self.alive(life)])
            rm.enforce(pos.rules.regen, m.add(new == 0), [rm.neg(self.alive(life))])
            out[u] = new
        return out

    def won(self, lives: Lives, side: int):
        """Literal: every creature of the other side is gone while ``side`` still has one (clean victory)."""
        rm = self.rm
        mine = [self.alive(lives[u.id]) for u in self.pos.side(side)]
        theirs = [self.alive(lives[u.id]) for u in self.pos.side(1 - side)]
        return rm.all_of([rm.any_of(mine), rm.neg(rm.any_of(theirs))])

    # -- solving --------------------------------------------------------------------------------
    def solve(self, meter: Meter | None = None, extra: list = ()) -> tuple[str, cp_model.CpSolver, list[str]]:
        """Solve under every rule literal, drawing on ``meter`` (the scenario's work budget; a fresh default one when
        None); returns ('sat'|'unsat'|'unknown', solver, rule ids of a core if unsat)."""
        m = self.m
        m.clear_assumptions()
        rules = {r: lit for r, lit in sorted(self.rm.rules.items()) if r not in self.pos.rules_off}
        m.add_assumptions(list(rules.values()) + list(extra))
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        s.parameters.random_seed = 0
        st = (meter or Meter()).solve(s, m)
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "sat", s, []
        if st == cp_model.INFEASIBLE:
            idx = set(s.sufficient_assumptions_for_infeasibility())
            core = [r for r, lit in rules.items() if int(lit.index) in idx]
            return "unsat", s, core
        if st == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {m.validate()}")
        return "unknown", s, []


def _ids(lives: Lives) -> tuple:
    """The identity of a lives map: its variables' indices (a cache key that outlives the dict)."""
    return tuple((u, int(v.index)) for u, v in sorted(lives.items()))


def turn_side(pos: Position, t: int) -> int:
    """The side whose turn is turn number ``t`` (two turns a round, ``pos.first`` opens every round)."""
    return pos.first if t % 2 == 0 else 1 - pos.first


def read_turn(s: cp_model.CpSolver, tv: TurnVars) -> tuple[dict, tuple[dict, dict]]:
    """The moves (attacker -> target or None) and dice of a solved turn."""
    moves: dict[str, str | None] = {}
    for (a, t), x in tv.moves.items():
        moves.setdefault(a, None)
        if s.boolean_value(x):
            moves[a] = t
    return moves, ({a: s.value(d) for a, d in tv.att_die.items()}, {a: s.value(d) for a, d in tv.def_die.items()})
