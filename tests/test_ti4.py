"""Twilight Imperium 4 elimination (rule 75 / LRR 33): per-rule trivial, feasible and infeasible checks via the API."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from solver.run.api import check_file
from solver.check import rulebook
from solver.registry import ruleset_for
from solver.games.ti4.rules import RULES
from tests.helpers import run, scenario

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "scenarios" / "ti4"
THREE = ("alice", "bob", "carol")

#: Alice controls Lodor; Bob and Carol each have an infantry on the board.
BASE = [
    {"id": "lodor", "zone": "board", "types": ["planet"], "controller": "alice"},
    {"id": "bob_inf", "owner": "bob", "zone": "board", "types": ["ground_force"]},
    {"id": "carol_inf", "owner": "carol", "zone": "board", "types": ["ground_force"]},
]
#: Bob takes Lodor: Alice is eliminated unless something else keeps her in the game.
TAKE_LODOR = [{"type": "planet_control", "planet": "lodor", "player": "bob"}]
#: Nothing changes: the check runs on a state where Alice still controls Lodor.
IDLE = [{"type": "check_elimination"}]


def _obj(oid: str, zone: str, types: list[str], **more) -> dict:
    return {"id": oid, "zone": zone, "types": types, **more}


def _alice(status: str) -> dict:
    return {"player": "alice", "status": status}


ELIMINATED, IN_GAME = _alice("eliminated"), _alice("in_game")

#: rule id, extra objects, atoms that hold after Bob takes Lodor, atoms the rule excludes, atoms when nothing happens
CASES = [
    ("ti4.75.1", [], ELIMINATED, IN_GAME, IN_GAME),
    ("ti4.75.1a", [_obj("alice_inf", "board", ["ground_force", "infantry"], owner="alice")],
     IN_GAME, ELIMINATED, IN_GAME),
    ("ti4.75.1b", [_obj("alice_dock", "board", ["structure"], owner="alice", abilities=["production"])],
     IN_GAME, ELIMINATED, IN_GAME),
    ("ti4.75.1c", [_obj("quann", "board", ["planet"], controller="alice")], IN_GAME, ELIMINATED, IN_GAME),
    ("ti4.75.c4", [_obj("flagship", "board", ["ship", "flagship"], owner="alice", abilities=["produce_infantry"])],
     ELIMINATED, IN_GAME, IN_GAME),
    ("ti4.75.2", [_obj("alice_tech", "reinforcements", ["technology"], owner="alice")],
     {"object": "alice_tech", "zone": "box"}, {"object": "alice_tech", "zone": "reinforcements"},
     {"object": "alice_tech", "zone": "reinforcements"}),
    ("ti4.75.3", [_obj("law", "play_area", ["agenda"], controller="alice")],
     {"object": "law", "zone": "agenda_discard"}, {"object": "law", "zone": "play_area"},
     {"object": "law", "zone": "play_area", "controller": "alice"}),
    ("ti4.75.4", [_obj("bob_note", "hand", ["promissory_note"], owner="bob", controller="alice")],
     {"object": "bob_note", "zone": "hand", "controller": "bob"}, {"object": "bob_note", "zone": "box"},
     {"object": "bob_note", "controller": "alice"}),
    ("ti4.75.4a", [_obj("alice_note", "play_area", ["promissory_note"], owner="alice", controller="bob")],
     {"object": "alice_note", "zone": "box"}, {"object": "alice_note", "controller": "bob"},
     {"object": "alice_note", "zone": "play_area", "controller": "bob"}),
    ("ti4.75.5", [_obj("sabotage", "hand", ["action_card"], controller="alice")],
     {"object": "sabotage", "zone": "action_discard"}, {"object": "sabotage", "zone": "hand"},
     {"object": "sabotage", "zone": "hand"}),
    ("ti4.75.6", [_obj("warfare", "play_area", ["strategy_card"], controller="alice", flags={"exhausted": True})],
     {"object": "warfare", "zone": "common_area", "controller": "none"}, {"object": "warfare", "controller": "alice"},
     {"object": "warfare", "zone": "play_area", "controller": "alice"}),
    ("ti4.75.7", [_obj("secret", "play_area", ["secret_objective"], controller="alice")],
     {"object": "secret", "zone": "secret_deck"}, {"object": "secret", "zone": "play_area"},
     {"object": "secret", "zone": "play_area"}),
    ("ti4.75.8", [_obj("speaker", "play_area", ["speaker_token"], controller="alice")],
     {"object": "speaker", "controller": "bob"}, {"object": "speaker", "controller": "carol"},
     {"object": "speaker", "controller": "alice"}),
    ("ti4.75.10a", [_obj("tech", "play_area", ["faction_technology"], owner="alice"),
                    _obj("valefar", "play_area", ["assimilation_token"], owner="bob", attached_to="tech")],
     {"object": "tech", "zone": "play_area"}, {"object": "tech", "zone": "box"}, {"object": "tech", "zone": "play_area"}),
    ("ti4.75.10b", [_obj("alpha", "board", ["wormhole_token"], owner="alice")],
     {"object": "alpha", "zone": "board"}, {"object": "alpha", "zone": "box"}, {"object": "alpha", "zone": "board"}),
    ("ti4.75.10c", [_obj("zero", "play_area", ["zero_token"], owner="alice", controller="bob")],
     {"object": "zero", "zone": "play_area", "controller": "bob"}, {"object": "zero", "zone": "box"},
     {"object": "zero", "controller": "bob"}),
    ("ti4.75.10d", [_obj("quann", "board", ["planet"], controller="bob"),
                    _obj("hero", "board", ["hero"], owner="alice", attached_to="quann")],
     {"object": "hero", "zone": "board", "attached_to": "quann"}, {"object": "hero", "zone": "box"},
     {"object": "hero", "zone": "board"}),
    ("ti4.75.10e", [_obj("bob_token", "fleet_pool", ["command_token"], owner="bob", controller="alice")],
     {"object": "bob_token", "zone": "reinforcements", "controller": "bob"}, {"object": "bob_token", "zone": "fleet_pool"},
     {"object": "bob_token", "zone": "fleet_pool", "controller": "alice"}),
    ("ti4.75.10f", [_obj("alice_token", "fleet_pool", ["command_token"], owner="alice", controller="bob"),
                    _obj("commander", "play_area", ["commander"], owner="alice", flags={"unlocked": True})],
     {"object": "commander", "zone": "play_area"}, {"object": "commander", "zone": "box"},
     {"object": "commander", "zone": "play_area"}),
    ("ti4.75.11", [_obj("bob_ship", "captured", ["ship"], owner="bob", controller="alice")],
     {"object": "bob_ship", "zone": "reinforcements", "controller": "bob"}, {"object": "bob_ship", "zone": "captured"},
     {"object": "bob_ship", "zone": "captured", "controller": "alice"}),
    ("ti4.75.c5", [_obj("home", "board", ["system", "home_system"], owner="alice")],
     {"object": "home", "zone": "board"}, {"object": "home", "zone": "box"}, {"object": "home", "zone": "board"}),
    ("ti4.75.c6", [_obj("obsidian", "play_area", ["relic"], controller="alice"),
                   _obj("fragment", "play_area", ["relic_fragment"], controller="alice", properties={"trait": "cultural"})],
     {"object": "fragment", "zone": "cultural_discard"}, {"object": "fragment", "zone": "play_area"},
     {"object": "obsidian", "zone": "play_area"}),
    ("ti4.75.c7", [_obj("alice_ship", "captured", ["ship"], owner="alice", controller="bob")],
     {"object": "alice_ship", "zone": "captured", "controller": "bob"}, {"object": "alice_ship", "zone": "box"},
     {"object": "alice_ship", "zone": "captured"}),
]

#: rules that need more players: rule id, players, atoms that hold, atoms excluded, atoms when nothing happens
PLAYER_CASES = [
    ("ti4.75.9", ("alice", "bob", "carol", "dave", "erin"),
     {"player": "bob", "player_attributes": {"strategy_cards": 1}},
     {"player": "bob", "player_attributes": {"strategy_cards": 2}},
     {"player": "bob", "player_attributes": {"strategy_cards": 1}}),
    ("ti4.strategy_phase.count", ("alice", "bob", "carol", "dave"),
     {"player": "bob", "player_attributes": {"strategy_cards": 2}},
     {"player": "bob", "player_attributes": {"strategy_cards": 1}},
     {"player": "bob", "player_attributes": {"strategy_cards": 2}}),
]

ALL_CASES = [(rule, THREE, extra, holds, excluded, idle) for rule, extra, holds, excluded, idle in CASES] + \
            [(rule, players, [], holds, excluded, idle) for rule, players, holds, excluded, idle in PLAYER_CASES]
IDS = [c[0] for c in ALL_CASES]


def _doc(players, extra, events, expect) -> dict:
    objects = [o for o in BASE if o.get("owner") in (None, *players)] + extra
    return scenario("ti4", players=players, objects=objects, events=events, expect=expect)


@pytest.mark.parametrize("rule,players,extra,holds,excluded,idle", ALL_CASES, ids=IDS)
def test_trivial_nothing_happens_without_elimination(rule, players, extra, holds, excluded, idle):
    """Nobody is eliminated: the rule moves nothing; the state stays as it was."""
    res = run(_doc(players, extra, IDLE, [idle, IN_GAME, {"unique": True}]))
    assert res.status.value == "pass", [e.message for e in res.expectations]


@pytest.mark.parametrize("rule,players,extra,holds,excluded,idle", ALL_CASES, ids=IDS)
def test_feasible_rule_decides_the_outcome(rule, players, extra, holds, excluded, idle):
    """Bob takes Lodor: the rule's outcome holds, and the rule is behind it."""
    res = run(_doc(players, extra, TAKE_LODOR, [{**holds, "because": [rule]}, {"unique": True}]), why=True)
    assert res.status.value == "pass", [e.message for e in res.expectations]
    assert rule in res.expectations[0].rules


@pytest.mark.parametrize("rule,players,extra,holds,excluded,idle", ALL_CASES, ids=IDS)
def test_infeasible_rule_excludes_the_alternative(rule, players, extra, holds, excluded, idle):
    """The alternative the rule rules out is impossible, with the rule in the core; claimed to hold, it fails."""
    res = run(_doc(players, extra, TAKE_LODOR, [{**excluded, "verdict": "impossible", "because": [rule]},
                                                {**excluded}]), why=True)
    first, second = res.expectations
    assert first.passed and first.verdict.value == "impossible" and rule in first.rules
    assert not second.passed and second.verdict.value == "impossible"
    assert res.status.value == "fail" and "expected holds, but it is impossible" in second.message


# -- rule ids: 75 (seed) and 33 (English LRR) ------------------------------------------------------
@pytest.mark.parametrize("alias,canonical", [("ti4.33.4a", "ti4.75.4a"), ("ti4.33", "ti4.75"), ("ti4.33.10f", "ti4.75.10f"),
                                             ("ti4.75.1", "ti4.75.1"), ("ti4.330.1", "ti4.330.1")])
def test_alias_33_is_75(alias, canonical):
    """Rule 33.x of the English reference resolves to 75.x; other ids are untouched."""
    assert rulebook.canonical("ti4", alias) == canonical


def test_because_with_english_ids_finds_the_same_rule():
    """A scenario citing ti4.33.4a and ti4.33.1 passes exactly like one citing ti4.75.4a and ti4.75.1."""
    extra = [_obj("alice_note", "play_area", ["promissory_note"], owner="alice", controller="bob")]
    doc = _doc(THREE, extra, TAKE_LODOR, [{**ELIMINATED, "because": ["ti4.33.1"]},
                                          {"object": "alice_note", "zone": "box", "because": ["ti4.33.4a"]}])
    doc["rules"] = ["ti4.33.4a", "ti4.33.1"]
    res = run(doc)
    assert res.status.value == "pass", [e.message for e in res.expectations]


def test_unknown_english_id_is_an_error():
    """An alias that names no rule is reported with the file, not silently accepted."""
    doc = _doc(THREE, [], TAKE_LODOR, [ELIMINATED])
    doc["rules"] = ["ti4.33.99"]
    res = run(doc)
    assert res.status.value == "error" and "ti4.75.99" in res.error and "test.yaml" in res.error


# -- a false expectation fails with its reason ----------------------------------------------------
def test_false_expectation_fails_with_reason():
    """Claiming the speaker token goes to Carol (not to the player on the left) makes the scenario fail, citing 75.8."""
    extra = [_obj("speaker", "play_area", ["speaker_token"], controller="alice")]
    res = run(_doc(THREE, extra, TAKE_LODOR, [{"object": "speaker", "controller": "carol"}]))
    (ex,) = res.expectations
    assert res.status.value == "fail" and not ex.passed
    assert ex.verdict.value == "impossible" and "ti4.75.8" in ex.rules and "expected holds" in ex.message


def test_wrong_because_fails_with_reason():
    """The right verdict with a rule that is not behind it fails and names only the missing rule (aliases resolved)."""
    res = run(_doc(THREE, [], TAKE_LODOR, [{**ELIMINATED, "because": ["ti4.33.1", "ti4.75.8"]}]))
    (ex,) = res.expectations
    assert res.status.value == "fail" and ex.verdict.value == "holds"
    assert "ti4.75.8 does not decide it" in ex.message and "ti4.33.1" not in ex.message
    assert ex.message.endswith("ti4.75.8 decides these atoms at no stage, up to the end")


def test_naalu_zero_token_leaves_at_end_of_status_phase():
    """75.10c: the token stays with Bob until the status phase ends, then leaves the game."""
    extra = [_obj("zero", "play_area", ["zero_token"], owner="alice", controller="bob")]
    res = run(_doc(THREE, extra, TAKE_LODOR + [{"type": "end_status_phase"}],
                   [{"at": 1, "object": "zero", "controller": "bob"},
                    {"object": "zero", "exists": False, "because": ["ti4.75.10c"]}]))
    assert res.status.value == "pass", [e.message for e in res.expectations]


FOUR = ("alice", "bob", "carol", "dave")
FOUR_UNITS = [_obj(f"{p}_inf", "board", ["ground_force"], owner=p) for p in FOUR]


@pytest.mark.parametrize("at_start,given,holds,rule", [
    (5, None, 1, "ti4.75.9"),  # not given: what 75.9 makes it
    (4, None, 2, "ti4.strategy_phase.count"),  # trivial: a 4-player game picks two
    (5, 1, 1, None),  # given and agreeing: a fact
    (5, 2, None, "ti4.75.9"),  # given against 75.9: no legal outcome, the core names 75.9 and the fact
    (4, 1, None, "ti4.strategy_phase.count"),
])
def test_75_9_start_count_is_checked(at_start, given, holds, rule):
    """75.9 in the initial state: with 5+ players at the start and 4 in the game, one strategy card each, whether
    or not an elimination happens during the events; a given count against it is a contradiction naming the rule."""
    doc = scenario("ti4", players=FOUR, objects=FOUR_UNITS, events=IDLE, options={"players_at_start": at_start},
                   expect=[{"player": "alice", "player_attributes": {"strategy_cards": holds or given},
                            "because": [rule] if rule else []}])
    if given:
        doc["players"][0]["attributes"] = {"strategy_cards": given}
    res = run(doc, why=True)
    (ex,) = res.expectations
    if holds is None:
        assert res.status.value == "fail" and res.contradiction and ex.verdict.value == "impossible"
        assert f"rule {rule}" in res.contradiction and "fact alice.strategy_cards" in res.contradiction, res.contradiction
    else:
        assert res.status.value == "pass" and ex.verdict.value == "holds", ex.message
        assert rule is None or rule in ex.rules, ex.rules


def test_players_at_start_below_the_listed_players_is_refused():
    """Every listed player began the game: players_at_start below their number is a located error, never read as
    the number of players listed (a probe: 4 at the start with 5 listed was taken as 5)."""
    doc = scenario("ti4", players=FOUR, objects=FOUR_UNITS, events=IDLE, options={"players_at_start": 3},
                   expect=[{"player": "alice", "player_attributes": {"strategy_cards": 2}}])
    res = run(doc)
    assert res.status.value == "error" and "players_at_start is 3, but 4 players are listed" in res.error, res.error


CARRIER = _obj("carrier", "board", ["ship", "carrier"], owner="alice")


@pytest.mark.parametrize("extra,needle,oid", [
    ([_obj("inf", "board", ["ground_force"], owner="alice", attached_to="lodor")], "is no ship", "inf"),
    ([CARRIER, _obj("dock", "board", ["structure", "space_dock"], owner="alice", attached_to="carrier")],
     "transports only ground forces and fighters", "dock"),
    ([CARRIER, _obj("inf", "reinforcements", ["ground_force"], owner="alice", attached_to="carrier")],
     "it is where the ship is", "inf"),
])
def test_cargo_that_cannot_be_aboard_is_a_located_error(extra, needle, oid):
    """ti4.transport: a unit attached to what is no ship, a ship carrying a structure, cargo elsewhere than its ship:
    a located error at the object, never silently ignored."""
    res = run(_doc(THREE, extra, TAKE_LODOR, [ELIMINATED]))
    assert res.status.value == "error" and needle in res.error, res.error
    where, _, message = res.error.partition(": ")
    assert message.startswith(f"object {oid}: ") and int(where.split(":")[1]) > 1, res.error


def test_cargo_is_destroyed_with_its_ship_and_only_then():
    """ti4.transport: Alice's infantry aboard her carrier keeps her in the game when she loses Lodor; destroying the
    carrier first takes the infantry off the board too, and she is eliminated (the flipped expectation fails)."""
    inf = _obj("inf", "board", ["ground_force", "infantry"], owner="alice", attached_to="carrier")
    kept = run(_doc(THREE, [CARRIER, inf], TAKE_LODOR, [IN_GAME]))
    assert kept.status.value == "pass", [e.message for e in kept.expectations]
    gone = [{"type": "move", "object": "carrier", "zone": "reinforcements"}] + TAKE_LODOR
    assert run(_doc(THREE, [CARRIER, inf], gone, [ELIMINATED, {"object": "inf", "zone": "box"}])).status.value == "pass"
    assert run(_doc(THREE, [CARRIER, inf], gone, [IN_GAME])).status.value == "fail"


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("extra,events,needle", [
    ([_obj("frag", "play_area", ["relic_fragment"], controller="alice")], TAKE_LODOR, "trait"),
    ([], [{"type": "planet_control", "planet": "bob_inf", "player": "bob"}], "not a planet"),
    ([_obj("note", "hand", ["promissory_note"], controller="alice")], TAKE_LODOR, "needs an owner"),
])
def test_bad_input_is_a_one_line_error(extra, events, needle):
    """Inconsistent TI4 data is an error result with file and line, never a traceback."""
    res = run(_doc(THREE, extra, events, [ELIMINATED]))
    assert res.status.value == "error" and needle in res.error and res.error.startswith("test.yaml:")
    assert "\n" not in res.error and "Traceback" not in res.error


# -- the library ------------------------------------------------------------------------------------
def _cited() -> set[str]:
    out: set[str] = set()
    for path in LIBRARY.glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        out |= {rulebook.canonical("ti4", r) for r in doc.get("rules", [])}
        out |= {rulebook.canonical("ti4", b) for ex in doc.get("expect", []) for b in ex.get("because", [])}
    return out


def test_every_rule_has_a_scenario():
    """Every TI4 rule id is cited by at least one library scenario."""
    assert sorted(set(RULES) - _cited()) == []


SEED_POINTS = ["75.1", "75.1a", "75.1b", "75.1c", "75.2", "75.3", "75.4", "75.4a", "75.5", "75.6", "75.7", "75.8",
               "75.9", "75.10a", "75.10b", "75.10c", "75.10d", "75.10e", "75.10f", "75.11",
               "75.c4", "75.c5", "75.c5a", "75.c6", "75.c7"]


@pytest.mark.parametrize("point", SEED_POINTS)
def test_every_seed_point_is_a_rule(point):
    """Every numbered point and comment of the seed's rule 75 is a registered rule id."""
    assert f"ti4.{point}" in RULES


@pytest.mark.parametrize("name", ["75.1a-ground-force-prevents-elimination.yaml",
                                  "75.c4-arborec-flagship-lacks-production.yaml",
                                  "33.4a-english-numbering.yaml"])
def test_library_examples_pass(name):
    """The seed's Arborec example, a negative case and the alias scenario pass through check_file."""
    res = check_file(LIBRARY / name)
    assert res.status.value == "pass", [e.message for e in res.expectations]


# -- the elimination procedure after every event: pruning must never change an answer ----------------------
def test_cascade_is_checked_again():
    """Alice's infantry, controlled by Bob, goes to the box with her; the next check eliminates Bob too."""
    objects = [{"id": "lodor", "zone": "board", "types": ["planet"], "controller": "alice"},
               _obj("alice_inf", "board", ["ground_force"], owner="alice"),
               {"id": "carol_inf", "owner": "carol", "zone": "board", "types": ["ground_force"]}]
    effects = [{"id": "mind_control", "timestamp": 1, "kind": "control", "player": "bob", "targets": ["alice_inf"]}]
    doc = scenario("ti4", players=THREE, objects=objects, effects=effects,
                   events=[{"type": "planet_control", "planet": "lodor", "player": "carol"}, {"type": "check_elimination"}],
                   expect=[{"at": 1, "player": "bob", "status": "in_game"}, {"at": 1, "object": "alice_inf", "zone": "box"},
                           {"player": "bob", "status": "eliminated", "because": ["ti4.75.1"]},
                           {"player": "carol", "status": "in_game"}])
    res = run(doc)
    assert res.status.value == "pass", [e.message for e in res.expectations]


def test_procedure_skipped_only_when_nothing_it_reads_changed():
    """After the end of the status phase (no unit, planet or status touched) no second procedure is compiled."""
    from models.scenario import Scenario
    from solver.encoding.compile import Compiler
    from solver.games.ti4.ruleset import COMPONENTS

    def procedures(events) -> int:
        sc = Scenario.model_validate(_doc(THREE, [], events, []))
        comp = Compiler(sc, ruleset_for("ti4"))
        comp.compile_events()
        return sum(st.label == COMPONENTS for st in comp.stages)

    assert procedures(TAKE_LODOR + [{"type": "end_status_phase"}]) == 1
    assert procedures(TAKE_LODOR + [{"type": "move", "object": "bob_inf", "zone": "reinforcements"}]) == 2


ELIMINATED_CAPTURES = """\
id: eliminated-captures
game: ti4
players: [{id: alice}, {id: bob}, {id: carol}]
objects:
  - {id: p1, zone: board, types: [planet], controller: alice}
  - {id: bob_inf, owner: bob, zone: board, types: [ground_force]}
  - {id: carol_inf, owner: carol, zone: board, types: [ground_force]}
  - {id: carol_ship, owner: carol, zone: board, types: [ship]}
events:
  - {type: planet_control, planet: p1, player: bob}
  - {type: capture, player: alice, object: carol_ship}
expect:
  - {at: 1, player: alice, status: eliminated}
  - {object: carol_ship, zone: board, controller: carol, because: [ti4.75.out]}
  - {object: carol_ship, zone: captured, verdict: impossible, because: [ti4.75.out]}
"""


def test_an_eliminated_player_captures_nothing() -> None:
    """75: an eliminated player takes no part: a capture by them changes nothing (ti4.75.out decides it)."""
    from solver.run.api import check_text
    res = check_text(ELIMINATED_CAPTURES, "t.yaml")
    assert res.status.value == "pass", [e.message for e in res.expectations if not e.passed]
    flipped = check_text(ELIMINATED_CAPTURES.replace("zone: captured, verdict: impossible", "zone: captured"), "t.yaml")
    assert flipped.status.value == "fail"
