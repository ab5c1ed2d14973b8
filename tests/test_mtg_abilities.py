"""MTG flying and layer 6 (613.1f, 613.7, 613.7m), 'creatures your opponents control enter the battlefield tapped'
(614.1d, 611.3a, 800.4a) and the untap step (502.3): trivial (the rule does not act), feasible (its result holds),
infeasible (the opposite is impossible and the rule is in the core); the reference agrees on each."""
from __future__ import annotations

import pytest
import yaml

from models.scenario import Scenario
from solver.reference import enumerate_traces, validate
from solver.reference.validate import broken_rules
from solver.run.api import check_text
from tests.helpers import assert_agrees

PLAYERS = [{"id": "alex"}, {"id": "bianca"}, {"id": "carla"}]
TURN = {"active_player": "alex", "priority": "alex"}
BEARS = {"id": "bears", "owner": "alex", "zone": "battlefield", "types": ["creature"]}
LEVITATION = {"id": "lev", "owner": "alex", "zone": "battlefield", "types": ["enchantment"]}
WELL = {"id": "well", "owner": "bianca", "zone": "battlefield", "types": ["enchantment"]}
CREATURES = {"types": ["creature"], "zone": "battlefield"}


def grant(ts, source="lev") -> dict:
    """Levitation: creatures get flying (a static ability)."""
    return {"id": "fly", "kind": "grant", "ability": "flying", "source": source, "duration": "static",
            "targets": CREATURES, **({"timestamp": ts} if ts is not None else {})}


def remove(ts, source="well") -> dict:
    """'Creatures lose flying' (a static ability)."""
    return {"id": "ground", "kind": "remove", "ability": "flying", "source": source, "duration": "static",
            "targets": CREATURES, **({"timestamp": ts} if ts is not None else {})}


AUTHORITY = {"id": "auth", "owner": "alex", "zone": "battlefield", "types": ["enchantment"],
             "abilities": ["opponents_enter_tapped"]}


def creature(oid: str, owner: str, zone: str = "hand", **kw) -> dict:
    """A creature card."""
    return {"id": oid, "owner": owner, "zone": zone, "types": ["creature"], **kw}


def put(oid: str, **kw) -> dict:
    """It is put onto the battlefield."""
    return {"type": "put_onto", "object": oid, **kw}


# (name, scenario parts, expectation, verdict, rule the verdict rests on or None)
CASES = [
    # 613.1f / 613.7 / 613.7m: flying granted and removed
    ("trivial: printed flying, no effect", {"objects": [{**BEARS, "abilities": ["flying"]}]},
     {"object": "bears", "abilities": {"flying": True}}, "holds", None),
    ("feasible: Levitation gives flying", {"objects": [LEVITATION, BEARS], "effects": [grant(1)]},
     {"object": "bears", "abilities": {"flying": True}}, "holds", "mtg.613.1f"),
    ("feasible: a later removal wins", {"objects": [LEVITATION, WELL, BEARS], "effects": [grant(1), remove(2)]},
     {"object": "bears", "abilities": {"flying": False}}, "holds", "mtg.613.7"),
    ("infeasible: the earlier grant cannot win", {"objects": [LEVITATION, WELL, BEARS],
                                                      "effects": [grant(1), remove(2)]},
     {"object": "bears", "abilities": {"flying": True}}, "impossible", "mtg.613.7"),
    ("feasible: a grant entering after a removal wins", {"objects": [{**LEVITATION, "zone": "hand"}, WELL, BEARS],
                                                            "effects": [grant(None), remove(1)],
                                                            "events": [put("lev")]},
     {"object": "bears", "abilities": {"flying": True}}, "holds", "mtg.613.7"),
    ("feasible: entered together, either order", {"objects": [LEVITATION, WELL, BEARS],
                                                      "effects": [grant(1), remove(1)]},
     {"outcomes": 2}, "holds", None),
    # 614.1d / 611.3a / 800.4a: enters tapped
    ("trivial: no Authority, enters untapped", {"objects": [creature("elf", "carla")], "events": [put("elf")]},
     {"object": "elf", "flags": {"tapped": False}}, "holds", "mtg.110.5b"),
    ("feasible: an opponent's creature enters tapped", {"objects": [AUTHORITY, creature("elf", "carla")],
                                                           "events": [put("elf")]},
     {"object": "elf", "flags": {"tapped": True}}, "holds", "mtg.614.1d"),
    ("infeasible: it cannot enter untapped", {"objects": [AUTHORITY, creature("elf", "carla")], "events": [put("elf")]},
     {"object": "elf", "flags": {"tapped": False}}, "impossible", "mtg.614.1d"),
    ("trivial: the controller's own creature enters untapped", {"objects": [AUTHORITY, creature("elf", "alex")],
                                                                    "events": [put("elf")]},
     {"object": "elf", "flags": {"tapped": False}}, "holds", "mtg.110.5b"),
    ("feasible: put under the Authority's controller's control: untapped",
     {"objects": [AUTHORITY, creature("elf", "carla")], "events": [put("elf", controller="alex")]},
     {"object": "elf", "flags": {"tapped": False}}, "holds", "mtg.110.5b"),
    ("infeasible: tapped after its controller left", {"objects": [AUTHORITY, creature("elf", "carla")],
                                                         "events": [{"type": "leave_game", "player": "alex"},
                                                                 put("elf")]},
     {"object": "elf", "flags": {"tapped": True}}, "impossible", "mtg.110.5b"),
    ("infeasible: tapped after the Authority lost its ability",
     {"objects": [AUTHORITY, creature("elf", "carla")],
          "effects": [{"id": "blank", "kind": "remove", "ability": "opponents_enter_tapped", "targets": ["auth"],
                    "timestamp": 1}], "events": [put("elf")]},
     {"object": "elf", "flags": {"tapped": True}}, "impossible", "mtg.110.5b"),
    # 502.3: the untap step
    ("trivial: no turn begins, nothing untaps", {"objects": [{**BEARS, "flags": {"tapped": True}}]},
     {"object": "bears", "flags": {"tapped": True}}, "holds", None),
    ("feasible: the active player's permanent untaps",
     {"objects": [creature("wolf", "bianca", "battlefield", flags={"tapped": True})], "events": [{"type": "end_turn"}]},
     {"object": "wolf", "flags": {"tapped": False}}, "holds", "mtg.502.3"),
    ("infeasible: another player's permanent does not untap",
     {"objects": [creature("elf", "carla", "battlefield", flags={"tapped": True})], "events": [{"type": "end_turn"}]},
     {"object": "elf", "flags": {"tapped": False}}, "impossible", None),
]


def _doc(parts: dict, ex: dict) -> dict:
    return {"id": "t", "game": "mtg", "players": PLAYERS, "turn": TURN, **parts, "expect": [ex]}


@pytest.mark.parametrize("name, parts, ex, verdict, rule", CASES, ids=[c[0] for c in CASES])
def test_rule(name, parts, ex, verdict, rule) -> None:
    """The expectation has the verdict, resting on the rule; the reference agrees."""
    doc = _doc(parts, ex)
    res = check_text(yaml.safe_dump(doc, sort_keys=False), "test.yaml", why=True)
    assert res.error is None, res.error
    er = res.expectations[0]
    assert er.verdict.value == verdict, (er.verdict.value, er.message)
    if rule is not None:
        assert rule in er.rules, er.rules
    assert_agrees(Scenario.model_validate(doc))


def test_selector_control_with_enters_tapped_is_refused() -> None:
    """Who controls a creature as it enters under a selector's control effect (614.12) is not modelled: refused."""
    doc = _doc({"objects": [AUTHORITY, creature("elf", "carla")], "events": [put("elf")],
                    "effects": [{"id": "all", "kind": "control", "player": "bianca", "targets": {"types": ["creature"]},
                              "timestamp": 1}]}, {"object": "elf", "flags": {"tapped": True}})
    res = check_text(yaml.safe_dump(doc, sort_keys=False), "test.yaml")
    assert res.status.value == "error" and "614.12" in res.error


# (name, scenario parts, state index, flag key, its right value, rule the reference must name for the other)
WRONG = [
    ("an opponent's creature enters untapped", {"objects": [AUTHORITY, creature("elf", "carla")],
                                                "events": [put("elf")]}, 1, "flag.elf.tapped", "1", "mtg.614.1d"),
    ("the active player's permanent stays tapped",
     {"objects": [creature("wolf", "bianca", "battlefield", flags={"tapped": True})], "events": [{"type": "end_turn"}]},
     1, "flag.wolf.tapped", "0", "mtg.502.3"),
]


@pytest.mark.parametrize("name, parts, stage, key, right, rule", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_state_names_the_rule(name, parts, stage, key, right, rule) -> None:
    """The reference's one trace passes; with the value the rule forbids, it is rejected, naming the rule."""
    obj = key.split(".")[1]
    sc = Scenario.model_validate({"id": "t", "game": "mtg", "players": PLAYERS, "turn": TURN, **parts,
                                  "expect": [{"object": obj, "flags": {"tapped": right == "1"}}]})
    traces = enumerate_traces(sc)
    assert len(traces) == 1
    good = [dict(s) for s in traces[0]]
    assert validate(sc, good) == []
    assert good[stage][key] == right
    bad = [dict(s) for s in good]
    bad[stage][key] = {"0": "1", "1": "0"}[right]
    assert rule in broken_rules(validate(sc, bad))
