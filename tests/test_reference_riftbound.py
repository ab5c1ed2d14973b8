"""The independent Riftbound reference (concession): library outcomes validated, random scenarios compared,
and a wrong state named by the rule it breaks."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.loader import load_scenario
from models.scenario import Scenario
from solver.run.api import check_file
from solver.reference import enumerate_traces, rules_for, validate
from solver.check.differential import differential
from solver.reference.generate import random_doc, random_scenario
from solver.reference.validate import broken_rules
from solver.reference.world import build_world

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios" / "riftbound").glob("*.yaml"))
RULES = rules_for("riftbound")


def _outcomes(path: Path):
    res = check_file(path)
    assert res.outcomes, res.error or "no outcome"
    return load_scenario(path).scenario, res.outcomes


# (library scenario[@state, default the final one], key, wrong value, the rule the validator must name)
WRONG = [
    ("concede.battlefield-plus-one-power.yaml", "cell.blank_field", "none", "riftbound.concede.battlefield"),
    ("concede.battlefield-plus-one-power.yaml", "zone.b_field", "battlefield", "riftbound.concede.battlefield"),
    ("concede.battlefield-plus-one-power.yaml", "ability.blank_field.units_here_plus_one", "1",
     "riftbound.concede.blank"),
    ("concede.battlefield-plus-one-power.yaml", "zone.b_unit", "banishment", "riftbound.concede.remove_owned"),
    ("concede.battlefield-plus-one-power.yaml", "cell.c_unit", "bf1", "riftbound.concede.battlefield.in_place"),
    ("concede.banish-two-borrowed-units.yaml", "zone.a_unit", "base", "riftbound.concede.banish"),
    ("concede.counter-only-controlled.yaml@2", "status.c_ability", "countered", "core.inertia"),
    ("concede.turn-next-available.yaml", "turn.active_player", "d", "riftbound.concede.turn"),
    ("concede.two-players.yaml", "pstatus.a", "in_game", "riftbound.concede.last_standing"),
    ("concede.team-whole-team-loses.yaml", "pstatus.d", "in_game", "riftbound.concede.team"),
    ("concede.passes.focus-showdown-ends.yaml", "gflag.showdown", "1", "riftbound.concede.passes.focus"),
    ("concede.passes.priority-last-item-resolves.yaml", "turn.priority", "none", "riftbound.chain.restore_priority"),
]


@pytest.mark.parametrize("name, k, value, rule", WRONG, ids=[f"{w[0]}:{w[1]}" for w in WRONG])
def test_wrong_final_state_names_the_rule(name: str, k: str, value: str, rule: str) -> None:
    """A checker outcome with one key changed breaks the rule that sets (or keeps) that key."""
    name, _, at = name.partition("@")
    sc, outcomes = _outcomes(ROOT / "scenarios" / "riftbound" / name)
    trace = [dict(s) for s in outcomes[0].trace]
    i = int(at) if at else len(trace) - 1
    w = build_world(sc, RULES)
    assert k in w.domains, f"{k} is not a state key of {name}"
    known = {kk: v for s in trace[: i + 1] for kk, v in s.items()}
    assert known.get(k, w.initial[k]) != value, "the mutation must change the state"
    trace[i][k] = value
    assert rule in broken_rules(validate(sc, trace))


def test_every_wrong_state_rule_is_a_registered_rule() -> None:
    """The rule ids the reference names are the encoding's registered rule ids (one grep finds both)."""
    from solver.games.riftbound.rules import RULES as REGISTERED
    assert {r for *_, r in WRONG if r.startswith("riftbound.")} <= set(REGISTERED)


BONUS = {"id": "bonus", "source": "field", "timestamp": 1, "kind": "add", "attribute": "power", "value": 1,
         "duration": "static", "targets": {"types": ["unit"], "cell": "source"}}


def _field_scenario(**extra) -> Scenario:
    doc = {"id": "t", "game": "riftbound", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
           "board": {"cells": ["bf1", "bf2"]},
           "objects": [{"id": "field", "owner": "b", "zone": "battlefield", "cell": "bf1", "types": ["battlefield"]},
                       {"id": "here", "owner": "a", "zone": "battlefield", "cell": "bf1", "types": ["unit"],
                        "attributes": {"power": 4}},
                       {"id": "there", "owner": "a", "zone": "battlefield", "cell": "bf2", "types": ["unit"],
                        "attributes": {"power": 4}}],
           "effects": [BONUS], "events": [{"type": "pass_turn"}], "turn": {"active_player": "a"}}
    return Scenario.model_validate({**doc, **extra})


def test_selector_cell_source_in_the_core_reference() -> None:
    """Selector.cell 'source': +1 power to the unit on the battlefield's cell only; 5 power is mighty."""
    sc = _field_scenario()
    w = build_world(sc, RULES)
    s0 = enumerate_traces(sc, w)[0][0]
    assert (RULES.value(w, s0, "here", "power"), RULES.value(w, s0, "there", "power")) == (5, 4)
    assert RULES.mighty(w, s0, "here") and not RULES.mighty(w, s0, "there")


def test_selector_named_cell_in_the_core_reference() -> None:
    """Selector.cell naming a cell applies to the objects on that cell only."""
    sc = _field_scenario(effects=[{**BONUS, "targets": {"types": ["unit"], "cell": "bf2"}}])
    w = build_world(sc, RULES)
    s0 = enumerate_traces(sc, w)[0][0]
    assert (RULES.value(w, s0, "here", "power"), RULES.value(w, s0, "there", "power")) == (4, 5)


def test_concession_of_the_battlefield_owner_ends_the_bonus() -> None:
    """B concedes: the blank battlefield takes bf1, the unit there stays and drops to 4 (not mighty)."""
    sc = _field_scenario(events=[{"type": "concede", "player": "b"}])
    w = build_world(sc, RULES)
    traces = enumerate_traces(sc, w)
    assert len(traces) == 1
    end = traces[0][-1]
    assert (end["zone.field"], end["zone.field.blank"], end["cell.field.blank"]) == ("outside", "battlefield", "bf1")
    assert (end["zone.here"], end["cell.here"]) == ("battlefield", "bf1")
    assert RULES.value(w, end, "here", "power") == 4 and not RULES.mighty(w, end, "here")


def test_generator_is_deterministic_per_seed() -> None:
    """The same seed gives the same scenario; another seed another one."""
    one = random_doc(random.Random("1:riftbound:7"), "riftbound", 7)
    assert one == random_doc(random.Random("1:riftbound:7"), "riftbound", 7)
    assert one != random_doc(random.Random("1:riftbound:8"), "riftbound", 7)
    assert 2 <= len(one["players"]) <= 4 and 1 <= len(one["events"]) <= 3


@settings(derandomize=True, max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_random_riftbound_scenarios_agree(rng) -> None:
    """Random small Riftbound scenarios: the checker's outcomes and verdicts equal the brute-force reference's."""
    cmp = differential(random_scenario(rng, "riftbound"))
    assert not cmp.skipped, cmp.skipped
    assert cmp.agree, "\n".join(cmp.problems)


# Bugs the reference found in the encoding, kept as regression cases: (name, scenario parts, expectation that must hold)
BORROWED = [{"id": "a_unit", "owner": "a", "zone": "base", "types": ["unit"]},
            {"id": "c_unit", "owner": "c", "zone": "base", "types": ["unit"]},
            {"id": "c_gear", "owner": "c", "zone": "base", "types": ["gear"]}]
BOTH = {"id": "both", "timestamp": 1, "kind": "control", "player": "b", "targets": ["a_unit", "c_unit"]}
GEAR = {"id": "gear", "source": "c_gear", "timestamp": 2, "kind": "control", "player": "b", "targets": ["a_unit"],
        "duration": "static"}
FOUND = [
    ("owner-zone-shared-effect: a banished card is its owner's again though the effect names another card too",
     dict(objects=BORROWED, effects=[BOTH], events=[{"type": "concede", "player": "b"}]),
     {"object": "a_unit", "zone": "banishment", "controller": "a"}),
    ("owner-zone-static-effect: a banished card is its owner's again though the effect's source stays",
     dict(objects=BORROWED, effects=[GEAR], events=[{"type": "concede", "player": "b"}]),
     {"object": "a_unit", "zone": "banishment", "controller": "a"}),
    ("owner-zone-kill: a killed unit is its owner's again, in its owner's trash",
     dict(objects=BORROWED + [{"id": "spell", "owner": "a", "zone": "chain", "types": ["spell"],
                               "action": {"kind": "kill", "targets": ["c_unit"]}}],
          effects=[BOTH], events=[{"type": "resolve", "action": "spell"}]),
     {"object": "c_unit", "zone": "trash", "controller": "c"}),
]


@pytest.mark.parametrize("name, parts, expect", FOUND, ids=lambda v: v.split(":")[0] if isinstance(v, str) else None)
def test_found_bugs_stay_fixed(name, parts, expect) -> None:
    """Each encoding bug the reference found: checker and reference agree, and the expectation holds."""
    from solver.run.api import check_scenario

    doc = {"id": "found", "game": "riftbound", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
           "turn": {"active_player": "a", "priority": "a"}, **parts, "expect": [expect]}
    sc = Scenario.model_validate(doc)
    cmp = differential(sc)
    assert cmp.agree and not cmp.skipped, "\n".join(cmp.problems) or cmp.skipped
    res = check_scenario(sc)
    assert res.expectations[0].verdict.value == "holds", res.expectations[0].message
