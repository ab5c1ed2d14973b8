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
from solver.victory.model import Position

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
        self.max_strike = max([pos.combat.most_damage(u) for u in pos.units] + [1])
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

    def free_life(self, u, lo: int = 0):
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
        """Rules: a creature attacks at most once a turn, and only a creature it can reach (the game's clauses)."""
        combat = self.pos.combat
        for a in self.pos.side(tv.side):
            lits = [tv.moves[a.id, t.id] for t in self.pos.side(1 - tv.side)]
            combat.attack_clause(self, lits)
            for t in self.pos.side(1 - tv.side):
                if not combat.reaches(a, self.units[t.id]):
                    combat.reach_clause(self, tv.moves[a.id, t.id])

    # -- rules: the game's clauses ----------------------------------------------------------------------------
    def damage(self, a, t, die):
        """The damage of ``a``'s strike at ``die`` against ``t`` (the game's damage clause)."""
        return self.pos.combat.damage_clause(self, a, t, die)

    def walk(self, lives: Lives, a) -> dict[str, object]:
        """Cell -> literal: ``a`` can get to that cell this turn (the game's reading; cached per lives)."""
        key = ("walk", _ids(lives), a.id)
        if key not in self._reach:
            self._reach[key] = self.pos.combat.walk_layer(self, lives, a)
        return self._reach[key]

    def reach(self, lives: Lives, a, t):
        """Literal: on the board, ``a`` can strike ``t`` this turn with these lives (the game's clause). Always true
        without a board, and where the game's reading says the board does not decide."""
        rm, pos = self.rm, self.pos
        if pos.board is None:
            return rm.true
        key = ("reach", _ids(lives), a.id, t.id)
        if key in self._reach:
            return self._reach[key]
        lit = pos.combat.board_reach_clause(self, lives, a, t)
        if lit is None:
            return rm.true
        self._reach[key] = lit
        return lit

    def dealt(self, act, dmg, rule: str):
        """The damage an attack ``act`` deals under rule ``rule``: ``dmg`` if it happens, 0 otherwise."""
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
            incoming[t].append(pos.combat.dealt_clause(self, act, self.damage(ua, ut, tv.att_die[a])))
            if pos.counterstrike:
                incoming[a].append(pos.combat.dealt_clause(self, act, self.damage(ut, ua, tv.def_die[a]), back=True))
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
            pos.combat.death_clause(self, new, raw, survives)
            out[u] = new
        return out, acts

    def end_round(self, lives: Lives) -> Lives:
        """End of round: every living creature heals its regeneration, never above its maximum life."""
        m, pos = self.m, self.pos
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
            pos.combat.regen_clause(self, new, healed, self.alive(life))
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
