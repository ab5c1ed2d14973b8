"""Solving with assumptions: outcome enumeration, uniqueness proofs and minimal, re-checked cores.

Settings are explicit and deterministic: one worker, a fixed seed, a time limit
per solve. A time limit gives UNKNOWN, never an answer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ortools.sat.python import cp_model

from solver.cp import Cat, Lit, RuleModel


class Answer(Enum):
    """What one solve established."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass
class SolverOptions:
    """CP-SAT settings used for every solve."""

    time_limit: float = 10.0
    seed: int = 0
    #: off by default: these models are small and built for propagation; presolving them costs
    #: about half the library's time (measured) and every answer is the same either way
    #: (tests/test_solver_settings.py checks both)
    presolve: bool = False
    max_outcomes: int = 32


@dataclass
class Core:
    """A minimal set of rules and facts that together exclude something; ``verified`` after re-checking."""

    rules: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    verified: bool = True


class Engine:
    """Runs solves on one model, counting them."""

    def __init__(self, rm: RuleModel, options: SolverOptions | None = None) -> None:
        self.rm = rm
        self.options = options or SolverOptions()
        self.named = rm.assumptions()
        self.by_index = {int(lit.index): name for name, lit in self.named.items()}
        self.solves = 0
        self.enum_lit = rm.new_bool("enumeration")
        self._cores: dict[tuple, tuple[Answer, Core | None]] = {}
        self._blocked = 0

    def _solver(self) -> cp_model.CpSolver:
        s = cp_model.CpSolver()
        p = s.parameters
        p.num_workers = 1
        p.random_seed = self.options.seed
        p.max_time_in_seconds = self.options.time_limit
        p.cp_model_presolve = self.options.presolve
        p.catch_sigint_signal = False  # Ctrl-C stays Python's KeyboardInterrupt (CP-SAT would swallow it, then reset SIGINT)
        return s

    def solve(self, extra: list[Lit] = (), names: list[str] | None = None, enumerate_: bool = False):
        """Solve under the named assumptions (all by default) plus ``extra``; return (Answer, solver)."""
        m = self.rm.model
        m.clear_assumptions()
        chosen = self.named if names is None else {n: self.named[n] for n in names}
        lits = list(chosen.values()) + list(extra) + ([self.enum_lit] if enumerate_ else [])
        m.add_assumptions(lits)
        s = self._solver()
        status = s.solve(m)
        self.solves += 1
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Answer.SAT, s
        if status == cp_model.INFEASIBLE:
            return Answer.UNSAT, s
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {m.validate()}")
        return Answer.UNKNOWN, s

    # -- enumeration -------------------------------------------------------------
    def block(self, observed: list[tuple[object, int]]) -> None:
        """Exclude one outcome: some observable must differ (only while enumerating)."""
        diff: list[Lit] = []
        for var, val in observed:
            if isinstance(var, Cat):
                raise TypeError("block Cat literals individually")
            if _is_bool(var):
                diff.append(var if not val else ~var)
            else:
                b = self.rm.new_bool(f"block{self._blocked}")
                self.rm.model.add(var != val).only_enforce_if(b)
                diff.append(b)
        self._blocked += 1
        self.rm.model.add_bool_or(diff or [self.rm.false]).only_enforce_if(self.enum_lit)

    # -- cores ---------------------------------------------------------------------
    def core(self, extra: list[Lit] = (), prefer: tuple[str, ...] = ()) -> tuple[Answer, Core | None]:
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
                saved, self.options.presolve = self.options.presolve, not self.options.presolve
                try:
                    answer, core = self._core(extra, self._preferred(prefer))
                finally:
                    self.options.presolve = saved
            if answer is Answer.UNSAT and not core.verified:
                answer, core = Answer.UNKNOWN, None
            self._cores[key] = (answer, core)
        return self._cores[key]

    def _preferred(self, prefer: tuple[str, ...]) -> set[str]:
        """Assumption names of the preferred rules (exact ids and ids under a prefix)."""
        return {n for n in self.named for p in prefer if n == f"rule:{p}" or n.startswith(f"rule:{p}.")}

    def _core(self, extra: list[Lit], pref: set[str]) -> tuple[Answer, Core | None]:
        answer, s = self.solve(extra)
        if answer is not Answer.UNSAT:
            return answer, None
        found = self._core_names(s)
        if pref - found:  # look for another explanation: drop competing rules against everything else
            background = set(self.named)
            for rival in sorted(n for n in found if n.startswith("rule:") and n not in pref):
                answer, s = self.solve(extra, sorted(background - {rival}))
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
            answer, s = self.solve(extra, sorted(trial))
            if answer is Answer.UNKNOWN:
                return Answer.UNKNOWN, None
            if answer is Answer.UNSAT:
                kept = (self._core_names(s) & trial) | (pref & trial)
        final, _ = self.solve(extra, sorted(kept))  # re-check: the kept set alone is infeasible
        if final is Answer.UNKNOWN:
            return Answer.UNKNOWN, None
        rules = sorted(n[5:] for n in kept if n.startswith("rule:"))
        facts = sorted(n[5:] for n in kept if n.startswith("fact:"))
        return Answer.UNSAT, Core(rules, facts, verified=final is Answer.UNSAT)

    def _core_names(self, s: cp_model.CpSolver) -> set[str]:
        """Names of the assumptions in the solver's last infeasibility core."""
        return {self.by_index[i] for i in s.sufficient_assumptions_for_infeasibility() if i in self.by_index}


def _is_bool(var) -> bool:
    proto = var.proto if hasattr(var, "proto") else None
    if proto is None:
        return True
    dom = list(proto.domain)
    return dom == [0, 1]
