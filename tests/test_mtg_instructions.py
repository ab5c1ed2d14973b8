"""MTG spells and abilities as ordered instruction lists (608.2c), per target (608.2b), untargeted 'each' in range
(801.10), 'for each opponent dealt damage', and draw (121.1): trivial (one instruction is the plain kind), feasible
(the result holds, unique), infeasible (the wrong reading is impossible, the rule in its core), and the located
errors of what is not modelled. Each case is one small scenario; the reference agrees on each."""
from __future__ import annotations

import pytest
import yaml

from models.results import ScenarioResult
from models.scenario import Scenario
from solver.run.api import check_text
from tests.helpers import assert_agrees

PLAYERS = ("alex", "bianca", "carla")


def doc(*instructions: dict, players=PLAYERS, life=None, objects=(), before=(), expect=(), **parts) -> dict:
    """Alex casts a spell doing ``instructions``; ``before`` happens before it resolves."""
    life = life or {}
    return {"id": "t", "game": "mtg", "turn": {"active_player": "alex", "priority": "alex"},
            "players": [{"id": p, "attributes": {"life": life.get(p, 20)}} for p in players],
            "objects": list(objects), **parts,
            "events": [{"type": "declare", "id": "s", "actor": "alex", "kind": "spell", "card": True,
                        "instructions": list(instructions)}, *before, {"type": "resolve", "action": "s"}],
            "expect": list(expect)}


def run(d: dict, why: bool = False) -> ScenarioResult:
    """Check a scenario dict through the public API."""
    return check_text(yaml.safe_dump(d, sort_keys=False), "test.yaml", why=why)


def hit(who: str, n: int) -> dict:
    """n damage to a target."""
    return {"kind": "damage", "targets": [who], "params": {"amount": n}}


def each(kind: str, who: str, n: int, **params) -> dict:
    """An untargeted instruction."""
    return {"kind": kind, "each": who, "params": {"amount": n, **params}}


def at(card: dict, position: int) -> dict:
    """``card`` at a known place of its owner's library (1: the top, 121.1)."""
    return {**card, "attributes": {**(card.get("attributes") or {}), "library_position": position}}


def life(p: str, n: int, **kw) -> dict:
    """Player p's life total is n."""
    return {"player": p, "player_attributes": {"life": n}, **kw}


BEARS = {"id": "bears", "owner": "bianca", "zone": "battlefield", "types": ["creature"], "attributes": {"toughness": 2}}
CARDS = [{"id": f"c{i}", "owner": "alex", "zone": "library"} for i in (1, 2)]

# name -> (scenario, expectations that hold with a unique outcome, a wrong one that is impossible, its rule)
CASES = {
    "one instruction is the plain kind": (
        doc(hit("carla", 3)), [life("carla", 17)], life("carla", 20), "mtg.120.3a"),
    "no check between instructions": (
        doc(each("lose_life", "you", 2), each("gain_life", "you", 2), life={"alex": 2}),
        [{"player": "alex", "status": "in_game"}, life("alex", 2)], {"player": "alex", "status": "lost"},
        "mtg.119.3"),
    "the check after the whole resolution": (
        doc(hit("bianca", 2), each("gain_life", "you", 1), life={"bianca": 2}),
        [{"player": "bianca", "status": "lost"}, life("alex", 21)], {"player": "bianca", "status": "in_game"},
        "mtg.704.5a"),
    "608.2b one target gone, the rest happens": (
        doc(hit("bears", 3), hit("carla", 3), each("gain_life", "you", 3), objects=[BEARS],
            before=[{"type": "leave_game", "player": "bianca"}]),
        [life("alex", 23), life("carla", 17), {"action": "s", "action_status": "resolved"}], life("alex", 20),
        "mtg.608.2c"),
    "608.2b every target gone: nothing happens": (
        doc(hit("bianca", 3), each("gain_life", "you", 3), before=[{"type": "leave_game", "player": "bianca"}]),
        [life("alex", 20), {"action": "s", "action_status": "interrupted"}], life("alex", 23), "mtg.608.2b"),
    "for each opponent dealt damage": (
        doc(each("damage", "opponent", 1), each("gain_life", "you", 1, per="opponent_dealt_damage"),
            before=[{"type": "leave_game", "player": "carla"}], players=("alex", "bianca", "carla", "dmitri")),
        [life("alex", 22), life("bianca", 19)], life("alex", 23), "mtg.800.4"),
    "801.10 each opponent in range": (
        doc(each("damage", "opponent", 2), players=("alex", "bianca", "carla", "dmitri"),
            options={"range_of_influence": 1}),
        [life("bianca", 18), life("dmitri", 18), life("carla", 20)], life("carla", 18), "mtg.801.10"),
    "each creature": (
        doc(each("damage", "creature", 2), objects=[BEARS]),
        [{"object": "bears", "zone": "graveyard"}], {"object": "bears", "zone": "battlefield"}, "mtg.704.5g"),
    "tap, then more": (
        doc({"kind": "tap", "targets": ["bears"]}, hit("bears", 1), objects=[BEARS]),
        [{"object": "bears", "flags": {"tapped": True}, "attributes": {"damage": 1}}],
        {"object": "bears", "flags": {"tapped": False}}, "mtg.701.26"),
    "draw with one card": (
        doc(each("draw", "you", 1), objects=CARDS[:1]),
        [{"object": "c1", "zone": "hand"}], {"object": "c1", "zone": "library"}, "mtg.121.1"),
    "draw the known top card": (
        doc(each("draw", "you", 1), objects=[at(CARDS[0], 2), at(CARDS[1], 1)]),
        [{"object": "c2", "zone": "hand"}, {"object": "c1", "zone": "library"}], {"object": "c1", "zone": "hand"},
        "mtg.121.1"),
    "known cards above the unknown": (
        doc(each("draw", "you", 1), objects=[CARDS[0], at(CARDS[1], 1)]),
        [{"object": "c2", "zone": "hand"}], {"object": "c1", "zone": "hand"}, "mtg.121.1"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_feasible_result_holds(name: str) -> None:
    """The instructions' result holds in the one outcome."""
    d, holds, _, _ = CASES[name]
    res = run({**d, "expect": [*holds, {"unique": True}]})
    assert res.status.value == "pass", (res.error, [(e.description, e.verdict.value, e.message) for e in res.expectations])


@pytest.mark.parametrize("name", sorted(CASES))
def test_infeasible_wrong_reading_names_the_rule(name: str) -> None:
    """The wrong reading is impossible, and the rule is behind it."""
    d, _, wrong, rule = CASES[name]
    res = run({**d, "expect": [{**wrong, "verdict": "impossible", "because": [rule]}]}, why=True)
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.rules, e.message) for e in res.expectations])


@pytest.mark.parametrize("name", ["no check between instructions", "for each opponent dealt damage",
                                  "801.10 each opponent in range", "draw with one card", "draw the known top card",
                                  "known cards above the unknown"])
def test_reference_agrees(name: str) -> None:
    """The reference reads the same outcomes."""
    d, holds, _, _ = CASES[name]
    assert_agrees(Scenario.model_validate({**d, "expect": holds}))


def test_trivial_unordered_library_each_card_an_outcome() -> None:
    """Drawing one of two cards whose order is not given: two outcomes, each card possibly drawn."""
    res = run(doc(each("draw", "you", 1), objects=CARDS, expect=[
        {"outcomes": 2}, {"object": "c1", "zone": "hand", "verdict": "possible"},
        {"object": "c2", "zone": "hand", "verdict": "possible"}]))
    assert res.status.value == "pass", [(e.verdict.value, e.message) for e in res.expectations]


def test_library_position_is_a_place_in_a_library() -> None:
    """library_position on a card outside a library, or two cards in one place: a located error, never ignored."""
    res = run(doc(each("draw", "you", 1), objects=[CARDS[0], {**at(CARDS[1], 1), "zone": "hand"}]))
    assert res.status.value == "error" and "test.yaml:" in res.error and "in zone 'hand'" in res.error, res.error
    res = run(doc(each("draw", "you", 1), objects=[at(CARDS[0], 1), at(CARDS[1], 1)]))
    assert res.status.value == "error" and "cannot share a place" in res.error, res.error


@pytest.mark.parametrize("instruction, words", [
    ({"kind": "fly", "targets": ["carla"]}, "fly"),
    ({"kind": "destroy", "each": "you"}, "each"),
    ({"kind": "gain_life", "each": "you"}, "amount"),
    ({"kind": "spell"}, "cannot be 'spell'"),
    (each("draw", "you", 3), "empty library"),
])
def test_not_modelled_is_a_located_error(instruction: dict, words: str) -> None:
    """An instruction that is no instruction kind, affects what its kind cannot, lacks its amount or draws from an
    empty library: an error at file:line."""
    res = run(doc(instruction, objects=CARDS, expect=[{"unique": True}]))
    assert res.status.value == "error" and "test.yaml:" in res.error and words in res.error, res.error


def test_instructions_only_on_a_kind_that_reads_them() -> None:
    """`instructions` on a kind that does one thing (damage) is refused, not ignored."""
    d = doc(hit("carla", 1))
    d["events"][0].update(kind="damage", targets=["carla"], params={"amount": 1})
    res = run(d)
    assert res.status.value == "error" and "takes no instructions" in res.error, res.error


def test_short_library_refused_only_where_the_draw_happens() -> None:
    """Drawing more than a library holds (121.4, 704.5b: not modelled) is an error at the event only in an outcome
    where the draw happens: a spell whose only target left before it resolves draws nothing and is no error."""
    gift = {"kind": "draw", "targets": ["bianca"], "params": {"amount": 2}}
    left = [{"type": "leave_game", "player": "bianca"}]
    res = run(doc(gift, objects=CARDS, before=left, expect=[{"action": "s", "action_status": "interrupted"}]))
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])
    res = run(doc(gift, objects=CARDS, expect=[{"unique": True}]))
    assert res.status.value == "error" and "test.yaml:" in res.error and "events[1] (resolve)" in res.error \
        and "empty library" in res.error, res.error
