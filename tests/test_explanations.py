"""Explanations a designer can read: the rule that decides a non-event, game rules before bookkeeping, steps in order.

The cores here are computed without the scenarios' ``because`` (which steers the search towards the rules it
names): the preferred core alone must name the rule whose condition excluded the non-event, and the fact that
made that condition false.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from models.loader import load_scenario
from solver.check.checker import ScenarioCheck
from solver.cli import app
from solver.engine.cores import rank
from tests.helpers import run, scenario

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "scenarios"


def unsteered(rel: str):
    """The result of a library scenario with every ``because`` removed, every verdict explained."""
    loaded = load_scenario(LIB / rel)
    sc = loaded.scenario
    bare = sc.model_copy(update={"expect": [e.model_copy(update={"because": []}) for e in sc.expect]})
    return ScenarioCheck(bare, loaded.path, loaded.expect_lines, why=True).run()


# (scenario, expectation index, rules the core must name, facts it must name, rules it must not name)
NON_EVENTS = [
    ("riftbound/concede.counter-only-controlled.yaml", 3, ["riftbound.concede.counter"], [], []),
    ("riftbound/concede.passes.priority-not-all-passed.yaml", 2, ["riftbound.concede.passes.priority"],
     ["d.passed_priority"], ["core.inertia"]),
    ("riftbound/concede.passes.focus-not-all-passed.yaml", 1, ["riftbound.concede.passes.focus"], ["d.passed_focus"],
     ["core.inertia"]),
    ("ti4/75.1a-ground-force-prevents-elimination.yaml", 1, ["ti4.75.1a"], ["alice_inf.zone"], ["core.inertia"]),
    ("ti4/75.1c-planet-prevents-elimination.yaml", 1, ["ti4.75.1c"], ["lodor.controller"], ["core.inertia"]),
    ("berserk/526.1-finishing-blow-interrupted.yaml", 2, ["berserk.526.1"], ["executioner.open"], ["core.inertia"]),
    ("berserk/525.1-illegal-never-paid.yaml", 2, ["berserk.525.1"], [], ["berserk.526.1"]),
]


@pytest.mark.parametrize("rel, index, rules, facts, never", NON_EVENTS,
                         ids=[f"{r.split('/')[1][:-5]}[{i}]" for r, i, *_ in NON_EVENTS])
def test_a_non_event_is_explained_by_the_rule_whose_condition_excluded_it(rel, index, rules, facts, never) -> None:
    """Not countered / not resolved / not eliminated / not paid: the core names the deciding game rule and the fact
    behind its false condition, not the frame axiom (and not 526.1 for an action that never reached the stack)."""
    e = unsteered(rel).expectations[index]
    assert e.verdict.value in ("holds", "impossible") and e.passed, e
    assert set(rules) <= set(e.rules), e.rules
    assert set(facts) <= set(e.facts), e.facts
    assert not set(never) & set(e.rules), e.rules


def test_nothing_paid_for_an_action_that_never_reached_the_stack() -> None:
    """An illegal action (never on the stack, so never resolved: that would be an error): neither the action's status
    nor the unpaid source cites 526.1."""
    res = unsteered("berserk/525.1-illegal-never-paid.yaml")
    assert res.status.value == "pass"
    assert all("berserk.526.1" not in a.rules for a in res.actions), res.actions
    assert all("berserk.526.1" not in e.rules for e in res.expectations)


def test_preference_order_of_an_explanation() -> None:
    """because-rules, then cited game rules, other game rules, facts, bookkeeping (and rules that did nothing),
    and the frame axiom last."""
    order = [rank("rule:x.because", {"rule:x.because"}), rank("rule:x.cited", cited={"rule:x.cited"}),
             rank("rule:x.other"), rank("fact:card.zone"), rank("rule:core.move"), rank("rule:core.inertia")]
    assert order == sorted(order) and len(set(order)) == len(order)
    assert rank("rule:x.idle", demoted={"rule:x.idle"}) == rank("rule:core.move")


# -- the step trace -----------------------------------------------------------------------------------------
def test_step_trace_names_the_rules_that_fired_per_event() -> None:
    """'after event 1 (leave_game alex): mtg.800.4a.owned: ... left the game; core.static: ended ...' (the Aura's
    "you" was Alex: its ability ends with it, whoever its controller)."""
    res = ScenarioCheck(load_scenario(LIB / "mtg/800.4a-mind-control-alex-leaves.yaml").scenario, why=True).run()
    steps = res.outcomes[0].steps
    assert [s.label for s in steps] == ["initial state", "leave_game alex"]
    fired = steps[1].fired
    assert "core.static: ended mind_control_steal" in fired
    assert "mtg.800.4a.owned: mind_control left the game (battlefield -> outside)" in fired
    assert "mtg.800.4: alex in_game -> left" in fired


def test_precedence_at_each_stage_says_why_the_winner_wins() -> None:
    """The Blade's later effect wins by timestamp; once it ended, Kanor-Vain's wins because the later one ended."""
    res = ScenarioCheck(load_scenario(LIB / "berserk/conflict-3-blade-removed-restores-neutral.yaml").scenario,
                        why=True).run()
    steps = res.outcomes[0].steps
    assert steps[0].precedence == ["hero.element: blade_dark wins over kanor_neutral (applied last)"]
    assert steps[1].precedence == ["hero.element: kanor_neutral wins: later effect blade_dark ended"]
    assert "core.static: ended blade_dark" in steps[1].fired
    assert res.precedence == ["hero.element: kanor_neutral wins: later effect blade_dark ended"]


def test_final_precedence_summary_never_says_latest_timestamp_when_the_later_effect_ended() -> None:
    """Without explanations too (a plain check), the summary reads the reason off the outcome."""
    res = ScenarioCheck(load_scenario(LIB / "berserk/conflict-3-blade-removed-restores-neutral.yaml").scenario).run()
    assert res.precedence and not any("applied last" in p for p in res.precedence)
    assert res.outcomes[0].steps == []  # the trace costs reading every condition: only with explanations


EXPLAINED = ["riftbound/concede.counter-only-controlled.yaml", "mtg/800.4a-mind-control-alex-leaves.yaml",
             "ti4/75.1c-planet-prevents-elimination.yaml", "berserk/conflict-3-blade-removed-restores-neutral.yaml",
             "berserk/602.1-decisive-advantage-kornevik.yaml"]


@pytest.mark.parametrize("rel", EXPLAINED)
def test_explain_shows_the_step_trace_and_a_core_or_a_reason_for_every_verdict(rel: str) -> None:
    """One scenario per game plus a victory claim: steps event by event; every holds/impossible verdict shows its
    rules or says why it has none; the JSON result carries the same trace."""
    runner = CliRunner()
    out = runner.invoke(app, ["explain", str(LIB / rel)])
    assert out.exit_code == 0, out.output
    assert "steps:" in out.output and "after event 1 (" in out.output
    doc = json.loads(runner.invoke(app, ["explain", "--json", str(LIB / rel)]).output)
    steps = doc["outcomes"][0]["steps"]
    assert steps[0]["label"] == "initial state" and len(steps) == len(load_scenario(LIB / rel).scenario.events) + 1
    for e in doc["expectations"]:
        if e["verdict"] in ("holds", "impossible"):
            assert e["rules"] or e["no_core"], e

def test_explain_timeout_is_a_deterministic_work_budget_for_the_cores() -> None:
    """``explain --timeout``: a budget that settles the verdicts but not every core says so in the same words on every
    run (a ``because`` it could not put to the test is unknown: exit 1, never a wrong verdict); the default budget
    computes every core."""
    runner = CliRunner()
    path = str(LIB / "mtg/104.3a-concede-at-any-time.yaml")  # its check spends about 0.007 units, its explain 0.05
    short = [runner.invoke(app, ["explain", "--timeout", "0.02", path]) for _ in range(2)]
    assert short[0].exit_code == short[1].exit_code == 1 and short[0].output == short[1].output
    assert "the core search stopped: the work budget of 0.02 units ran out (--timeout)" in short[0].output
    assert ": unknown (expected impossible)" in short[0].output
    full = runner.invoke(app, ["explain", path])
    assert full.exit_code == 0 and "stopped" not in full.output
    assert full.output.count("decided by:") > short[0].output.count("decided by:")



# -- because at any stage up to the expectation's state ------------------------------------------------------
MOVES = dict(objects=[{"id": "card", "owner": "alice", "zone": "play"}, {"id": "other", "owner": "bob", "zone": "play"}],
             events=[{"type": "move", "object": "other", "zone": "graveyard"},
                     {"type": "move", "object": "card", "zone": "graveyard"}])


def test_a_because_needed_only_after_the_expectation_says_which_event_to_name() -> None:
    """At event 1 the card is not in hand because it never moved; core.move keeps it out of hand only from event 2
    on: the failure says so and which ``at`` would do."""
    res = run(scenario("core", **MOVES, expect=[{"at": 1, "object": "card", "zone": "hand", "verdict": "impossible",
                                                  "because": ["core.move"]}]))
    (e,) = res.expectations
    assert res.status.value == "fail" and e.verdict.value == "impossible"
    assert "core.move would be needed after event 2 (move card)" in e.message and "set at: 2" in e.message


def test_the_same_because_on_the_final_state_passes() -> None:
    """Flipped: about the end, the rule acts before it, so the because holds."""
    res = run(scenario("core", **MOVES, expect=[{"object": "card", "zone": "hand", "verdict": "impossible",
                                                  "because": ["core.move"]}]))
    assert res.status.value == "pass", res.expectations[0].message


# -- verdicts without a rule core say why --------------------------------------------------------------------
@pytest.mark.parametrize("expect, why, reason", [
    ({"unique": True}, False, "about the whole outcome set"),
    ({"object": "card", "zone": "play", "because": []}, False, "not computed"),
    ({"object": "card", "zone": "hand", "verdict": "impossible"}, False, "not computed"),
    ({"object": "card", "zone": "hand", "verdict": "impossible"}, True, "the initial facts decide it"),
    ({"object": "card", "attached_to": "other", "verdict": "impossible"}, True, "cannot hold in any state"),
])
def test_a_verdict_without_rules_says_why(expect, why, reason) -> None:
    """Whole-outcome atoms, verdicts in a plain check (cores only when asked), facts no rule could change, atoms
    that cannot hold."""
    res = run(scenario("core", objects=[{"id": "card", "owner": "alice", "zone": "play"},
                                        {"id": "other", "owner": "alice", "zone": "play"}], expect=[expect]), why=why)
    (e,) = res.expectations
    assert e.passed and not e.rules and reason in e.no_core, e
