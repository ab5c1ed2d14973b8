"""Victory analysis: decisive advantage and bounded forced wins, decided by CP-SAT (in)feasibility.

Dice and the opponent's replies are universally quantified, the player's own
moves existentially. A claim gets ``proved`` (with a certificate), ``refuted``
(with a concrete counterexample) or ``unknown`` (a bound was hit or the scenario's work
budget ran out, ``solver.engine.budget``; never a pass).

Decisive advantage (Berserk 602.1: "whatever the dice, the player wins and
cannot lose") is settled in this order:

1. Inductive proof, a counterexample-guided loop over an attack policy:
   - invariant: no opponent creature can damage the player's creatures, whether
     it attacks (on a board: for any lives of the creatures in the way) or strikes
     back at the policy's attackers, under any die value (CP-SAT searches
     creature, target, die value and mode: INFEASIBLE proves it);
   - ranking: the player attacks the first living opponent creature in the
     policy's order (each the first, in scenario order, that the player's
     creatures can strike once the earlier ones are gone) with the policy's
     attackers; (living opponent creatures, life of that creature) decreases
     lexicographically in every round, for every life it may have, every die value
     and every reply (CP-SAT search for a round where it does not: INFEASIBLE
     proves it). Counterexamples refine the policy.
2. Refutation, the opponent (with the dice on their side) forces the player to
   lose every creature within ``victory_horizon`` rounds (bounded search): the
   line of play.
3. Refutation, an opponent creature the player can never destroy: no creature of
   the player can ever reach it, or under some die values (the same every round)
   every attack the player can make deals less than its life and no more than it
   heals per round (CP-SAT finds the dice).
4. Refutation, the player never wins: with the opponent never attacking and the dice
   always against the player (each attack its weakest damage, each strike back its
   strongest), no turn of the player's wins from any position not won yet (one
   CP-SAT search over every life and declaration: INFEASIBLE).
5. Bounded proof: the player forces the win within the horizon whatever happens.
6. Otherwise ``unknown``, with why the proof failed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from models.results import ClaimResult
from solver.encoding.compile import ScenarioError
from solver.engine.budget import Exhausted, Meter, meter_of
from solver.registry import ruleset_for
from solver.victory.bounded import ForcedWin, describe_attack
from solver.victory.encode import CombatModel, turn_side
from solver.victory.model import TIERS, CombatError, Position, combat_options, position_from
from solver.victory.search import Strategy

MAX_POLICIES = 60


@dataclass
class Analysis:
    """A verdict with its certificate or counterexample."""

    verdict: str
    certificate: list[str] = field(default_factory=list)
    counterexample: list[str] = field(default_factory=list)
    message: str = ""
    #: a bounded win's strategy (``solver.victory.search.Strategy``), which the solver-free reference replays
    strategy: Strategy | None = None
    #: how the verdict was decided, in one line: the proof (an invariant and a ranking, a strategy), the refutation
    #: (a line of play, a creature never destroyed ...), or for unknown why and the work it used
    decided_by: str = ""


class DecisiveAdvantage:
    """Does side 0 of the position hold a decisive advantage?"""

    def __init__(self, pos: Position, meter: Meter | None = None, horizon: int = 3) -> None:
        self.pos = pos
        #: the work budget every solve draws on (the scenario's; a fresh default one when None)
        self.meter = meter if meter is not None else Meter()
        self.horizon = horizon
        self.solves = 0
        self.me, self.them = pos.players
        self.invariant_core: list[str] = []
        self.order = policy_order(pos)
        self.nodes = 0
        #: every combat rule is on: the explicit searches decide (``ForcedWin.explicit``); with one off (rule
        #: coverage) only CP-SAT leaves it out, so every step is a CP-SAT search, in the order before issue 28
        self.explicit = not set(pos.rules_off) & set(pos.combat.rules)
        #: the inductive proof may leave creatures that can be hit out of the policy (with a rule off: as before)
        self.general = self.explicit
        self.resting: set[str] = set()
        self._use: dict[str, list[str]] = {}
        #: the creature ``unkillable`` found that the player can never destroy
        self.never_destroyed = ""
        #: a creature of the player and an enemy it could close in on over several turns (no refutation by reach)
        self.closing: tuple[str, str] | None = None

    def _solve(self, cm: CombatModel):
        self.solves += 1
        status, s, core = cm.solve(self.meter)
        if status == "unknown":
            raise Exhausted()
        return status, s, core

    def run(self) -> Analysis:
        """The verdict: proved, refuted or unknown (with the work it used)."""
        try:
            out = self._run() if self.explicit else self._run_cp()
        except Exhausted:
            used = (f"after {self.solves} CP-SAT solves and {self.nodes} search positions "
                    f"({self.meter.used():g} units spent)")
            return Analysis("unknown", message=f"{self.meter.why()} {used}",
                            decided_by=f"unknown: {self.meter.why()} {used}")
        if not out.decided_by:
            out.decided_by = {"proved": "proved", "refuted": "refuted"}.get(out.verdict, "unknown") + \
                f" ({self.solves} CP-SAT solves, {self.nodes} search positions)"
        return out

    def _bounded(self, side: int, dice_owner: str = "A"):
        res = ForcedWin(self.pos, side, self.horizon, dice_owner=dice_owner, meter=self.meter).run()
        self.solves += res.solves
        self.nodes += res.nodes
        if res.verdict == "unknown" and self.meter.stopped:
            raise Exhausted()
        return res

    def _run(self) -> Analysis:
        """Every combat rule on: the cheap refutations and the bounded win first (explicit searches), then the
        inductive proof and the never-wins refutation (CP-SAT)."""
        P, O = self.pos.side(0), self.pos.side(1)
        me, them, h = self.me, self.them, self.horizon
        if not P:
            return Analysis("refuted", counterexample=[f"{me} has no creature in play"],
                            decided_by=f"refuted: {me} has no creature in play")
        if not O:
            return Analysis("proved", certificate=[f"{them} has no creature in play: clean victory (602.1)"],
                            decided_by=f"proved: {them} has no creature in play")
        loss = self._bounded(1, dice_owner="E")
        safe = self.unkillable()
        if loss.verdict == "proved":
            return Analysis("refuted", counterexample=[
                f"{them}, with the dice going their way, destroys every creature of {me} within "
                f"{h} round(s) whatever {me} does:"] + loss.lines + (safe or []),
                decided_by=f"refuted by a line of play: {them}, with the dice going their way, destroys every "
                           f"creature of {me} within {h} round(s) whatever {me} does (explicit AND/OR search, "
                           f"{loss.nodes} positions)")
        if safe:
            return Analysis("refuted", counterexample=safe,
                            decided_by=f"refuted: {them}'s {self.never_destroyed} can never be destroyed")
        win = self._bounded(0)
        if win.verdict == "proved":
            return Analysis("proved", certificate=[
                f"{me} wins within {h} round(s) whatever the dice and {them} do:"] + win.lines,
                strategy=win.strategy, decided_by=win.decided_by)
        proof = self.inductive()
        if proof.verdict == "proved":
            return proof
        why = proof.counterexample
        stuck = self.never_wins()
        if stuck:
            return Analysis("refuted", counterexample=stuck + ["(the inductive proof fails: " + "; ".join(why) + ")"],
                            decided_by=f"refuted: {me} never wins if {them} never attacks and the dice always go "
                                       f"against {me} (CP-SAT search infeasible)")
        used = f"{self.solves} CP-SAT solves, {self.nodes} search positions, {self.meter.used():g} units spent"
        return Analysis("unknown", counterexample=why + self._closing_note(),
                        message=f"the inductive proof fails and no refutation or win was found within "
                                f"{h} round(s) ({used})" + "".join(f"; {x}" for x in self._closing_note()),
                        decided_by=f"unknown: no invariant and ranking, no strategy winning within {h} round(s), no "
                                   f"refutation ({used})")

    def _run_cp(self) -> Analysis:
        """A combat rule off: the CP-SAT steps in their order before issue 28 (the explicit searches read every
        rule)."""
        P, O = self.pos.side(0), self.pos.side(1)
        if not P:
            return Analysis("refuted", counterexample=[f"{self.me} has no creature in play"])
        if not O:
            return Analysis("proved", certificate=[f"{self.them} has no creature in play: clean victory (602.1)"])
        proof = self.inductive()
        if proof.verdict == "proved":
            return proof
        why = proof.counterexample
        loss = ForcedWin(self.pos, 1, self.horizon, dice_owner="E", meter=self.meter).run()
        self.solves += loss.solves
        safe = self.unkillable()
        if loss.verdict == "proved":
            return Analysis("refuted", counterexample=why + [
                f"{self.them}, with the dice going their way, destroys every creature of {self.me} within "
                f"{self.horizon} round(s) whatever {self.me} does:"] + loss.lines + (safe or []))
        if safe:
            return Analysis("refuted", counterexample=safe + ["(the inductive proof fails: " + "; ".join(why) + ")"])
        stuck = self.never_wins()
        if stuck:
            return Analysis("refuted", counterexample=stuck + ["(the inductive proof fails: " + "; ".join(why) + ")"])
        win = ForcedWin(self.pos, 0, self.horizon, meter=self.meter).run()
        self.solves += win.solves
        if win.verdict == "proved":
            return Analysis("proved", certificate=[
                f"{self.me} wins within {self.horizon} round(s) whatever the dice and {self.them} do:"] + win.lines)
        return Analysis("unknown", counterexample=why + self._closing_note(),
                        message=f"the inductive proof fails and no refutation or win was found within "
                                f"{self.horizon} round(s)" + "".join(f"; {x}" for x in self._closing_note()))

    # -- 1. invariant + ranking, refined by counterexamples -------------------------------------------
    def inductive(self) -> Analysis:
        """Counterexample-guided search for an attack policy whose invariant and ranking CP-SAT proves."""
        banned: set[tuple[str, str]] = set()
        cuts: list[tuple[str, dict[str, int], int]] = []
        self.resting = set()
        why = [f"no attack policy: some creature of {self.them} cannot be attacked by any creature of {self.me} "
               f"that it cannot harm"]
        for n in range(MAX_POLICIES):
            use = self.candidate(banned, cuts)
            if use is None:
                return Analysis("failed", counterexample=why)
            harm = self.harm_search(use)
            if harm is not None:
                mode, o, p, line = harm
                why = [line]
                if mode == "attacks" and not self.general:
                    return Analysis("failed", counterexample=why)
                if mode == "attacks":  # it can be hit: the policy leaves it out (it never attacks; not needed)
                    self.resting.add(p)
                    if len(self.resting) == len(self.pos.side(0)):
                        return Analysis("failed", counterexample=why)
                    continue
                banned.add((p, o))
                continue
            ranked = {}
            self._use = use
            for o in self.order:
                proved, bad = self.rank_search(o, use[o])
                if not proved:
                    dice, dealt, line = bad
                    why = [line]
                    cuts.append((o, dice, dealt))
                    break
                ranked[o] = bad
            else:
                kept = ", ".join(u.id for u in self.kept(use))
                return Analysis("proved", certificate=self.certificate(use, n + 1, len(banned) + len(cuts), ranked),
                                decided_by=f"proved by an invariant and a ranking: {kept} never harmed, "
                                           f"{self.them}'s creatures destroyed one by one whatever the dice (CP-SAT "
                                           f"counterexample searches infeasible, {self.solves} solves)")
        return Analysis("failed", counterexample=why + [f"gave up after {MAX_POLICIES} candidate policies"])

    def candidate(self, banned, cuts) -> dict[str, list[str]] | None:
        """A policy: for every opponent creature, the player's creatures that attack it while it is first in line."""
        cm = CombatModel(self.pos)
        rm, m = cm.rm, cm.m
        combat = self.pos.combat
        use = {(p.id, o.id): rm.new_bool(f"use.{p.id}.{o.id}") for p in self.pos.side(0) for o in self.pos.side(1)}
        for (p, o), lit in use.items():
            if not combat.reaches(cm.units[p], cm.units[o]):
                combat.reach_clause(cm, lit)
            elif not combat.on_board_reach(self.pos, cm.units[p], cm.units[o], self.standing_while(o)):
                combat.out_of_reach_clause(cm, lit)
            if (p, o) in banned or p in self.resting:
                m.add(lit == 0)
        for o in self.pos.side(1):
            m.add_bool_or([use[p.id, o.id] for p in self.pos.side(0)])
        for o, dice, dealt in cuts:
            dealt_now = [combat.dealt_clause(cm, use[p.id, o], cm.damage(p, cm.units[o], cm.die(dice[p.id])))
                         for p in self.pos.side(0)]
            m.add(sum(dealt_now) >= dealt + 1)
        status, s, _ = self._solve(cm)
        if status == "unsat":
            return None
        return {o.id: [p.id for p in self.pos.side(0) if s.boolean_value(use[p.id, o.id])] for o in self.pos.side(1)}

    def kept(self, use) -> list:
        """The player's creatures the invariant must keep from harm: those the policy uses (with a rule off, every
        one, as before issue 28); the others never attack, may be hit and destroyed, and the proof does not need
        them."""
        if not self.general:
            return list(self.pos.side(0))
        used = {p for ps in use.values() for p in ps}
        return [p for p in self.pos.side(0) if p.id in used]

    def harm_search(self, use):
        """Counterexample to the invariant: an opponent creature, a target, a die value with damage > 0; on a board,
        with the target within its reach for some lives of every creature (who stands in the way)."""
        cm = CombatModel(self.pos)
        rm, m, die = cm.rm, cm.m, cm.die()
        lives = {u.id: cm.free_life(u) for u in self.pos.units}
        combat = self.pos.combat
        picks = []
        for o in self.pos.side(1):
            for p in self.kept(use):
                modes = [("attacks", combat.reaches(o, p))]
                if self.pos.counterstrike:
                    modes.append(("strikes back at", p.id in use[o.id]))
                for mode, possible in modes:
                    lit = rm.new_bool(f"harm.{o.id}.{p.id}.{mode}")
                    if not possible and mode == "attacks":
                        combat.reach_clause(cm, lit)
                    elif not possible:
                        combat.no_counterstrike_clause(cm, lit)
                    elif mode == "attacks":
                        m.add_bool_and([cm.reach(lives, o, p), cm.alive(lives[o.id]),
                                        cm.alive(lives[p.id])]).only_enforce_if(lit)
                    dmg = cm.damage(o, p, die)
                    m.add(dmg >= 1).only_enforce_if(lit)
                    picks.append((lit, mode, o, p))
        m.add_exactly_one([x[0] for x in picks])
        status, s, core = self._solve(cm)
        if status == "unsat":
            self.invariant_core = core
            return None
        lit, mode, o, p = next(x for x in picks if s.boolean_value(x[0]))
        v = s.value(die)
        return mode, o.id, p.id, (f"{self.them}'s {o.id} {mode} {self.me}'s {p.id}: "
                                  f"{combat.describe_strike(o, p, self.pos.dice, v)} ({combat.unblocked(o, p)})")

    def rank_search(self, focus: str, attackers: list[str]):
        """Counterexample to the ranking for one focused creature: (True, proof line) or (False, (dice, dealt, line))."""
        pos = self.pos
        cm = CombatModel(pos)
        m = cm.m
        order = self.order
        lives = {}
        kept = {p for ps in self._use.values() for p in ps} if self.general else {u.id for u in pos.side(0)}
        for u in pos.units:
            if u.side == 0 and u.id not in kept:  # never attacks, may be hit: any life it may have (0: destroyed)
                lives[u.id] = cm.free_life(u)
            elif u.side == 0:
                lives[u.id] = m.new_constant(u.life)
            elif order.index(u.id) < order.index(focus):
                lives[u.id] = m.new_constant(0)
            else:
                lives[u.id] = cm.free_life(u, lo=1 if u.id == focus else 0)
        before = dict(lives)
        turns = {}
        for t in (0, 1):
            side = turn_side(pos, t)
            moves = {p: focus for p in attackers} if side == 0 else None
            turns[side] = cm.turn_vars(side, moves)
            lives, _ = cm.turn(lives, turns[side])
        after = cm.end_round(lives)
        count = lambda ls: sum(cm.alive(ls[o]) for o in order)  # noqa: E731
        m.add(count(after) >= count(before))
        m.add(after[focus] >= before[focus])
        status, s, core = self._solve(cm)
        if status == "unsat":
            return True, f"{focus}: INFEASIBLE" + (f" [rules: {', '.join(core)}]" if core else "")
        att = turns[0].att_die
        dice = {p: s.value(att[p]) for p in att}
        dfn = {p: s.value(turns[0].def_die[p]) for p in att}
        dealt = sum(pos.combat.damage(cm.units[p], cm.units[focus], pos.dice, dice[p]) for p in attackers)
        hits = "; ".join(describe_attack(pos, p, focus, dice[p], dfn[p]) for p in attackers)
        line = (f"{focus} at life {s.value(before[focus])}: {hits}; {focus} heals {cm.units[focus].regen} at the end "
                f"of the round -> life {s.value(after[focus])}: the ranking does not decrease")
        return False, (dice, dealt, line)

    def certificate(self, use, policies: int, counterexamples: int, ranked: dict[str, str]) -> list[str]:
        """The printable proof: invariant, policy, ranking (``ranked``: each focused creature's infeasible ranking
        search, as ``rank_search`` proved it), each an infeasible CP-SAT search."""
        pos = self.pos
        core = self.invariant_core
        kept = self.kept(use)
        out = [f"invariant: no creature of {self.them} can damage a creature of {self.me} that attacks "
               f"({', '.join(u.id for u in kept)}) under any die value {pos.dice.values().start}-"
               f"{pos.dice.sides}, attacking or striking back: CP-SAT counterexample search INFEASIBLE"
               + (f" [rules: {', '.join(core)}]" if core else "")]
        rest = [u.id for u in pos.side(0) if u not in kept]
        if rest:
            out.append(f"{', '.join(rest)} may be hit (and destroyed): never attacking, not needed; the ranking "
                       f"holds for any life of {'it' if len(rest) == 1 else 'them'}, {', '.join(u.id for u in kept)} "
                       f"cannot be harmed, so {self.me} cannot lose")
        out.append(f"policy: every round {self.me}'s creatures attack the first living creature of {self.them} in the "
                   f"order {', '.join(self.order)}; attackers: "
                   + "; ".join(f"{o} <- {', '.join(ps)}" for o, ps in use.items()))
        out.append(f"ranking: (living creatures of {self.them}, life of the attacked one) decreases every round "
                   f"under every die value and reply:")
        for o in self.order:
            out.append("  " + ranked[o])
        out.append(f"CEGAR: {policies} candidate policy(ies), {counterexamples} counterexample(s) refined away")
        return out

    def standing_while(self, focus: str) -> list:
        """The creatures standing while the policy attacks ``focus``: the player's, and the opponent's from ``focus``
        on in the policy's order (the earlier ones are gone)."""
        units = {u.id: u for u in self.pos.units}
        return list(self.pos.side(0)) + [units[o] for o in self.order[self.order.index(focus):]]

    # -- 3b. the player never wins against a passive opponent and the dice -----------------------------------------
    def never_wins(self) -> list[str] | None:
        """Counterexample: if the opponent never attacks and the dice always go against the player (each attack rolls
        its weakest damage, each strike back its strongest), no turn of the player wins from any position that is not
        won yet (CP-SAT search over every life and every declaration: INFEASIBLE), so the player never wins."""
        pos = self.pos
        if self._closing():
            return None  # its search keeps creatures on their cells: a creature that could close in over turns breaks it
        cm = CombatModel(pos)
        m = cm.m
        lives = {u.id: cm.free_life(u) for u in pos.units}
        m.add_bool_or([cm.rm.neg(cm.won(lives, 0))])
        tv = cm.turn_vars(0)
        damage = pos.combat.damage
        rolls = []
        for (a, t), x in tv.moves.items():
            ua, ut = cm.units[a], cm.units[t]
            low = min(pos.dice.values(), key=lambda v: (damage(ua, ut, pos.dice, v), v))
            high = max(pos.dice.values(), key=lambda v: (damage(ut, ua, pos.dice, v), -v))
            m.add(tv.att_die[a] == low).only_enforce_if(x)
            m.add(tv.def_die[a] == high).only_enforce_if(x)
            rolls.append(f"{a} on {t}: die {low} ({TIERS[pos.dice.tier(low)]}), {damage(ua, ut, pos.dice, low)} damage"
                         + (f", struck back with die {high} ({TIERS[pos.dice.tier(high)]}), "
                            f"{damage(ut, ua, pos.dice, high)} damage" if pos.counterstrike else ""))
        after, _ = cm.turn(lives, tv)
        m.add_bool_or([cm.won(after, 0)])
        status, _, core = self._solve(cm)
        if status != "unsat":
            return None
        return [f"if {self.them} never attacks and the dice always go against {self.me}, no turn of {self.me}'s wins "
                f"from any position not won yet: CP-SAT search over every life and declaration INFEASIBLE"
                + (f" [rules: {', '.join(core)}]" if core else "") + f"; the rolls: " + "; ".join(rolls),
                f"so {self.me} never wins (602.1): no decisive advantage"]

    def _closing_note(self) -> list[str]:
        """Why a refutation by reach was not made, when a creature could close in over several turns."""
        if self.closing is None:
            return []
        p, o = self.closing
        return [f"on the board {p} cannot strike {o} this turn but could get next to it over several turns; the "
                f"analysis keeps creatures on their cells between rounds (moving over several rounds, chasing and "
                f"fleeing, is not modelled), so it does not refute by reach"]

    def _closing(self) -> tuple[str, str] | None:
        """A creature of the player and an enemy it cannot strike this turn but could get next to over several turns
        (``closes_in``), if any: on a board the analysis keeps creatures on their cells between rounds."""
        pos = self.pos
        if pos.board is None:
            return None
        for p in pos.side(0):
            for o in pos.side(1):
                if pos.combat.closes_in(pos, p, o):
                    self.closing = (p.id, o.id)
                    return self.closing
        return None

    # -- 2. an opponent creature that can never be destroyed ----------------------------------------------
    def unkillable(self) -> list[str] | None:
        """Counterexample: die values under which some opponent creature survives every round unharmed in the end
        (every rule on: each attacker's least damaging die, read from ``damage``; a rule off: a CP-SAT search)."""
        pos = self.pos
        combat, damage = pos.combat, pos.combat.damage
        for o in pos.side(1):
            hitters = [p for p in pos.side(0) if combat.reaches(p, o) and combat.on_board_reach(pos, p, o, (p, o))]
            if self.explicit:  # every rule on: each hitter's die dealing it the least damage (the smallest such value)
                rolled = {p.id: min(pos.dice.values(), key=lambda v, p=p: (damage(p, o, pos.dice, v), v))
                          for p in hitters}
                total = sum(damage(p, o, pos.dice, rolled[p.id]) for p in hitters)
                if hitters and not (total <= o.regen and total <= o.life - 1):
                    continue
            else:
                cm = CombatModel(pos)
                m = cm.m
                dice = {p.id: cm.die() for p in hitters}
                if hitters:
                    total = sum(cm.damage(p, o, dice[p.id]) for p in hitters)
                    m.add(total <= o.regen)
                    m.add(total <= o.life - 1)
                status, s, _ = self._solve(cm)
                if status != "sat":
                    continue
                rolled = {p.id: s.value(dice[p.id]) for p in hitters}
            walker = None if hitters else next((p for p in pos.side(0) if combat.closes_in(pos, p, o)), None)
            if walker is not None:
                self.closing = (walker.id, o.id)
                continue  # out of reach this turn, not for ever: the analysis cannot refute by it (fixed cells)
            self.never_destroyed = o.id
            if not hitters:
                return [f"no creature of {self.me} can reach {self.them}'s {o.id}"
                        + (combat.unreachable_why(o) or
                           (f" (on the board it stands on {o.cell or 'no cell'}: none of them can get next to it over "
                            f"free cells within its movement, or shoot it, even with every other creature gone)"
                            if pos.board is not None else ""))
                        + f": it can never be destroyed, so {self.me} never wins (602.1)"]
            parts = [f"{p.id} " + combat.describe_strike(p, o, pos.dice, rolled[p.id]) for p in hitters]
            dealt = sum(damage(p, o, pos.dice, rolled[p.id]) for p in hitters)
            return [f"{self.them}'s {o.id} (life {o.life}, heals {o.regen} per round) can never be destroyed: with "
                    f"these die values every round, all of {self.me}'s creatures together deal {dealt} damage per "
                    f"round: " + "; ".join(parts)]
        return None


def policy_order(pos: Position) -> list[str]:
    """The opponent's creatures in the order the policy attacks them: each time the first (in scenario order) that
    some creature of the player can strike once the earlier ones are gone and the rest still stand."""
    mine, left, order = pos.side(0), list(pos.side(1)), []
    while left:
        standing = list(mine) + left
        pick = next((o for o in left if any(pos.combat.reaches(p, o) and pos.combat.on_board_reach(pos, p, o, standing)
                                            for p in mine)),
                    left[0])
        order.append(pick.id)
        left.remove(pick)
    return order


# -- claims -------------------------------------------------------------------------------------------------
def analyse(kind: str, pos: Position, options, rounds: int) -> Analysis:
    """The verdict of a decisive advantage (``rounds``: the horizon) or a forced win within ``rounds`` on one
    position. A scenario's proved and refuted answers are kept for it (``SolverOptions.victory_memo``, one per
    scenario check), so a position its victory check and its claims both ask about is analysed once; an unknown
    one (it depends on the budget left) is asked again."""
    memo = getattr(options, "victory_memo", None)
    key = (kind, rounds, pos, frozenset(pos.rules_off))
    if memo is not None and key in memo:
        return memo[key]
    meter = meter_of(options)
    if kind == "decisive_advantage":
        out = DecisiveAdvantage(pos, meter, rounds).run()
    else:
        res = ForcedWin(pos, 0, rounds, meter=meter).run()
        if res.verdict == "proved":
            out = Analysis("proved", certificate=[f"{pos.players[0]} wins within {rounds} round(s) whatever the "
                                                  f"dice and {pos.players[1]} do:"] + res.lines,
                           strategy=res.strategy, decided_by=res.decided_by)
        elif res.verdict == "refuted":
            out = Analysis("refuted", counterexample=res.lines, decided_by=res.decided_by)
        else:
            out = Analysis("unknown", message="; ".join(res.lines), decided_by=res.decided_by)
    if memo is not None and out.verdict in ("proved", "refuted"):
        memo[key] = out
    return out


def analyse_claim(claim, pos: Position, options, horizon: int) -> Analysis:
    """The verdict of one claim on one position."""
    return analyse(claim.kind, pos, options, horizon if claim.kind == "decisive_advantage" else claim.within or horizon)


def _distinct(states: list[dict]) -> list[dict | None]:
    out, seen = [], set()
    for st in states:
        key = tuple(sorted(st.items()))
        if key not in seen:
            seen.add(key)
            out.append(st)
    return out


def check_claims(sc, claim_lines: dict | None, options, states: list[dict] | None = None,
                 complete: bool = True) -> list[ClaimResult]:
    """Verdicts on the scenario's victory claims, over every outcome of its events.

    A claim is proved only if it is proved in every outcome (all of them enumerated),
    refuted if it is refuted in one. ``states``: what the victory analysis reads of each outcome's final state
    (``Ruleset.victory_state``: effective controllers, values and abilities, the same names a victory check's proof
    reads; the checker observes them in every outcome); None: the initial state.
    """
    if not sc.claims:
        return []
    rs = ruleset_for(sc.game)
    horizon = int(combat_options(sc, rs)["victory_horizon"])
    states = _distinct(states) if states is not None else [None]
    out = []
    for i, claim in enumerate(sc.claims):
        line = (claim_lines or {}).get(i)
        res = ClaimResult(index=i, line=line, kind=claim.kind, player=claim.player, expected=claim.expect,
                          verdict="unknown", passed=False)
        if not states:
            res.message = ("the scenario has no legal outcome to analyse" if complete else
                           "no outcome was found before the work budget ran out: nothing to analyse")
            res.decided_by = f"unknown: {res.message}"
            out.append(res)
            continue
        try:
            off = frozenset(getattr(options, "rules_off", ()))
            found = [analyse_claim(claim, replace(position_from(sc, rs, claim.player, st), rules_off=off), options,
                                   horizon) for st in states]
        except CombatError as exc:
            raise ScenarioError(f"claims[{i}]" + (f" (line {line})" if line else "") + f": {exc}") from None
        pick = next((a for a in found if a.verdict == "refuted"), None) or \
            next((a for a in found if a.verdict == "unknown"), None) or found[0]
        res.verdict = pick.verdict
        res.certificate, res.counterexample = pick.certificate, pick.counterexample
        res.message, res.decided_by = pick.message, pick.decided_by
        if res.verdict == "proved" and not complete:
            res.verdict, res.message = "unknown", "proved in the outcomes found, but not every outcome was enumerated"
        if len(states) > 1:
            res.certificate = [f"over all {len(states)} outcomes:"] + res.certificate
        res.passed = res.verdict == claim.expect and res.verdict != "unknown"
        if not res.passed and not res.message:
            res.message = f"expected {claim.expect}, but it is {res.verdict}"
        elif not res.passed:
            res.message = f"expected {claim.expect}, but it is {res.verdict}: {res.message}"
        out.append(res)
    return out
