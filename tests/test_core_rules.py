"""Each core rule on its own: trivial (nothing happens), feasible (the rule's effect holds), infeasible
(the opposite is impossible, with the rule in the core)."""
from __future__ import annotations

import pytest

from tests.helpers import run, scenario

CARD = {"id": "card", "owner": "alice", "zone": "play", "types": ["creature"]}


def card(**kw) -> dict:
    """A creature in play owned by alice, with overrides."""
    return {**CARD, **kw}


# (rule, scenario parts, expectation that must hold, its negation that must be impossible)
CASES = {
    # core.inertia keeps only what no rule could change at a stage: here Alice's unit at the step where Bob's
    # battlefield is replaced (a step that only keeps the cards standing at that battlefield); the steps that could
    # banish or remove it own its frame themselves (solver/encoding/state.py)
    "core.inertia": (
        dict(game="riftbound", players=("alice", "bob", "carol"), board={"cells": ["bf1"]},
             objects=[{"id": "field", "owner": "bob", "zone": "battlefield", "cell": "bf1", "types": ["battlefield"]},
                      {"id": "card", "owner": "alice", "zone": "base", "types": ["unit"]}],
             events=[{"type": "concede", "player": "bob"}]),
        {"object": "card", "zone": "base"},
        {"object": "card", "zone": "banishment"},
    ),
    "core.timestamp": (
        dict(objects=[card(properties={"alignment": "light"})],
             effects=[{"id": "e1", "timestamp": 1, "kind": "set", "attribute": "alignment", "value": "dark", "targets": ["card"]},
                      {"id": "e2", "timestamp": 2, "kind": "set", "attribute": "alignment", "value": "neutral", "targets": ["card"]}]),
        {"object": "card", "properties": {"alignment": "neutral"}},
        {"object": "card", "properties": {"alignment": "dark"}},
    ),
    "core.control": (
        dict(objects=[card()], effects=[{"id": "steal", "timestamp": 1, "kind": "control", "player": "bob", "targets": ["card"]}]),
        {"object": "card", "controller": "bob"},
        {"object": "card", "controller": "alice"},
    ),
    "core.add": (
        dict(objects=[card(attributes={"power": 4})],
             effects=[{"id": "buff", "timestamp": 1, "kind": "add", "attribute": "power", "value": 1, "targets": ["card"]}]),
        {"object": "card", "attributes": {"power": 5}},
        {"object": "card", "attributes": {"power": 4}},
    ),
    "core.static": (
        dict(objects=[card(), {"id": "lord", "owner": "bob", "zone": "play"}],
             effects=[{"id": "aura", "source": "lord", "timestamp": 1, "kind": "control", "player": "bob",
                       "targets": ["card"], "duration": "static"}],
             events=[{"type": "move", "object": "lord", "zone": "graveyard"}]),
        {"object": "card", "controller": "alice"},
        {"object": "card", "controller": "bob"},
    ),
    "core.prohibition": (
        dict(objects=[card(abilities=["flying"])],
             effects=[{"id": "ban", "timestamp": 1, "kind": "prohibit", "action": "flying", "targets": ["card"]}]),
        {"object": "card", "allowed": {"flying": False}},
        {"object": "card", "allowed": {"flying": True}},
    ),
    "core.prohibition_beats_permission": (
        dict(objects=[card()],
             effects=[{"id": "ok", "timestamp": 2, "kind": "permit", "action": "flying", "targets": ["card"]},
                      {"id": "ban", "timestamp": 1, "kind": "prohibit", "action": "flying", "targets": ["card"]}]),
        {"object": "card", "allowed": {"flying": False}},
        {"object": "card", "allowed": {"flying": True}},
    ),
    "core.permission": (
        dict(objects=[card()], effects=[{"id": "ok", "timestamp": 1, "kind": "permit", "action": "flying", "targets": ["card"]}]),
        {"object": "card", "allowed": {"flying": True}},
        {"object": "card", "allowed": {"flying": False}},
    ),
    "core.move": (
        dict(objects=[card()], events=[{"type": "move", "object": "card", "zone": "graveyard"}]),
        {"object": "card", "zone": "graveyard"},
        {"object": "card", "zone": "play"},
    ),
    "core.modify": (
        dict(objects=[card(attributes={"life": 2})], events=[{"type": "modify", "object": "card", "attribute": "life", "delta": -1}]),
        {"object": "card", "attributes": {"life": 1}},
        {"object": "card", "attributes": {"life": 2}},
    ),
    "core.effect_ends": (
        dict(objects=[card()], effects=[{"id": "steal", "timestamp": 1, "kind": "control", "player": "bob", "targets": ["card"]}],
             events=[{"type": "end_effect", "effect": "steal"}]),
        {"object": "card", "controller": "alice"},
        {"object": "card", "controller": "bob"},
    ),
    "core.end_of_turn": (
        dict(objects=[card()], effects=[{"id": "steal", "timestamp": 1, "kind": "control", "player": "bob",
                                         "targets": ["card"], "duration": "until_end_of_turn"}],
             events=[{"type": "end_turn"}]),
        {"object": "card", "controller": "alice"},
        {"object": "card", "controller": "bob"},
    ),
    "core.next_turn": (
        dict(objects=[card()], effects=[{"id": "steal", "timestamp": 1, "kind": "control", "player": "bob",
                                         "targets": ["card"], "duration": "until_next_turn", "until_player": "bob"}],
             events=[{"type": "begin_turn", "player": "bob"}]),
        {"object": "card", "controller": "alice"},
        {"object": "card", "controller": "bob"},
    ),
    "core.effect_begins": (
        dict(objects=[card()], events=[{"type": "begin_effect", "effect": {"id": "steal", "timestamp": 5, "kind": "control",
                                                                              "player": "bob", "targets": ["card"]}}]),
        {"object": "card", "controller": "bob"},
        {"object": "card", "controller": "alice"},
    ),
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_trivial_no_events_unique_and_unchanged(rule):
    """Without events the state is the scenario's state, and it is the only outcome."""
    parts, _, _ = CASES[rule]
    res = run(scenario(**{"game": "core", **{k: v for k, v in parts.items() if k != "events"}}, expect=[{"unique": True}]))
    assert res.status.value == "pass", res
    assert res.outcomes[0].changes == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_feasible_rule_effect_holds(rule):
    """The rule's effect holds in every outcome."""
    parts, holds, _ = CASES[rule]
    res = run(scenario(**{"game": "core", **parts}, expect=[holds]))
    assert [e.verdict.value for e in res.expectations] == ["holds"], res.expectations


@pytest.mark.parametrize("rule", sorted(CASES))
def test_infeasible_opposite_is_excluded_by_the_rule(rule):
    """The opposite is impossible, and the re-checked minimal core names the rule."""
    parts, _, opposite = CASES[rule]
    res = run(scenario(**{"game": "core", **parts}, expect=[{**opposite, "verdict": "impossible", "because": [rule]}]),
              why=True)
    e = res.expectations[0]
    assert e.verdict.value == "impossible"
    assert rule in e.rules, e.rules
    assert res.status.value == "pass"


@pytest.mark.parametrize("rule", sorted(CASES))
def test_a_false_expectation_fails_with_a_reason(rule):
    """Claiming the opposite holds turns the scenario into a failure that says why."""
    parts, _, opposite = CASES[rule]
    res = run(scenario(**{"game": "core", **parts}, expect=[opposite]))
    assert res.status.value == "fail"
    assert "expected holds, but it is impossible" in res.expectations[0].message


def test_static_effect_started_by_an_event_is_inactive_before_it():
    """A static effect that a begin_effect event starts is off before the event, on after (source in play)."""
    eff = {"id": "aura", "source": "lord", "timestamp": 3, "kind": "control", "player": "bob",
           "targets": ["card"], "duration": "static"}
    res = run(scenario("core", objects=[card(), {"id": "lord", "owner": "bob", "zone": "play"}],
                       events=[{"type": "begin_effect", "effect": eff}],
                       expect=[{"at": 0, "object": "card", "controller": "alice"},
                               {"object": "card", "controller": "bob"}, {"unique": True}]))
    assert res.status.value == "pass", [(e.description, e.verdict, e.message) for e in res.expectations]


def test_expectation_naming_an_impossible_value_is_an_error_not_a_vacuous_pass():
    """A typo in an expected zone must not pass as 'impossible'."""
    res = run(scenario("core", objects=[card()], expect=[{"object": "card", "zone": "graveyrd", "verdict": "impossible"}]))
    assert res.status.value == "error" and "graveyrd" in res.error
