"""Minimal, re-checked infeasibility cores: the rules and scenario facts that together exclude something.

Preferred explanations. Minimal cores are not unique: "A is not countered" may be
excluded by the rule whose condition failed or by bookkeeping that carries a value
along. Among minimal cores this module returns the one a designer reads best, by a
preference order over the assumptions (``rank``, best first):

0. the rules a ``because`` names (ids or sections), when the question asks for them;
1. game rules (every id that is not ``core.*``), those the scenario cites in ``rules:`` (``cited``) kept before
   the others when either would do (several rules owning one key's frame);
2. scenario facts;
3. core bookkeeping (``core.move``, ``core.declare``, ``core.timestamp`` ...), and rules that did nothing in the
   actual outcomes (``demoted``: every condition of theirs was false, their frames never held; see
   ``solver.check.trace``): an explanation follows what happened, not a case that did not arise;
4. ``core.inertia``, the frame of keys no rule could change.

The search has two phases, each a sequence of solves under assumptions:

- *alternatives*: starting from the solver's own core
  (``sufficient_assumptions_for_infeasibility``), each rule of it below the best rank
  (bookkeeping, rules that did nothing, game rules the scenario does not cite that share
  a key's frame with another rule; and, when a ``because`` rule is missing, every rule
  that competes with it) is dropped from the
  whole set of assumptions, worst first; if the rest is still infeasible it stays
  dropped and the solver's new core is taken. So a worse rule is kept only when no
  explanation without it exists, given the better ones.
- *deletion*: the core is made minimal by trying to remove each member, worst rank
  first (ties by name), so that what remains keeps the preferred members. By default
  (``SolverOptions.block_deletion``) members go in blocks, divide and conquer: a block
  of the worst members not yet tried is dropped at once, twice as long after each
  success, halved after a failure down to one member, which is then needed.
  A rule whose but-for test (``Engine.without``: the query with that rule alone left
  out) is feasible is in every core: it is never tried, and a block holding it fails
  without a solve. The same tests split the core shown into deciding and supporting
  rules (``solver.check.checker``), so they cost the explanation nothing extra; the
  alternatives' first drop of a rival is that test too.

Every solve of a core search runs with the lean settings of ``solver.engine.solve``
(on every path), so the shown core does not depend on ``SolverOptions.lean_search``.

This is a lexicographic preference (OCUS's weighted idea, by deletion order rather
than by a minimum-cost hitting set): cheap, deterministic, and every core it shows is
minimal. Every core shown is re-checked: solved infeasible with it alone, or with a
subset of it alone on the way (``Engine.confirmed``: a solve of the same query under
only those assumptions, such as a but-for test's confirmed core, saves the re-check);
a core that cannot be confirmed with presolve on or off is reported ``unknown``,
never shown.

Why blocks and not QuickXplain. The solver's own core
(``sufficient_assumptions_for_infeasibility``), after the alternatives, is already
minimal for 333 of the library's 356 cores (measured), and proving a core minimal
takes one feasible solve per member whatever the algorithm (a model that keeps all
members but that one). One deletion per member does exactly that; QuickXplain
(Junker's divide and conquer over the same ordered sets) found the same cores with
6,918 solves against 4,936 on the library with ``--why``; blocks cost one solve per
member on a minimal core and a logarithmic number on a run of members that can go
(4,928). The solves a check saves come from computing cores only when asked
(``solver.check.checker``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from solver.encoding.cp import Lit, cp_model
from solver.engine.settings import Answer

def rank(name: str, preferred: set[str] = frozenset(), demoted: set[str] = frozenset(),
         cited: set[str] = frozenset()) -> float:
    """Preference of an assumption name (``rule:...`` or ``fact:...``) in an explanation: 0 best, 4 worst."""
    if name in preferred:
        return 0
    if name == "rule:core.inertia":
        return 4
    if name.startswith("rule:core.") or name in demoted:
        return 3
    if name.startswith("fact:"):
        return 2
    return 1 if name in cited else 1.5


@dataclass
class Core:
    """A minimal set of rules and facts that together exclude something; ``verified`` after re-checking."""

    rules: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    verified: bool = True


class CoreFinder:
    """Cores of one engine's model, cached by query."""

    def __init__(self, engine) -> None:
        """``engine``: the ``solver.engine.solve.Engine`` whose solves the cores are made of."""
        self.engine = engine
        self._cores: dict[tuple, tuple] = {}
        #: assumption names of rules that did nothing in the actual outcomes (set once, before the first core)
        self.demoted: set[str] = set()
        #: assumption names of the rules the scenario cites (its topic)
        self.cited: set[str] = set()
        #: assumption names of rules that share the frame of some key with another rule (either may explain it)
        self.shared: set[str] = set()

    # -- cores ---------------------------------------------------------------------
    def core(self, extra: list[Lit] = (), prefer: tuple[str, ...] = ()) -> tuple:
        """Why is the model plus ``extra`` infeasible: the preferred deletion-minimal core, re-checked.

        Rules named in ``prefer`` (ids or id prefixes) rank first, so when some minimal core contains them, that is
        the one found. Returns (SAT, None) if it is in fact feasible, (UNKNOWN, None) on a time limit or when
        the core cannot be confirmed with presolve either way (a solver bug is never shown as a reason).
        Cores are cached by query, so an action and an expectation asking the same question share one.
        """
        key = (tuple(sorted(int(lit.index) for lit in extra)), tuple(sorted(prefer)))
        if key not in self._cores:
            answer, core = self._core(extra, self._preferred(prefer))
            if answer is Answer.UNSAT and not core.verified:
                saved, self.engine.options.presolve = self.engine.options.presolve, not self.engine.options.presolve
                try:
                    answer, core = self._core(extra, self._preferred(prefer))
                finally:
                    self.engine.options.presolve = saved
            if answer is Answer.UNSAT and not core.verified:
                answer, core = Answer.UNKNOWN, None
            self._cores[key] = (answer, core)
        return self._cores[key]

    def _preferred(self, prefer: tuple[str, ...]) -> set[str]:
        """Assumption names of the preferred rules (exact ids and ids under a prefix)."""
        return {n for n in self.engine.named for p in prefer if n == f"rule:{p}" or n.startswith(f"rule:{p}.")}

    def _core(self, extra: list[Lit], pref: set[str]) -> tuple[Answer, Core | None]:
        answer, names = self.engine.without(extra, frozenset())
        if answer is not Answer.UNSAT:
            return answer, None
        found = set(names)
        answer, found = self._alternatives(extra, pref, found)
        if answer is not Answer.UNSAT:
            return answer, None
        shrink = self._divide if self.engine.options.block_deletion else self._deletion
        answer, kept = shrink(extra, pref, found | pref)
        if answer is not Answer.UNSAT:
            return answer, None
        if self.engine.confirmed(extra, kept):  # re-checked on the way: a solve with a subset alone was infeasible
            final = Answer.UNSAT
        else:  # re-check: the kept set alone is infeasible
            final, _ = self.engine.solve(extra, sorted(kept), core=True)
        if final is Answer.UNKNOWN:
            return Answer.UNKNOWN, None
        rules = sorted(n[5:] for n in kept if n.startswith("rule:"))
        facts = sorted(n[5:] for n in kept if n.startswith("fact:"))
        return Answer.UNSAT, Core(rules, facts, verified=final is Answer.UNSAT)

    def _alternatives(self, extra: list[Lit], pref: set[str], found: set[str]) -> tuple[Answer, set[str]]:
        """Drop the worst-ranked members of the core from the whole set of assumptions while it stays infeasible."""
        background = set(self.engine.named)
        tried: set[str] = set()

        def rivals() -> list[str]:
            missing = bool(pref - found)  # a 'because' rule is not in the core: any other rule competes with it
            out = [n for n in found if n not in tried and n not in pref and n.startswith("rule:")
                   and (missing or rank(n, demoted=self.demoted) >= 3
                        or (n in self.shared and rank(n, cited=self.cited) > 1))]
            return sorted(out, key=lambda n: (-rank(n, demoted=self.demoted, cited=self.cited), n))

        while True:
            todo = rivals()
            if not todo:
                return Answer.UNSAT, found
            rival = todo[0]
            tried.add(rival)
            trial = background - {rival}
            if len(background) == len(self.engine.named):  # nothing dropped yet: the but-for test of the rival
                answer, names = self.engine.without(extra, frozenset({rival}))
            elif self.engine.known_feasible(extra, trial):
                answer, names = Answer.SAT, None
            else:
                answer, s = self.engine.solve(extra, sorted(trial), core=True)
                names = self.core_names(s) if answer is Answer.UNSAT else None
                if answer is Answer.SAT:
                    self.engine.note_feasible(s)
            if answer is Answer.UNKNOWN:
                return Answer.UNKNOWN, found
            if answer is Answer.UNSAT:
                background.discard(rival)
                found = set(names)

    def _deletion(self, extra: list[Lit], pref: set[str], kept: set[str]) -> tuple[Answer, set[str]]:
        """Deletion-based minimisation, worst rank first: what remains is minimal and keeps the preferred members."""
        needed = self._needed(extra, kept)
        for name in sorted(kept, key=lambda n: (-rank(n, pref, self.demoted, self.cited), n)):
            if name not in kept or name in needed:
                continue  # a member whose removal alone makes the query feasible stays (no solve)
            trial = kept - {name}
            answer, s = self.engine.solve(extra, sorted(trial), core=True)
            if answer is Answer.UNKNOWN:
                return Answer.UNKNOWN, kept
            if answer is Answer.UNSAT:
                kept = (self.core_names(s) & trial) | (pref & trial)
        return Answer.UNSAT, kept

    def _divide(self, extra: list[Lit], pref: set[str], kept: set[str]) -> tuple[Answer, set[str]]:
        """Deletion by blocks, worst rank first: the same order as ``_deletion``, fewer solves.

        A block of the worst members not yet tried is dropped at once; after a success the next block is twice as
        long, after a failure the same start is tried with half the block, down to one member, which is then
        needed. An already minimal core costs one solve per member, the least a proof of minimality needs (a model
        without each member); a run of members that can go costs a logarithmic number.
        """
        queue = sorted(kept, key=lambda n: (-rank(n, pref, self.demoted, self.cited), n))
        needed = self._needed(extra, kept)
        block = 1
        while queue:
            queue = [n for n in queue if n in kept]
            if not queue:
                break
            drop = queue[:block]
            trial = kept - set(drop)
            if needed & set(drop) or self.engine.known_feasible(extra, trial):
                answer = Answer.SAT  # known without a solve: the same step as the solve would take
            else:
                answer, s = self.engine.solve(extra, sorted(trial), core=True)
                if answer is Answer.SAT:
                    self.engine.note_feasible(s)
            if answer is Answer.UNKNOWN:
                return Answer.UNKNOWN, kept
            if answer is Answer.UNSAT:
                kept = (self.core_names(s) & trial) | (pref & trial)
                queue, block = queue[len(drop):], block * 2
            elif len(drop) > 1:
                block = len(drop) // 2
            else:
                queue, block = queue[1:], 1
        return Answer.UNSAT, kept

    def _needed(self, extra: list[Lit], kept: set[str]) -> set[str]:
        """The rules of ``kept`` in every core: the but-for test (``Engine.without``) of each, one solve per rule that
        the checker's deciding-rule split asks again of the rules shown. A rule whose removal alone, every other
        assumption kept, makes ``extra`` feasible cannot be removed from any subset either (fewer assumptions relax)."""
        out = set()
        for n in sorted(kept):
            if n.startswith("rule:") and self.engine.holds_without(extra, frozenset({n})) is Answer.SAT:
                out.add(n)
        return out

    def core_names(self, s: cp_model.CpSolver) -> set[str]:
        """Names of the assumptions in the solver's last infeasibility core."""
        return {self.engine.by_index[i] for i in s.sufficient_assumptions_for_infeasibility() if i in self.engine.by_index}
