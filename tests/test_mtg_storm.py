"""MTG copies of spells (707.10, 707.10a, 707.10c), storm (702.40a), returning a card from a graveyard and
triggers from a graveyard (113.6, 113.8): per rule a trivial case (the rule does not act), a feasible one (its
result holds, uniquely) and an infeasible one (the opposite is impossible, naming the rule; expected, it fails);
the reference agrees on each; what the rules cannot read is a located error."""
from __future__ import annotations

import pytest

from models.scenario import Scenario
from tests.helpers import assert_agrees
from tests.test_mtg import leave, obj, run, scenario

LIVES = [{"id": p, "attributes": {"life": 20}} for p in ("alex", "bianca", "carla")]


def cast(aid: str, actor: str = "alex", **kw) -> dict:
    """A card spell declared."""
    return {"type": "declare", "id": aid, "actor": actor, "kind": "spell", "card": True, **kw}


def shot(targets=("carla",)) -> dict:
    """Grapeshot-like: 1 damage to a target (storm)."""
    return {"type": "declare", "id": "shot", "actor": "alex", "kind": "damage", "targets": list(targets),
            "params": {"amount": 1}, "card": True}


def storm(cid: str, target: str) -> dict:
    """A storm copy of the shot at a target."""
    return {"type": "copy", "id": cid, "spell": "shot", "storm": True, "targets": [target]}


def res(a: str) -> dict:
    """Resolve an action."""
    return {"type": "resolve", "action": a}


GRAVE = obj("angel", "alex", "graveyard", types=["creature"])
ZOMBIFY = {"type": "declare", "id": "z", "actor": "alex", "kind": "return_from_graveyard", "targets": ["angel"],
           "params": {"to": "battlefield"}, "card": True}
GHAST_TRIGGER = {"type": "trigger", "id": "g", "source": "angel", "from_graveyard": True,
                 "kind": "return_from_graveyard", "targets": ["angel"], "params": {"to": "hand"}}

#: rule -> (parts, holds, wrong, calm parts, what holds then)
CASES = {
    "mtg.702.40a": (
        dict(players=LIVES, events=[cast("r1"), cast("r2"), shot(), storm("c1", "bianca"), storm("c2", "bianca"),
                                    res("c2"), res("c1")]),
        {"player": "bianca", "player_attributes": {"life": 18}},
        {"player": "bianca", "player_attributes": {"life": 19}},
        dict(players=LIVES, events=[cast("r1"), {"type": "end_turn"}, cast("r2"), shot(), storm("c1", "bianca"),
                                    res("c1")]),  # one spell before it this turn: one copy
        {"player": "bianca", "player_attributes": {"life": 19}},
    ),
    "mtg.608.2b": (
        dict(players=LIVES, events=[cast("r1"), cast("r2"), shot(), storm("c1", "bianca"), storm("c2", "carla"),
                                    res("c2"), leave("bianca"), res("c1")]),
        {"action": "c1", "action_status": "interrupted"},
        {"action": "c1", "action_status": "resolved"},
        dict(players=LIVES, events=[cast("r1"), cast("r2"), shot(), storm("c1", "bianca"), storm("c2", "carla"),
                                    res("c2"), res("c1")]),
        {"action": "c1", "action_status": "resolved"},
    ),
    "mtg.707.10a": (
        dict(players=LIVES, events=[shot(), {"type": "copy", "id": "twin", "spell": "shot", "controller": "bianca"},
                                    res("twin")]),
        {"object": "twin", "zone": "none"},
        {"object": "twin", "zone": "graveyard"},
        dict(players=LIVES, events=[shot(), res("shot")]),
        {"object": "shot", "zone": "graveyard"},
    ),
    "mtg.707.10c": (
        dict(players=LIVES, events=[leave("bianca"), shot(),
                                    {"type": "copy", "id": "twin", "spell": "shot", "controller": "carla",
                                     "targets": ["bianca"]}]),
        {"action": "twin", "action_status": "illegal"},
        {"action": "twin", "action_status": "on_stack"},
        dict(players=LIVES, events=[shot(), {"type": "copy", "id": "twin", "spell": "shot", "controller": "carla",
                                             "targets": ["bianca"]}]),
        {"action": "twin", "action_status": "on_stack"},
    ),
    "mtg.return_from_graveyard": (
        dict(objects=[GRAVE], events=[ZOMBIFY, res("z")]),
        {"object": "angel", "zone": "battlefield", "controller": "alex"},
        {"object": "angel", "zone": "graveyard"},
        dict(objects=[GRAVE], events=[ZOMBIFY]),
        {"object": "angel", "zone": "graveyard"},
    ),
    "mtg.800.4a.owned": (
        dict(objects=[GRAVE], events=[leave("alex"), {"type": "return_from_graveyard", "object": "angel",
                                                      "to": "battlefield"}]),
        {"object": "angel", "zone": "outside"},
        {"object": "angel", "zone": "battlefield"},
        dict(objects=[GRAVE], events=[leave("bianca"), {"type": "return_from_graveyard", "object": "angel",
                                                        "to": "hand"}]),
        {"object": "angel", "zone": "hand"},
    ),
    "mtg.return_from_graveyard.yours": (
        dict(objects=[GRAVE], events=[{**ZOMBIFY, "actor": "bianca"}]),
        {"action": "z", "action_status": "illegal"},
        {"action": "z", "action_status": "on_stack"},
        dict(objects=[GRAVE], events=[ZOMBIFY]),
        {"action": "z", "action_status": "on_stack"},
    ),
    "mtg.113.6": (
        dict(objects=[{**GRAVE, "zone": "battlefield"}], events=[GHAST_TRIGGER]),
        {"action": "g", "action_status": "unborn"},
        {"action": "g", "action_status": "on_stack"},
        dict(objects=[GRAVE], events=[GHAST_TRIGGER, res("g")]),
        {"object": "angel", "zone": "hand"},
    ),
    "mtg.113.8": (
        dict(objects=[GRAVE], events=[GHAST_TRIGGER]),
        {"object": "g", "controller": "alex"},
        {"object": "g", "controller": "bianca"},
        dict(objects=[GRAVE], events=[leave("alex"), GHAST_TRIGGER]),
        {"action": "g", "action_status": "unborn"},
    ),
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_trivial_when_the_rule_does_not_act(rule: str) -> None:
    """Without what the rule reads, the ordinary result holds, uniquely; the reference agrees."""
    _, _, _, calm, plain = CASES[rule]
    doc = scenario(**calm, expect=[plain, {"unique": True}])
    res_ = run(doc)
    assert res_.status.value == "pass", (res_.error, [(e.verdict.value, e.message) for e in res_.expectations])
    assert_agrees(Scenario.model_validate(doc))


@pytest.mark.parametrize("rule", sorted(CASES))
def test_feasible_result_holds(rule: str) -> None:
    """The rule's result holds in every outcome, uniquely; the reference agrees."""
    parts, holds, _, _, _ = CASES[rule]
    doc = scenario(**parts, expect=[holds, {"unique": True}])
    res_ = run(doc)
    assert res_.status.value == "pass", (res_.error, [(e.verdict.value, e.message) for e in res_.expectations])
    assert_agrees(Scenario.model_validate(doc))


@pytest.mark.parametrize("rule", sorted(CASES))
def test_infeasible_opposite_names_the_rule(rule: str) -> None:
    """The opposite is impossible with the rule in the core; expecting it to hold fails."""
    parts, _, wrong, _, _ = CASES[rule]
    res_ = run(scenario(**parts, expect=[{**wrong, "verdict": "impossible", "because": [rule]}]))
    assert res_.status.value == "pass", (res_.error, [(e.verdict.value, e.rules, e.message) for e in res_.expectations])
    flipped = run(scenario(**parts, expect=[wrong]))
    assert flipped.status.value == "fail" and flipped.expectations[0].verdict.value == "impossible"


BAD = [
    (dict(events=[cast("r1"), shot(), storm("c1", "bianca"), storm("c2", "bianca")]), "storm copy number 2"),
    (dict(events=[cast("r1"), shot(), storm("c1", "bianca"), res("shot")]), "405.5"),
    (dict(objects=[GRAVE], events=[{"type": "copy", "id": "twin", "spell": "angel", "controller": "bianca"}]),
     "no spell or ability"),
    (dict(events=[shot(), {"type": "copy", "id": "twin", "spell": "shot"}]), "give its `controller`"),
    (dict(events=[cast("r1"), shot(), {**storm("c1", "bianca"), "controller": "bianca"}]), "603.3a"),
    (dict(events=[cast("r1"), {"type": "begin_turn", "player": "bianca"}, shot(), storm("c1", "bianca")]), "800.4j"),
    (dict(objects=[GRAVE], events=[{**GHAST_TRIGGER, "controller": "bianca"}]), "113.8"),
]


@pytest.mark.parametrize("parts, message", BAD, ids=["too many storm copies", "original before its copies",
                                                     "copy of nothing", "copy without controller",
                                                     "storm controller", "storm after begin_turn",
                                                     "graveyard trigger controller"])
def test_what_the_rules_cannot_read_is_a_located_error(parts, message) -> None:
    """A copy or storm the rules cannot read is an error at its event, never an answer."""
    res_ = run(scenario(**parts))
    assert res_.status.value == "error" and message in res_.error and "test.yaml:" in res_.error, res_.error
