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

Feasible answers are remembered by their witness: every solution a core search or
but-for test finds is kept (the values it gives the assumption literals and every
variable), and a later question of any query is feasible without a solve when a
kept solution already satisfies it: every assumption it keeps is true there, and
so is every literal of its query (the solution is a model of the question). Only
solutions of the model as it is count (a constraint added since, such as an
expectation literal at another stage, voids them). An implied answer is the answer
the solve would give, so no core or verdict depends on it. Infeasible answers of
but-for tests that need no core (``holds_without``) are implied by a core the solver
gave for the same query that keeps none of the rules left out, once one solve with
that core's assumptions alone has confirmed it (no core is trusted unconfirmed).
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
        self._bit = {name: 1 << k for k, name in enumerate(self._index)}  # assumption name -> its bit in a mask
        self.solves = 0
        self.enum_lit = rm.new_bool("enumeration")
        self._hinted: bool | None = False  # whether the model carries the core searches' hint (``_hint``)
        self._preferred: list[tuple[int, int]] = []  # (variable index, value) the hint also asks for (``prefer``)
        self.cores = CoreFinder(self)
        self._blocked = 0
        self._without: dict[tuple, tuple[Answer, frozenset[str] | None]] = {}  # but-for answers (``without``)
        #: the solutions kept as witnesses (``note_feasible``): model size, true-assumption mask, the solver holding it
        self._witnesses: list[tuple[tuple[int, int], int, cp_model.CpSolver]] = []
        #: how many solves a kept witness made unnecessary
        self.implied = 0
        #: per query: the solver's cores of its but-for tests, True once confirmed infeasible alone (``holds_without``)
        self._cores_of: dict[tuple, dict[frozenset[str], bool | None]] = {}
        self._implied_unsat: set[tuple] = set()  # but-for questions a confirmed core answered
        #: per query: the assumption sets a solve with them alone (and the query) found infeasible (``confirmed``)
        self._confirmed: dict[tuple, list[frozenset[str]]] = {}

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
        self._hint(m, core)
        indices = self._all if names is None else [self._index[n] for n in names]
        lits = [int(lit.index) for lit in extra] + ([int(self.enum_lit.index)] if enumerate_ else [])
        m.proto.assumptions.extend(indices + lits)
        s = self._solver(core)
        status = self.meter.solve(s, m)
        self.solves += 1
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Answer.SAT, s
        if status == cp_model.INFEASIBLE:
            if names is not None and not enumerate_:
                self._confirm(extra, frozenset(names))
            return Answer.UNSAT, s
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {m.validate()}")
        return Answer.UNKNOWN, s

    def _hint(self, m: cp_model.CpModel, core: bool) -> None:
        """Core searches and but-for tests hint every assumption true; other solves carry no hint.

        A step of a core search assumes some rules and facts and leaves the rest free; hinted true, the free ones
        are true in its solution wherever they can be, so the solution kept as a witness (``note_feasible``) answers
        more later questions (every assumption they keep is true in it): about an eighth fewer solves (counted over
        the library's MTG explanations). A hint is a preference of the search, never a constraint: no answer
        depends on it."""
        if core == self._hinted:
            return
        m.proto.clear_solution_hint()
        if core:
            m.proto.solution_hint.vars.extend(self._all + [i for i, _ in self._preferred])
            m.proto.solution_hint.values.extend([1] * len(self._all) + [v for _, v in self._preferred])
        self._hinted = core

    def prefer(self, lits: list[Lit]) -> None:
        """Literals the core searches' hint also asks to be true where they can be (``_hint``): the checker gives each
        expectation's atoms as they are not in the first outcome, so a witness found while explaining one verdict
        tends to contradict the others too and answers their questions without a solve (3,425 solves of the library's
        MTG explanations against 3,714 without it). A preference only: no answer depends on it."""
        out = []
        for lit in lits:
            if lit is self.rm.true or lit is self.rm.false:
                continue  # a constant: nothing to prefer
            i = int(lit.index)
            out.append((i, 1) if i >= 0 else (-i - 1, 0))
        # each variable once (CP-SAT refuses a hint that names one twice), never an assumption (hinted true already)
        self._preferred = [(i, v) for i, v in dict(out).items() if i not in self._index]
        self._hinted = None  # the hint changed: set it again at the next solve

    def without(self, extra: list[Lit], left_out: frozenset[str]) -> tuple[Answer, frozenset[str] | None]:
        """But-for: can ``extra`` hold with the assumptions ``left_out`` dropped (every other one kept)? The answer, and
        when UNSAT the names in the solver's core. One solve per question, memoised."""
        key = (tuple(sorted(int(q.index) for q in extra)), frozenset(left_out), self.options.presolve)
        if key not in self._without:
            kept = [n for n in self.named if n not in left_out]
            if self.known_feasible(extra, kept):
                self._without[key] = (Answer.SAT, None)
                return self._without[key]
            answer, s = self.solve(extra, kept, core=True)
            names = frozenset(self.cores.core_names(s)) if answer is Answer.UNSAT else None
            if answer is Answer.SAT:
                self.note_feasible(s)
            if answer is Answer.UNSAT:
                self._cores_of.setdefault(key[0], {}).setdefault(names, None)
            self._without[key] = (answer, names)
        return self._without[key]

    def holds_without(self, extra: list[Lit], left_out: frozenset[str]) -> Answer:
        """The answer of ``without`` alone (no core wanted): also UNSAT without a solve of its own when a core found
        for the same query on the way keeps none of ``left_out``, once that core has been confirmed infeasible by a
        solve with its assumptions alone (a confirmed infeasible set stays infeasible with more assumptions)."""
        key = (tuple(sorted(int(q.index) for q in extra)), frozenset(left_out), self.options.presolve)
        if key in self._without:
            return self._without[key][0]
        if key in self._implied_unsat:
            return Answer.UNSAT
        kept = [n for n in self.named if n not in left_out]
        if not self.known_feasible(extra, kept):
            cores = self._cores_of.get(key[0], {})
            for names in list(cores):
                if names & left_out:
                    continue
                if cores[names] is None and self.confirmed(extra, names):
                    cores[names] = True
                if cores[names] is None:  # confirm it: the query with only its assumptions
                    answer, s = self.solve(extra, sorted(names), core=True)
                    cores[names] = answer is Answer.UNSAT
                    if answer is Answer.SAT:
                        self.note_feasible(s)
                if cores[names]:
                    self._implied_unsat.add(key)
                    return Answer.UNSAT
        return self.without(extra, left_out)[0]

    def _query(self, extra: list[Lit]) -> tuple:
        """A query's key: its literals, the model's size (a constraint added since voids what was learnt) and the
        presolve setting."""
        return tuple(sorted(int(q.index) for q in extra)), self._shape(), self.options.presolve

    def _confirm(self, extra: list[Lit], names: frozenset[str]) -> None:
        """Record that ``extra`` under the assumptions ``names`` alone was solved infeasible."""
        self._confirmed.setdefault(self._query(extra), []).append(names)

    def confirmed(self, extra: list[Lit], names) -> bool:
        """Whether a solve has already found ``extra`` infeasible under a subset of the assumptions ``names`` alone:
        then the solve with ``names`` alone would answer UNSAT too (more assumptions only constrain). No solve."""
        have = frozenset(names)
        if any(c <= have for c in self._confirmed.get(self._query(extra), ())):
            self.implied += 1
            return True
        return False

    def _shape(self) -> tuple[int, int]:
        """The model's size (variables, constraints): a witness holds only for the model it was found in."""
        proto = self.rm.model.proto
        return len(proto.variables), len(proto.constraints)

    def note_feasible(self, s: cp_model.CpSolver) -> None:
        """Keep the solution of a solve that answered SAT as a witness for later questions (``known_feasible``)."""
        values = s.response_proto.solution  # read in place: copying every value costs more than the solve saves
        mask = 0
        for name, i in self._index.items():
            if values[i]:
                mask |= self._bit[name]
        self._witnesses.append((self._shape(), mask, s))

    def known_feasible(self, extra: list[Lit], names) -> bool:
        """Whether a kept solution (``note_feasible``) is already a model of ``extra`` under the assumptions ``names``:
        each of them, and each literal of ``extra``, is true in it. Then the solve would answer SAT. No solve."""
        want = 0
        for n in names:
            want |= self._bit[n]
        lits = [int(x.index) for x in extra]
        shape = self._shape()
        for at, mask, solver in self._witnesses:
            if at == shape and want & ~mask == 0 and all(_true(solver.response_proto.solution, i) for i in lits):
                self.implied += 1
                return True
        return False

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

def _true(values, index: int) -> bool:
    """Whether the literal of proto index ``index`` (negative: a negation) is true in the solution ``values``."""
    return bool(values[index]) if index >= 0 else not values[-index - 1]


def _is_bool(var) -> bool:
    proto = var.proto if hasattr(var, "proto") else None
    if proto is None:
        return True
    dom = list(proto.domain)
    return dom == [0, 1]

