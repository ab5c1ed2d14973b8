"""Berserk control, squad and clean-victory rules (532.5.4, 532.6, 532.7, 532.8, 602.1), each on its own:
trivial (no events: nothing changes), feasible (the rule's effect holds), infeasible (the opposite is impossible,
with the rule in the core); and a wrong expectation turns the scenario into a failure."""
from __future__ import annotations

import pytest

from tests.helpers import run, scenario

BOARD = {"rows": 2, "cols": 2}
ELF = {"id": "forest_elf", "owner": "alice", "zone": "play", "types": ["creature", "elf"]}


def obj(id_: str, owner: str = "alice", zone: str = "play", **kw) -> dict:
    """A creature with overrides."""
    return {"id": id_, "owner": owner, "zone": zone, "types": ["creature"], **kw}


def declare(id_: str, kind: str, source: str, actor: str = "alice", **kw) -> dict:
    """A declared action."""
    return {"type": "declare", "id": id_, "actor": actor, "kind": kind, "source": source, **kw}


# rule -> (scenario parts, expectation that holds, expectation that is impossible because of the rule)
CASES = {
    "berserk.532.7": (
        dict(objects=[obj("charmer"), obj("squire", "bob")],
             events=[declare("charm", "take_control", "charmer", targets=["squire"]), {"type": "resolve", "action": "charm"}]),
        {"object": "squire", "controller": "alice"},
        {"object": "squire", "controller": "bob"},
    ),
    "berserk.532.7.lose": (
        dict(objects=[obj("squire", "bob", controller="alice")],
             events=[{"type": "lose_control", "player": "alice", "object": "squire"}]),
        {"object": "squire", "controller": "bob"},
        {"object": "squire", "controller": "alice"},
    ),
    "berserk.532.7.keep": (
        dict(objects=[obj("dark_lord", "bob", controller="alice", properties={"not_with": "elf"}),
                      {**ELF, "owner": "bob"}],
             events=[{"type": "lose_control", "player": "alice", "object": "dark_lord"}]),
        {"object": "dark_lord", "controller": "alice"},
        {"object": "dark_lord", "controller": "bob"},
    ),
    "berserk.532.8": (
        dict(board=BOARD, objects=[ELF, obj("dark_lord", zone="hand", properties={"not_with": "elf"})],
             events=[declare("s", "summon", "dark_lord", params={"cell": "r1c2"}), {"type": "resolve", "action": "s"}]),
        {"action": "s", "action_status": "illegal"},
        {"object": "dark_lord", "zone": "play"},
    ),
    "berserk.532.8.recruit": (
        dict(objects=[ELF, obj("dark_lord", zone="hand", properties={"not_with": "elf"})],
             events=[{"type": "recruit", "player": "alice", "cards": ["dark_lord"]}]),
        {"object": "dark_lord", "zone": "hand"},
        {"object": "dark_lord", "zone": "play"},
    ),
    "berserk.532.6": (
        dict(board=BOARD, objects=[obj("eagle", zone="hand", abilities=["flying"])],
             events=[declare("s", "summon", "eagle", params={"cell": "r1c1"}), {"type": "resolve", "action": "s"}]),
        {"action": "s", "action_status": "illegal"},
        {"object": "eagle", "zone": "play"},
    ),
    "berserk.532.5.4": (
        dict(board=BOARD, objects=[obj("phoenix", zone="graveyard", abilities=["incarnation 2", "incarnation 3"])],
             events=[declare("i", "incarnate", "phoenix", params={"cell": "r1c1"}), {"type": "resolve", "action": "i"}]),
        {"object": "phoenix", "zone": "play", "attributes": {"incarnation": 3}},
        {"object": "phoenix", "attributes": {"incarnation": 2}},
    ),
    "berserk.532.5.4.once": (
        dict(board=BOARD, objects=[obj("phoenix", zone="graveyard", abilities=["incarnation 2"],
                                       flags={"incarnated": True})],
             events=[declare("i", "incarnate", "phoenix", params={"cell": "r1c1"}), {"type": "resolve", "action": "i"}]),
        {"action": "i", "action_status": "illegal"},
        {"object": "phoenix", "zone": "play"},
    ),
    "berserk.summon": (
        dict(board=BOARD, objects=[obj("footman", zone="hand")],
             events=[declare("s", "summon", "footman", params={"cell": "r2c1"}), {"type": "resolve", "action": "s"}]),
        {"object": "footman", "zone": "play", "cell": "r2c1", "controller": "alice"},
        {"object": "footman", "zone": "hand"},
    ),
    "berserk.recruit": (
        dict(objects=[obj("squire", zone="hand")], events=[{"type": "recruit", "player": "alice", "cards": ["squire"]}]),
        {"object": "squire", "zone": "play"},
        {"object": "squire", "zone": "hand"},
    ),
    "berserk.602.1.no_creatures": (
        dict(objects=[obj("squire"), obj("wolf", "bob", zone="graveyard")], events=[{"type": "check_victory"}]),
        {"winner": "alice"},
        {"player": "bob", "status": "in_game"},
    ),
    "berserk.602.1.concede": (
        dict(events=[{"type": "concede", "player": "bob"}]),
        {"winner": "alice"},
        {"player": "bob", "status": "in_game"},
    ),
    "berserk.602.1.penalty": (
        dict(events=[{"type": "penalty_loss", "player": "bob"}]),
        {"winner": "alice"},
        {"player": "alice", "status": "in_game"},
    ),
    "berserk.602.1.redeal": (
        dict(objects=[obj("last", "bob", zone="hand")], events=[{"type": "declare_redeal", "player": "bob"}]),
        {"winner": "alice"},
        {"player": "bob", "status": "in_game"},
    ),
    "berserk.602.1.card_text": (
        dict(objects=[obj("doom", types=["artifact"])],
             events=[{"type": "card_victory", "source": "doom", "player": "bob", "result": "lost"}]),
        {"winner": "alice"},
        {"player": "bob", "status": "in_game"},
    ),
    "berserk.602.1.decisive_advantage": (
        dict(players=None, objects=[obj("kornevik"), obj("wolf", "bob")], events=[{"type": "check_victory"}]),
        {"winner": "alice"},
        {"player": "alice", "status": "in_game"},
    ),
}


def build(rule: str, expect: list, with_events: bool = True) -> dict:
    """The scenario of a case with the given expectations."""
    parts = {k: v for k, v in CASES[rule][0].items() if k != "players" and (with_events or k != "events")}
    doc = scenario(**parts, expect=expect)
    if rule == "berserk.602.1.decisive_advantage":
        doc["players"] = [{"id": "alice", "flags": {"decisive_advantage": True}}, {"id": "bob"}]
    return doc


@pytest.mark.parametrize("rule", sorted(CASES))
def test_trivial_without_events_nothing_changes(rule):
    """Without its events the rule does nothing: one outcome, equal to the scenario's state."""
    res = run(build(rule, [{"unique": True}], with_events=False))
    assert res.status.value == "pass", (res.error, res.expectations)
    assert res.outcomes[0].changes == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_feasible_rule_effect_holds(rule):
    """The rule's effect holds in every outcome, and the rule is behind it."""
    res = run(build(rule, [{**CASES[rule][1], "because": [rule]}, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(CASES))
def test_infeasible_opposite_is_impossible_with_rule_in_core(rule):
    """The opposite outcome is impossible, and the minimal core names the rule."""
    res = run(build(rule, [{**CASES[rule][2], "verdict": "impossible", "because": [rule]}]), why=True)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert rule in res.expectations[0].rules


@pytest.mark.parametrize("rule", sorted(CASES))
def test_wrong_expectation_fails_with_reason(rule):
    """Expecting the excluded outcome makes the scenario fail, and the message says why."""
    res = run(build(rule, [CASES[rule][2]]))
    assert res.status.value == "fail"
    assert "expected holds, but it is impossible" in res.expectations[0].message


def test_lose_control_when_not_controlling_changes_nothing():
    """532.7 applies to the controller only: a player who does not control the card loses nothing."""
    res = run(scenario(objects=[obj("squire", "bob")], events=[{"type": "lose_control", "player": "alice", "object": "squire"}],
                       expect=[{"object": "squire", "controller": "bob"}, {"unique": True}]))
    assert res.status.value == "pass"


def test_recruit_together_second_card_blocked():
    """532.8 either way round inside one Recruit subphase: the card recruited second does not join."""
    res = run(scenario(objects=[{**ELF, "zone": "hand"}, obj("dark_lord", zone="hand", properties={"not_with": "elf"})],
                       events=[{"type": "recruit", "player": "alice", "cards": ["dark_lord", "forest_elf"]}],
                       expect=[{"object": "dark_lord", "zone": "play"}, {"object": "forest_elf", "zone": "hand"}]))
    assert res.status.value == "pass", [e.message for e in res.expectations]


def test_no_winner_after_a_win():
    """Once a player has won, later victory conditions change nothing."""
    res = run(scenario(events=[{"type": "concede", "player": "bob"}, {"type": "penalty_loss", "player": "alice"}],
                       expect=[{"winner": "alice"}, {"player": "bob", "status": "conceded"}]))
    assert res.status.value == "pass"


def test_victory_rules_need_two_players():
    """602.1 speaks of the opponent: three players are a clear error, not a traceback."""
    res = run(scenario(players=("alice", "bob", "carol"), events=[{"type": "concede", "player": "bob"}]))
    assert res.status.value == "error" and "two players" in res.error


@pytest.mark.parametrize("rule", sorted(CASES))
def test_independent_reference_agrees(rule):
    """The brute-force reference (no solver) finds the same outcomes and verdicts."""
    from models.scenario import Scenario
    from solver.reference.differential import differential

    doc = build(rule, [CASES[rule][1], {**CASES[rule][2], "verdict": "impossible"}])
    cmp = differential(Scenario.model_validate(doc))
    assert not cmp.skipped and cmp.agree, (cmp.skipped, cmp.problems)
