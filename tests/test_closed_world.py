"""Holes in the closed world (issue 21, item 6): a word is exactly a known word, or a located error.

Each kind of defect (spaces at either end, another case, a look-alike letter of another script, an invisible
character, a compatibility form) in each place a vocabulary word appears (an object's abilities, a grant effect's
``ability``, an expectation's ``abilities`` key, a card file), in every game: refused, with the nearest word and
the character shown escaped; the exact word passes. Then the other holes: every error of a file (rule ids, a
missing card library), an expectation about a state the scenario does not have, ``winner`` where no rule makes a
player win, a two-player MTG game left for another reason.
"""
from __future__ import annotations

import re
import unicodedata

import pytest
import yaml

from solver.run.api import check_text
from tests.helpers import run, scenario

#: game -> (an ability word, the scenario parts holding it in object, grant effect and expectation)
BASES = {
    "core": ("flying", dict(objects=[{"id": "a", "owner": "alice", "zone": "play", "types": ["creature"],
                                      "abilities": ["flying"]}])),
    "berserk": ("flying", dict(objects=[{"id": "a", "owner": "alice", "zone": "play", "types": ["creature"],
                                         "abilities": ["flying"]}])),
    "mtg": ("attack", dict(players=("alice", "bob", "carol"),
                           objects=[{"id": "a", "owner": "alice", "zone": "battlefield", "types": ["creature"],
                                     "abilities": ["attack"]}])),
    "riftbound": ("units_here_plus_one", dict(board={"cells": ["bf1"]}, objects=[
        {"id": "a", "owner": "alice", "zone": "battlefield", "cell": "bf1", "types": ["battlefield"],
         "abilities": ["units_here_plus_one"]}])),
    "ti4": ("production", dict(objects=[{"id": "a", "owner": "alice", "zone": "board", "types": ["unit", "structure"],
                                         "abilities": ["production"]},
                                        {"id": "b", "owner": "bob", "zone": "board", "types": ["ground_force"]}])),
}
CYRILLIC = {"a": "\u0430", "o": "\u043e", "e": "\u0435", "c": "\u0441", "p": "\u0440", "y": "\u0443"}


def _cyrillic(w: str) -> str:
    i = next(i for i, c in enumerate(w) if c in CYRILLIC)
    return w[:i] + CYRILLIC[w[i]] + w[i + 1:]


#: defect -> (how it spoils a word, what the message must show of it)
DEFECTS = {
    "trailing space": (lambda w: w + " ", "a trailing space"),
    "leading space": (lambda w: " " + w, "a leading space"),
    "two trailing spaces": (lambda w: w + "  ", "a trailing space"),
    "case": (lambda w: w.capitalize() if w[0].islower() else w.lower(), None),
    "upper case": (lambda w: w.upper(), None),
    "cyrillic look-alike": (_cyrillic, "CYRILLIC SMALL LETTER"),
    "zero-width space": (lambda w: w[:2] + "\u200b" + w[2:], "\\u200b"),
    "zero-width joiner at the end": (lambda w: w + "\u200d", "\\u200d"),
    "no-break space": (lambda w: w + "\u00a0", "\\u00a0"),
    "fullwidth letter": (lambda w: chr(ord(w[0]) - ord("a") + 0xFF41) + w[1:], "FULLWIDTH"),
    "tab": (lambda w: w + "\t", "\\u0009"),
}


def _places(game: str, word: str, spoilt: str) -> dict[str, dict]:
    """The base scenario of ``game`` with ``spoilt`` in each place a word of ``word``'s kind appears."""
    _, parts = BASES[game]

    def doc(objects_word: str, grant_word: str, expect_word: str) -> dict:
        objects = [dict(o, abilities=[objects_word]) if o["id"] == "a" else o for o in parts["objects"]]
        grant = {"id": "g", "kind": "grant", "ability": grant_word, "targets": ["a"], "timestamp": 1}
        return scenario(game, **{**parts, "objects": objects}, effects=[grant],
                        events=[{"type": "move", "object": "a", "zone": parts["objects"][0]["zone"],
                                 **({"cell": "bf1"} if game == "riftbound" else {})}],
                        expect=[{"object": "a", "abilities": {expect_word: True}}])
    return {"exact": doc(word, word, word), "object": doc(spoilt, word, word), "grant": doc(word, spoilt, word),
            "expectation": doc(word, word, spoilt)}


@pytest.mark.parametrize("game", sorted(BASES))
def test_the_exact_word_passes(game):
    """The base scenario with the exact word everywhere: no error, the expectation holds."""
    word, _ = BASES[game]
    res = run(_places(game, word, word)["exact"])
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


@pytest.mark.parametrize("place", ["object", "grant", "expectation"])
@pytest.mark.parametrize("defect", sorted(DEFECTS))
@pytest.mark.parametrize("game", sorted(BASES))
def test_a_word_not_exactly_known_is_refused(game, defect, place):
    """Refused at its place, naming the nearest word, with what cannot be seen escaped and named; no character the
    reader cannot see or tell apart appears raw in the message."""
    word, _ = BASES[game]
    spoil, shown = DEFECTS[defect]
    spoilt = spoil(word)
    assert spoilt != word
    res = run(_places(game, word, spoilt)[place])
    assert res.status.value == "error", res.status
    line = next((ln for ln in res.error.splitlines() if "unknown ability" in ln), "")
    assert re.search(r":\d+:\d+: ", line), res.error
    assert f"did you mean '{word}'" in line, line
    if shown is not None:
        assert shown in line, line
    raw = [c for c in line if unicodedata.category(c)[0] == "C" or (not c.isascii() and not c.isalpha())
           or c in spoilt and not c.isascii()]
    assert not raw, (raw, line)


@pytest.mark.parametrize("defect", ["trailing space", "cyrillic look-alike", "zero-width space", "case"])
@pytest.mark.parametrize("game,word,types,zone", [("berserk", "flying", ["creature"], "play"),
                                                  ("mtg", "attack", ["creature"], "battlefield")])
def test_a_card_file_word_not_exactly_known_is_refused(tmp_path, defect, game, word, types, zone):
    """A card file's ability is checked like a scenario's: refused at the card file's line, with the nearest word;
    the rest of the scenario is still checked (its own unknown zone is reported too)."""
    spoilt = DEFECTS[defect][0](word)
    (tmp_path / "pyproject.toml").write_text("")  # the project the card library lies in (README: the card-path rule)
    (tmp_path / "cards" / game).mkdir(parents=True)
    card = {"game": game, "cards": [{"id": "knight", "types": types, "abilities": [spoilt]}]}
    (tmp_path / "cards" / game / "set.yaml").write_text(yaml.safe_dump(card, allow_unicode=True), encoding="utf-8")
    players = ("alice", "bob", "carol") if game == "mtg" else ("alice", "bob")
    doc = scenario(game, players=players, objects=[{"id": "k", "card": "knight", "owner": "alice", "zone": zone},
                                                   {"id": "x", "owner": "bob", "zone": zone + "x", "types": types}])
    (tmp_path / "s").mkdir()
    path = tmp_path / "s" / "t.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    res = check_text(path.read_text(encoding="utf-8"), str(path))
    assert res.status.value == "error"
    assert re.search(r"set\.yaml:\d+:\d+: cards\[0\]\.abilities\[0\]: unknown ability .*did you mean "
                     f"'{word}'", res.error), res.error
    assert "objects[1].zone: unknown zone" in res.error, res.error
    clean = check_text(path.read_text(encoding="utf-8").replace(zone + "x", zone), str(path))
    (tmp_path / "cards" / game / "set.yaml").write_text(yaml.safe_dump(
        {**card, "cards": [{**card["cards"][0], "abilities": [word]}]}), encoding="utf-8")
    assert clean.status.value == "error"
    assert check_text(path.read_text(encoding="utf-8").replace(zone + "x", zone), str(path)).status.value == "pass"


@pytest.mark.parametrize("text,bad,hint", [
    ("incarnation  3", "written with a number", "one space"),
    ("incarnation 3 ", "written with a number", "a trailing space"),
    ("incarnation \uff13", "written with a number", "FULLWIDTH DIGIT THREE"),
    ("flying 2", "takes no number", "write 'flying'"),
])
def test_an_ability_with_a_number_is_written_exactly(text, bad, hint):
    """'incarnation 3': the name, one space, ASCII digits; nothing around it."""
    doc = scenario("berserk", objects=[{"id": "a", "owner": "alice", "zone": "hand", "types": ["creature"],
                                        "abilities": [text]}])
    res = run(doc)
    assert res.status.value == "error" and bad in res.error and hint in res.error, res.error
    ok = run(scenario("berserk", objects=[{"id": "a", "owner": "alice", "zone": "hand", "types": ["creature"],
                                           "abilities": ["incarnation 3"]}]))
    assert ok.status.value == "pass", ok.error


@pytest.mark.parametrize("value", ["2-3-4\n", "2-3-4 ", " 2-3-4", "2-3-\u0664"])
def test_a_pattern_matches_the_whole_value(value):
    """A property written like '2-3-4' is that and nothing more (no newline or space around it, ASCII digits)."""
    obj = {"id": "a", "owner": "alice", "zone": "play", "types": ["creature"], "properties": {"strike": value}}
    assert run(scenario("berserk", objects=[obj])).status.value == "error"
    assert run(scenario("berserk", objects=[dict(obj, properties={"strike": "2-3-4"})])).status.value == "pass"


# -- every error of a file -------------------------------------------------------------------------------------
def test_every_unknown_rule_id_is_reported_with_the_other_errors():
    """Each unknown rule id (in rules and in because), located, next to the file's other vocabulary errors."""
    doc = scenario("mtg", players=("alice", "bob", "carol"), rules=["mtg.nope.1", "mtg.800.4a.owned", "mtg.nope.2"],
                   objects=[{"id": "x", "owner": "alice", "zone": "battlefeld"}],
                   expect=[{"player": "alice", "status": "in_game", "because": ["mtg.nope.3"]}])
    res = run(doc)
    for where, what in (("rules[0]", "mtg.nope.1"), ("rules[2]", "mtg.nope.2"), ("expect[0].because[0]", "mtg.nope.3")):
        assert re.search(rf":\d+:\d+: {re.escape(where)}: unknown rule id '{what}'", res.error), res.error
    assert "objects[0].zone: unknown zone 'battlefeld'" in res.error
    assert "mtg.800.4a.owned" not in res.error


def test_a_missing_card_library_hides_no_other_error(tmp_path):
    """No library for a card reference: that reference is an error, and so is every other problem of the file."""
    doc = scenario("berserk", objects=[{"id": "k", "card": "knight", "owner": "alice", "zone": "play"},
                                       {"id": "w", "owner": "bob", "zone": "plya", "types": ["creature"]}],
                   expect=[{"player": "alice", "status": "in_gme"}])
    path = tmp_path / "t.yaml"
    res = check_text(yaml.safe_dump(doc, sort_keys=False), str(path))
    assert "objects[0].card: no card library for 'knight'" in res.error, res.error
    assert "objects[1].zone: unknown zone 'plya'" in res.error
    assert "expect[0].status: unknown player status 'in_gme'" in res.error


# -- expectations about a state the scenario has or does not have --------------------------------------------
@pytest.mark.parametrize("game,players,expect,verdict", [
    ("mtg", ("a", "b", "c"), {"player": "a", "player_attributes": {"life": 20}}, "holds"),
    ("mtg", ("a", "b", "c"), {"player": "a", "player_attributes": {"life": 19}}, "impossible"),
    ("mtg", ("a", "b", "c"), {"player": "a", "player_attributes": {"spells_cast": 0}}, "holds"),
    ("ti4", ("a", "b", "c"), {"player": "a", "player_attributes": {"strategy_cards": 2}}, "holds"),
])
def test_a_declared_default_is_state(game, players, expect, verdict):
    """A player attribute the scenario does not give has the game's declared default (MTG life 20: 103.4)."""
    res = run(scenario(game, players=players, expect=[expect]))
    assert res.status.value in ("pass", "fail") and res.expectations[0].verdict.value == verdict, res.error


@pytest.mark.parametrize("game,expect,name", [
    ("riftbound", {"player": "a", "player_attributes": {"points": 0}}, "player attribute 'points'"),
    ("riftbound", {"player": "a", "player_flags": {"passed_focus": True}}, None),
])
def test_an_expectation_about_no_state_is_a_located_error(game, expect, name):
    """No value given, no default, nothing sets it: a located error at the expectation naming what is missing,
    never a raw internal key (or, when a rule declares it, a verdict)."""
    res = run(scenario(game, players=("a", "b", "c"), expect=[expect]))
    if res.status.value == "error":
        assert re.search(r":\d+:\d+: expect\[0\]: nothing to check", res.error), res.error
        assert "('p" not in res.error
        if name:
            assert name in res.error
    else:
        assert name is None and res.expectations[0].verdict.value in ("holds", "impossible")


@pytest.mark.parametrize("game,players", [("ti4", ("alice", "bob"))])
def test_winner_is_refused_where_no_rule_makes_a_player_win(game, players):
    """TI4 is won by victory points, which no rule here models: winner and the status won are located errors."""
    doc = scenario(game, players=players, objects=[{"id": "i", "owner": "bob", "zone": "board",
                                                    "types": ["ground_force"]}],
                   events=[{"type": "check_elimination"}], expect=[{"winner": "bob"}, {"player": "bob", "status": "won"}])
    res = run(doc)
    assert re.search(r":\d+:\d+: expect\[0\]\.winner: 'winner' is read by no ti4 rule", res.error), res.error
    assert "expect[1].status: unknown player status 'won'" in res.error


@pytest.mark.parametrize("status,result", [("left", "error"), (None, "error"), ("conceded", "pass"), ("lost", "pass")])
def test_a_two_player_mtg_game_is_left_by_conceding_or_losing(status, result):
    """800.4 is for games of three or more: in a two-player game a player concedes or loses and the other wins."""
    ev = {"type": "leave_game", "player": "bob", **({"status": status} if status else {})}
    res = run(scenario("mtg", events=[ev], expect=[{"winner": "alice"}]))
    assert res.status.value == result, res.error
    if result == "error":
        assert re.search(r":\d+:\d+: events\[0\] \(leave_game\): .*two-player game", res.error), res.error
