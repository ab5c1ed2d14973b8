"""Closed world: every word a scenario uses is known to its game, every field it gives is read by a rule.

Per category: the game's example passes (trivial), a declared word is accepted (feasible), a word outside the
vocabulary or a field no rule reads is refused at file:line:col with the nearest known words (infeasible). Also:
every error of a file is reported, sorted and capped; the schemas and the docs are generated from the same
declarations and stay current; expectations say whose zone an object is in.
"""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from models.expectations import ACTION_STATUSES as MODEL_ACTION_STATUSES
from models.expectations import Expectation
from models.game_events import MODULES
from models.scenario import PLAYER_STATUSES, Scenario
from models.yamlsafe import load_yaml_file
from solver.registry import names, vocabulary_for
from solver.run.api import check_scenario, check_text
from solver.vocabulary import docs
from solver.load import MAX_ERRORS
from solver.vocabulary.check import nearest, problems
from solver.vocabulary.schema import combined_schema, game_schema
from solver.vocabulary.shared import ACTION_STATUSES, STATUSES, STRUCTURE
from tests.helpers import run

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
VOCAB_FILES = json.loads((HOSTILE / "vocabulary.json").read_text(encoding="utf-8"))
GAMES = [g for g in names() if g != "core"]


def example(game: str) -> dict:
    """The game's minimal example scenario, as data."""
    return yaml.safe_load(vocabulary_for(game).example)


def patched(game: str, change) -> dict:
    """The example with ``change`` applied to a copy."""
    doc = copy.deepcopy(example(game))
    change(doc)
    return doc


def first_object(doc: dict) -> dict:
    """The example's first object."""
    return doc["objects"][0]


# -- trivial: the examples ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", names())
def test_trivial_the_example_uses_only_known_words_and_passes(game: str) -> None:
    """A game's example scenario has no closed-world problem and passes."""
    assert problems(example(game)) == []
    res = check_text(vocabulary_for(game).example, f"{game}.yaml")
    assert res.status.value == "pass", res.error or [(e.description, e.message) for e in res.expectations]


# -- feasible: declared words are accepted ----------------------------------------------------------------------
FEASIBLE = {
    "berserk incarnation X": ("berserk", lambda d: first_object(d).update(abilities=["incarnation 3", "flying"])),
    "berserk strike property": ("berserk", lambda d: first_object(d).update(properties={"strike": "2-3-4"})),
    "berserk not_with a type": ("berserk", lambda d: first_object(d).update(properties={"not_with": "elf+hero"})),
    "berserk dice options": ("berserk", lambda d: d.update(options={"tier_weak": "1", "tier_medium": "2-4",
                                                                    "tier_strong": "5,6", "counterstrike": False})),
    "mtg declared player flag": ("mtg", lambda d: d.update(events=d["events"] + [
        {"type": "choice", "id": "pick", "player": "alex"}], expect=[{"player": "alex", "player_flags": {"pick": True}}])),
    "mtg zone_owner of a graveyard": ("mtg", lambda d: d["expect"].append(
        {"object": "bears", "zone_owner": "bianca", "verdict": "impossible"})),
    "riftbound computed flag expected": ("riftbound", lambda d: d.update(
        objects=[{"id": "u", "owner": "ann", "zone": "base", "types": ["unit"], "attributes": {"power": 5}}],
        expect=[{"object": "u", "flags": {"mighty": True}}])),
    "ti4 option and holder zone": ("ti4", lambda d: d.update(options={"players_at_start": 6})),
}


@pytest.mark.parametrize("case", sorted(FEASIBLE))
def test_feasible_declared_words_are_accepted(case: str) -> None:
    """Words of the vocabulary, with their formats, give no problem."""
    game, change = FEASIBLE[case]
    assert problems(patched(game, change)) == []


# -- infeasible: unknown words and unread fields are refused, located, with the nearest words ---------------------
INFEASIBLE = {
    "zone misspelt": ("berserk", lambda d: first_object(d).update(zone="plya"),
                      "objects[0].zone: unknown zone 'plya' for berserk; did you mean 'play'?"),
    "type plural": ("berserk", lambda d: first_object(d).update(types=["creatures"]),
                    "unknown object type 'creatures' for berserk; did you mean 'creature'?"),
    "ability case": ("ti4", lambda d: d["objects"][2].update(abilities=["Production"]),
                     "objects[2].abilities[0]: unknown ability 'Production' for ti4; did you mean 'production'?"),
    "ability with a number no rule reads": ("ti4", lambda d: d["objects"][2].update(abilities=["production 7"]),
                                            "ability 'production' takes no number"),
    "ability without its number": ("berserk", lambda d: first_object(d).update(abilities=["incarnation"]),
                                   "ability 'incarnation' is written with a number: 'incarnation X'"),
    "attribute unknown": ("berserk", lambda d: first_object(d).update(attributes={"lives": 3}),
                          "unknown attribute 'lives' for berserk; did you mean 'life'?"),
    "attribute out of range": ("berserk", lambda d: first_object(d).update(attributes={"life": -2}),
                               "attribute 'life' is between 0 and 1000000, not -2"),
    "property format": ("berserk", lambda d: first_object(d).update(properties={"strike": "3/4/5"}),
                        "property 'strike' is written like '2-3-4', not '3/4/5'"),
    "property value": ("berserk", lambda d: first_object(d).update(properties={"element": "Darkness"}),
                       "unknown value 'Darkness' of property 'element'; did you mean 'darkness'?"),
    "retired alignment": ("berserk", lambda d: first_object(d).update(properties={"alignment": "dark"}),
                          ("unknown property 'alignment' for berserk: 'alignment' is now the card's `element` "
                           "(mountains, forests, steppes, swamps, darkness, neutral): alignment dark is element "
                           "darkness")),
    "not_with names nothing": ("berserk", lambda d: first_object(d).update(properties={"not_with": "dwarf"}),
                               "'dwarf' in property 'not_with' is no card id, name, type or property value"),
    "flag unknown": ("berserk", lambda d: first_object(d).update(flags={"opened": True}),
                     "unknown flag 'opened' for berserk; did you mean 'open'?"),
    "computed flag given": ("riftbound", lambda d: d.update(objects=[{"id": "u", "owner": "ann", "zone": "base",
                                                                      "types": ["unit"], "flags": {"mighty": True}}]),
                            "flag 'mighty' is computed by the riftbound rules"),
    "player status of another game": ("mtg", lambda d: d["expect"].append({"player": "alex", "status": "eliminated"}),
                                      "unknown player status 'eliminated' for mtg"),
    "action kind": ("berserk", lambda d: d["events"][0].update(kind="opne"),
                    "unknown action kind 'opne' for berserk; did you mean 'open'?"),
    "targets no rule reads": ("mtg", lambda d: d.update(events=[{"type": "declare", "id": "s", "actor": "alex",
                                                                  "kind": "spell", "targets": ["bears"]}]),
                              "action kind 'spell' takes no targets: no mtg rule reads them"),
    "parameter no rule reads": ("berserk", lambda d: d["events"][0].update(params={"x": 2}),
                                "parameter 'x' is not read by action kind 'open' of berserk"),
    "required parameter": ("berserk", lambda d: d["events"][0].update(kind="finishing_blow"),
                           "action kind 'finishing_blow' needs the parameter 'x'"),
    "event type of another game": ("berserk", lambda d: d["events"].append({"type": "leave_game", "player": "bob"}),
                                   "unknown event type 'leave_game' for berserk"),
    "event field no rule reads": ("berserk", lambda d: d["events"].append(
        {"type": "concede", "player": "bob", "blank_battlefields": {"knight": "x"}}),
        "unknown field 'blank_battlefields' of a 'concede' event for berserk: no berserk rule reads it"),
    "option misspelt": ("ti4", lambda d: d.update(options={"player_at_start": 6}),
                        "unknown option 'player_at_start' for ti4; did you mean 'players_at_start'?"),
    "option out of range": ("ti4", lambda d: d.update(options={"players_at_start": 40}),
                            "option 'players_at_start' is between 1 and 8, not 40"),
    "feature the game does not read": ("mtg", lambda d: d.update(board={"rows": 1, "cols": 1}),
                                       "'board' is not read by any mtg rule"),
    "team in a game without teams": ("ti4", lambda d: d["players"][0].update(team="red"),
                                     "'team' is not read by any ti4 rule"),
    "permission unknown": ("berserk", lambda d: d.update(effects=[{"id": "e", "timestamp": 1, "kind": "prohibit",
                                                                   "action": "fly", "targets": ["knight"]}]),
                           "unknown permission 'fly' for berserk; did you mean 'flying'?"),
    "required type missing": ("ti4", lambda d: d["objects"][2].update(types=["space_dock"]),
                              "type 'space_dock' is a structure: list 'structure' too"),
    "zone_owner of a shared zone": ("mtg", lambda d: d["expect"].append({"object": "bears", "zone": "battlefield",
                                                                          "zone_owner": "alex"}),
                                    "zone 'battlefield' of mtg belongs to no player"),
}


@pytest.mark.parametrize("case", sorted(INFEASIBLE))
def test_infeasible_unknown_words_are_refused_located_with_the_nearest(case: str) -> None:
    """The file is an error, at FILE:LINE:COL, naming the word, where it is and the nearest known words."""
    game, change, message = INFEASIBLE[case]
    res = run(patched(game, change))
    assert res.status.value == "error", res.status
    assert message in res.error, res.error
    assert re.search(r"test\.yaml:\d+:\d+: ", res.error), res.error


def test_a_refused_word_flipped_back_passes() -> None:
    """The same scenario with the word spelt right passes: the refusal is about the word, nothing else."""
    bad = patched("ti4", lambda d: d["objects"][2].update(abilities=["Production"]))
    good = patched("ti4", lambda d: d["objects"][2].update(abilities=["production"]))
    assert run(bad).status.value == "error" and run(good).status.value == "pass"


def test_an_in_memory_scenario_is_checked_too() -> None:
    """Scenarios built in memory (scripts, generators) meet the same vocabulary."""
    sc = Scenario.model_validate(patched("ti4", lambda d: d["objects"][1].update(types=["ground_forces"])))
    res = check_scenario(sc)
    assert res.status.value == "error" and "did you mean 'ground_force'?" in res.error


@pytest.mark.parametrize("word, known, expected", [
    ("Production", ["production", "produce_infantry"], ["production"]),
    ("ground_forces", ["ground_force", "infantry"], ["ground_force"]),
    ("graveyrad", ["graveyard", "hand"], ["graveyard"]),
    ("zzz", ["graveyard", "hand"], []),
])
def test_nearest_prefers_case_and_plural_variants(word, known, expected) -> None:
    """Another case or number of a known word comes first and alone; else the closest spellings."""
    assert nearest(word, known) == expected


# -- every error of a file ------------------------------------------------------------------------------------
THREE = """\
id: three
game: ti4
options: {player_at_start: 6}
players: [{id: alice}, {id: bob}]
objects:
  - {id: dock, owner: alice, zone: board, types: [Infantry], abilities: [Production]}
  - {id: inf, owner: zed, zone: board, types: [ground_force]}
expect:
  - {player: alice, status: eliminated, verdict: sometimes}
"""


def test_every_error_of_a_file_is_reported_sorted_by_line() -> None:
    """Vocabulary, reference and field errors of one file come together, one a line, in line order."""
    res = check_text(THREE, "three.yaml")
    lines = res.error.splitlines()
    assert [int(re.match(r"three\.yaml:(\d+):", x).group(1)) for x in lines] == [3, 6, 6, 9], lines
    assert "player_at_start" in lines[0] and "Infantry" in lines[1] and "Production" in lines[2]
    assert "verdict" in lines[3]
    fixed = THREE.replace("zed", "bob").replace("verdict: sometimes", "verdict: possible")
    assert "unknown player 'zed'" in check_text(fixed.replace("owner: bob", "owner: zed"), "x.yaml").error


def test_errors_are_capped_with_a_count_of_the_rest() -> None:
    """A file with more errors than the cap shows the first ones and counts the others."""
    n = MAX_ERRORS + 7
    text = "id: many\ngame: berserk\nplayers: [{id: a}]\nobjects:\n" + "".join(
        f"  - {{id: o{i}, zone: play, types: [creatur]}}\n" for i in range(n))
    lines = check_text(text, "many.yaml").error.splitlines()
    assert len(lines) == MAX_ERRORS + 1 and lines[-1].endswith(f"7 more errors from here on (only the first "
                                                               f"{MAX_ERRORS} are shown)")


# -- one declared set, consistent with the models ---------------------------------------------------------------
def test_player_statuses_are_one_documented_set() -> None:
    """The shared statuses are the models' statuses, each with one meaning; each game uses a subset of them."""
    assert {w.name for w in STATUSES} == set(PLAYER_STATUSES) and len(STATUSES) == len(PLAYER_STATUSES)
    assert set(Expectation.model_fields["status"].annotation.__args__[0].__args__) == set(PLAYER_STATUSES)
    for g in names():
        assert set(vocabulary_for(g).names("statuses")) <= set(PLAYER_STATUSES)
        assert set(vocabulary_for(g).names("action_statuses")) <= set(MODEL_ACTION_STATUSES)
    assert {w.name for w in ACTION_STATUSES} < set(MODEL_ACTION_STATUSES)


@pytest.mark.parametrize("game", names())
def test_words_have_one_line_meanings_and_no_duplicates(game: str) -> None:
    """Every word has a one-line meaning, and no category names a word twice."""
    v = vocabulary_for(game)
    for category in ("zones", "types", "abilities", "attributes", "properties", "flags", "derived_flags",
                     "player_attributes", "player_flags", "permissions", "actions", "action_statuses", "events",
                     "statuses", "options", "features", "declared"):
        names_ = v.names(category)
        assert len(names_) == len(set(names_)), (category, names_)
        for w in v.words(category):
            assert w.meaning and "\n" not in w.meaning, (category, w.name)


@pytest.mark.parametrize("game", names())
def test_event_fields_are_fields_of_the_event_models(game: str) -> None:
    """Each declared event field exists on its pydantic model (what a rule reads can be written)."""
    models = {e.model_fields["type"].annotation.__args__[0]: e for mod in MODULES.values() for e in mod.EVENTS}
    for ev in vocabulary_for(game).events:
        fields = set(models[ev.name].model_fields)
        assert {f.name for f in ev.fields} <= fields, ev.name


def test_the_documented_format_covers_every_model_field() -> None:
    """The scenario-format section of the docs names exactly the models' fields."""
    from models.effects import Effect, Selector, Trigger
    from models.scenario import ActionSpec, Board, GameObject, Player, TurnState
    models = {"Scenario": Scenario, "Player": Player, "Board": Board, "Object": GameObject, "Trigger": Trigger,
              "ActionSpec": ActionSpec,
              "Effect": Effect, "Selector": Selector, "Turn": TurnState, "Expectation": Expectation}
    for section, model in models.items():
        assert [w.name for w in STRUCTURE[section]] == list(model.model_fields), section


# -- generated: docs and schemas --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", names())
def test_docs_are_generated_and_current(game: str) -> None:
    """docs/games/<game>.md is what the declarations give today (regenerate: python -m solver.vocabulary.docs)."""
    path = ROOT / "docs" / "games" / f"{game}.md"
    assert path.read_text(encoding="utf-8") == docs.render(game), "stale: python -m solver.vocabulary.docs"


@pytest.mark.parametrize("game", names())
def test_docs_name_every_word(game: str) -> None:
    """The reference names every word, event field and rule id of the game."""
    text = docs.render(game)
    v = vocabulary_for(game)
    for category in ("zones", "types", "abilities", "attributes", "properties", "flags", "derived_flags",
                     "player_attributes", "player_flags", "permissions", "actions", "events", "statuses", "options"):
        for w in v.words(category):
            assert f"`{w.name}" in text, (category, w.name)
    from solver.registry import game as game_named
    assert all(f"`{r}`" in text for r in game_named(game).rule_texts())


def test_readme_links_the_docs_and_shows_the_schema_header() -> None:
    """README links each game's reference and shows the yaml-language-server line."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"docs/games/{g}.md" in readme for g in names())
    assert "# yaml-language-server: $schema=" in readme


SCHEMAS = {g: jsonschema.Draft7Validator(game_schema(g)) for g in names()}
COMBINED = jsonschema.Draft7Validator(combined_schema())
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))


def test_schemas_are_valid_draft07() -> None:
    """Each game's schema and the combined one are draft-07 schemas."""
    for g in names():
        jsonschema.Draft7Validator.check_schema(game_schema(g))
    jsonschema.Draft7Validator.check_schema(combined_schema())


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_game_schema_accepts_every_library_scenario(path: Path) -> None:
    """``arbiter schema --game G`` accepts every library scenario of G; so does the combined schema."""
    data, _ = load_yaml_file(path)
    assert not [e.message for e in SCHEMAS[data["game"]].iter_errors(data)]
    assert not [e.message for e in COMBINED.iter_errors(data)]


@pytest.mark.parametrize("name", sorted(VOCAB_FILES))
def test_game_schema_rejects_every_vocabulary_error_file(name: str) -> None:
    """``arbiter schema --game G`` (and the combined schema) rejects each vocabulary-error file of G."""
    data, _ = load_yaml_file(HOSTILE / "corpus" / name)
    assert list(SCHEMAS[VOCAB_FILES[name]["game"]].iter_errors(data))
    assert list(COMBINED.iter_errors(data))


def test_game_schema_enumerates_the_words() -> None:
    """Zones, types, abilities, action kinds and event types are enums an editor completes."""
    s = game_schema("mtg")
    d = s["definitions"]
    assert d["GameObject"]["properties"]["zone"]["enum"] == list(vocabulary_for("mtg").names("zones"))
    assert "creature" in d["GameObject"]["properties"]["types"]["items"]["enum"]
    assert d["Declare"]["properties"]["kind"]["enum"] == list(vocabulary_for("mtg").names("actions"))
    assert "return_to_battlefield" in d["Declare"]["properties"]["kind"]["enum"]
    events = {x["$ref"].split("/")[-1] for x in s["properties"]["events"]["items"]["oneOf"]}
    assert "LeaveGame" in events and "Concede" not in events


# -- whose zone ------------------------------------------------------------------------------------------------
OWNERS = {
    "mtg owner zone": ("mtg", [{"object": "bears", "zone": "graveyard", "zone_owner": "bianca"},
                               {"object": "bears", "owner": "bianca"}],
                       [{"object": "bears", "zone_owner": "alex"}, {"object": "bears", "owner": "alex"}]),
    "ti4 holder zone": ("ti4", [{"object": "note", "zone": "hand", "zone_owner": "bob"},
                                {"object": "note", "owner": "alice"}],
                        [{"object": "note", "zone_owner": "alice"}]),
}
BASES = {
    "mtg": dict(players=[{"id": "alex"}, {"id": "bianca"}, {"id": "carla"}],
                objects=[{"id": "bears", "owner": "bianca", "controller": "alex", "zone": "battlefield",
                          "types": ["creature"]}],
                events=[{"type": "move", "object": "bears", "zone": "graveyard"}]),
    "ti4": dict(players=[{"id": "alice"}, {"id": "bob"}],
                objects=[{"id": "note", "owner": "alice", "controller": "bob", "zone": "hand",
                          "types": ["promissory_note"]},
                         {"id": "p", "zone": "board", "controller": "alice", "types": ["planet"]},
                         {"id": "q", "zone": "board", "controller": "bob", "types": ["planet"]}]),
}


@pytest.mark.parametrize("case", sorted(OWNERS))
def test_expectations_say_whose_zone_and_who_owns(case: str) -> None:
    """zone_owner: an owner zone is its owner's, a holder zone its holder's; owner never changes; the wrong
    player is impossible, and expecting it to hold fails."""
    game, right, wrong = OWNERS[case]
    doc = {"id": "t", "game": game, **BASES[game], "expect": right + [{**w, "verdict": "impossible"} for w in wrong]}
    res = run(doc)
    assert res.status.value == "pass", res.error or [(e.description, e.verdict.value) for e in res.expectations]
    flipped = {**doc, "expect": wrong}
    assert run(flipped).status.value == "fail"
