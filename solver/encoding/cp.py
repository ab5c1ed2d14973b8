"""A CP-SAT model whose rule clauses sit under enforcement literals named by rule id.

Rule literals and fact literals are the model's assumptions; they appear only as
enforcement literals, so leaving one out of the assumptions can only relax the
model. That is what makes an infeasibility core a list of rules and facts.
Definitions (reified and/or/equalities between state variables) are hard.
"""
from __future__ import annotations

from solver.encoding.cpsat import cp_model

Lit = cp_model.IntVar  # a Boolean variable or its negation
INT_BOUND = 10_000_000


class RuleModel:
    """The CP-SAT model plus its registry of rule and fact literals."""

    def __init__(self) -> None:
        self.model = cp_model.CpModel()
        self.rules: dict[str, Lit] = {}
        self.facts: dict[str, Lit] = {}
        self._cache: dict[tuple, Lit] = {}
        self.true = self.model.new_constant(1)
        self.false = self.model.new_constant(0)
        #: an engine solves this model: its assumptions are fixed, so no new fact literal may appear
        self.sealed = False

    # -- assumption literals -------------------------------------------------
    def rule(self, rule_id: str) -> Lit:
        """The enforcement literal of a rule id (created on first use)."""
        lit = self.rules.get(rule_id)
        if lit is None:
            lit = self.rules[rule_id] = self.model.new_bool_var(f"rule:{rule_id}")
        return lit

    def fact(self, fact_id: str) -> Lit:
        """The enforcement literal of a scenario fact (created on first use)."""
        lit = self.facts.get(fact_id)
        if lit is None:
            lit = self.facts[fact_id] = self.model.new_bool_var(f"fact:{fact_id}")
        return lit

    def assumptions(self) -> dict[str, Lit]:
        """Every rule and fact literal by name, rules first, each group sorted."""
        out = {f"rule:{k}": v for k, v in sorted(self.rules.items())}
        out.update({f"fact:{k}": v for k, v in sorted(self.facts.items())})
        return out

    # -- rule clauses --------------------------------------------------------
    def clause(self, rule_id: str, lits: list, when: list = ()) -> None:
        """Rule clause: if every literal of ``when`` holds, at least one of ``lits`` holds."""
        if not lits:
            self.model.add_bool_or([self.false]).only_enforce_if([self.rule(rule_id), *when])
        else:
            self.model.add_bool_or(list(lits)).only_enforce_if([self.rule(rule_id), *when])

    def implies(self, rule_id: str, when: list, then: Lit) -> None:
        """Rule clause: ``when`` (a conjunction) implies the literal ``then``."""
        self.clause(rule_id, [then], when)

    def requirement(self, rule_id: str, cond: Lit, name: str) -> Lit:
        """A literal 'rule ``rule_id``'s requirement ``cond`` is met': it holds wherever ``cond`` holds (a definition),
        and under the rule only there (the clause that forbids).

        The rule owns only what its clause can change: left out, it can make the requirement hold where ``cond``
        fails, never fail where ``cond`` holds; with ``cond`` always true it owns nothing (no literal at all).
        """
        if cond is self.true:
            return cond
        r = self.new_bool(name)
        if cond is not self.false:
            self.model.add_implication(cond, r)
        self.implies(rule_id, [r], cond)
        return r

    def exception(self, rule_id: str, cond: Lit, name: str) -> Lit:
        """A literal 'rule ``rule_id``'s exception ``cond`` applies': under the rule it holds wherever ``cond`` holds
        (the clause that spares), and it never holds where ``cond`` fails (a definition).

        Left out, the rule can withdraw the exception where ``cond`` holds, never grant it where ``cond`` fails; with
        ``cond`` always false it owns nothing (no literal at all).
        """
        if cond is self.false:
            return cond
        r = self.new_bool(name)
        if cond is not self.true:
            self.model.add_implication(r, cond)
        self.implies(rule_id, [cond], r)
        return r

    def any_rule(self, rule_ids) -> Lit:
        """A literal that each of ``rule_ids``' literals implies: what sits under it holds while any of them is on.

        It is not an assumption, so with every one of those rules left out it is free and its clauses relax; a core
        that needs it names one of the rules (a frame clause owned by the rules that could change the key).
        """
        ids = sorted(set(rule_ids))
        if len(ids) == 1:
            return self.rule(ids[0])
        key = ("any_rule",) + tuple(ids)
        if key not in self._cache:
            b = self.model.new_bool_var("any:" + "|".join(ids))
            for rid in ids:
                self.model.add_implication(self.rule(rid), b)
            self._cache[key] = b
        return self._cache[key]

    def enforce(self, rule_id: str, constraint, when: list = ()) -> None:
        """Put any CP-SAT constraint under a rule literal and extra conditions."""
        constraint.only_enforce_if([self.rule(rule_id), *when])

    def _conditions(self, enforce: list) -> list | None:
        """``enforce`` without its constant true literals; None when one of them is constant false (never holds)."""
        if any(e is self.false for e in enforce):
            return None
        return [e for e in enforce if e is not self.true]

    def equal_one_hot(self, a: dict, b: "Cat", enforce: list) -> None:
        """Two one-hot values equal when every literal of ``enforce`` holds: each value of ``a`` implies the same
        value of ``b`` (``b``'s exactly-one does the rest: one clause per value, not two)."""
        when = self._conditions(enforce)
        if when is None:
            return
        for v, lit in a.items():
            other = b.is_(v)
            if lit is self.false or other is self.true:
                continue
            self.model.add_bool_or([~lit, other]).only_enforce_if(when)

    def equal(self, a, b, enforce: list) -> None:
        """``a == b`` when every literal of ``enforce`` holds: two clauses when both are literals (or one is 0/1).

        CP-SAT loads an equality of two Booleans written as a linear constraint as an integer propagator (presolve,
        which would turn it into clauses, is off): the two clauses mean the same and load faster (measured in
        ``solver.bench.because``: the frame equalities are most of a model's constraints)."""
        enforce = self._conditions(enforce)
        if enforce is None:
            return  # a condition that never holds: nothing to enforce
        if b is self.true or b is self.false:
            b = int(b is self.true)  # a constant: a unit clause, not two
        if is_literal(a) and isinstance(b, int) and b in (0, 1):
            self.model.add_bool_and([a if b else ~a]).only_enforce_if(enforce)
            return
        if is_literal(a) and is_literal(b):
            self.model.add_bool_or([~a, b]).only_enforce_if(enforce)
            self.model.add_bool_or([a, ~b]).only_enforce_if(enforce)
            return
        self.model.add(a == b).only_enforce_if(enforce)

    def fix(self, fact_id: str, constraint) -> None:
        """Put a constraint that states a scenario fact under its fact literal."""
        constraint.only_enforce_if(self.fact(fact_id))

    # -- definitions (hard) --------------------------------------------------
    def new_bool(self, name: str) -> Lit:
        """A fresh Boolean variable."""
        return self.model.new_bool_var(name)

    def new_int(self, name: str, lo: int = -INT_BOUND, hi: int = INT_BOUND) -> cp_model.IntVar:
        """A fresh integer variable."""
        return self.model.new_int_var(lo, hi, name)

    @staticmethod
    def _key(lits) -> tuple:
        return tuple(sorted(int(lit.index) for lit in lits))

    def all_of(self, lits: list, name: str = "and") -> Lit:
        """A literal equal to the conjunction of ``lits`` (true for none)."""
        lits = [lit for lit in lits if lit is not self.true]
        if any(lit is self.false for lit in lits):
            return self.false
        if not lits:
            return self.true
        if len(lits) == 1:
            return lits[0]
        key = ("and",) + self._key(lits)
        if key not in self._cache:
            b = self.model.new_bool_var(name)
            self.model.add_bool_and(lits).only_enforce_if(b)
            self.model.add_bool_or([~lit for lit in lits]).only_enforce_if(~b)
            self._cache[key] = b
        return self._cache[key]

    def any_of(self, lits: list, name: str = "or") -> Lit:
        """A literal equal to the disjunction of ``lits`` (false for none)."""
        lits = [lit for lit in lits if lit is not self.false]
        if any(lit is self.true for lit in lits):
            return self.true
        if not lits:
            return self.false
        if len(lits) == 1:
            return lits[0]
        key = ("or",) + self._key(lits)
        if key not in self._cache:
            b = self.model.new_bool_var(name)
            self.model.add_bool_or(lits).only_enforce_if(b)
            self.model.add_bool_and([~lit for lit in lits]).only_enforce_if(~b)
            self._cache[key] = b
        return self._cache[key]

    def neg(self, lit: Lit) -> Lit:
        """The negation of a literal (constants stay constants)."""
        if lit is self.true:
            return self.false
        if lit is self.false:
            return self.true
        return ~lit

    def int_eq(self, var, value: int, name: str = "eq") -> Lit:
        """A literal equal to ``var == value``."""
        key = ("eq", int(var.index), value)
        if key not in self._cache:
            b = self.model.new_bool_var(name)
            self.model.add(var == value).only_enforce_if(b)
            self.model.add(var != value).only_enforce_if(~b)
            self._cache[key] = b
        return self._cache[key]

    def int_le(self, var, value: int, name: str = "le") -> Lit:
        """A literal equal to ``var <= value``."""
        key = ("le", int(var.index), value)
        if key not in self._cache:
            b = self.model.new_bool_var(name)
            self.model.add(var <= value).only_enforce_if(b)
            self.model.add(var > value).only_enforce_if(~b)
            self._cache[key] = b
        return self._cache[key]

    def int_ge(self, var, value: int, name: str = "ge") -> Lit:
        """A literal equal to ``var >= value``."""
        return self.neg(self.int_le(var, value - 1, name))


def is_literal(x) -> bool:
    """Whether ``x`` is a Boolean literal of the model: a 0/1 variable or constant, or a negation of one."""
    if isinstance(x, cp_model.NotBooleanVariable):
        return True
    return isinstance(x, cp_model.IntVar) and x.is_boolean


class Cat:
    """A categorical variable, one-hot over a fixed domain of names."""

    def __init__(self, rm: RuleModel, name: str, domain: tuple[str, ...]) -> None:
        self.rm = rm
        self.name = name
        self.domain = domain
        self.lits = {v: rm.model.new_bool_var(f"{name}={v}") for v in domain}
        rm.model.add_exactly_one(list(self.lits.values()))

    def is_(self, value: str) -> Lit:
        """The literal 'this variable takes ``value``' (constant false outside the domain)."""
        return self.lits.get(value, self.rm.false)

    def one_of(self, values) -> Lit:
        """The literal 'this variable takes one of ``values``'."""
        return self.rm.any_of([self.is_(v) for v in values], f"{self.name} in")

    def equal_to(self, other: "Cat", enforce: list) -> None:
        """Constrain both variables equal when every literal of ``enforce`` holds."""
        self.rm.equal_one_hot(self.lits, other, enforce)

    def assign(self, value: str, enforce: list) -> None:
        """Constrain the variable to ``value`` when every literal of ``enforce`` holds."""
        if value not in self.lits:
            # a bug: the vocabulary check refuses a value outside the words, so none reaches here
            raise AssertionError(f"'{value}' is not a possible value of {self.name}")
        self.rm.model.add_bool_and([self.lits[value]]).only_enforce_if(enforce)

    def decode(self, solver: cp_model.CpSolver) -> str:
        """The value in a solution."""
        for v, lit in self.lits.items():
            if solver.boolean_value(lit):
                return v
        raise AssertionError(f"{self.name}: no value set")


class Fixed(Cat):
    """A categorical value known in advance (a key outside the cone of influence): literals are the model's constants."""

    def __init__(self, rm: RuleModel, name: str, domain: tuple[str, ...], value: str) -> None:
        self.rm = rm
        self.name = name
        self.domain = domain
        self.value = value
        self.lits = {v: rm.true if v == value else rm.false for v in domain}

    def decode(self, solver: cp_model.CpSolver) -> str:
        """The value (the same in every solution)."""
        return self.value
