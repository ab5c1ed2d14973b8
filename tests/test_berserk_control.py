"""Berserk control, squad and clean-victory rules (532.5.4, 532.6, 532.7, 532.8, 602.1), each on its own:
trivial (no events: nothing changes), feasible (the rule's effect holds), infeasible (the opposite is impossible,
with the rule in the core); and a wrong expectation turns the scenario into a failure."""
from __future__ import annotations

import re

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
             events=[declare("s", "summon", "dark_lord", params={"cell": "r1c2"})]),
        {"action": "s", "action_status": "illegal"},
        {"action": "s", "action_status": "on_stack"},
    ),
    "berserk.532.8.recruit": (
        dict(objects=[ELF, obj("dark_lord", zone="hand", properties={"not_with": "elf"})],
             events=[{"type": "recruit", "player": "alice", "cards": ["dark_lord"]}]),
        {"object": "dark_lord", "zone": "hand"},
        {"object": "dark_lord", "zone": "play"},
    ),
    "berserk.532.6": (
        dict(board=BOARD, objects=[obj("eagle", zone="hand", abilities=["flying"])],
             events=[declare("s", "summon", "eagle", params={"cell": "r1c1"})]),
        {"action": "s", "action_status": "illegal"},
        {"action": "s", "action_status": "on_stack"},
    ),
    "berserk.532.6.free": (
        dict(board=BOARD, objects=[obj("guard", "bob", cell="r1c1"), obj("ghoul", zone="graveyard")],
             events=[declare("r", "revive", "ghoul", params={"cell": "r1c1"})]),
        {"action": "r", "action_status": "illegal"},
        {"action": "r", "action_status": "on_stack"},
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
             events=[declare("i", "incarnate", "phoenix", params={"cell": "r1c1"})]),
        {"action": "i", "action_status": "illegal"},
        {"action": "i", "action_status": "on_stack"},
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
        dict(objects=[obj("kornevik", attributes={"life": 4, "protection_nonmagical": 3}, properties={"strike": "1-2-3"}),
                      obj("wolf", "bob", attributes={"life": 2}, properties={"strike": "3-4-5"})],
             events=[{"type": "check_victory", "decisive_advantage": ["alice"]}]),
        {"winner": "alice"},
        {"player": "alice", "status": "in_game"},
    ),
}


def build(rule: str, expect: list, with_events: bool = True) -> dict:
    """The scenario of a case with the given expectations."""
    parts = {k: v for k, v in CASES[rule][0].items() if with_events or k != "events"}
    return scenario(**parts, expect=expect)


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


DOMINATED = [obj("dark_lord", "bob", properties={"not_with": "elf"}), {**ELF, "owner": "bob"}, obj("squire", "bob")]
DOMINATION = [{"id": "dom", "kind": "control", "player": "alice", "targets": ["dark_lord"], "timestamp": 1},
              {"id": "dom2", "kind": "control", "player": "alice", "targets": ["squire"], "timestamp": 2,
               "duration": "until_end_of_turn"}]
# how a control effect ends -> (events, card, its controller after (532.7 keep or lose), the rule that decides it)
ENDINGS = {
    "end_effect keeps (532.8)": ([{"type": "end_effect", "effect": "dom"}], "dark_lord", "alice",
                                 "berserk.532.7.keep"),
    "end_of_turn loses": ([{"type": "end_turn"}], "squire", "bob", "berserk.532.7.lose"),
}


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_a_control_effect_ending_is_losing_control(name):
    """532.7 when a control effect ends (not only the lose_control event): trivially nothing without the ending; the
    rule's controller holds with the rule behind it; the other player is impossible with the rule in the core; the
    flipped expectation fails; the reference agrees."""
    from models.scenario import Scenario
    from solver.check.differential import differential

    events, card, after, rule = ENDINGS[name]
    other = "bob" if after == "alice" else "alice"
    parts = {"objects": DOMINATED, "effects": DOMINATION}
    still = run(scenario(**parts, expect=[{"object": card, "controller": "alice"}, {"unique": True}]))
    assert still.status.value == "pass", [e.message for e in still.expectations]
    res = run(scenario(**parts, events=events, expect=[{"object": card, "controller": after, "because": [rule]},
                                                       {"object": card, "controller": other, "verdict": "impossible",
                                                        "because": [rule]}]), why=True)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert rule in res.expectations[1].rules
    wrong = run(scenario(**parts, events=events, expect=[{"object": card, "controller": other}]))
    assert wrong.status.value == "fail"
    cmp = differential(Scenario.model_validate(scenario(**parts, events=events,
                                                        expect=[{"object": card, "controller": after}])))
    assert cmp.agree and not cmp.skipped, cmp.problems


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


# 532.8's second bullet keeps out only the card with the feature: [text] itself may still enter a squad holding it
ONE_WAY = {
    "summon": dict(board=BOARD, objects=[obj("dark_lord", properties={"not_with": "elf"}), {**ELF, "zone": "hand"}],
                   events=[declare("x", "summon", "forest_elf", params={"cell": "r1c2"}), {"type": "resolve", "action": "x"}]),
    "take_control": dict(objects=[obj("dark_lord", properties={"not_with": "elf"}), {**ELF, "owner": "bob"}],
                         events=[declare("x", "take_control", "dark_lord", targets=["forest_elf"]),
                                 {"type": "resolve", "action": "x"}]),
}


@pytest.mark.parametrize("kind", sorted(ONE_WAY))
@pytest.mark.parametrize("verdict", ["holds", "impossible"])
def test_532_8_keeps_out_only_the_card_with_the_feature(kind, verdict):
    """Summoning or taking control of [text] while the squad holds the card with 'cannot be taken into a squad with
    [text]' is legal (only the Recruit subphase checks both ways); the opposite expectation fails."""
    ex = {"object": "forest_elf", "zone": "play", "controller": "alice", "verdict": verdict}
    res = run(scenario(**ONE_WAY[kind], expect=[ex]))
    assert res.status.value == ("pass" if verdict == "holds" else "fail"), [e.message for e in res.expectations]


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
    from solver.check.differential import differential

    doc = build(rule, [CASES[rule][1], {**CASES[rule][2], "verdict": "impossible"}])
    cmp = differential(Scenario.model_validate(doc))
    assert not cmp.skipped and cmp.agree, (cmp.skipped, cmp.problems)


# -- conservation: symbiotes and equipment are exempt, in every combination ------------------------------------
CREATURE, SYMBIOTE, EQUIPMENT = ["creature"], ["creature", "symbiote"], ["equipment"]
# name -> (types of the card that arrives, types of the cards already on the cell, does the arriving card take the duty)
COMBOS = {
    "symbiote onto a creature": (SYMBIOTE, [CREATURE], False),
    "creature onto a symbiote": (CREATURE, [SYMBIOTE], False),
    "two symbiotes": (SYMBIOTE, [SYMBIOTE], False),
    "equipment onto a creature": (EQUIPMENT, [CREATURE], False),
    "creature onto equipment": (CREATURE, [EQUIPMENT], False),
    "creature onto a creature and its symbiote": (CREATURE, [CREATURE, SYMBIOTE], True),
    "symbiote onto a creature and its equipment": (SYMBIOTE, [CREATURE, EQUIPMENT], False),
    "creature onto a creature": (CREATURE, [CREATURE], True),
}


def crowd(arriving: list, there: list, expect: list, flags: dict | None = None) -> dict:
    """``there`` stand on r1c1; ``arriving`` is pushed onto it, then its controller's Choice subphase."""
    objects = [{"id": f"q{i}", "owner": "bob", "zone": "play", "cell": "r1c1", "types": t} for i, t in enumerate(there)]
    objects.append({"id": "mover", "owner": "alice", "zone": "play", "cell": "r1c2", "types": arriving,
                    **({"flags": flags} if flags else {})})
    return scenario(board={"rows": 1, "cols": 2}, objects=objects, expect=expect,
                    events=[{"type": "move", "object": "mover", "zone": "play", "cell": "r1c1"},
                            {"type": "choice_subphase", "player": "alice"}])


@pytest.mark.parametrize("name", sorted(COMBOS))
def test_conservation_exemptions_every_combination(name):
    """The card that came last takes the duty only when it and some card already there both count; an exempt card
    never has it (asking about it does not create it), and only an obliged card dies."""
    arriving, there, duty = COMBOS[name]
    expect = [{"at": 1, "object": "mover", "flags": {"must_move": duty}},
              {"object": "mover", "zone": "graveyard" if duty else "play"},
              {"at": 1, "object": "q0", "flags": {"must_move": False}}, {"unique": True}]
    res = run(crowd(arriving, there, expect))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    exempt = "symbiote" in arriving or "equipment" in arriving
    if exempt:
        rule = "berserk.conservation.symbiote" if "symbiote" in arriving else "berserk.conservation.equipment"
        asked = run(crowd(arriving, there, [{"at": 1, "object": "mover", "flags": {"must_move": True},
                                             "verdict": "impossible", "because": [rule]}]))
        assert asked.status.value == "pass", [e.message for e in asked.expectations]


@pytest.mark.parametrize("name", sorted(COMBOS))
def test_conservation_wrong_duty_fails(name):
    """Expecting the other answer about the duty fails, with the verdict in the message."""
    arriving, there, duty = COMBOS[name]
    res = run(crowd(arriving, there, [{"at": 1, "object": "mover", "flags": {"must_move": not duty}}]))
    assert res.status.value == "fail"
    assert "expected holds, but it is impossible" in res.expectations[0].message


@pytest.mark.parametrize("name", sorted(COMBOS))
def test_conservation_combinations_agree_with_the_reference(name):
    """The solver-free reference finds the same outcomes and verdicts (and applies the rules the cores name)."""
    from models.scenario import Scenario
    from tests.helpers import assert_agrees

    arriving, there, duty = COMBOS[name]
    assert_agrees(Scenario.model_validate(crowd(arriving, there, [
        {"at": 1, "object": "mover", "flags": {"must_move": duty}}, {"object": "mover", "zone": "play"}])))


@pytest.mark.parametrize("types,rule", [(SYMBIOTE, "berserk.conservation.symbiote"),
                                        (EQUIPMENT, "berserk.conservation.equipment")])
def test_a_starting_duty_on_an_exempt_card_contradicts_the_rules(types, rule):
    """``must_move: true`` on a symbiote or equipment creates no duty: the scenario has no outcome, and the core is
    the exemption and the starting fact."""
    res = run(crowd(types, [CREATURE], [{"object": "mover", "zone": "play", "verdict": "impossible",
                                         "because": [rule]}], flags={"must_move": True}), why=True)
    assert res.status.value == "pass", [e.message for e in res.expectations]
    assert res.outcomes == [] and f"rule {rule}" in res.contradiction and "fact mover.must_move" in res.contradiction


# -- declared moves are checked against the board ---------------------------------------------------------------
# name -> (cell the runner moves to, what stands there, legal?, the rule an illegal move is named by)
MOVES = {
    # met, adjacency and freedom could only have forbidden it: switched off, the move is declared all the same
    "adjacent and free": ("r1c2", None, True, "core.declare"),
    "not adjacent": ("r2c2", None, False, "berserk.movement.adjacent"),
    "onto a creature": ("r1c2", CREATURE, False, "berserk.movement.free"),
    "onto a symbiote": ("r1c2", SYMBIOTE, True, "berserk.conservation.symbiote"),
    "onto equipment": ("r1c2", EQUIPMENT, True, "berserk.conservation.equipment"),
}


def stepping(cell: str, there: list | None, expect: list) -> dict:
    """A runner on r1c1 declares a move to ``cell`` (``there`` standing on it) and the move resolves if it can."""
    objects = [{"id": "runner", "owner": "alice", "zone": "play", "cell": "r1c1", "types": CREATURE}]
    if there:
        objects.append({"id": "other", "owner": "bob", "zone": "play", "cell": cell, "types": there})
    events = [declare("go", "move", "runner", params={"cell": cell})]
    return scenario(board=BOARD, objects=objects, events=events, expect=expect)


@pytest.mark.parametrize("name", sorted(MOVES))
def test_declared_moves_are_checked(name):
    """A move is legal only to an adjacent cell where nothing that counts stands; an illegal one is an illegal
    action, with the rule named."""
    cell, there, legal, rule = MOVES[name]
    status = "on_stack" if legal else "illegal"
    res = run(stepping(cell, there, [{"action": "go", "action_status": status, "because": [rule]}]))
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    wrong = run(stepping(cell, there, [{"action": "go", "action_status": "illegal" if legal else "on_stack"}]))
    assert wrong.status.value == "fail"


def test_a_resolved_move_places_the_card_and_ends_its_duty():
    """Resolving a legal move puts the card on the cell (berserk.movement); the reference agrees."""
    from models.scenario import Scenario
    from tests.helpers import assert_agrees

    doc = stepping("r1c2", None, [{"object": "runner", "cell": "r1c2", "because": ["berserk.movement"]}])
    doc["events"].append({"type": "resolve", "action": "go"})
    res = run(doc)
    assert res.status.value == "pass", [e.message for e in res.expectations]
    assert_agrees(Scenario.model_validate(doc))


# -- only an action on the stack resolves -------------------------------------------------------------------------
BLOW = dict(objects=[obj("executioner", flags={"open": True}), obj("victim", "bob", attributes={"life": 3})])


def blow(x: int, *after: dict) -> dict:
    """A finishing blow X on a creature with 3 lives (legal for X >= 3), then the given events."""
    return scenario(**BLOW, events=[declare("blow", "finishing_blow", "executioner", targets=["victim"],
                                            params={"x": x}), *after])


@pytest.mark.parametrize("doc,event,words", [
    (blow(2, {"type": "resolve", "action": "blow"}), 1, "not on the stack here (525.1"),
    (blow(3, {"type": "resolve", "action": "blow"}, {"type": "resolve", "action": "blow"}), 2,
     "events[1] (resolve) already took it off the stack"),
    (blow(3, {"type": "start_execution", "action": "blow"}, {"type": "resolve", "action": "blow"}), 2,
     "events[1] (start_execution) already took it off the stack"),
    (blow(3, {"type": "finish_execution", "action": "blow"}), 1, "no earlier start_execution started it"),
    (blow(2, {"type": "start_execution", "action": "blow"}), 1, "not on the stack here"),
    (scenario(objects=[obj("mage"), {"id": "spell", "owner": "alice", "zone": "hand", "action": {"kind": "open"}}],
              events=[{"type": "resolve", "action": "spell"}]), 0, "it is unborn in the initial state"),
])
def test_an_action_not_on_the_stack_cannot_resolve(doc, event, words):
    """Resolving (starting, finishing) an action that is not on the stack (executing) is a located error at the
    event, not a silent nothing: known from the events, or as soon as an outcome shows it (an illegal declaration)."""
    res = run(doc)
    assert res.status.value == "error", res.status
    assert re.match(rf"test\.yaml:\d+:\d+: events\[{event}\] \(", res.error) and words in res.error, res.error


@pytest.mark.parametrize("doc", [blow(2, {"type": "resolve", "action": "blow"}),
                                 blow(3, {"type": "resolve", "action": "blow"}, {"type": "resolve", "action": "blow"})])
def test_the_reference_finds_the_same_event_in_error(doc):
    """The differential: the checker's located error names the event the reference finds first."""
    from models.scenario import Scenario
    from solver.check.differential import differential

    cmp = differential(Scenario.model_validate(doc))
    assert cmp.agree and not cmp.skipped, cmp.problems


def test_a_legal_action_still_resolves():
    """The positive case: a legal finishing blow resolves and destroys the victim."""
    res = run({**blow(3, {"type": "resolve", "action": "blow"}),
               "expect": [{"object": "victim", "zone": "graveyard"}, {"action": "blow", "action_status": "resolved"}]})
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])


def test_selectors_other_and_adjacent_follow_the_source():
    """'Your other heroes next to this one': the source is never selected (other), an adjacent hero is; moved away
    from the source it no longer is (the flipped expectation fails); without a source the selector is an error."""
    rally = {"id": "rally", "source": "bearer", "timestamp": 1, "kind": "add", "attribute": "life", "value": 1,
             "duration": "static", "targets": {"types": ["hero"], "cell": "adjacent", "other": True}}
    heroes = [obj("bearer", cell="r1c1", types=["creature", "hero"], attributes={"life": 3}),
              obj("near", cell="r1c2", types=["creature", "hero"], attributes={"life": 3})]
    moved = [{"type": "move", "object": "near", "zone": "play", "cell": "r2c2"}]
    parts = dict(board=BOARD, objects=heroes, effects=[rally])
    at_start = [{"object": "near", "attributes": {"life": 4}}, {"object": "bearer", "attributes": {"life": 3}}]
    assert run(scenario(**parts, expect=at_start)).status.value == "pass"
    assert run(scenario(**parts, events=moved, expect=[{"object": "near", "attributes": {"life": 3}}])).status.value \
        == "pass"
    assert run(scenario(**parts, events=moved, expect=[{"object": "near", "attributes": {"life": 4}}])).status.value \
        == "fail"
    sourceless = {**rally, "source": None}
    res = run(scenario(board=BOARD, objects=heroes, effects=[sourceless]))
    assert res.status.value == "error" and "needs a source" in res.error, res.error


# -- selection by element (berserk.element.selector) ----------------------------------------------------------
def hero(id_: str, element: str, owner: str = "bob", **kw) -> dict:
    """A hero of an element with 3 lives."""
    return obj(id_, owner, types=["creature", "hero"], properties={"element": element}, attributes={"life": 3}, **kw)


def set_element(id_: str, stamp: int, value: str, **sel) -> dict:
    """A permanent effect setting the element of the creatures ``sel`` selects."""
    return {"id": id_, "timestamp": stamp, "kind": "set", "attribute": "element", "value": value,
            "targets": {"types": ["creature"], **sel}}


BLESS = {"id": "bless", "timestamp": 9, "kind": "add", "attribute": "life", "value": 1,
         "targets": {"types": ["creature"], "element": "forests"}}
# case -> (objects, effects, expectation that holds, the opposite one, which is impossible)
ELEMENT_CASES = {
    "made neutral: no forest bonus": (
        [hero("ranger", "forests")], [set_element("kanor", 1, "neutral"), BLESS],
        {"object": "ranger", "attributes": {"life": 3}}, {"object": "ranger", "attributes": {"life": 4}}),
    "printed forests: the bonus": (
        [hero("ranger", "forests")], [BLESS],
        {"object": "ranger", "attributes": {"life": 4}}, {"object": "ranger", "attributes": {"life": 3}}),
    "an element effect sees the earlier one": (
        [hero("ranger", "forests")],
        [set_element("blight", 1, "darkness", element="forests"), set_element("curse", 2, "steppes", element="darkness")],
        {"object": "ranger", "properties": {"element": "steppes"}},
        {"object": "ranger", "properties": {"element": "darkness"}}),
    "an element effect does not see a later one": (
        [hero("ranger", "forests")],
        [set_element("curse", 1, "steppes", element="darkness"), set_element("blight", 2, "darkness", element="forests")],
        {"object": "ranger", "properties": {"element": "darkness"}},
        {"object": "ranger", "properties": {"element": "steppes"}}),
}


@pytest.mark.parametrize("case", sorted(ELEMENT_CASES))
def test_selection_by_element(case):
    """The element a selector reads: trivially the printed one without effects; the expected one holds, the opposite
    is impossible, the flipped expectation fails, and the reference agrees."""
    from models.scenario import Scenario
    from solver.check.differential import differential

    objects, effects, holds, opposite = ELEMENT_CASES[case]
    plain = run(scenario(objects=objects, expect=[{"object": "ranger", "properties": {"element": "forests"},
                                                   "attributes": {"life": 3}}, {"unique": True}]))
    assert plain.status.value == "pass", [e.message for e in plain.expectations]
    doc = scenario(objects=objects, effects=effects, expect=[holds, {**opposite, "verdict": "impossible"},
                                                               {"unique": True}])
    res = run(doc)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert run(scenario(objects=objects, effects=effects, expect=[opposite])).status.value == "fail"
    cmp = differential(Scenario.model_validate(doc))
    assert cmp.agree and not cmp.skipped, cmp.problems


def test_the_element_order_is_the_rule_in_the_core():
    """Without berserk.element.selector the curse could miss the darkness the blight made: the rule is in the core."""
    objects, effects, _, opposite = ELEMENT_CASES["an element effect sees the earlier one"]
    res = run(scenario(objects=objects, effects=effects, expect=[{**opposite, "verdict": "impossible",
                                                                  "because": ["berserk.element.selector"]}]), why=True)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    assert "berserk.element.selector" in res.expectations[0].rules


def test_a_trigger_selects_by_the_element_now():
    """A trigger 'heal a forest creature' sees the element now: the hero made neutral is not healed."""
    heal = {"id": "heal", "at": "start_of_turn", "attribute": "life", "value": 1,
            "targets": {"types": ["creature"], "element": "forests"}}
    doc = scenario(objects=[obj("druid", "bob", triggers=[heal]), hero("ranger", "forests"), hero("elf", "forests")],
                   effects=[{**set_element("kanor", 1, "neutral"), "targets": ["ranger"]}],
                   events=[{"type": "begin_turn", "player": "bob"}],
                   expect=[{"object": "ranger", "attributes": {"life": 3}}, {"object": "elf", "attributes": {"life": 4}},
                           {"unique": True}])
    res = run(doc)
    assert res.status.value == "pass", (res.error, [e.message for e in res.expectations])
    from models.scenario import Scenario
    from solver.check.differential import differential
    cmp = differential(Scenario.model_validate(doc))
    assert cmp.agree and not cmp.skipped, cmp.problems


def test_control_by_element_against_element_by_controller_is_a_located_cycle():
    """Control by element, the element by controller: each depends on the other, no rule orders them: an error naming
    both effects at the first one's line, never a pick."""
    effects = [{"id": "sway", "timestamp": 1, "kind": "control", "player": "alice",
                "targets": {"types": ["creature"], "element": "darkness"}},
               set_element("gloom", 2, "darkness", controlled_by="bob")]
    res = run(scenario(objects=[hero("ranger", "forests")], effects=effects,
                       expect=[{"object": "ranger", "controller": "bob"}]))
    assert res.status.value == "error", res.status
    assert "sway" in res.error and "gloom" in res.error and "cycle" in res.error and "test.yaml:" in res.error, res.error


def test_a_game_without_elements_refuses_the_selector():
    """Selecting by element is Berserk's: another game refuses the word with its place."""
    res = run(scenario(game="riftbound", objects=[{"id": "u", "owner": "alice", "zone": "base", "types": ["unit"]}],
                       effects=[{"id": "e", "timestamp": 1, "kind": "add", "attribute": "power", "value": 1,
                                 "targets": {"element": "forests"}}],
                       expect=[{"object": "u", "zone": "base"}]))
    assert res.status.value == "error" and "element" in res.error, (res.status, res.error)


def test_an_unknown_element_is_a_located_error():
    """'forest' is no element (forests is): refused at its line, not a selector that silently matches nothing."""
    bad = {**BLESS, "targets": {"types": ["creature"], "element": "forest"}}
    res = run(scenario(objects=[hero("ranger", "forests")], effects=[bad], expect=[{"object": "ranger"}]))
    assert res.status.value == "error" and "forest" in res.error and "test.yaml:" in res.error, res.error
