"""The core searches' hint (``Engine._hint``, ``Engine.prefer``): free assumptions and preferred literals true where
they can be, so a kept witness answers more later questions; never a constraint, never an invalid model."""
from __future__ import annotations

from solver.encoding.cp import RuleModel
from solver.engine.solve import Answer, Engine


def test_a_core_step_leaves_its_free_assumptions_true_where_they_can_be():
    """The hint: a solve under some assumptions sets the others true when it can, so its witness answers more."""
    rm = RuleModel()
    x = rm.new_bool("x")
    rm.clause("r1", [x])
    rm.clause("r2", [~x])  # r1 and r2 exclude each other
    for k in range(4):
        rm.clause(f"free{k}", [rm.new_bool(f"y{k}")])  # satisfiable with everything else
    engine = Engine(rm)
    answer, s = engine.solve([], ["rule:r1"], core=True)
    assert answer is Answer.SAT
    assert [s.boolean_value(rm.rules[f"free{k}"]) for k in range(4)] == [True] * 4
    assert not s.boolean_value(rm.rules["r2"])
    assert engine.solve()[0] is Answer.UNSAT  # hints change no answer: a plain solve carries none
    assert len(rm.model.proto.solution_hint.vars) == 0


def test_preferred_literals_lean_a_core_step_and_may_repeat():
    """``prefer``: a literal named twice, by its negation or as a constant is still one valid hint (CP-SAT refuses a
    hint naming a variable twice); the preferred value is taken where the question leaves it free."""
    rm = RuleModel()
    x, y = rm.new_bool("x"), rm.new_bool("y")
    rm.clause("r", [x, y])
    engine = Engine(rm)
    engine.prefer([~x, ~x, y, rm.true, rm.false, rm.neg(rm.true)])
    answer, s = engine.solve([], ["rule:r"], core=True)
    assert answer is Answer.SAT
    assert (s.boolean_value(x), s.boolean_value(y)) == (False, True)
    engine.prefer([x, ~y])
    answer, s = engine.solve([], ["rule:r"], core=True)
    assert (s.boolean_value(x), s.boolean_value(y)) == (True, False)
    assert engine.solve([~x, ~y], ["rule:r"], core=True)[0] is Answer.UNSAT  # a hint never decides an answer
