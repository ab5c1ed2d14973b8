"""Riftbound concede rules, each on its own: trivial (without the concession nothing changes), feasible (the
rule's effect holds), infeasible (the opposite is impossible, with the rule in the core); plus the library."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from solver.games.riftbound.rules import RULES
from tests.helpers import assert_agrees, run, scenario

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios" / "riftbound").glob("*.yaml"))
FOUR = ("a", "b", "c", "d")
CONCEDE_B = [{"type": "concede", "player": "b"}]


def rb(players=FOUR, **parts) -> dict:
    """A Riftbound scenario (four players by default, A's turn with priority)."""
    parts.setdefault("turn", {"active_player": "a", "priority": "a"})
    if players and isinstance(players[0], dict):
        return {**scenario("riftbound", **parts), "players": list(players)}
    return scenario("riftbound", players=players, **parts)


def unit(oid: str, owner: str, zone: str = "base", power: int = 2, **kw) -> dict:
    """A unit card."""
    return {"id": oid, "owner": owner, "zone": zone, "types": ["unit"], "attributes": {"power": power}, **kw}


def spell(oid: str, owner: str, kind: str, target: str, **kw) -> dict:
    """A spell waiting on the chain."""
    return {"id": oid, "owner": owner, "zone": "chain", "types": ["spell"], "action": {"kind": kind, "targets": [target]}, **kw}


def passed(what: str, *who: str, players=FOUR) -> list[dict]:
    """Players, those in ``who`` having already passed ``what`` (focus or priority)."""
    return [{"id": p, "flags": {f"passed_{what}": True}} if p in who else {"id": p} for p in players]


BOARD = {"cells": ["bf1", "bf2"]}
FIELDS = [{"id": "a_field", "owner": "a", "zone": "battlefield", "cell": "bf1", "types": ["battlefield"]},
          {"id": "b_field", "owner": "b", "zone": "battlefield", "cell": "bf2", "types": ["battlefield"],
           "abilities": ["units_here_plus_one"]},
          {"id": "blank", "zone": "none", "types": ["battlefield"], "card": False},
          unit("c_unit", "c", "battlefield", 4, cell="bf2")]
BONUS = [{"id": "bonus", "source": "b_field", "timestamp": 1, "kind": "add", "attribute": "power", "value": 1,
          "targets": {"types": ["unit"], "zone": "battlefield", "cell": "source"}, "duration": "static"}]
REPLACE = dict(board=BOARD, objects=FIELDS,
               events=[{"type": "concede", "player": "b", "blank_battlefields": {"b_field": "blank"}}])
#: the same with the +1 written as a static effect of B's battlefield instead of its text
PLAIN_FIELDS = [dict(o, abilities=[]) if o["id"] == "b_field" else o for o in FIELDS]
REPLACE_EFFECT = dict(REPLACE, objects=PLAIN_FIELDS, effects=BONUS)
#: no concession: B's battlefield with its text stays
HELD = dict(board=BOARD, objects=FIELDS, events=[{"type": "pass_turn"}])
BORROWED = dict(objects=[unit("a_unit", "a", controller="b")], events=CONCEDE_B)
RESPONSE = [unit("d_unit", "d"), spell("a_spell", "a", "kill", "d_unit"), spell("b_resp", "b", "counter", "a_spell")]
ALL_PASSED = dict(players=passed("priority", "a", "c", "d"), objects=RESPONSE, events=CONCEDE_B,
                  turn={"active_player": "a", "priority": "b"})
TEAMS = [{"id": "a", "team": "red"}, {"id": "b", "team": "blue"}, {"id": "c", "team": "red"}, {"id": "d", "team": "blue"}]

# rule -> (scenario parts, expectation that must hold, its opposite, which must be impossible because of the rule)
CASES = {
    "riftbound.concede": (dict(events=CONCEDE_B), {"player": "b", "status": "conceded"}, {"player": "b", "status": "in_game"}),
    "riftbound.concede.last_standing": (dict(players=("a", "b"), events=CONCEDE_B), {"winner": "a"},
                                        {"player": "a", "status": "in_game"}),
    "riftbound.concede.team": (dict(players=TEAMS, events=CONCEDE_B), {"player": "d", "status": "lost"},
                               {"player": "d", "status": "in_game"}),
    "riftbound.concede.team_wins": (dict(players=TEAMS, events=CONCEDE_B), {"winner": "c"},
                                    {"player": "c", "status": "in_game"}),
    "riftbound.concede.continue": (dict(events=CONCEDE_B + [{"type": "pass_turn"}]), {"turn": {"active_player": "c"}},
                                   {"turn": {"active_player": "b"}}),
    "riftbound.concede.banish": (BORROWED, {"object": "a_unit", "zone": "banishment"}, {"object": "a_unit", "zone": "base"}),
    "riftbound.concede.owner_zone": (BORROWED, {"object": "a_unit", "controller": "a"},
                                     {"object": "a_unit", "controller": "b"}),
    "riftbound.concede.battlefield": (REPLACE, {"object": "blank", "zone": "battlefield", "cell": "bf2"},
                                      {"object": "blank", "zone": "none"}),
    "riftbound.concede.battlefield.in_place": (REPLACE, {"object": "c_unit", "zone": "battlefield", "cell": "bf2"},
                                               {"object": "c_unit", "cell": "bf1"}),
    "riftbound.concede.blank": (REPLACE, {"object": "blank", "abilities": {"units_here_plus_one": False}},
                                {"object": "blank", "abilities": {"units_here_plus_one": True}}),
    "riftbound.concede.effects_end": (REPLACE_EFFECT, {"effect": "bonus", "effect_active": False},
                                      {"effect": "bonus", "effect_active": True}),
    "riftbound.battlefield.units_here_plus_one": (HELD, {"object": "c_unit", "attributes": {"power": 5}},
                                                  {"object": "c_unit", "attributes": {"power": 4}}),
    "riftbound.concede.recompute": (REPLACE, {"object": "c_unit", "attributes": {"power": 4}},
                                    {"object": "c_unit", "attributes": {"power": 5}}),
    "riftbound.mighty": (REPLACE, {"object": "c_unit", "flags": {"mighty": False}},
                         {"object": "c_unit", "flags": {"mighty": True}}),
    "riftbound.concede.remove_owned": (dict(objects=[{"id": "b_card", "owner": "b", "zone": "hand"}], events=CONCEDE_B),
                                       {"object": "b_card", "zone": "outside"}, {"object": "b_card", "zone": "hand"}),
    "riftbound.concede.counter": (dict(objects=RESPONSE, events=CONCEDE_B), {"action": "b_resp", "action_status": "countered"},
                                  {"action": "b_resp", "action_status": "on_stack"}),
    "riftbound.concede.influence": (
        dict(objects=[{"id": "a_legend", "owner": "a", "zone": "legend", "types": ["legend"]}], events=CONCEDE_B,
             effects=[{"id": "b_takes", "kind": "control", "player": "b", "targets": ["a_legend"], "timestamp": 1}]),
        {"object": "a_legend", "controller": "a"}, {"object": "a_legend", "controller": "b"}),
    "riftbound.concede.turn": (dict(events=CONCEDE_B, turn={"active_player": "b"}), {"turn": {"active_player": "c"}},
                               {"turn": {"active_player": "b"}}),
    "riftbound.concede.focus": (dict(events=CONCEDE_B, turn={"active_player": "a", "focus": "b", "showdown": True}),
                                {"turn": {"focus": "c"}}, {"turn": {"focus": "b"}}),
    "riftbound.concede.priority": (dict(events=CONCEDE_B, turn={"active_player": "a", "priority": "b"}),
                                   {"turn": {"priority": "c"}}, {"turn": {"priority": "b"}}),
    "riftbound.concede.passes.focus": (
        dict(players=passed("focus", "a", "c", "d"), events=CONCEDE_B,
             turn={"active_player": "a", "focus": "b", "showdown": True}),
        {"turn": {"showdown": False}}, {"turn": {"showdown": True}}),
    "riftbound.concede.passes.priority": (ALL_PASSED, {"action": "a_spell", "action_status": "resolved"},
                                          {"action": "a_spell", "action_status": "on_stack"}),
    "riftbound.chain.restore_priority": (ALL_PASSED, {"turn": {"priority": "a"}}, {"turn": {"priority": "c"}}),
    "riftbound.card.kill": (ALL_PASSED, {"object": "d_unit", "zone": "trash"}, {"object": "d_unit", "zone": "base"}),
    "riftbound.chain.targets": (
        dict(objects=[unit("b_unit", "b"), spell("a_spell", "a", "kill", "b_unit")],
             events=CONCEDE_B + [{"type": "resolve", "action": "a_spell"}]),
        {"action": "a_spell", "action_status": "interrupted"}, {"action": "a_spell", "action_status": "resolved"}),
    "riftbound.card.counter": (
        dict(players=passed("priority", "a", "b", "c"), objects=RESPONSE, events=[{"type": "concede", "player": "d"}],
             turn={"active_player": "a", "priority": "d"}),
        {"action": "a_spell", "action_status": "countered"}, {"action": "a_spell", "action_status": "on_stack"}),
}


def case(rule: str, **expect) -> dict:
    """The rule's scenario with the given expectations."""
    return {**rb(**CASES[rule][0]), **expect}


def test_every_rule_has_a_case():
    """Every registered Riftbound rule is exercised here."""
    assert sorted(CASES) == sorted(RULES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_trivial_without_the_concession_nothing_changes(rule):
    """Without the events the state is the scenario's own, and it is the only outcome."""
    doc = case(rule, expect=[{"unique": True}])
    doc.pop("events", None)
    res = run(doc)
    assert res.status.value == "pass", (res.error, res.expectations)
    assert res.outcomes[0].changes == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_feasible_rule_effect_holds(rule):
    """The rule's effect holds in every outcome, and the outcome is unique."""
    res = run(case(rule, expect=[CASES[rule][1], {"unique": True}]))
    assert res.status.value == "pass", (res.error, [(e.verdict, e.message) for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(CASES))
def test_infeasible_opposite_is_excluded_by_the_rule(rule):
    """The opposite is impossible, and the re-checked minimal core names the rule."""
    res = run(case(rule, expect=[{**CASES[rule][2], "verdict": "impossible", "because": [rule]}]), why=True)
    e = res.expectations[0]
    assert e.verdict.value == "impossible", res.error
    assert rule in e.rules, e.rules
    assert res.status.value == "pass"


@pytest.mark.parametrize("rule", sorted(CASES))
def test_a_false_expectation_fails_with_a_reason(rule):
    """Claiming the opposite holds makes the scenario fail, saying it is impossible and which rules exclude it."""
    res = run(case(rule, expect=[CASES[rule][2]]))
    assert res.status.value == "fail"
    msg = res.expectations[0].message
    assert "expected holds, but it is impossible" in msg and rule in msg, msg


# -- particular clauses ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, events", [
    (FOUR, CONCEDE_B + CONCEDE_B),                                                        # out already
    (("a", "b"), [{"type": "concede", "player": "a"}, {"type": "concede", "player": "b"}]),  # b has won: the game is over
], ids=["twice", "after the game is won"])
def test_conceding_when_out_of_the_game_is_a_located_error(players, events):
    """Only a player in the game concedes: a second concession, or one after the game is won, is an error at that
    event's line, never a silent no-op; the reference refuses it at the same event."""
    doc = rb(players=players, turn={"active_player": "b"}, events=events, expect=[{"unique": True}])
    res = run(doc)
    assert res.status.value == "error" and "events[1] (concede)" in res.error, res.error
    assert "not in the game any more" in res.error and "test.yaml:" in res.error, res.error
    from models.scenario import Scenario
    assert_agrees(Scenario.model_validate(doc))


@pytest.mark.parametrize("facedown, zone", [(True, "banishment"), (False, "battlefield")])
def test_only_facedown_cards_are_banished_among_non_permanents(facedown, zone):
    """A card of A that B controls at a battlefield is banished if facedown; a face-up non-permanent is not."""
    hidden = {"id": "a_card", "owner": "a", "controller": "b", "zone": "battlefield", "cell": "bf1",
              "types": ["spell"], "flags": {"facedown": facedown}}
    res = run(rb(board=BOARD, objects=[hidden], events=CONCEDE_B, expect=[{"object": "a_card", "zone": zone}]))
    assert res.status.value == "pass", [(e.verdict, e.message) for e in res.expectations]


def test_last_finalised_item_resolves_not_an_unfinished_one_on_top():
    """A chain item still being played (not finalised) is skipped: the last finalised item below it resolves."""
    objects = [unit("d_unit", "d"), spell("a_spell", "a", "kill", "d_unit"),
               spell("c_spell", "c", "kill", "a_spell", flags={"finalised": False})]
    res = run(rb(players=passed("priority", "a", "c", "d"), objects=objects, events=CONCEDE_B,
                 turn={"active_player": "a", "priority": "b"},
                 expect=[{"action": "a_spell", "action_status": "resolved"},
                         {"action": "c_spell", "action_status": "on_stack"}, {"unique": True}]))
    assert res.status.value == "pass", [(e.verdict, e.message) for e in res.expectations]


def test_blank_battlefield_slot_is_created_when_none_is_named():
    """Without a named slot the game still replaces the battlefield: the effect ends and power is recomputed."""
    parts = {**REPLACE, "objects": [o for o in FIELDS if o["id"] != "blank"], "events": CONCEDE_B}
    res = run(rb(**parts, expect=[{"object": "c_unit", "attributes": {"power": 4}, "flags": {"mighty": False}},
                                  {"object": "b_field", "exists": False}, {"unique": True}]))
    assert res.status.value == "pass", [(e.verdict, e.message) for e in res.expectations]


def test_two_players_apply_no_removal_steps():
    """With two players the game ends: the winner is decided and no removal step runs."""
    res = run(rb(players=("a", "b"), objects=[unit("a_unit", "a", controller="b")], events=CONCEDE_B,
                 expect=[{"winner": "a"}, {"object": "a_unit", "zone": "base"}, {"unique": True}]))
    assert res.status.value == "pass", [(e.verdict, e.message) for e in res.expectations]


def test_blank_mapping_of_someone_elses_battlefield_is_an_error():
    """Naming a battlefield the conceding side did not provide is a clear error, not a traceback."""
    doc = rb(board=BOARD, objects=FIELDS, events=[{"type": "concede", "player": "b",
                                                    "blank_battlefields": {"a_field": "blank"}}])
    res = run(doc)
    assert res.status.value == "error"
    assert "'a_field' is not a battlefield provided by b's side" in res.error and "Traceback" not in res.error


def test_unknown_blank_slot_is_a_load_error_with_a_line():
    """A blank slot that is not a declared object is rejected on load, with the line."""
    doc = rb(board=BOARD, objects=FIELDS, events=[{"type": "concede", "player": "b",
                                                    "blank_battlefields": {"b_field": "nowhere"}}])
    res = run(doc)
    assert res.status.value == "error" and "unknown object 'nowhere'" in res.error and "test.yaml:" in res.error


def test_kill_aimed_at_a_player_is_a_clear_error():
    """An action whose target is not an object is reported as an error with the file, not a traceback."""
    res = run(rb(objects=[spell("a_spell", "a", "kill", "b")], events=CONCEDE_B))
    assert res.status.value == "error" and "needs a target object" in res.error and "test.yaml:" in res.error


def test_mighty_of_something_without_power_is_a_clear_error():
    """Only objects with power can be mighty; asking about another is an error, not a vacuous verdict."""
    res = run(rb(objects=[{"id": "b_card", "owner": "b", "zone": "hand"}],
                 expect=[{"object": "b_card", "flags": {"mighty": False}}]))
    assert res.status.value == "error" and "has no power" in res.error


# -- the library (each file is also a pytest item, through the arbiter plugin) ----------------------------
def test_library_cites_every_rule_and_every_seed_example():
    """Every rule is cited by a library scenario, and every example of the seed text has its scenario."""
    docs = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in LIBRARY]
    cited = {r for d in docs for r in d.get("rules", [])}
    assert set(RULES) <= cited, sorted(set(RULES) - cited)
    sources = " ".join(d.get("source", "") for d in docs)
    for example in ("Quatre deviennent trois", "Deux unités empruntées", "Une réponse disparaît", "+1 en puissance"):
        assert example in sources, example


def test_a_chain_items_source_is_a_checked_reference():
    """A chain item's `action.source` names the card whose ability it is: an unknown one is a located error; a
    known one is accepted and countering still reads control (the item stays when its source's owner leaves)."""
    item = {"id": "c_ability", "controller": "c", "zone": "chain", "types": ["ability"], "card": False,
            "action": {"kind": "kill", "targets": ["d_unit"], "source": "ghost"}}
    units = [{"id": "b_unit", "owner": "b", "controller": "c", "zone": "base", "types": ["unit"]},
             {"id": "d_unit", "owner": "d", "zone": "base", "types": ["unit"]}]
    res = run(rb(objects=units + [item], events=CONCEDE_B))
    assert res.status.value == "error" and "unknown object 'ghost'" in res.error and "test.yaml:" in res.error
    item["action"]["source"] = "b_unit"
    kept = run(rb(objects=units + [item], events=CONCEDE_B, expect=[{"action": "c_ability", "action_status": "on_stack"}]))
    assert kept.status.value == "pass", [e.message for e in kept.expectations]
    flipped = run(rb(objects=units + [item], events=CONCEDE_B,
                     expect=[{"action": "c_ability", "action_status": "countered"}]))
    assert flipped.status.value == "fail"


STEPS = ROOT / "scenarios" / "riftbound" / "concede.priority-step-before-the-item-resolves.yaml"


def _step_doc(**change) -> dict:
    """The library scenario of a step inside one concession, with expectation 0 changed."""
    doc = yaml.safe_load(STEPS.read_text(encoding="utf-8"))
    doc["expect"][0] = {k: v for k, v in {**doc["expect"][0], **change}.items() if v is not None}
    return doc


@pytest.mark.parametrize("change,verdict", [({}, "holds"), ({"step": None, "at": None}, "impossible"),
                                            ({"step": "removal: passes of priority"}, "impossible"),
                                            ({"step": "b concedes"}, "impossible")],
                         ids=["at-the-step", "at-the-end", "a-later-step", "an-earlier-step"])
def test_at_and_step_name_one_state_inside_a_concession(change, verdict):
    """'at' with 'step' reads the state after that step inside the event: priority is C's after the step of the
    holders only (before it B's, after the passes A's again); the same atoms at the end are impossible."""
    res = run(_step_doc(**change, because=None))
    assert res.expectations[0].verdict.value == verdict, res.error


@pytest.mark.parametrize("change,words", [
    ({"step": "passes of priority"}, ["step 'passes of priority' is not a step of event 1 (concede)",
                                      "'b concedes'", "'removal: passes of priority'"]),
    ({"at": None}, ["'step' names a step inside an event: it needs 'at'"]),
    ({"at": 0}, ["'step' names a step inside an event: it needs 'at'"])], ids=["unknown-step", "no-at", "at-0"])
def test_a_step_that_is_not_one_is_a_located_error(change, words):
    """An unknown step name is an error at the expectation listing the event's steps; 'step' needs an event."""
    res = run(_step_doc(**change))
    assert res.status.value == "error" and "test.yaml:" in res.error, res.error
    assert all(w in res.error for w in words), res.error
