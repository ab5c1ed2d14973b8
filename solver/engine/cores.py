"""Minimal, re-checked infeasibility cores: the rules and scenario facts that together exclude something.

Cores start from the solver's own (``sufficient_assumptions_for_infeasibility``)
and are shrunk by deletion, rules before facts, preferred rules last; every core
shown is re-checked by solving with it alone. A core that cannot be confirmed
with presolve on or off is reported ``unknown``, never shown.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from ortools.sat.python import cp_model

from solver.encoding.cp import Lit
from solver.engine.settings import Answer


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

    # -- cores ---------------------------------------------------------------------
    def core(self, extra: list[Lit] = (), prefer: tuple[str, ...] = ()) -> tuple:
        """Why is the model plus ``extra`` infeasible: a deletion-minimal core, re-checked.

        Minimal cores need not be unique; rules named in ``prefer`` (ids or id prefixes) are tried for
        removal last, so when some minimal core contains them, that is the one found.
        Returns (SAT, None) if it is in fact feasible, (UNKNOWN, None) on a time limit or when
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
        answer, s = self.engine.solve(extra)
        if answer is not Answer.UNSAT:
            return answer, None
        found = self._core_names(s)
        if pref - found:  # look for another explanation: drop competing rules against everything else
            background = set(self.engine.named)
            for rival in sorted(n for n in found if n.startswith("rule:") and n not in pref):
                answer, s = self.engine.solve(extra, sorted(background - {rival}))
                if answer is Answer.UNKNOWN:
                    return Answer.UNKNOWN, None
                if answer is Answer.UNSAT:
                    background.discard(rival)
                    found = self._core_names(s)
        kept = found | pref
        rules_first = sorted(kept - pref, key=lambda n: (not n.startswith("rule:"), n))
        for name in rules_first + sorted(pref):  # least preferred first: other rules, then facts
            if name not in kept:
                continue
            trial = kept - {name}
            answer, s = self.engine.solve(extra, sorted(trial))
            if answer is Answer.UNKNOWN:
                return Answer.UNKNOWN, None
            if answer is Answer.UNSAT:
                kept = (self._core_names(s) & trial) | (pref & trial)
        final, _ = self.engine.solve(extra, sorted(kept))  # re-check: the kept set alone is infeasible
        if final is Answer.UNKNOWN:
            return Answer.UNKNOWN, None
        rules = sorted(n[5:] for n in kept if n.startswith("rule:"))
        facts = sorted(n[5:] for n in kept if n.startswith("fact:"))
        return Answer.UNSAT, Core(rules, facts, verified=final is Answer.UNSAT)

    def _core_names(self, s: cp_model.CpSolver) -> set[str]:
        """Names of the assumptions in the solver's last infeasibility core."""
        return {self.engine.by_index[i] for i in s.sufficient_assumptions_for_infeasibility() if i in self.engine.by_index}


