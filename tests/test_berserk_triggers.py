"""Berserk triggered effects at the start and end of a turn (card text, berserk.trigger): 'at the start of your turn,
heal 1 life of an adjacent creature of yours'. A trigger fires at its controller's turn while its source is in play,
and gives ONE object its selector matches then its value, chosen (each choice an outcome; none matching: nothing).
Trivial, feasible and infeasible cases, a flipped expectation failing, the reference agreeing, and the located errors
of the words it does not know."""
from __future__ import annotations

import pytest

from models.scenario import Scenario
from tests.helpers import assert_agrees, run, scenario, verdicts

BOARD = {"rows": 2, "cols": 3}
HEAL = {"id": "heal", "at": "start_of_turn", "attribute": "life", "value": 1,
        "targets": {"types": ["creature"], "controlled_by": "source_controller", "cell": "adjacent", "other": True}}
START = [{"type": "end_turn"}, {"type": "begin_turn", "player": "alice"}]


def creature(id_: str, cell: str, owner: str = "alice", life: int = 1, **kw) -> dict:
    """A creature on a cell with its lives."""
    return {"id": id_, "owner": owner, "zone": "play", "cell": cell, "types": ["creature"],
            "attributes": {"life": life}, **kw}


def healer(cell: str = "r1c2", owner: str = "alice", zone: str = "play", at: str = "start_of_turn") -> dict:
    """The field healer, its trigger written on the object."""
    o = creature("healer", cell, owner, 2, triggers=[{**HEAL, "at": at}])
    return {**o, "zone": zone, **({"cell": None} if zone != "play" else {})}


def build(objects: list, events: list, expect: list, active: str = "bob") -> dict:
    """A board scenario whose turn is ``active``'s."""
    return scenario(board=BOARD, turn={"active_player": active}, objects=objects, events=events, expect=expect)


TWO = [healer(), creature("left", "r1c1"), creature("right", "r1c3", life=2), creature("rival", "r2c2", "bob")]


def test_trivial_a_trigger_that_matches_nothing_changes_nothing():
    """Alone on the board, the healer heals nobody (not itself: 'other'): one outcome, every life as it was."""
    res = run(build([healer()], START, [{"object": "healer", "attributes": {"life": 2}}, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_feasible_two_adjacent_creatures_give_two_outcomes():
    """Two adjacent creatures of Alice's: each may be the one healed, never both; Bob's is never healed."""
    res = run(build(TWO, START, [
        {"object": "left", "attributes": {"life": 2}, "verdict": "possible"},
        {"object": "right", "attributes": {"life": 3}, "verdict": "possible"},
        {"outcomes": 2, "because": ["berserk.trigger"]},
        {"object": "rival", "attributes": {"life": 1}}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_flipped_a_chosen_heal_does_not_hold():
    """Expecting the left creature healed in every outcome fails: the solver may heal the right one instead."""
    res = run(build(TWO, START, [{"object": "left", "attributes": {"life": 2}}]))
    assert res.status.value == "fail"
    assert verdicts(res) == ["possible"]


@pytest.mark.parametrize("case, objects, events", [
    ("opponent's turn", [healer(), creature("mine", "r1c1")], [{"type": "end_turn"},
                                                              {"type": "begin_turn", "player": "bob"}]),
    ("not in play", [healer(), creature("mine", "r1c1")], [{"type": "move", "object": "healer", "zone": "graveyard"}]
     + START),
    ("end of turn trigger at a turn's start", [healer(at="end_of_turn"), creature("mine", "r1c1")], START),
])
def test_infeasible_the_heal_is_impossible_with_the_rule_in_the_core(case, objects, events):
    """Bob's turn, a healer gone from play, or a trigger of another moment: healing is impossible, by the rule."""
    res = run(build(objects, events, [{"object": "mine", "attributes": {"life": 2}, "verdict": "impossible",
                                       "because": ["berserk.trigger"]}]), why=True)
    assert res.status.value == "pass", (case, res.error, [e.message for e in res.expectations])
    assert "berserk.trigger" in res.expectations[0].rules
    flipped = run(build(objects, events, [{"object": "mine", "attributes": {"life": 2}}]))
    assert flipped.status.value == "fail" and "expected holds, but it is impossible" in flipped.expectations[0].message


def test_end_of_turn_fires_at_the_controllers_end_turn_only():
    """An end_of_turn trigger fires at the end of Alice's turn (the active player), not at the end of Bob's."""
    objects = [healer(at="end_of_turn"), creature("mine", "r1c1")]
    events = [{"type": "end_turn"}, {"type": "begin_turn", "player": "bob"}, {"type": "end_turn"}]
    res = run(build(objects, events, [{"at": 1, "object": "mine", "attributes": {"life": 2},
                                       "because": ["berserk.trigger"]},
                                      {"object": "mine", "attributes": {"life": 2}}, {"unique": True}], active="alice"))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_two_triggers_that_choose_one_creature_both_heal_it():
    """Two healers next to one creature of Alice's (and no other): it gets both heals."""
    a = {**healer("r1c1"), "id": "west"}
    b = {**healer("r1c3"), "id": "east"}
    res = run(build([a, b, creature("hurt", "r1c2")], START, [{"object": "hurt", "attributes": {"life": 3}},
                                                               {"unique": True}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


@pytest.mark.parametrize("objects, events", [
    (TWO, START),
    ([healer(at="end_of_turn"), creature("mine", "r1c1"), creature("yours", "r2c1", "bob")],
     [{"type": "end_turn"}, {"type": "begin_turn", "player": "bob"}, {"type": "end_turn"}]),
    ([healer(), creature("mine", "r1c1")], [{"type": "move", "object": "healer", "zone": "graveyard"}] + START),
])
def test_the_reference_agrees(objects, events):
    """The solver-free reference reads the card text the same way: same outcomes, same verdicts."""
    assert_agrees(Scenario.model_validate(build(objects, events, [{"object": objects[1]["id"],
                                                                   "attributes": {"life": 2}, "verdict": "possible"}],
                                                active="alice")))


@pytest.mark.parametrize("field, value, says", [
    ("at", "start_of_round", "start_of_turn"),
    ("attribute", "lifes", "unknown"),
    ("choose", "all", "one"),
])
def test_an_unknown_word_is_a_located_error(field, value, says):
    """A word the trigger vocabulary does not have is an error at its line, not a silent answer."""
    bad = healer()
    bad["triggers"] = [{**HEAL, field: value}]
    res = run(build([bad, creature("mine", "r1c1")], START, [{"object": "mine", "attributes": {"life": 2}}]))
    assert res.status.value == "error"
    assert "test.yaml:" in res.error and says in res.error, res.error


def test_a_game_that_reads_no_triggers_refuses_them():
    """In a game whose rules read no triggers, an object's ``triggers`` is a located error (never ignored)."""
    doc = scenario(game="core", objects=[{"id": "x", "owner": "alice", "zone": "play",
                                          "attributes": {"life": 1}, "triggers": [HEAL]}])
    res = run(doc)
    assert res.status.value == "error" and "triggers" in res.error and "test.yaml:" in res.error, res.error


def test_a_trigger_of_a_card_nobody_controls_never_fires():
    """'Your turn' needs a controller: an ownerless totem's end-of-turn trigger fires at no turn's end, nor when no
    turn was begun (both readings agree)."""
    totem = {"id": "totem", "zone": "play", "types": ["artifact"],
             "triggers": [{"id": "t", "at": "end_of_turn", "attribute": "life", "value": 1,
                           "targets": {"types": ["creature"]}}]}
    doc = scenario(objects=[totem, {"id": "c", "owner": "alice", "zone": "play", "types": ["creature"],
                                    "attributes": {"life": 1}}],
                   events=[{"type": "end_turn"}, {"type": "begin_turn", "player": "alice"}, {"type": "end_turn"}],
                   expect=[{"object": "c", "attributes": {"life": 1}, "because": ["berserk.trigger"]}])
    res = run(doc)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert_agrees(Scenario.model_validate(doc))
