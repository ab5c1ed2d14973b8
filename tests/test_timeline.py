"""Time order (models/timeline.py and the effect order of the encoding and the reference).

- events name only what exists when they happen; expectations before an object's creation only say it does not
  exist yet (issue 17, item 6);
- equal timestamps among effects contesting one characteristic are an error naming both places (item 7);
- an effect begun by an event applies after every effect before it; a typed timestamp that says otherwise is an
  error (issue 14, "effect order follows the events").
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from models.loader import load_scenario_text
from models.scenario import Scenario
from models.yamlsafe import LoadErrors
from solver.run.api import check_text
from tests.helpers import assert_agrees

HEAD = """id: timeline
game: berserk
players: [{id: alice}, {id: bob}]
objects:
  - {id: knight, owner: alice, zone: play, types: [creature], properties: {alignment: light}}
  - {id: rogue, owner: bob, zone: play, types: [creature]}
"""


def load_error(text: str) -> str:
    """The located error message a scenario text gives."""
    with pytest.raises(LoadErrors) as info:
        load_scenario_text(text, "t.yaml")
    return str(info.value)


def statuses(text: str) -> list[tuple[str, bool]]:
    """(verdict, passed) of each expectation when the scenario is checked."""
    res = check_text(text, "t.yaml")
    assert res.status.value in ("pass", "fail"), res.error
    return [(e.verdict.value, e.passed) for e in res.expectations]


# -- item 6: events and expectations against time ------------------------------------------------
DECLARE = "  - {type: declare, id: act, actor: alice, kind: close, source: knight}\n"
RESOLVE = "  - {type: resolve, action: act}\n"
BEGIN = "  - type: begin_effect\n    effect: {id: later, kind: grant, ability: flying, targets: [rogue]}\n"
END = "  - {type: end_effect, effect: later}\n"


@pytest.mark.parametrize("events, fragment, line", [
    (RESOLVE + DECLARE, "events[0] (resolve): object 'act' does not exist yet: it is created only by events[1]", 8),
    (END + BEGIN, "events[0] (end_effect): effect 'later' does not exist yet: it begins only by events[1]", 8),
    ("  - {type: declare, id: first, actor: alice, kind: close, source: act}\n" + DECLARE,
     "events[0] (declare): object 'act' does not exist yet", 8),
    ("  - {type: move, object: act, zone: graveyard}\n" + DECLARE, "events[0] (move): object 'act' does not exist", 8),
])
def test_an_event_names_only_what_exists(events, fragment, line):
    """Infeasible in time: an event naming an object or effect that a later event brings into being."""
    message = load_error(HEAD + "events:\n" + events)
    assert fragment in message
    assert message.startswith(f"t.yaml:{line}:")


@pytest.mark.parametrize("events", [DECLARE + RESOLVE, BEGIN + END, DECLARE + "  - {type: move, object: act, zone: graveyard}\n"])
def test_the_same_events_in_time_order_load(events):
    """Trivial / feasible: the same references after the creating event are fine."""
    load_scenario_text(HEAD + "events:\n" + events + "expect:\n  - {unique: true}\n", "t.yaml")


@pytest.mark.parametrize("atoms, fragment", [
    ("object: act, zone: graveyard", "only 'exists' can be said about it there, not 'zone'"),
    ("object: act, zone: stack, exists: true", "not 'zone'"),
    ("object: knight, attached_to: act", "object 'act' does not exist yet (events[0] creates it): nothing can be attached"),
])
def test_an_expectation_before_creation_says_only_that_it_does_not_exist(atoms, fragment):
    """At 0 the declared action does not exist yet: anything but 'exists' about it is a located error."""
    text = HEAD + "events:\n" + DECLARE + f"expect:\n  - {{{atoms}, at: 0}}\n"
    message = load_error(text)
    assert fragment in message and message.startswith("t.yaml:10:")


@pytest.mark.parametrize("atoms, verdict, passed", [
    ("object: act, exists: false", "holds", True),
    ("object: act, exists: true", "impossible", False),
    ("action: act, action_status: unborn", "holds", True),
    ("action: act, action_status: on_stack", "impossible", False),
])
def test_existence_before_creation_gets_the_right_verdict(atoms, verdict, passed):
    """'It does not exist yet' holds; 'it exists' (or is on the stack) before the declaration fails."""
    text = HEAD + "events:\n" + DECLARE + f"expect:\n  - {{{atoms}, at: 0}}\n"
    assert statuses(text) == [(verdict, passed)]


def test_the_issue_case_in_the_graveyard_before_it_was_created_no_longer_holds():
    """The issue's case: moving an object before the event that creates it is refused, not answered 'holds'."""
    text = (HEAD + "events:\n  - {type: move, object: act, zone: graveyard}\n" + DECLARE
            + "expect:\n  - {object: act, zone: graveyard, at: 1}\n")
    assert "does not exist yet" in load_error(text)


# -- item 7: equal timestamps among contesting effects ---------------------------------------------
def effects(*items: str) -> str:
    """A scenario with these effects (flow mappings) and a uniqueness expectation."""
    return HEAD + "effects:\n" + "".join(f"  - {{{e}}}\n" for e in items) + "expect:\n  - {unique: true}\n"


SET_DARK = "id: dark, timestamp: 3, kind: set, attribute: alignment, value: dark, targets: [knight]"
SET_NEUTRAL = "id: neutral, timestamp: 3, kind: set, attribute: alignment, value: neutral, targets: {types: [creature]}"


@pytest.mark.parametrize("a, b", [
    (SET_DARK, SET_NEUTRAL),
    ("id: mine, timestamp: 2, kind: control, player: alice, targets: [rogue]",
     "id: yours, timestamp: 2, kind: control, player: bob, targets: [rogue, knight]"),
    ("id: give, timestamp: 0, kind: grant, ability: flying, targets: [rogue]",
     "id: take, timestamp: 0, kind: remove, ability: flying, targets: {objects: [rogue]}"),
])
def test_equal_timestamps_on_one_characteristic_are_an_error_naming_both(a, b):
    """Infeasible: list order would decide; the error is at the second effect and names the first's place."""
    message = load_error(effects(a, b))
    assert "have the same timestamp" in message and "which is no rule" in message
    assert message.startswith("t.yaml:9:")  # the second effect
    assert re.search(r"\(effects\[0\] at t\.yaml:8:5\)", message), message  # and the first


@pytest.mark.parametrize("a, b", [
    (SET_DARK, SET_NEUTRAL.replace("timestamp: 3", "timestamp: 4")),  # different timestamps
    (SET_DARK, SET_NEUTRAL.replace("attribute: alignment", "attribute: colour")),  # another characteristic
    (SET_DARK, SET_NEUTRAL.replace("value: neutral", "value: dark")),  # the same result either way
    (SET_DARK, SET_NEUTRAL.replace("targets: {types: [creature]}", "targets: [rogue]")),  # other objects
    ("id: p1, timestamp: 1, kind: add, attribute: life, value: 1, targets: [knight]",
     "id: p2, timestamp: 1, kind: add, attribute: life, value: 2, targets: [knight]"),  # adds sum
    ("id: yes, timestamp: 1, kind: permit, action: open, targets: [knight]",
     "id: no, timestamp: 1, kind: prohibit, action: open, targets: [knight]"),  # 524.2 decides, not time
])
def test_ties_that_order_cannot_change_load(a, b):
    """Feasible: no contest, or a contest order cannot change."""
    load_scenario_text(effects(a, b), "t.yaml")


def test_swapping_two_tied_lines_no_longer_flips_the_verdict():
    """The issue's case: before, list order decided (one order passed, the swapped one failed); now both are errors."""
    one, two = effects(SET_DARK, SET_NEUTRAL), effects(SET_NEUTRAL, SET_DARK)
    assert "same timestamp" in load_error(one) and "same timestamp" in load_error(two)


# -- issue 14: effect order follows the events -------------------------------------------------------
BLADE = "  - {id: blade, timestamp: 90, kind: set, attribute: alignment, value: dark, targets: [knight]}\n"


def begun(timestamp: str = "") -> str:
    """A scenario whose initial effect has timestamp 90 and whose event begins a contesting effect later."""
    stamp = f"timestamp: {timestamp}, " if timestamp else ""
    return (HEAD + "effects:\n" + BLADE + "events:\n  - type: begin_effect\n    effect: {id: kanor, " + stamp
            + "kind: set, attribute: alignment, value: neutral, targets: [knight]}\n"
            + "expect:\n  - {object: knight, properties: {alignment: neutral}, because: [berserk.conflict.latest]}\n"
            + "  - {object: knight, properties: {alignment: dark}, at: 0}\n")


@pytest.mark.parametrize("timestamp", ["", "91", "500"])
def test_an_effect_begun_later_applies_last(timestamp):
    """Feasible: with no timestamp, or one that agrees, the effect the event begins wins (and the reference agrees)."""
    assert statuses(begun(timestamp)) == [("holds", True), ("holds", True)]
    assert_agrees(load_scenario_text(begun(timestamp), "t.yaml").scenario)


@pytest.mark.parametrize("timestamp", ["1", "90"])
def test_a_typed_timestamp_against_the_event_order_is_a_located_error(timestamp):
    """Infeasible: 'a later effect given a lower timestamp' no longer silently flips the answer."""
    message = load_error(begun(timestamp))
    assert message.startswith("t.yaml:10:") and "applies after every effect before it" in message


def test_a_wrong_expectation_about_the_order_fails():
    """Flip the expectation: 'the older effect still wins' fails."""
    text = begun().replace("{alignment: neutral}, because", "{alignment: dark}, because")
    assert statuses(text)[0] == ("impossible", False)


def test_an_initial_effect_needs_a_timestamp_a_begun_one_does_not():
    """Typed timestamps are for the initial state."""
    assert "missing required field 'timestamp'" in load_error(
        HEAD + "effects:\n  - {id: e, kind: grant, ability: flying, targets: [rogue]}\n")
    sc = Scenario.model_validate({"id": "x", "game": "core", "players": [{"id": "a"}], "events": [
        {"type": "begin_effect", "effect": {"id": "e", "kind": "grant", "ability": "fly", "targets": ["a"]}}]})
    assert sc.events[0].effect.timestamp is None


# -- cards that entered together: their order is open (issue 27 "simultaneous placement", issue 26 613.7m) --------
TOGETHER = {
    "berserk/conflict.together-1-placed-together-no-order.yaml": "no rule orders these effects",
    "mtg/613.7m-entered-together-active-player-orders.yaml": "mtg.613.7m: 613.7m",
    "riftbound/timestamp-together-no-order.yaml": "no rule orders these effects",
    "ti4/timestamp-together-no-order.yaml": "no rule orders these effects",
}
LIBRARY = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.mark.parametrize("name", sorted(TOGETHER))
def test_entered_together_gives_every_order_as_an_outcome(name: str) -> None:
    """Static abilities of cards that entered together (one timestamp): both orders are outcomes, the result says
    why (the rule giving the order to a player, or that none orders them); asking for one outcome fails."""
    text = (LIBRARY / name).read_text(encoding="utf-8")
    res = check_text(text, name)
    assert res.status.value == "pass", res
    assert len(res.outcomes) == 2 and res.unique is False
    assert all(any(k.startswith("order.") for k in o.state) for o in res.outcomes), "the order is shown"
    assert len(res.open_orders) == 1 and TOGETHER[name] in res.open_orders[0], res.open_orders
    flipped = check_text(text.replace("  - unique: false", "  - unique: true"), name)
    assert flipped.status.value == "fail" and not flipped.expectations[-1].passed
    assert_agrees(load_scenario_text(text, name).scenario)


THREE = HEAD + """  - {id: lord, owner: alice, zone: play, types: [creature]}
  - {id: sage, owner: alice, zone: play, types: [creature]}
  - {id: monk, owner: bob, zone: play, types: [creature]}
effects:
  - {id: a5, kind: set, attribute: life, value: 5, targets: [rogue], source: lord, duration: static, timestamp: 2}
  - {id: b1, kind: set, attribute: life, value: 1, targets: [rogue], source: sage, duration: static, timestamp: 2}
  - {id: c7, kind: set, attribute: life, value: 7, targets: [rogue], source: monk, duration: static, timestamp: 2}
expect:
  - {object: rogue, attributes: {life: 5}, verdict: possible}
  - {object: rogue, attributes: {life: 1}, verdict: possible}
  - {object: rogue, attributes: {life: 7}, verdict: possible}
"""


def test_three_entered_together_give_every_permutation() -> None:
    """Three contradicting static abilities at one timestamp: six orders, each effect last in two of them."""
    res = check_text(THREE, "t.yaml")
    assert res.status.value == "pass", res
    assert len(res.outcomes) == 6
    last = sorted(max(("a5", "b1", "c7"), key=lambda e: o.state[f"order.{e}"]) for o in res.outcomes)
    assert last == ["a5", "a5", "b1", "b1", "c7", "c7"]
    assert_agrees(load_scenario_text(THREE, "t.yaml").scenario)


def test_a_non_static_effect_at_the_same_timestamp_stays_an_error() -> None:
    """Only cards that entered together leave the order open: a typed effect sharing the timestamp is refused."""
    text = THREE.replace("source: monk, duration: static, timestamp: 2", "source: monk, timestamp: 2")
    assert "have the same timestamp 2" in load_error(text)
