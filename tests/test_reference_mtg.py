"""The independent reference for MTG 800.4: library outcomes obey every rule, wrong states name their rule,
random small scenarios agree with the checker, and the encoding bug the differential checks found stays fixed."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.loader import load_scenario
from models.scenario import Scenario
from solver.run.api import check_scenario
from solver.reference import enumerate_traces, validate
from tests.helpers import assert_agrees
from solver.reference.generate import random_scenario
from solver.reference.validate import broken_rules

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios" / "mtg").glob("*.yaml"))
EXAMPLES = 25
PLAYERS = [{"id": "alex"}, {"id": "bianca"}, {"id": "carla"}]


def _scenario(**parts) -> Scenario:
    return Scenario.model_validate({"id": "t", "game": "mtg", "players": PLAYERS, **parts})



GRIFFIN = {"id": "griffin", "owner": "bianca", "zone": "battlefield", "types": ["creature"]}
MIND_CONTROL = {"id": "mc", "owner": "alex", "zone": "battlefield", "types": ["enchantment", "aura"],
                "attached_to": "griffin"}
STEAL = {"id": "steal", "source": "mc", "timestamp": 1, "kind": "control", "player": "alex", "targets": ["griffin"],
         "duration": "static"}
TREASON = {"id": "treason", "timestamp": 1, "kind": "control", "player": "alex", "targets": ["griffin"],
           "duration": "until_end_of_turn"}
LEAVE = {"type": "leave_game", "player": "alex"}
BIANCA_LEAVES = {"type": "leave_game", "player": "bianca"}
TURN = {"active_player": "alex", "priority": "alex"}
BEARS = {"id": "bears", "owner": "alex", "zone": "battlefield", "types": ["creature"], "attributes": {"toughness": 2}}
WALL = {"id": "wall", "owner": "carla", "zone": "battlefield", "types": ["creature"], "attributes": {"toughness": 5}}
HIT = {"type": "damage", "source": "wall", "target": "bears", "amount": 2}
LIVES = [{"id": p, "attributes": {"life": 20}} for p in ("alex", "bianca", "carla")]
FOUR = [{"id": p} for p in ("alex", "bianca", "carla", "dmitri")]
DRAIN = {"type": "declare", "id": "drain", "actor": "alex", "kind": "lose_life", "targets": ["bianca"],
         "params": {"amount": 2}, "card": True}
RESOLVE = {"type": "resolve", "action": "drain"}
RING = {"id": "ring", "owner": "bianca", "zone": "battlefield", "types": ["enchantment"]}
EXILING = [{"type": "trigger", "id": "exiling", "controller": "bianca", "source": "ring", "kind": "exile_until_leaves",
            "targets": ["bears"]}, {"type": "resolve", "action": "exiling"}]
RING_GOES = {"type": "move", "object": "ring", "zone": "graveyard"}

# (name, scenario parts, state index, key, wrong value, rule that must be named)
MUTATIONS = [
    ("owned object stays", dict(objects=[MIND_CONTROL, GRIFFIN], effects=[STEAL], events=[LEAVE]), 1,
     "zone.mc", "battlefield", "mtg.800.4a.owned"),
    ("stolen object exiled although control ended", dict(objects=[MIND_CONTROL, GRIFFIN], effects=[STEAL],
                                                          events=[LEAVE]), 1, "zone.griffin", "exile",
     "core.inertia"),
    ("control effect survives its player", dict(objects=[GRIFFIN], effects=[TREASON], events=[LEAVE]), 1,
     "active.treason", "1", "mtg.800.4a.control_ends"),
    ("priority stays with the leaver", dict(objects=[GRIFFIN], turn=TURN, events=[LEAVE]), 1, "turn.priority",
     "alex", "mtg.800.4a.priority"),
    ("leaver stays active player", dict(objects=[GRIFFIN], turn=TURN, events=[LEAVE]), 1, "turn.active_player",
     "alex", "mtg.800.4i"),
    ("what the leaver controls is not exiled", dict(objects=[{**GRIFFIN, "controller": "alex"}], events=[LEAVE]),
     1, "zone.griffin", "battlefield", "mtg.800.4a.exile"),
    ("Aura of a leaver's creature stays", dict(objects=[{**MIND_CONTROL, "owner": "carla"}, GRIFFIN],
                                               events=[BIANCA_LEAVES]), 1, "zone.mc", "battlefield", "mtg.704.5m"),
    ("combat damage to a leaver", dict(objects=[GRIFFIN], players=[{"id": "alex", "attributes": {"life": 5}},
                                                                   {"id": "bianca"}, {"id": "carla"}],
                                       events=[LEAVE, {"type": "combat_damage", "source": "griffin", "player": "alex",
                                                       "amount": 2}]), 2, "pattr.alex.life", "3", "mtg.800.4e"),
    ("token created for a leaver", dict(objects=[GRIFFIN], events=[LEAVE, {"type": "create", "id": "myr",
                                                                           "controller": "alex"}]), 2,
     "zone.myr", "battlefield", "mtg.800.4b.token"),
    ("leaver's turn begins", dict(objects=[GRIFFIN], turn={"active_player": "carla", "priority": "carla"},
                                  events=[LEAVE, {"type": "begin_turn", "player": "alex"}]), 2,
     "turn.active_player", "alex", "mtg.800.4j"),
    ("lethal damage leaves the creature", dict(objects=[BEARS, WALL], events=[HIT]), 1, "zone.bears", "battlefield",
     "mtg.704.5g"),
    ("damage off the battlefield stays marked", dict(objects=[BEARS, WALL], events=[HIT]), 1, "attr.bears.damage", "2",
     "mtg.400.7"),
    ("a player at 0 life stays in the game", dict(players=LIVES, events=[{"type": "lose_life", "player": "bianca",
                                                                          "amount": 20}]),
     1, "pstatus.bianca", "in_game", "mtg.704.5a"),
    ("the loser's cards stay", dict(players=LIVES, objects=[GRIFFIN], events=[{"type": "lose_life", "player": "bianca",
                                                                               "amount": 20}]),
     1, "zone.griffin", "battlefield", "mtg.800.4a.owned"),
    ("a spell whose only target left resolves", dict(players=LIVES, events=[DRAIN, BIANCA_LEAVES, RESOLVE]), 3,
     "status.drain", "resolved", "mtg.608.2b"),
    ("the card exiled until the ring leaves stays", dict(objects=[RING, BEARS], events=EXILING + [RING_GOES]), 3,
     "zone.bears", "exile", "mtg.610.3"),
    ("the turn does not pass", dict(turn=TURN, events=[{"type": "end_turn"}]), 1, "turn.active_player", "alex",
     "mtg.500.next"),
    ("damage does not wear off", dict(objects=[{**BEARS, "attributes": {"toughness": 3}}, WALL], turn=TURN,
                                      events=[HIT, {"type": "end_turn"}]), 2, "attr.bears.damage", "2", "mtg.514.2"),
    ("ranges are not determined again", dict(players=FOUR, options={"range_of_influence": 1},
                                             turn={"active_player": "dmitri", "priority": "dmitri"},
                                             events=[BIANCA_LEAVES, {"type": "end_turn"}]), 2, "range.alex.carla", "0",
     "mtg.801.2c"),
]


@pytest.mark.parametrize("name, parts, stage, key, wrong, rule", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_wrong_state_names_the_rule(name, parts, stage, key, wrong, rule) -> None:
    """The one trace passes; the same trace with one wrong value is rejected, naming the rule it breaks."""
    sc = _scenario(**parts)
    traces = enumerate_traces(sc)
    assert len(traces) == 1
    good = [dict(s) for s in traces[0]]
    assert validate(sc, good) == []
    bad = [dict(s) for s in good]
    assert bad[stage][key] != wrong
    bad[stage][key] = wrong
    assert rule in broken_rules(validate(sc, bad))


def test_800_4f_choice_enumerates_each_other_opponent() -> None:
    """Bianca left; the spell's controller picks another opponent: Carla or Dmitri, never Alex or Bianca."""
    sc = load_scenario(ROOT / "scenarios" / "mtg" / "800.4f-object-choice-another-opponent.yaml").scenario
    chosen = sorted(next(p for p in ("alex", "bianca", "carla", "dmitri") if t[-1][f"pflag.{p}.separates"] == "1")
                    for t in enumerate_traces(sc))
    assert chosen == ["carla", "dmitri"]


# Bugs the differential checks found in the encoding: (name, scenario parts, expectation that must hold)
FOUND = [
    ("static-control-begun-later: a static control effect begun by an event follows its source (core.static)",
     dict(objects=[{"id": "mc", "owner": "alex", "zone": "battlefield", "types": ["enchantment"]}, GRIFFIN],
          events=[{"type": "begin_effect", "effect": {**STEAL, "timestamp": 3}},
                  {"type": "move", "object": "mc", "zone": "graveyard"}]),
     {"object": "griffin", "controller": "bianca"}),
    ("static-control-for-leaver: a static control effect begun for a player who left gives no control (800.4b)",
     dict(objects=[{"id": "mc", "owner": "bianca", "zone": "battlefield", "types": ["enchantment"]},
                   {**GRIFFIN, "owner": "carla"}],
          events=[LEAVE, {"type": "begin_effect", "effect": {**STEAL, "timestamp": 3}}]),
     {"object": "griffin", "controller": "carla"}),
    ("selector-misses-created: a control effect over all enchantments covers an enchantment created later",
     dict(effects=[{"id": "all", "timestamp": 1, "kind": "control", "player": "carla",
                    "targets": {"types": ["enchantment"]}, "duration": "permanent"}],
          events=[{"type": "create", "id": "n0", "controller": "bianca", "types": ["enchantment"]}]),
     {"object": "n0", "controller": "carla"}),
]


@pytest.mark.parametrize("name, parts, expect", FOUND, ids=lambda v: v.split(":")[0] if isinstance(v, str) else None)
def test_found_bugs_stay_fixed(name, parts, expect) -> None:
    """Each bug the differential checks found: checker and reference agree, and the verdict is right."""
    sc = _scenario(**parts, expect=[expect])
    assert_agrees(sc)
    res = check_scenario(sc)
    assert res.expectations[0].verdict.value == "holds", res.expectations[0].message


@settings(derandomize=True, max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_random_mtg_scenarios_agree(rng) -> None:
    """Random small valid 800.4 scenarios: the checker's outcomes and verdicts equal the reference's."""
    assert_agrees(random_scenario(rng, "mtg"))
