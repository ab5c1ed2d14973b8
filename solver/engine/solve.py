"""Solving with assumptions: one solve, and outcome enumeration with blocking clauses.

Settings are explicit and deterministic: one worker, a fixed seed, and every solve
draws on the scenario's work budget (``solver.engine.budget``: CP-SAT's deterministic
time, never seconds). A budget that runs out gives UNKNOWN, never an answer.

Nothing is rebuilt in Python per solve: the model is built once, and each solve
only replaces the proto's list of assumption indices (cached for the full set).
With ``lean_search`` CP-SAT skips symmetry detection, probing and the linear
relaxation, which on these small propagation models cost more than the search
(each solve is a propagation and a few decisions); answers do not depend on it.
Core searches always use these lean settings, whatever ``lean_search`` says (they
halve a core search's cost, measured): which of several minimal cores is shown
depends on the cores the solver returns on the way (``solver.engine.cores``), so
one fixed setting for every core search keeps the shown core the same on every
path and every run; every core shown is minimal and re-checked whatever it is.

The but-for test (``without``: can the query hold with some rules left out,
everything else as it is) is memoised per engine, with the solver's core when the
answer is UNSAT: the checker's ``because`` and deciding-rule tests and the core
search ask the same questions (a rule whose removal alone makes the query feasible
is in every core, so the search never tries to delete it).
"""
from __future__ import annotations


from solver.encoding.cp import Cat, Lit, RuleModel, cp_model
from solver.engine.budget import meter_of
from solver.engine.cores import Core, CoreFinder
from solver.engine.settings import Answer, SolverOptions


class Engine:
    """Runs solves on one model, counting them."""

    def __init__(self, rm: RuleModel, options: SolverOptions | None = None) -> None:
        self.rm = rm
        rm.sealed = True  # keys first read from now on are constants (solver.encoding.state), not new facts
        self.options = options or SolverOptions()
        #: the work budget its solves draw on (the scenario's, when the options carry one)
        self.meter = meter_of(self.options)
        off = {f"rule:{r}" for r in self.options.rules_off}
        self.named = {n: lit for n, lit in rm.assumptions().items() if n not in off}
        self.by_index = {int(lit.index): name for name, lit in self.named.items()}
        self._index = {name: int(lit.index) for name, lit in self.named.items()}
        self._all = list(self._index.values())
        self.solves = 0
        self.enum_lit = rm.new_bool("enumeration")
        self.cores = CoreFinder(self)
        self._blocked = 0
        self._without: dict[tuple, tuple[Answer, frozenset[str] | None]] = {}  # but-for answers (``without``)
        self._feasible: dict[tuple, list[frozenset[str]]] = {}  # per query: assumption sets a solve found feasible

    def _solver(self, core: bool = False) -> cp_model.CpSolver:
        s = cp_model.CpSolver()
        p = s.parameters
        p.num_workers = 1
        p.random_seed = self.options.seed
        p.cp_model_presolve = self.options.presolve
        p.catch_sigint_signal = False  # Ctrl-C stays Python's KeyboardInterrupt (CP-SAT would swallow it, then reset SIGINT)
        if self.options.lean_search or core:
            p.symmetry_level = 0
            p.cp_model_probing_level = 0
            p.linearization_level = 0
        return s

    def solve(self, extra: list[Lit] = (), names: list[str] | None = None, enumerate_: bool = False,
              core: bool = False):
        """Solve under the named assumptions (all by default) plus ``extra``; return (Answer, solver).

        ``core``: a step of a core search or a but-for test (the lean settings even with ``lean_search`` off, see
        above)."""
        m = self.rm.model
        m.clear_assumptions()
        indices = self._all if names is None else [self._index[n] for n in names]
        lits = [int(lit.index) for lit in extra] + ([int(self.enum_lit.index)] if enumerate_ else [])
        m.proto.assumptions.extend(indices + lits)
        s = self._solver(core)
        status = self.meter.solve(s, m)
        self.solves += 1
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Answer.SAT, s
        if status == cp_model.INFEASIBLE:
            return Answer.UNSAT, s
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {m.validate()}")
        return Answer.UNKNOWN, s

    def without(self, extra: list[Lit], left_out: frozenset[str]) -> tuple[Answer, frozenset[str] | None]:
        """But-for: can ``extra`` hold with the assumptions ``left_out`` dropped (every other one kept)? The answer, and
        when UNSAT the names in the solver's core. One solve per question, memoised."""
        key = (tuple(sorted(int(q.index) for q in extra)), frozenset(left_out), self.options.presolve)
        if key not in self._without:
            kept = [n for n in self.named if n not in left_out]
            answer, s = self.solve(extra, kept, core=True)
            names = frozenset(self.cores.core_names(s)) if answer is Answer.UNSAT else None
            if answer is Answer.SAT:
                self.note_feasible(extra, kept)
            self._without[key] = (answer, names)
        return self._without[key]

    def note_feasible(self, extra: list[Lit], names) -> None:
        """Record that a solve found ``extra`` feasible under the assumptions ``names``."""
        key = (tuple(sorted(int(x.index) for x in extra)), self.options.presolve)
        self._feasible.setdefault(key, []).append(frozenset(names))

    def known_feasible(self, extra: list[Lit], names: set[str]) -> bool:
        """Whether an earlier solve (``note_feasible``) already found ``extra`` feasible under a superset of ``names``
        (so under ``names`` too: fewer assumptions relax the model). No solve."""
        key = (tuple(sorted(int(x.index) for x in extra)), self.options.presolve)
        return any(names <= s for s in self._feasible.get(key, ()))

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
        """Why is the model plus ``extra`` infeasible: a minimal, re-checked core (see ``solver.engine.cores``)."""
        return self.cores.core(extra, prefer)

def _is_bool(var) -> bool:
    proto = var.proto if hasattr(var, "proto") else None
    if proto is None:
        return True
    dom = list(proto.domain)
    return dom == [0, 1]

