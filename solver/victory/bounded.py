"""Bounded forced wins: "side E destroys every enemy creature within N rounds whatever happens".

With every combat rule on (the case of every check), the explicit AND/OR search of ``solver.victory.search``
decides it on the rules' predicates (``solver.victory.model``): ``proved`` with E's strategy (a tree of replies to the
dice and to the opponent), ``refuted`` with a line of play that beats E. With a combat rule switched off (rule
coverage, ``Position.rules_off``), only the CP-SAT models leave that rule out, so the CP-SAT route below decides.

The CP-SAT route, an exists-forall problem solved in two layers:

1. a counterexample-guided loop of two CP-SAT models (``open_loop``): the
   candidate model finds a plan of attacks for E that wins against every
   counterexample found so far (one unrolled copy of the game each); the
   counterexample model fixes that plan and searches die values and replies
   that beat it. An infeasible counterexample search proves the forced win.
   If no plan survives, an optimistic model (every die and reply chosen for E)
   being infeasible proves that E cannot win at all.
2. when neither settles it (E must react to the dice), an explicit game tree
   over turns whose nodes CP-SAT decides with the same two checks; dice are
   branched on one value per strike tier (values of one tier are equivalent).

Verdicts: proved, refuted (with a counterexample line) or unknown (the work budget ran out: every CP-SAT solve and
every tree node draws on the scenario's ``solver.engine.budget.Meter``).
Dice are universal (chosen against E) unless ``dice_owner == "E"`` (used to
refute a decisive advantage: the opponent, helped by the dice, forces a loss).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.engine.budget import Exhausted, Meter
from solver.victory import naive as sim
from solver.victory.encode import CombatModel, TurnVars, read_turn, turn_side
from solver.victory.model import TIERS, Position
from solver.victory.search import AndOr, Strategy

MAX_CEGAR = 80


@dataclass
class BoundedResult:
    """Verdict of a bounded forced-win question, with its certificate or counterexample lines."""

    verdict: str
    lines: list[str] = field(default_factory=list)
    solves: int = 0
    nodes: int = 0
    #: a proved win's strategy (the explicit search's; None from the CP-SAT route)
    strategy: Strategy | None = None
    #: the rule ids the verdict applied (the explicit search's; the CP-SAT route names its cores in the lines)
    rules: list[str] = field(default_factory=list)
    #: how the verdict was decided, in one line (the proof or refutation's name; for unknown, the work used)
    decided_by: str = ""

    def __post_init__(self) -> None:
        self.lines = list(self.lines)


#: the most decisions of a strategy printed in a certificate (the strategy itself is complete)
MAX_STRATEGY_LINES = 16


def applied_rules(pos: Position) -> list[str]:
    """The combat rules the explicit search applies in this position (the game's combat reading says which)."""
    return pos.combat.applied(pos)


def describe_attack(pos: Position, a: str, t: str, v: int, w: int | None) -> str:
    """'A attacks T: die v (tier) -> strike s -> d damage; T strikes back ...' for one attack."""
    units = {u.id: u for u in pos.units}
    ua, ut = units[a], units[t]
    text = f"{a} attacks {t}: " + pos.combat.describe_strike(ua, ut, pos.dice, v)
    if pos.counterstrike and w is not None:
        text += f"; {t} strikes back: " + pos.combat.describe_strike(ut, ua, pos.dice, w)
    return text


class ForcedWin:
    """Does side ``side`` force a clean victory within ``rounds`` rounds?"""

    def __init__(self, pos: Position, side: int, rounds: int, dice_owner: str = "A",
                 meter: Meter | None = None, use_tree: bool = True) -> None:
        self.pos, self.E, self.rounds, self.T = pos, side, rounds, 2 * rounds
        self.dice_owner = dice_owner
        #: the work budget every solve and tree node draws on (the scenario's; a fresh default one when None)
        self.meter = meter if meter is not None else Meter()
        self.use_tree = use_tree
        self.solves = 0
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0
        self.cp_nodes = 0
        self.index = {u.id: i for i, u in enumerate(pos.units)}

    # -- the CP-SAT layer ---------------------------------------------------------------------------
    def _solve(self, cm: CombatModel):
        self.solves += 1
        return cm.solve(self.meter)

    def _unroll(self, cm: CombatModel, lives: tuple[int, ...], t0: int, tvs: dict[int, TurnVars]):
        cur = cm.const_lives({u.id: lives[i] for i, u in enumerate(self.pos.units)})
        for t in range(t0, self.T):
            cur, _ = cm.turn(cur, tvs[t])
            if t % 2 == 1:
                cur = cm.end_round(cur)
        return cur

    def _e_turns(self, t0: int) -> list[int]:
        return [t for t in range(t0, self.T) if turn_side(self.pos, t) == self.E]

    def open_loop(self, lives: tuple[int, ...], t0: int):
        """CEGAR over open-loop plans: ('proved', plan, core, n) | ('none', counterexamples) | ('unknown', ...)."""
        sigmas: list[dict] = []
        for _ in range(MAX_CEGAR):
            plan = self._candidate(lives, t0, sigmas)
            if plan is None:
                return "none", sigmas, [], len(sigmas)
            status, sigma, core = self._counterexample(lives, t0, plan)
            if status == "unsat":
                return "proved", plan, core, len(sigmas)
            if status == "unknown":
                return "unknown", None, [], len(sigmas)
            sigmas.append(sigma)
        return "unknown", None, [], len(sigmas)

    def _candidate(self, lives, t0, sigmas):
        cm = CombatModel(self.pos)
        own = {t: cm.turn_vars(self.E) for t in self._e_turns(t0)}
        mine_dice = self.dice_owner == "E"
        shared_dice = {t: cm.turn_vars(turn_side(self.pos, t), moves={}) for t in range(t0, self.T)} if mine_dice else {}
        for sigma in sigmas:
            tvs = {}
            for t in range(t0, self.T):
                side = turn_side(self.pos, t)
                if mine_dice:
                    d = shared_dice[t]
                    moves = own[t].moves if side == self.E else cm.move_lits(side, sigma[t][0])
                    tvs[t] = TurnVars(side, moves, d.att_die, d.def_die)
                elif side == self.E:
                    fixed = cm.turn_vars(side, {}, sigma[t][1])
                    tvs[t] = TurnVars(side, own[t].moves, fixed.att_die, fixed.def_die)
                else:
                    tvs[t] = cm.turn_vars(side, sigma[t][0], sigma[t][1])
            cm.m.add_bool_or([cm.won(self._unroll(cm, lives, t0, tvs), self.E)])
        status, s, _ = self._solve(cm)
        if status == "unknown":
            raise Exhausted()
        if status == "unsat":
            return None
        plan = {t: read_turn(s, own[t])[0] for t in own}
        dice = {t: read_turn(s, shared_dice[t])[1] for t in shared_dice}
        return {"moves": plan, "dice": dice}

    def _counterexample(self, lives, t0, plan):
        cm = CombatModel(self.pos)
        tvs = {}
        for t in range(t0, self.T):
            side = turn_side(self.pos, t)
            moves = plan["moves"].get(t) if side == self.E else None
            dice = plan["dice"].get(t) if self.dice_owner == "E" else None
            tvs[t] = cm.turn_vars(side, moves, dice)
        cm.m.add_bool_or([cm.rm.neg(cm.won(self._unroll(cm, lives, t0, tvs), self.E))])
        status, s, core = self._solve(cm)
        if status != "sat":
            return status, None, core
        return "sat", {t: read_turn(s, tv) for t, tv in tvs.items()}, []

    def optimistic(self, lives, t0) -> tuple[str, list[str]]:
        """Can E win at all if every die and every reply went E's way? ('sat'|'unsat'|'unknown', core)."""
        cm = CombatModel(self.pos)
        tvs = {t: cm.turn_vars(turn_side(self.pos, t)) for t in range(t0, self.T)}
        cm.m.add_bool_or([cm.won(self._unroll(cm, lives, t0, tvs), self.E)])
        status, _, core = self._solve(cm)
        return status, core

    # -- the explicit tree -----------------------------------------------------------------------------
    def node(self, lives: tuple[int, ...], t: int) -> bool:
        """Value of a turn-level node: does E force the win from here?"""
        key = (lives, t)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        self.meter.node()
        pos = self.pos
        if sim.won(pos, lives, self.E):
            val = True
        elif t == self.T or not sim.alive(pos, lives, self.E):
            val = False
        else:
            val = None
            side = turn_side(pos, t)
            if side == self.E and self.T - t >= 2 and t > 0:
                val = self._decide_by_cp(lives, t)
            if val is None:
                results = (self._dice_value(lives, t, m) for m in sim.moves(pos, lives, side))
                val = any(results) if side == self.E else all(results)
        self.memo[key] = val
        return val

    def _decide_by_cp(self, lives, t) -> bool | None:
        self.cp_nodes += 1
        if self.open_loop(lives, t)[0] == "proved":
            return True
        return False if self.optimistic(lives, t)[0] == "unsat" else None

    def _children(self, lives, t, m):
        for a, d in sim.dice_rolls(self.pos, len(m), self.pos.dice.representatives()):
            yield (a, d), sim.after_turn(self.pos, lives, t, m, a, d)

    def _dice_value(self, lives, t, m) -> bool:
        results = (self.node(child, t + 1) for _, child in self._children(lives, t, m))
        return any(results) if self.dice_owner == "E" else all(results)

    # -- running and explaining --------------------------------------------------------------------------
    def explicit(self) -> bool:
        """Whether the explicit search decides: every combat rule is on (with one off, only CP-SAT leaves it out)."""
        return not set(self.pos.rules_off) & set(self.pos.combat.rules)

    def run(self) -> BoundedResult:
        """The verdict with its certificate (proved) or counterexample (refuted)."""
        lives = tuple(u.life for u in self.pos.units)
        search = None
        try:
            if self.explicit():
                search = AndOr(self.pos, self.E, self.rounds, dice_mine=self.dice_owner == "E", meter=self.meter)
                res = self._run_search(search, lives)
            else:
                res = self._run(lives)
        except Exhausted:
            searched = search.nodes if search is not None else self.nodes
            res = BoundedResult("unknown", [f"{self.meter.why()} after {self.solves} CP-SAT solves and {searched} "
                                            f"search positions ({self.meter.used():g} units spent)"])
        if search is not None:
            self.nodes = search.nodes
        res.solves, res.nodes = self.solves, self.nodes
        if not res.decided_by:
            how = "the explicit AND/OR search" if search is not None else "the CP-SAT route (a plan fixed in advance " \
                "against the refuting dice and replies, or the game tree)"
            res.decided_by = (f"unknown: {res.lines[0]}" if res.verdict == "unknown" else
                              f"{res.verdict} by {how} ({self.solves} CP-SAT solves, {self.nodes} positions searched)")
        return res

    def _who(self, side: int) -> str:
        return self.pos.players[0] if side == 0 else self.pos.players[1]

    def _run_search(self, search: AndOr, lives) -> BoundedResult:
        pos, E = self.pos, self.E
        who, other = self._who(E), self._who(1 - E)
        rules = applied_rules(pos)
        cite = f" [rules: {', '.join(rules)}]"
        if sim.won(pos, lives, E):
            return BoundedResult("proved", [f"{who} already has a clean victory: no enemy creature is in play"],
                                 rules=rules)
        if search.hopeless(lives, 0):
            return BoundedResult("refuted", [
                f"even if every attack of {who} dealt its best damage and every attack of {other} were struck back "
                f"its hardest, the enemy creatures' lives could not all be taken within {self.rounds} round(s)"
                + cite], rules=rules, decided_by=f"refuted: even the best damage of every attack cannot destroy "
                                                 f"{other}'s creatures within {self.rounds} round(s)")
        if search.wins():
            strategy = search.strategy()
            if self.dice_owner == "E":
                return BoundedResult("proved", self.pick_lines(search, strategy) + [
                    f"explicit AND/OR search ({search.nodes} positions): with the dice going {who}'s way, every "
                    f"reply of {other} is answered" + cite], strategy=strategy, rules=rules,
                    decided_by=f"proved by a line of play: with the dice going {who}'s way, {who} destroys every "
                               f"creature of {other} within {self.rounds} round(s) (explicit AND/OR search, "
                               f"{search.nodes} positions)")
            return BoundedResult("proved", [
                f"explicit AND/OR search ({search.nodes} positions): a strategy of {who} with a winning declaration "
                f"for each of the {len(strategy.moves)} position(s) it reaches on {who}'s turns, whatever the dice "
                f"and {other} do" + cite] + self.strategy_lines(search, strategy), strategy=strategy, rules=rules,
                decided_by=f"proved by a strategy: {who} wins within {self.rounds} round(s) whatever the dice and "
                           f"{other} do, a declaration for each of {len(strategy.moves)} position(s) (explicit AND/OR "
                           f"search, {search.nodes} positions)")
        return BoundedResult("refuted", [
            f"explicit AND/OR search ({search.nodes} positions): no strategy of {who} wins within {self.rounds} "
            f"round(s); a line that beats {who}'s first choice at every turn" + cite + ":"]
            + self.search_line(search), rules=rules,
            decided_by=f"refuted by a line of play: no strategy of {who} wins within {self.rounds} round(s) "
                       f"(explicit AND/OR search, {search.nodes} positions)")

    def _lives_text(self, lives) -> str:
        return ", ".join(f"{u.id} {v}" for u, v in zip(self.pos.units, lives) if v > 0) or "none"

    def _through(self, a: str, t: str, v: int) -> str:
        """Why a strike that deals damage is not blocked, when the target has some protection."""
        units = {u.id: u for u in self.pos.units}
        ua, ut = units[a], units[t]
        combat = self.pos.combat
        if combat.damage(ua, ut, self.pos.dice, v) <= 0 or not combat.has_protection(ut):
            return ""
        return ": " + combat.unblocked(ua, ut)

    def strategy_lines(self, search: AndOr, strategy: Strategy) -> list[str]:
        """The strategy as a tree: E's declaration in each position, indented under the one before it; a position
        met again is not repeated."""
        pos, E, game = self.pos, self.E, search.game
        out: list[str] = []
        shown: set = set()
        by_turn: dict[int, set] = {}
        for (_, t), m in strategy.moves.items():
            by_turn.setdefault(t, set()).add(tuple(sorted(m.items())))
        split = sorted(t for t, ms in by_turn.items() if len(ms) > 1)
        if split:
            out.append(f"the declaration depends on the position the dice and {self._who(1 - E)}'s replies lead to: "
                       + "; ".join(f"round {t // 2 + 1} has {len(by_turn[t])} different declarations" for t in split))
        hidden = 0

        def walk(lives, t, depth):
            nonlocal hidden
            if t < self.T and not game.won(lives, E) and turn_side(pos, t) != E:
                kids = set()
                for m in game.moves(game.mask(lives), 1 - E):
                    kids |= game.successors(lives, t, m)
                for c in sorted(kids):
                    walk(c, t + 1, depth)
                return
            if t >= self.T or game.won(lives, E) or (lives, t) not in strategy.moves:
                return
            if (lives, t) in shown:
                return
            shown.add((lives, t))
            m = strategy.moves[lives, t]
            if len(out) >= MAX_STRATEGY_LINES:
                hidden += 1
                return
            out.append("  " * depth + f"round {t // 2 + 1} ({self._lives_text(lives)}): "
                       + (", ".join(f"{a} -> {x}" for a, x in m.items()) or "no attack"))
            idx = {u.id: i for i, u in enumerate(pos.units)}
            move = tuple((idx[a], idx[x]) for a, x in m.items())
            for c in sorted(game.successors(lives, t, move)):
                walk(c, t + 1, depth + 1)

        walk(tuple(u.life for u in pos.units), 0, 0)
        if hidden:
            out.append(f"... and {hidden} more position(s) of the strategy")
        return out

    def pick_lines(self, search: AndOr, strategy: Strategy) -> list[str]:
        """With the dice E's: E's plan along one line (E's declarations with the rolls it picks; the other side
        replying with its first declaration)."""
        pos, E, game = self.pos, self.E, search.game
        names = [u.id for u in pos.units]
        lives, t, out = search.start(), 0, []
        while t < self.T and not game.won(lives, E):
            side = turn_side(pos, t)
            if side == E:
                e = search.table[(lives, t % 2)]
                move, child = e.move, e.pick
                att, _ = game.rolls(lives, t, move, child)
                text = ", ".join(f"{names[a]} -> {names[x]}" + self._rolled(names[a], names[x], att[k])
                                 + self._through(names[a], names[x], att[k])
                                 for k, (a, x) in enumerate(move)) or "no attack"
                out.append(f"plan of {self._who(E)}, round {t // 2 + 1}: {text}")
            else:
                move = game.moves(game.mask(lives), side)[0]
                child = strategy.picks[lives, t, move]
                att, dfn = game.rolls(lives, t, move, child)
                out.append(f"round {t // 2 + 1}, {self._who(side)}: "
                           + ("; ".join(describe_attack(pos, names[a], names[x], att[k], dfn[k])
                                        for k, (a, x) in enumerate(move)) or "no attack"))
            lives, t = child, t + 1
        out.append(f"after that, creatures in play (life): {self._lives_text(lives)}")
        return out

    def search_line(self, search: AndOr) -> list[str]:
        """The refuting line of the explicit search, turn by turn, with the dice of every attack."""
        pos, names, out = self.pos, [u.id for u in self.pos.units], []
        lives = search.start()
        for t, side, move, child in search.line():
            att, dfn = search.game.rolls(lives, t, move, child)
            atk = [describe_attack(pos, names[a], names[x], att[k], dfn[k]) for k, (a, x) in enumerate(move)]
            out.append(f"round {t // 2 + 1}, {self._who(side)}: " + ("; ".join(atk) or "no attack"))
            lives = child
        out.append(f"after that, creatures in play (life): {self._lives_text(lives)}")
        return out

    def _run(self, lives) -> BoundedResult:
        pos, E = self.pos, self.E
        who = pos.players[0] if E == 0 else pos.players[1]
        if sim.won(pos, lives, E):
            return BoundedResult("proved", [f"{who} already has a clean victory: no enemy creature is in play"])
        status, plan, core, n = self.open_loop(lives, 0)
        if status == "proved":
            return BoundedResult("proved", self.plan_lines(plan) + [
                f"CP-SAT counterexample search (every die value and reply free) against this plan: INFEASIBLE"
                f" after {n} counterexample(s)" + (f" [rules: {', '.join(core)}]" if core else "")])
        opt, core = self.optimistic(lives, 0)
        if opt == "unsat":
            return BoundedResult("refuted", [
                f"even if every die value and every reply went {who}'s way, the enemy creatures cannot all be "
                f"destroyed within {self.rounds} round(s): CP-SAT optimistic model INFEASIBLE"
                + (f" [rules: {', '.join(core)}]" if core else "")])
        if not self.use_tree:
            return BoundedResult("unknown", ["no open-loop plan wins and the tree search is disabled"])
        if self.node(lives, 0):
            return BoundedResult("proved", [f"explicit game tree: {who} has a winning reply to every die value and "
                                            f"reply ({self.nodes} nodes, {self.cp_nodes} decided by CP-SAT)"]
                                 + self.strategy_line(lives))
        return BoundedResult("refuted", [f"no strategy of {who} wins within {self.rounds} round(s); a line that "
                                         f"beats it ({self.nodes} tree nodes):"] + self.refutation_line(lives, 0))

    def plan_lines(self, plan) -> list[str]:
        """The attacks of an open-loop plan, round by round."""
        who = self.pos.players[0] if self.E == 0 else self.pos.players[1]
        out = []
        for t, moves in sorted(plan["moves"].items()):
            dice = plan["dice"].get(t)
            atk = [(a, x) for a, x in moves.items() if x]
            text = ", ".join(f"{a} -> {x}" + (self._rolled(a, x, dice[0][a]) if dice else "") for a, x in atk) \
                or "no attack"
            out.append(f"plan of {who}, round {t // 2 + 1}: {text}")
        return out

    def _rolled(self, a: str, t: str, v: int) -> str:
        units = {u.id: u for u in self.pos.units}
        combat = self.pos.combat
        return (f" (die {v}, {TIERS[self.pos.dice.tier(v)]}: strike {combat.strike(units[a], self.pos.dice, v)}, "
                f"{combat.damage(units[a], units[t], self.pos.dice, v)} damage)")

    def strategy_line(self, lives) -> list[str]:
        """E's first winning move in the tree."""
        t = 0
        while turn_side(self.pos, t) != self.E:
            t += 1
            if t >= self.T:
                return []
        for m in sim.moves(self.pos, lives, self.E) if t == 0 else []:
            if self._dice_value(lives, t, m):
                names = [u.id for u in self.pos.units]
                return ["first move: " + (", ".join(f"{names[a]} -> {names[x]}" for a, x in m) or "no attack")]
        return []

    def refutation_line(self, lives, t) -> list[str]:
        """One line of play that the winner cannot beat (the tree's values guide it)."""
        out, names = [], [u.id for u in self.pos.units]
        while t < self.T and not sim.won(self.pos, lives, self.E) and sim.alive(self.pos, lives, self.E):
            side = turn_side(self.pos, t)
            who = self.pos.players[0] if side == 0 else self.pos.players[1]
            options = sim.moves(self.pos, lives, side)
            if side == self.E:
                options = sorted(options, key=len, reverse=True)[:1]
            step = None
            for m in options:
                for (a, d), child in self._children(lives, t, m):
                    if not self.node(child, t + 1):
                        step = (m, a, d, child)
                        break
                if step:
                    break
            if step is None:
                break
            m, a, d, child = step
            atk = [describe_attack(self.pos, names[x], names[y], a[k], d[k]) for k, (x, y) in enumerate(m)]
            out.append(f"round {t // 2 + 1}, {who}: " + ("; ".join(atk) or "no attack"))
            lives, t = child, t + 1
        left = ", ".join(f"{names[i]} {v}" for i, v in enumerate(lives) if v > 0) or "none"
        out.append(f"after that, creatures in play (life): {left}")
        return out
