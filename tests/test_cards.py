"""Card libraries: cards defined once per game, placed into scenarios by ``card: <id>``, validated like scenarios.

Placing (what an object gets, what it overrides, the effects and action parameters a card grants), where a
scenario finds its library, the located errors of card files and of placements, shipping card files to workers
(and --resume noticing a changed card), and the bundled library: the same verdicts as written out by hand.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from models.loader import load_scenario, load_scenario_text
from models.scenario import Scenario
from models.yamlsafe import LoadError, LoadErrors
from solver.cli import app
from solver.run.api import check_file, check_text
from solver.run.batch.jobs import collect, file_job
from solver.run.single import check_scenario_data
from solver.vocabulary.check import load_checked

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "scenarios"

CARDS = """\
game: berserk
cards:
  - id: knight
    name: Knight of the Order
    types: [creature]
    attributes: {life: 5, tokens: 0}
    properties: {strike: "2-3-4"}
    abilities: [flying]
  - id: warden
    name: Warden
    types: [creature]
    effects:
      - {id: ban, kind: prohibit, action: accumulate_tokens, targets: {types: [creature], controlled_by: source_opponent}}
  - id: cloak
    name: Cloak
    types: [equipment]
    effects:
      - {id: shadow, kind: set, attribute: alignment, value: dark, targets: attached}
  - id: executioner
    name: Executioner
    types: [creature]
    actions:
      - {kind: finishing_blow, params: {x: 2}, text: "Finishing blow 2"}
  - id: phoenix
    name: Phoenix
    text: "Incarnation 4; protection from non-magical attacks of strength 3 or more."
    types: [creature]
    abilities: [incarnation 4]
    attributes: {protection_nonmagical: 3}
"""

HEAD = """\
id: t
game: berserk
players: [{id: alice}, {id: bob}]
"""


def tree(tmp_path: Path, scenario: str, cards: str = CARDS, where: str = "cards/berserk/set.yaml") -> Path:
    """A project at tmp (its pyproject.toml) with a scenario file under scenarios/ and a card library at ``where``;
    the scenario's path."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 't'\n", encoding="utf-8")
    lib = tmp_path / where
    lib.parent.mkdir(parents=True, exist_ok=True)
    lib.write_text(cards, encoding="utf-8")
    path = tmp_path / "scenarios" / "berserk" / "t.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEAD + textwrap.dedent(scenario), encoding="utf-8")
    return path


def errors(path: Path) -> str:
    """Every located error of a scenario file (what check prints), as one text."""
    with pytest.raises((LoadError, LoadErrors)) as exc:
        load_checked(path)
    return str(exc.value)


# -- placing ---------------------------------------------------------------------------------------------------
def test_an_object_gets_everything_its_card_gives(tmp_path):
    """`card: knight` gives name, types, attributes, properties, abilities: the object is the card."""
    sc = load_scenario(tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n")).scenario
    k = sc.objects[0]
    assert (k.name, k.types, k.attributes, k.properties, k.abilities, k.card) == (
        "Knight of the Order", ["creature"], {"life": 5, "tokens": 0}, {"strike": "2-3-4"}, ["flying"], True)


def test_abilities_and_attributes_with_their_numbers(tmp_path):
    """"Incarnation 4" and "protection from non-magical attacks of strength 3 or more" come with the card, and the
    rules read them: the Phoenix incarnates at X = 4."""
    res = check_file(tree(tmp_path, """\
        board: {rows: 1, cols: 2}
        objects:
          - {id: p, card: phoenix, owner: alice, zone: graveyard}
        events:
          - {type: declare, id: inc, actor: alice, kind: incarnate, source: p, params: {cell: r1c1}}
          - {type: resolve, action: inc}
        expect:
          - {object: p, zone: play, cell: r1c1, attributes: {incarnation: 4, protection_nonmagical: 3}}
        """))
    assert res.status.value == "pass", res


def test_what_the_object_restates_overrides_the_card(tmp_path):
    """A restated mapping overrides key by key (the other keys stay); a restated list replaces the card's."""
    sc = load_scenario(tree(tmp_path, """\
        objects:
          - {id: k, card: knight, owner: alice, zone: play, name: Wounded knight, attributes: {life: 2},
             abilities: []}
        """)).scenario
    k = sc.objects[0]
    assert (k.name, k.attributes, k.abilities, k.types) == ("Wounded knight", {"life": 2, "tokens": 0}, [],
                                                            ["creature"])


def test_granted_effects_are_the_objects_with_its_timestamp(tmp_path):
    """Each effect the card grants is `<object>_<effect>`: the object its source, its timestamp, relative targets."""
    sc = load_scenario(tree(tmp_path, """\
        objects:
          - {id: w, card: warden, owner: alice, zone: play, timestamp: 4}
          - {id: hero, owner: bob, zone: play, types: [creature, hero], properties: {alignment: light}}
          - {id: c, card: cloak, owner: bob, zone: play, attached_to: hero, timestamp: 7}
        """)).scenario
    by_id = {e.id: e for e in sc.effects}
    assert set(by_id) == {"w_ban", "c_shadow"}
    ban, shadow = by_id["w_ban"], by_id["c_shadow"]
    assert (ban.source, ban.timestamp, ban.kind, ban.action, ban.duration) == ("w", 4, "prohibit", "accumulate_tokens",
                                                                              "static")
    assert ban.targets.controlled_by == "source_opponent" and ban.targets.types == ["creature"]
    assert (shadow.source, shadow.timestamp, shadow.targets) == ("c", 7, ["hero"])


def test_a_granted_effect_decides_like_a_written_one(tmp_path):
    """The Warden's prohibition makes Bob's creature's accumulation illegal, because of 525.2."""
    res = check_file(tree(tmp_path, """\
        objects:
          - {id: w, card: warden, owner: alice, zone: play, timestamp: 1}
          - {id: k, card: knight, owner: bob, zone: play}
        effects:
          - {id: may, source: k, timestamp: 0, kind: permit, action: accumulate_tokens, targets: [k], duration: static}
        events:
          - {type: declare, id: acc, actor: bob, kind: accumulate_tokens, source: k}
        expect:
          - {action: acc, action_status: illegal, because: [berserk.524.2]}
        """))
    assert res.status.value == "pass", res


def test_the_scenario_restates_a_granted_effect_by_its_id(tmp_path):
    """An effect of the scenario with the id a card would give replaces the card's (here: a later timestamp)."""
    sc = load_scenario(tree(tmp_path, """\
        objects:
          - {id: w, card: warden, owner: alice, zone: play, timestamp: 4}
        effects:
          - {id: w_ban, source: w, timestamp: 9, kind: prohibit, action: accumulate_tokens, targets: [w]}
        """)).scenario
    assert [(e.id, e.timestamp, e.targets) for e in sc.effects] == [("w_ban", 9, ["w"])]


def test_an_action_the_card_grants_gets_its_parameters(tmp_path):
    """A declared finishing blow of the Executioner needs no `x`: the card's text gives 2; the event may restate."""
    body = """\
        objects:
          - {id: ex, card: executioner, owner: alice, zone: play}
          - {id: k, card: knight, owner: bob, zone: play, attributes: {life: LIFE}}
        events:
          - {type: declare, id: blow, actor: alice, kind: finishing_blow, source: ex, targets: [k]}
          - {type: resolve, action: blow}
        expect:
          - {object: k, zone: graveyard}
        """
    assert check_file(tree(tmp_path, body.replace("LIFE", "2"))).status.value == "pass"
    # a knight with 3 lives: the blow is illegal when declared, never on the stack; resolving it would be a located
    # error (only an action on the stack resolves), so this copy only declares it
    declared_only = "\n".join(x for x in body.replace("LIFE", "3").split("\n") if "resolve" not in x)
    res = check_file(tree(tmp_path, declared_only))
    assert res.status.value == "fail" and res.actions[0].statuses == ["illegal"]
    res = check_file(tree(tmp_path, body.replace("LIFE", "3")))
    assert res.status.value == "error" and "events[1] (resolve)" in res.error
    sc = load_scenario(tree(tmp_path, body.replace("LIFE", "3").replace("targets: [k]}", "targets: [k],"
                                                                        " params: {x: 3}}"))).scenario
    assert sc.events[0].params == {"x": 3}


# -- where the library is ----------------------------------------------------------------------------------------
def test_the_nearest_library_up_the_folders_is_used(tmp_path):
    """cards/<game>/ next to the scenario's folder, or above it: the nearest one."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n")
    near = path.parent / "cards" / "berserk" / "near.yaml"
    near.parent.mkdir(parents=True)
    near.write_text(CARDS.replace("Knight of the Order", "Near knight"), encoding="utf-8")
    assert load_scenario(path).scenario.objects[0].name == "Near knight"


def test_cards_field_names_the_library_relative_to_the_file(tmp_path):
    """`cards:` names files or folders, relative to the scenario file; a missing one is a located error."""
    path = tree(tmp_path, "cards: [../../lib]\nobjects:\n  - {id: k, card: knight, owner: alice, zone: play}\n",
                where="lib/x.yaml")
    assert load_scenario(path).scenario.objects[0].name == "Knight of the Order"
    path.write_text(path.read_text().replace("../../lib", "../../nowhere"))
    assert "t.yaml:4:9: cards: no such card file or folder: ../../nowhere" in errors(path)
    path.write_text(path.read_text().replace("[../../nowhere]", "../../lib"))
    assert "t.yaml:4:8: cards: a list of card files or folders" in errors(path)
    path.write_text(path.read_text().replace("cards: ../../lib", "cards: [5]"))
    assert "t.yaml:4:9: cards[0]: a card file or folder (a path), not 5" in errors(path)


def test_cards_option_gives_the_library(tmp_path):
    """`arbiter check --cards DIR` gives the library; without it the card is unknown (no library found)."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n"
                          "expect:\n  - {object: k, zone: play}\n", where="lib/x.yaml")
    runner = CliRunner()
    without = runner.invoke(app, ["check", str(path)])
    assert without.exit_code == 2 and "no card library for 'knight'" in without.stdout
    given = runner.invoke(app, ["check", str(path), "--cards", str(tmp_path / "lib")])
    assert given.exit_code == 0, given.stdout


# -- located errors ---------------------------------------------------------------------------------------------
def test_unknown_card_is_located_with_the_nearest_ids(tmp_path):
    """A card the library does not define: at the `card:` value, with the nearest ids."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knigt, owner: alice, zone: play}\n")
    assert "t.yaml:5:19: objects[0].card: unknown card 'knigt' for berserk; did you mean 'knight'?" in errors(path)


def test_a_card_in_play_granting_effects_needs_a_timestamp(tmp_path):
    """A card in play at the start grants effects applied before the scenario: their time is needed, a located error
    at the card reference."""
    res = check_file(tree(tmp_path, "objects:\n  - {id: w, card: warden, owner: alice, zone: play}\n"))
    assert res.status.value == "error"
    assert "t.yaml:5:19: effects[0] (effect w_ban): its source w is in play at the start: give it a timestamp" \
        in res.error


def test_a_card_entering_later_needs_no_timestamp(tmp_path):
    """A card in the hand: its static ability counts from when it enters, which the events order."""
    path = tree(tmp_path, """\
        objects:
          - {id: w, card: warden, owner: alice, zone: hand}
          - {id: k, card: knight, owner: bob, zone: play}
        events:
          - {type: move, object: w, zone: play}
        expect:
          - {at: 0, effect: w_ban, effect_active: false}
          - {effect: w_ban, effect_active: true}
        """)
    sc = load_scenario(path).scenario
    assert sc.effects[0].id == "w_ban" and sc.effects[0].timestamp is None
    res = check_file(path)
    assert res.status.value == "pass", res.error or [e.message for e in res.expectations]


def test_a_card_granting_a_non_static_effect_needs_a_timestamp(tmp_path):
    """An effect that is no static ability does not wait for its card to enter: it needs its time (located)."""
    cards = CARDS.replace("targets: {types: [creature], controlled_by: source_opponent}}",
                          "targets: {types: [creature], controlled_by: source_opponent}, duration: permanent}")
    msg = errors(tree(tmp_path, "objects:\n  - {id: w, card: warden, owner: alice, zone: hand}\n", cards))
    assert "t.yaml:5:19: objects[0].card: card 'warden' grants effects (ban): give the object a `timestamp`" in msg


@pytest.mark.parametrize("obj, message", [
    ("{id: c, card: cloak, owner: bob, zone: play, timestamp: 1}",
     "effect 'shadow' of card 'cloak' applies to what the card is attached to: give the object `attached_to`"),
    ("{id: k, card: knight, owner: bob, zone: play, timestamp: 1}",
     "objects[0].timestamp: card 'knight' grants no effect: remove it"),
    ("{id: k, owner: bob, zone: play, timestamp: 1}",
     "objects[0].timestamp: only an object placed as a card (card: <id>) has one"),
])
def test_a_placement_that_cannot_be_made_is_located(tmp_path, obj, message):
    """What a card needs from the object, and a timestamp where there is no card effect, are errors."""
    assert message in errors(tree(tmp_path, f"objects:\n  - {obj}\n"))


def test_a_combination_problem_names_the_card(tmp_path):
    """Two cards contesting one characteristic at the same timestamp: located at a `card:` value, the card named."""
    msg = errors(tree(tmp_path, """\
        objects:
          - {id: hero, owner: bob, zone: play, types: [creature, hero], properties: {alignment: light}}
          - {id: c1, card: cloak, owner: bob, zone: play, attached_to: hero, timestamp: 3}
          - {id: kv, owner: alice, zone: play, types: [creature]}
        effects:
          - {id: light, source: kv, timestamp: 3, kind: set, attribute: alignment, value: light, targets: [hero]}
        """))
    assert "have the same timestamp 3" in msg and "(from card 'cloak', defined at" in msg, msg


@pytest.mark.parametrize("card, message", [
    ("    abilities: [flyng]\n", "set.yaml:6:17: cards[0].abilities[0]: unknown ability 'flyng' for berserk; "
                                 "did you mean 'flying'?"),
    ("    attributes: {life: -1}\n", "set.yaml:6:24: cards[0].attributes.life: attribute 'life' is between 0 and"),
    ("    colour: red\n", "set.yaml:6:13: cards[0]: unknown field 'colour'"),
    ("    actions: [{kind: finishing_blow, params: {y: 2}}]\n",
     "set.yaml:6:50: cards[0].actions[0].params.y: parameter 'y' is not read by action kind 'finishing_blow' of "
     "berserk (known: x, cost)"),
    ("    effects: [{id: e, kind: grant, ability: swim}]\n", "unknown ability 'swim' for berserk"),
    ("    effects: [{id: e, kind: control}]\n", "effect of kind 'control' needs player"),
])
def test_card_files_are_checked_like_scenarios(tmp_path, card, message):
    """Pydantic and the closed-world vocabulary, located in the card file, for every scenario that uses it."""
    cards = "game: berserk\ncards:\n  - id: bad\n    name: Bad\n    types: [creature]\n" + card
    msg = errors(tree(tmp_path, "objects:\n  - {id: k, card: bad, owner: alice, zone: play}\n", cards=cards))
    assert message in msg, msg


def test_a_card_defined_twice_or_of_another_game_is_an_error(tmp_path):
    """Two files defining one id: both places; a card file of another game in a library: located at its game."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n")
    (tmp_path / "cards" / "berserk" / "again.yaml").write_text(CARDS, encoding="utf-8")
    assert "card 'knight' is defined twice (first at" in errors(path)
    (tmp_path / "cards" / "berserk" / "again.yaml").write_text("game: mtg\ncards: [{id: bear, types: [creature]}]\n")
    assert "again.yaml:1:7: game: a card file of mtg, but the scenario is berserk" in errors(path)


def test_an_unplaced_card_is_refused_as_plain_data():
    """A scenario given as plain data has no library: its card reference is an error, never ignored."""
    res = check_scenario_data({"id": "t", "game": "berserk", "players": [{"id": "a"}, {"id": "b"}],
                               "objects": [{"id": "k", "card": "knight", "owner": "a", "zone": "play"}]})
    assert res.status.value == "error" and "card 'knight' is not placed" in res.error
    with pytest.raises(ValueError):
        Scenario.model_validate({"id": "t", "game": "berserk", "players": [{"id": "a"}],
                                 "objects": [{"id": "k", "owner": "a", "zone": "play", "timestamp": 2}]})


# -- workers and --resume ------------------------------------------------------------------------------------------
def test_a_job_ships_its_card_files_and_their_content_is_in_its_hash(tmp_path):
    """Workers need no shared file system: the card files travel with the scenario; a changed card changes the
    hash (so --resume checks it again); a scenario naming no card ships none."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n")
    job = file_job(path)
    assert [name for name, _ in job.cards] == [str(tmp_path / "cards" / "berserk" / "set.yaml")]
    lib = tmp_path / "cards" / "berserk" / "set.yaml"
    lib.write_text(CARDS.replace("life: 5", "life: 6"), encoding="utf-8")
    assert file_job(path).hash != job.hash
    plain = tmp_path / "plain.yaml"
    plain.write_text(HEAD + "objects:\n  - {id: k, owner: alice, zone: play, card: false}\n", encoding="utf-8")
    assert file_job(plain).cards is None
    assert [(Path(j.path).name, j.cards is None) for j in collect([path, plain])] == [("plain.yaml", True),
                                                                                      ("t.yaml", False)]


def test_a_worker_uses_the_card_files_it_was_given(tmp_path):
    """The shipped card files are the library, whatever the worker's disk holds."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n"
                          "expect:\n  - {object: k, attributes: {life: 9}}\n")
    shipped = [("elsewhere.yaml", CARDS.replace("life: 5", "life: 9").encode())]
    assert check_text(path.read_bytes(), str(path), cards=shipped).status.value == "pass"
    assert check_text(path.read_bytes(), str(path)).status.value == "fail"


def test_resume_checks_a_scenario_again_when_its_card_changed(tmp_path):
    """--resume reuses a result only while the scenario and its cards are unchanged."""
    path = tree(tmp_path, "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n"
                          "expect:\n  - {object: k, attributes: {life: 5}}\n")
    out = tmp_path / "r.jsonl"
    runner = CliRunner()
    assert runner.invoke(app, ["check", str(path), "-f", "jsonl", "-o", str(out)]).exit_code == 0
    (tmp_path / "cards" / "berserk" / "set.yaml").write_text(CARDS.replace("life: 5", "life: 4"), encoding="utf-8")
    r = runner.invoke(app, ["check", str(path), "-f", "jsonl", "-o", str(out), "--resume"])
    assert r.exit_code == 1 and json.loads(out.read_text().splitlines()[0])["status"] == "fail"


# -- the bundled library ----------------------------------------------------------------------------------------------
ARCHMAGE_JOKER_BY_HAND = """\
objects:
  - {id: archmage, name: Архимаг, owner: alice, zone: play, types: [creature]}
  - {id: joker, name: Джокер, owner: bob, zone: play, types: [creature], attributes: {tokens: 0}}
effects:
  - {id: archmage_grant, source: archmage, timestamp: 1, kind: permit, action: accumulate_tokens,
     targets: {types: [creature], controlled_by: source_opponent}, duration: static}
  - {id: joker_text, source: joker, timestamp: 2, kind: prohibit, action: accumulate_tokens, targets: [joker],
     duration: static}
"""
MIND_CONTROL_BY_HAND = """\
objects:
  - {id: mind_control, name: Mind Control, owner: alex, zone: battlefield, types: [enchantment, aura], attached_to: griffin}
  - {id: griffin, name: Assault Griffin, owner: bianca, zone: battlefield, types: [creature]}
effects:
  - {id: mind_control_steal, source: mind_control, timestamp: 1, kind: control, player: source_controller,
     targets: [griffin],
     duration: static}
"""


def _by_hand(path: Path, objects: str) -> str:
    """The scenario with its objects (and their card effects) written out by hand instead of placed from cards."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index("objects:\n")
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return "".join(lines[:start]) + objects + "".join(lines[end:])


def _verdicts(res) -> list:
    return [(e.verdict.value, e.passed, e.rules, e.facts) for e in res.expectations] + [
        (o.changes, o.state) for o in res.outcomes] + [(a.id, a.statuses, a.rules) for a in res.actions]


@pytest.mark.parametrize("rel, by_hand", [("berserk/524.2-archmage-joker.yaml", ARCHMAGE_JOKER_BY_HAND),
                                          ("mtg/800.4a-mind-control-alex-leaves.yaml", MIND_CONTROL_BY_HAND)])
def test_library_scenarios_with_cards_give_the_verdicts_written_out_by_hand(rel, by_hand):
    """The seed scenarios placed from cards/<game>/ and the same written out by hand: the same outcomes, verdicts
    and cores."""
    path = LIB / rel
    placed = check_file(path, why=True)
    written = check_text(_by_hand(path, by_hand), str(path), why=True)
    assert placed.status.value == written.status.value == "pass"
    assert _verdicts(placed) == _verdicts(written)


@pytest.mark.parametrize("rel, old, new", [
    ("berserk/524.2-archmage-joker.yaml", "allowed: {accumulate_tokens: false}", "allowed: {accumulate_tokens: true}"),
    ("berserk/602.1-decisive-advantage-kornevik.yaml", "expect: proved", "expect: refuted"),
    ("mtg/800.4a-mind-control-alex-leaves.yaml", "controller: bianca", "controller: alex"),
])
def test_a_wrong_expectation_in_a_scenario_using_cards_fails(rel, old, new):
    """Flip an expectation of a library scenario that uses cards: it fails."""
    path = LIB / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    assert check_text(text.replace(old, new, 1), str(path)).status.value == "fail"


def test_every_card_of_the_bundled_libraries_is_valid_and_used():
    """The bundled card files load with no error, and every card is placed by some library scenario."""
    from models.cards import card_files, read_sources
    from solver.vocabulary.check import card_problems
    from models.cards import load_card_file

    used: set[str] = set()
    for path in sorted(LIB.rglob("*.yaml")):
        data = path.read_text(encoding="utf-8")
        used |= {line.split("card: ")[1].split(",")[0].split("}")[0].strip() for line in data.splitlines()
                 if "card: " in line and "card: false" not in line and "card: true" not in line}
    for game_dir in sorted((ROOT / "cards").iterdir()):
        for name, raw in read_sources(card_files([game_dir])):
            f = load_card_file((name, raw))
            assert not card_problems(f.data), name
            unused = [c.id for c in f.model.cards if c.id not in used]
            assert not unused, f"{name}: cards no library scenario uses: {unused}"


def test_text_without_a_file_finds_no_library_and_says_so():
    """YAML text with no file behind it has no folders to search: the card is refused, located."""
    with pytest.raises(LoadErrors) as exc:
        load_scenario_text(HEAD + "objects:\n  - {id: k, card: knight, owner: alice, zone: play}\n", "<string>")
    assert "<string>:5:19: objects[0].card: no card library for 'knight'" in str(exc.value)


BANISHING = LIB / "mtg" / "610.3-banishing-light-owner-leaves.yaml"


@pytest.mark.parametrize("zone, status", [("battlefield", "pass"), ("exile", "fail")])
def test_banishing_light_from_the_library_returns_the_card_by_610_3(zone, status):
    """Banishing Light (cards/mtg) exiles with MTG 610.3's action kind; when it leaves with its owner the card returns:
    the library scenario passes, and the same scenario saying the card stays in exile fails."""
    text = BANISHING.read_text(encoding="utf-8")
    wrong = "    object: bear\n    zone: battlefield\n"
    assert wrong in text
    res = check_text(text.replace(wrong, f"    object: bear\n    zone: {zone}\n"), str(BANISHING))
    assert res.status.value == status, res.error or res.expectations
