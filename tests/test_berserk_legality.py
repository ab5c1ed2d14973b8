"""Berserk legality read where the probe found it bypassed: 525.1 'or paid' (an action paid by closing a closed source),
525.2 'receiving effects, numeric values included' (a continuous effect adding a token to a card that cannot receive
tokens), 532.5.4 over abilities granted or removed by effects, 525.3 "loses" against an ability an effect granted.
Each: the rule's effect holds with the rule behind it, the opposite is impossible with the rule in the core, the flipped
expectation fails, and the reference agrees."""
from __future__ import annotations

import pytest

from tests.helpers import assert_agrees, run, scenario

BOARD = {"rows": 2, "cols": 2}


def creature(id_: str, owner: str = "alice", zone: str = "play", **kw) -> dict:
    """A creature with overrides."""
    return {"id": id_, "owner": owner, "zone": zone, "types": ["creature"], **kw}


def declare(id_: str, kind: str, source: str, actor: str = "alice", **kw) -> dict:
    """A declared action."""
    return {"type": "declare", "id": id_, "actor": actor, "kind": kind, "source": source, **kw}


def static(id_: str, source: str, stamp: int, **kw) -> dict:
    """A static effect of ``source``."""
    return {"id": id_, "source": source, "timestamp": stamp, "duration": "static", **kw}


MAGE = creature("mage", abilities=["accumulate_tokens"], attributes={"tokens": 0}, flags={"open": False})
HERMIT = [creature("hermit", "bob", attributes={"tokens": 0}), {"id": "banner", "owner": "bob", "zone": "play",
                                                                "types": ["artifact"]}]
HERMIT_EFFECTS = [static("text", "hermit", 1, kind="prohibit", action="receive_tokens", targets=["hermit"]),
                  static("banner_tokens", "banner", 2, kind="add", attribute="tokens", value=1,
                         targets={"types": ["creature"], "controlled_by": "source_controller"})]
PHOENIX = [creature("phoenix", zone="graveyard", abilities=["incarnation 2"]), creature("shrine", cell="r2c2")]
INCARNATE = [declare("inc", "incarnate", "phoenix", params={"cell": "r1c1"}), {"type": "resolve", "action": "inc"}]

SILENCER = [creature("silencer", flags={"open": True}), creature("walker", "bob"),
            {"id": "totem", "owner": "bob", "zone": "play", "types": ["artifact"]}]
GROUND = [declare("ground", "lose_ability", "silencer", targets=["walker"], params={"ability": "flying"}),
          {"type": "resolve", "action": "ground"}]

# rule -> (scenario parts, expectation that holds because of the rule, expectation the rule makes impossible)
CASES = {
    "berserk.525.1.paid": (
        {"objects": [MAGE], "events": [declare("acc", "accumulate_tokens", "mage")]},
        {"action": "acc", "action_status": "illegal"},
        {"action": "acc", "action_status": "on_stack"},
    ),
    "berserk.525.2": (
        {"objects": HERMIT, "effects": HERMIT_EFFECTS},
        {"object": "hermit", "attributes": {"tokens": 0}},
        {"object": "hermit", "attributes": {"tokens": 1}},
    ),
    "berserk.525.3.loses": (
        {"objects": SILENCER, "events": GROUND,
         "effects": [static("wind", "totem", 1, kind="grant", ability="flying", targets=["walker"])]},
        {"object": "walker", "abilities": {"flying": False}},
        {"object": "walker", "abilities": {"flying": True}},
    ),
    "berserk.532.5.4": (
        {"board": BOARD, "objects": PHOENIX, "events": INCARNATE,
         "effects": [static("grant", "shrine", 1, kind="grant", ability="incarnation 4",
                            targets={"types": ["creature"], "controlled_by": "source_controller"})]},
        {"object": "phoenix", "zone": "play", "attributes": {"incarnation": 4}},
        {"object": "phoenix", "attributes": {"incarnation": 2}},
    ),
}


def build(rule: str, expect: list) -> dict:
    """The scenario of a case with the given expectations."""
    return scenario(**CASES[rule][0], expect=expect)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_rule_decides_the_verdict(rule):
    """The rule's effect holds in every outcome, and the rule is behind it."""
    res = run(build(rule, [{**CASES[rule][1], "because": [rule]}, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_opposite_is_impossible_with_the_rule_in_the_core(rule):
    """The outcome the probe saw is impossible, and the minimal core names the rule."""
    res = run(build(rule, [{**CASES[rule][2], "verdict": "impossible", "because": [rule]}]), why=True)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert rule in res.expectations[0].rules


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_flipped_expectation_fails(rule):
    """Expecting the outcome the probe saw (the wrong verdict) fails, with the reason."""
    res = run(build(rule, [CASES[rule][2]]))
    assert res.status.value == "fail"
    assert "expected holds, but it is impossible" in res.expectations[0].message


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_reference_agrees(rule):
    """The solver-free reference reads the rule text the same way: same outcomes, same verdicts."""
    from models.scenario import Scenario

    assert_agrees(Scenario.model_validate(build(rule, [CASES[rule][1], {**CASES[rule][2], "verdict": "impossible"}])))


def test_an_open_source_pays_and_acts():
    """The contrast of 525.1.paid: an open source pays (it is closed) and the action has its effect."""
    mage = {**MAGE, "flags": {"open": True}}
    res = run(scenario(objects=[mage], events=[declare("acc", "accumulate_tokens", "mage"),
                                               {"type": "resolve", "action": "acc"}],
                       expect=[{"object": "mage", "attributes": {"tokens": 1}, "flags": {"open": False}},
                               {"action": "acc", "action_status": "resolved"}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_a_source_closed_after_declaring_is_removed_unpaid():
    """Declared while open, closed before it resolves: it cannot be paid then, so it is interrupted (526.1)."""
    mage = {**MAGE, "flags": {"open": True}}
    doc = scenario(objects=[mage], events=[declare("acc", "accumulate_tokens", "mage"),
                                           {"type": "set_flag", "object": "mage", "flag": "open", "value": False},
                                           {"type": "resolve", "action": "acc"}],
                   expect=[{"action": "acc", "action_status": "interrupted",
                            "because": ["berserk.525.1.paid", "berserk.526.1"]},
                           {"object": "mage", "attributes": {"tokens": 0}}])
    res = run(doc)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    from models.scenario import Scenario
    assert_agrees(Scenario.model_validate(doc))


def test_costing_nothing_needs_no_open_source():
    """An action that costs nothing (`cost: none`) is not paid, so a closed source does not make it illegal."""
    res = run(scenario(objects=[MAGE], events=[declare("acc", "accumulate_tokens", "mage", params={"cost": "none"}),
                                               {"type": "resolve", "action": "acc"}],
                       expect=[{"object": "mage", "attributes": {"tokens": 1}}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_without_the_prohibition_the_effect_gives_the_token():
    """The contrast of 525.2: the same add effect gives the token to a card that may receive it."""
    res = run(scenario(objects=HERMIT, effects=HERMIT_EFFECTS[1:],
                       expect=[{"object": "hermit", "attributes": {"tokens": 1}}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_a_set_of_tokens_against_cannot_receive_is_a_located_refusal():
    """Whether a card that cannot receive tokens receives a 'set' of them is not modelled: refused, not guessed."""
    effects = [HERMIT_EFFECTS[0], static("set_tokens", "banner", 2, kind="set", attribute="tokens", value=3,
                                         targets=["hermit"])]
    res = run(scenario(objects=HERMIT, effects=effects, expect=[{"object": "hermit", "attributes": {"tokens": 0}}]))
    assert res.status.value == "error" and "receive_tokens" in res.error and "not modelled" in res.error, res.error


def test_a_granted_incarnation_alone_allows_incarnating():
    """A creature with no printed incarnation but one granted by an effect may incarnate (532.5.4 reads the abilities
    it has); once the grant's source leaves, it has none and the declaration is illegal."""
    ghoul = creature("ghoul", zone="graveyard")
    grant = static("grant", "shrine", 1, kind="grant", ability="incarnation 3", targets=["ghoul"])
    parts = {"board": BOARD, "objects": [ghoul, PHOENIX[1]], "effects": [grant]}
    res = run(scenario(**parts, events=[declare("inc", "incarnate", "ghoul", params={"cell": "r1c1"}),
                                        {"type": "resolve", "action": "inc"}],
                       expect=[{"object": "ghoul", "zone": "play", "attributes": {"incarnation": 3},
                                "because": ["berserk.532.5.4"]}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    gone = run(scenario(**parts, events=[{"type": "move", "object": "shrine", "zone": "graveyard"},
                                         declare("inc", "incarnate", "ghoul", params={"cell": "r1c1"})],
                        expect=[{"action": "inc", "action_status": "illegal", "because": ["berserk.532.5.4"]}]))
    assert gone.status.value == "pass", (gone.error, [e.message for e in gone.expectations])
