"""The independent reference: it shares no code with the encoding, it validates every outcome the checker
reports on the library, and it names the rule a wrong state breaks."""
from __future__ import annotations

from pathlib import Path

import pytest

from models.loader import load_scenario
from models.scenario import Scenario
from solver.run.api import check_file
from solver.reference import enumerate_traces, validate
from solver.registry import names

GAMES = names()
from solver.reference.validate import broken_rules

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "solver" / "reference"
LIBRARY = sorted(p for g in GAMES for p in (ROOT / "scenarios" / g).glob("*.yaml"))
@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_library_outcome_obeys_every_rule(path: Path) -> None:
    """Each outcome the checker reports passes the validator, rule by rule (a scenario that shows a contradiction on
    purpose has none, and the reference finds no trace either)."""
    res = check_file(path)
    sc = load_scenario(path).scenario
    assert res.status.value != "unknown", res.error
    if not res.outcomes:  # a contradiction (its core is computed only when asked)
        assert enumerate_traces(sc) == [], "the reference finds a trace where the checker finds a contradiction"
        return
    for o in res.outcomes:
        assert len(o.trace) == len(sc.events) + 1
        bad = validate(sc, o.trace)
        assert bad == [], f"outcome {o.index} breaks {broken_rules(bad)}: {bad[0]}"


def _scenario(**parts) -> Scenario:
    base = {"id": "t", "game": "berserk", "players": [{"id": "alice"}, {"id": "bob"}]}
    return Scenario.model_validate({**base, **parts})


CARD = {"id": "card", "owner": "alice", "zone": "play", "types": ["creature"], "attributes": {"life": 3},
        "flags": {"open": True}}
LORD = {"id": "lord", "owner": "bob", "zone": "play", "types": ["creature"]}
STEAL = {"id": "steal", "source": "lord", "timestamp": 1, "kind": "control", "player": "bob", "targets": ["card"],
         "duration": "static"}

# (name, scenario parts, state index, key, wrong value, rule that must be named)
MUTATIONS = [
    ("untouched key changes", dict(objects=[CARD], events=[{"type": "end_turn"}]), 1, "zone.card", "hand",
     "core.inertia"),
    ("move ignored", dict(objects=[CARD], events=[{"type": "move", "object": "card", "zone": "hand"}]), 1,
     "zone.card", "play", "core.move"),
    ("modify wrong", dict(objects=[CARD], events=[{"type": "modify", "object": "card", "attribute": "life",
                                                   "delta": -2}]), 1, "attr.card.life", "3", "core.modify"),
    ("flag wrong", dict(objects=[CARD], events=[{"type": "set_flag", "object": "card", "flag": "open",
                                                 "value": False}]), 1, "flag.card.open", "1", "core.flag"),
    ("static effect outlives its source", dict(objects=[CARD, LORD], effects=[STEAL],
                                               events=[{"type": "move", "object": "lord", "zone": "graveyard"}]),
     1, "active.steal", "1", "core.static"),
    ("initial state not the scenario's", dict(objects=[CARD]), 0, "attr.card.life", "2", "fact:attr.card.life"),
    ("derived controller wrong", dict(objects=[CARD, LORD], effects=[STEAL]), 0, "controller.card", "alice",
     "core.control"),
    ("illegal open reaches the stack", dict(objects=[CARD], events=[
        {"type": "declare", "id": "o", "actor": "alice", "kind": "open", "source": "card"}]), 1, "status.o",
     "on_stack", "berserk.525.1"),
    ("legal close declared illegal", dict(objects=[CARD], events=[
        {"type": "declare", "id": "c", "actor": "alice", "kind": "close", "source": "card"}]), 1, "status.c",
     "illegal", "core.declare"),
    ("resolved action not paid", dict(objects=[CARD, {**LORD, "flags": {"open": True}}], events=[
        {"type": "declare", "id": "c", "actor": "bob", "kind": "close", "source": "lord", "targets": ["card"]},
        {"type": "resolve", "action": "c"}]), 2, "flag.lord.open", "1", "berserk.payment"),
    ("interrupted action paid", dict(objects=[CARD, {**LORD, "flags": {"open": True}}], events=[
        {"type": "declare", "id": "c", "actor": "bob", "kind": "close", "source": "lord", "targets": ["card"]},
        {"type": "set_flag", "object": "card", "flag": "open", "value": False},
        {"type": "resolve", "action": "c"}]), 3, "flag.lord.open", "0", "berserk.526.1"),
]


@pytest.mark.parametrize("name, parts, stage, key, wrong, rule", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_wrong_state_names_the_rule(name, parts, stage, key, wrong, rule) -> None:
    """The right trace passes; the same trace with one wrong value is rejected, naming the rule it breaks."""
    sc = _scenario(**parts)
    traces = enumerate_traces(sc)
    assert len(traces) == 1
    good = [dict(st) for st in traces[0]]
    if key.startswith("controller."):
        good[stage][key] = "bob"
    assert validate(sc, good) == []
    bad = [dict(st) for st in good]
    assert bad[stage].get(key) != wrong
    bad[stage][key] = wrong
    assert rule in broken_rules(validate(sc, bad))


def test_enumeration_finds_every_choice() -> None:
    """An undeclared Choice subphase: the obliged card dies or moves to the one free adjacent cell."""
    sc = load_scenario(ROOT / "scenarios" / "berserk" / "conservation-5-undeclared-choice.yaml").scenario
    finals = sorted((t[-1]["zone.runner"], t[-1]["cell.runner"]) for t in enumerate_traces(sc))
    assert finals == [("graveyard", "none"), ("play", "r1c1")]


def test_contradiction_has_no_trace() -> None:
    """Ending a static effect while its source is in play contradicts core.static: no trace at all."""
    sc = _scenario(objects=[CARD, LORD], effects=[STEAL], events=[{"type": "end_effect", "effect": "steal"}])
    assert enumerate_traces(sc) == []


def test_unmodelled_key_must_not_change() -> None:
    """A key the reference does not model (here a made-up one) is held to the frame axiom."""
    sc = _scenario(objects=[CARD], events=[{"type": "end_turn"}])
    t = enumerate_traces(sc)[0]
    t[0]["extra.thing"], t[1]["extra.thing"] = "a", "b"
    assert broken_rules(validate(sc, t)) == ["core.inertia"]
