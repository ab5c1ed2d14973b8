"""Equalities under conditions (``RuleModel.equal``, ``Cat.equal_to``) written as clauses: the same solutions as the
linear equality they replace, checked by enumerating every solution of tiny models against the truth table."""
from __future__ import annotations

import itertools

import pytest

from solver.encoding.cp import Cat, Fixed, RuleModel, cp_model, is_literal


def solutions(rm: RuleModel, variables: list) -> set[tuple[int, ...]]:
    """Every solution of the model, projected on ``variables`` (Booleans or integers)."""
    s = cp_model.CpSolver()
    s.parameters.enumerate_all_solutions = True
    s.parameters.num_workers = 1
    s.parameters.cp_model_presolve = False
    seen: set[tuple[int, ...]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            seen.add(tuple(int(self.value(v)) for v in variables))

    s.solve(rm.model, Collect())
    return seen


def table(n: int, ok) -> set[tuple[int, ...]]:
    """The rows of ``n`` Boolean columns that ``ok`` accepts."""
    return {row for row in itertools.product((0, 1), repeat=n) if ok(*row)}


@pytest.mark.parametrize("negate_a, negate_b", [(False, False), (True, False), (False, True), (True, True)])
def test_two_literals_equal_under_a_condition_is_the_truth_table(negate_a, negate_b):
    rm = RuleModel()
    a, b, e = rm.new_bool("a"), rm.new_bool("b"), rm.new_bool("e")
    rm.equal(~a if negate_a else a, ~b if negate_b else b, [e])
    want = table(3, lambda va, vb, ve: not ve or (va ^ negate_a) == (vb ^ negate_b))
    assert solutions(rm, [a, b, e]) == want
    assert all(not c.has_linear() for c in rm.model.proto.constraints)  # clauses, not a linear propagator


@pytest.mark.parametrize("value", [0, 1, True, False, "true", "false"])
def test_a_literal_equal_to_a_constant_is_one_unit_clause(value):
    rm = RuleModel()
    a, e = rm.new_bool("a"), rm.new_bool("e")
    b = {"true": rm.true, "false": rm.false}.get(value, value)
    rm.equal(a, b, [e])
    one = value in (1, True, "true")
    assert solutions(rm, [a, e]) == table(2, lambda va, ve: not ve or va == one)
    assert len(rm.model.proto.constraints) == 1


def test_constant_conditions_are_left_out_or_void_the_equality():
    rm = RuleModel()
    a, b = rm.new_bool("a"), rm.new_bool("b")
    rm.equal(a, b, [rm.false])  # never holds: nothing at all
    assert len(rm.model.proto.constraints) == 0
    rm.equal(a, b, [rm.true])  # always holds: no literal for it
    assert solutions(rm, [a, b]) == {(0, 0), (1, 1)}
    assert all(list(c.enforcement_literal) == [] for c in rm.model.proto.constraints)


def test_integers_stay_a_linear_equality():
    rm = RuleModel()
    x, y, e = rm.new_int("x", 0, 2), rm.new_int("y", 0, 2), rm.new_bool("e")
    rm.equal(x, y, [e])
    want = {(vx, vy, ve) for vx in range(3) for vy in range(3) for ve in (0, 1) if not ve or vx == vy}
    assert solutions(rm, [x, y, e]) == want
    assert not is_literal(x) and is_literal(e) and is_literal(~e) and is_literal(rm.true)


@pytest.mark.parametrize("left, right", [(("x", "y", "z"), ("x", "y", "z")), (("x", "y", "z"), ("y", "z", "w")),
                                         (("x",), ("x", "y")), (("x", "y"), ("z",))])
def test_one_hot_values_equal_under_a_condition(left, right):
    rm = RuleModel()
    a, b, e = Cat(rm, "a", left), Cat(rm, "b", right), rm.new_bool("e")
    a.equal_to(b, [e])
    lits = list(a.lits.values()) + list(b.lits.values())
    got = {(left[row[:len(left)].index(1)], right[row[len(left):-1].index(1)], row[-1])
           for row in solutions(rm, lits + [e])}
    want = {(va, vb, ve) for va in left for vb in right for ve in (0, 1) if not ve or va == vb}
    assert got == want


@pytest.mark.parametrize("value", ["x", "y", "w"])
def test_one_hot_equal_to_a_fixed_value(value):
    rm = RuleModel()
    a, e = Cat(rm, "a", ("x", "y", "z")), rm.new_bool("e")
    a.equal_to(Fixed(rm, "f", ("x", "y", "w"), value), [e])
    got = {(("x", "y", "z")[row[:3].index(1)], row[3]) for row in solutions(rm, list(a.lits.values()) + [e])}
    assert got == {(va, ve) for va in ("x", "y", "z") for ve in (0, 1) if not ve or va == value}
