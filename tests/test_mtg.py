"""MTG 800.4 (a player leaves a multiplayer game), rule by rule: trivial (nobody leaves: the rule does not act),
feasible (the rule's result holds), infeasible (the opposite is impossible and the rule is in the core)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from models.results import ScenarioResult
from solver.run.api import check_file, check_text

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("alex", "bianca", "carla")


def scenario(players=PLAYERS, **parts) -> dict:
    """An mtg scenario dict; Alex's turn and priority by default."""
    doc = {"id": "t", "game": "mtg", "players": [p if isinstance(p, dict) else {"id": p} for p in players],
           "turn": {"active_player": "alex", "priority": "alex"}}
    doc.update(parts)
    return doc


def run(doc: dict, why: bool = False) -> ScenarioResult:
    """Check a scenario dict through the public API (``why``: every verdict's rules, as ``check --why``)."""
    return check_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), "test.yaml", why=why)


def obj(oid: str, owner: str | None, zone: str = "battlefield", **kw) -> dict:
    """A scenario object."""
    return {"id": oid, "owner": owner, "zone": zone, **kw}


def leave(player: str) -> dict:
    """The leave_game event."""
    return {"type": "leave_game", "player": player}


def steal(eid: str, player: str, target: str, ts: int = 1, duration: str = "permanent") -> dict:
    """A control effect giving ``player`` control of ``target``."""
    return {"id": eid, "timestamp": ts, "kind": "control", "player": player, "targets": [target], "duration": duration}


# rule -> (scenario parts, expectation that holds, expectation that is impossible with the rule in its core,
#          expectation that holds when nobody leaves, i.e. without the leave_game events)
CASES = {
    "mtg.800.4a.owned": (
        dict(objects=[obj("card", "alex")], events=[leave("alex")]),
        {"object": "card", "zone": "outside"},
        {"object": "card", "zone": "battlefield"},
        {"object": "card", "zone": "battlefield"},
    ),
    "mtg.800.4a.control_ends": (
        dict(objects=[obj("bear", "bianca")], effects=[steal("treason", "alex", "bear")], events=[leave("alex")]),
        {"object": "bear", "zone": "battlefield", "controller": "bianca"},
        {"object": "bear", "controller": "alex"},
        {"object": "bear", "controller": "alex"},
    ),
    "mtg.800.4a.stack_ceases": (
        dict(objects=[obj("ability", "alex", "stack", card=False)], events=[leave("alex")]),
        {"object": "ability", "exists": False},
        {"object": "ability", "zone": "stack"},
        {"object": "ability", "zone": "stack"},
    ),
    "mtg.800.4a.exile": (
        dict(objects=[obj("angel", "bianca", controller="alex")], events=[leave("alex")]),
        {"object": "angel", "zone": "exile"},
        {"object": "angel", "zone": "battlefield"},
        {"object": "angel", "zone": "battlefield", "controller": "alex"},
    ),
    "mtg.800.4a.priority": (
        dict(turn={"active_player": "carla", "priority": "alex"}, events=[leave("alex")]),
        {"turn": {"priority": "bianca"}},
        {"turn": {"priority": "alex"}},
        {"turn": {"priority": "alex"}},
    ),
    "mtg.800.4b.token": (
        dict(events=[leave("bianca"), {"type": "create", "id": "myr", "controller": "bianca"}]),
        {"object": "myr", "exists": False},
        {"object": "myr", "zone": "battlefield"},
        {"object": "myr", "zone": "battlefield", "controller": "bianca"},
    ),
    "mtg.800.4b.enter": (
        dict(objects=[obj("angel", "carla", "library")],
             events=[leave("bianca"), {"type": "put_onto", "object": "angel", "controller": "bianca"}]),
        {"object": "angel", "zone": "library"},
        {"object": "angel", "zone": "battlefield"},
        {"object": "angel", "zone": "battlefield", "controller": "bianca"},
    ),
    "mtg.800.4b.control": (
        dict(objects=[obj("bear", "carla")],
             events=[leave("bianca"), {"type": "begin_effect", "effect": steal("late", "bianca", "bear", 5)}]),
        {"object": "bear", "controller": "carla"},
        {"object": "bear", "controller": "bianca"},
        {"object": "bear", "controller": "bianca"},
    ),
    "mtg.800.4b.player": (
        dict(events=[leave("bianca"), {"type": "begin_effect", "effect": steal("mindslaver", "bianca", "carla", 5)}]),
        {"effect": "mindslaver", "effect_active": False},
        {"effect": "mindslaver", "effect_active": True},
        {"effect": "mindslaver", "effect_active": True},
    ),
    "mtg.800.4c": (
        dict(objects=[obj("angel", "bianca", controller="alex")],
             effects=[steal("carla_steals", "carla", "angel", 3, "until_end_of_turn")],
             events=[leave("alex"), {"type": "end_turn"}]),
        {"object": "angel", "zone": "exile"},
        {"object": "angel", "zone": "battlefield"},
        {"object": "angel", "zone": "battlefield", "controller": "alex"},
    ),
    "mtg.800.4d": (
        dict(events=[leave("bianca"), {"type": "create", "id": "copy", "controller": "alex", "owner": "bianca",
                                       "zone": "hand", "token": False}]),
        {"object": "copy", "exists": False},
        {"object": "copy", "zone": "hand"},
        {"object": "copy", "zone": "hand"},
    ),
    "mtg.800.4d.trigger": (
        dict(objects=[obj("spirit", "alex", "exile")],
             events=[leave("bianca"), {"type": "trigger", "id": "slide", "controller": "bianca",
                                       "kind": "return_to_battlefield", "targets": ["spirit"]},
                     {"type": "resolve", "action": "slide"}]),
        {"object": "spirit", "zone": "exile"},
        {"object": "spirit", "zone": "battlefield"},
        {"object": "spirit", "zone": "battlefield", "controller": "alex"},
    ),
    "mtg.800.4e": (
        dict(players=[{"id": "alex"}, {"id": "bianca", "attributes": {"life": 10}}, {"id": "carla"}],
             objects=[obj("dragon", "alex")],
             events=[leave("bianca"), {"type": "combat_damage", "source": "dragon", "player": "bianca", "amount": 5}]),
        {"player": "bianca", "player_attributes": {"life": 10}},
        {"player": "bianca", "player_attributes": {"life": 5}},
        {"player": "bianca", "player_attributes": {"life": 5}},
    ),
    "mtg.800.4g": (
        dict(events=[leave("bianca"), {"type": "choice", "id": "pick", "player": "bianca"}]),
        {"player": "carla", "player_flags": {"pick": True}},
        {"player": "alex", "player_flags": {"pick": True}},
        {"player": "bianca", "player_flags": {"pick": True}},
    ),
    "mtg.800.4h": (
        dict(players=[{"id": "alex"}, {"id": "bianca", "attributes": {"life": 7}}, {"id": "carla"}],
             events=[leave("bianca"), {"type": "player_information", "player": "bianca", "attribute": "life",
                                       "reader": "alex", "into": "seen"}]),
        {"player": "alex", "player_attributes": {"seen": 7}},
        {"player": "alex", "player_attributes": {"seen": 0}},
        {"player": "alex", "player_attributes": {"seen": 7}},
    ),
    "mtg.800.4h.actions": (
        dict(players=[{"id": "alex", "attributes": {"spells_cast": 1}}, {"id": "bianca", "attributes": {"spells_cast": 2}},
                      {"id": "carla"}],
             events=[leave("bianca"), {"type": "count_actions", "attribute": "spells_cast", "reader": "alex", "into": "storm"}]),
        {"player": "alex", "player_attributes": {"storm": 3}},
        {"player": "alex", "player_attributes": {"storm": 1}},
        {"player": "alex", "player_attributes": {"storm": 3}},
    ),
    "mtg.800.4i": (
        dict(turn={"active_player": "alex", "priority": "carla"}, events=[leave("alex")]),
        {"turn": {"active_player": "none"}},
        {"turn": {"active_player": "alex"}},
        {"turn": {"active_player": "alex"}},
    ),
    "mtg.800.4i.priority": (
        dict(turn={"active_player": "alex", "priority": "carla"}, events=[leave("alex"), {"type": "priority_to_active"}]),
        {"turn": {"priority": "bianca"}},
        {"turn": {"priority": "carla"}},
        {"turn": {"priority": "alex"}},
    ),
    "mtg.800.4j": (
        dict(events=[leave("bianca"), {"type": "begin_turn", "player": "bianca"}]),
        {"turn": {"active_player": "alex"}},
        {"turn": {"active_player": "bianca"}},
        {"turn": {"active_player": "bianca"}},
    ),
    "mtg.800.4k": (
        dict(effects=[{"id": "fog", "timestamp": 1, "kind": "set", "attribute": "power", "value": 0, "targets": [],
                       "duration": "until_next_turn", "until_player": "bianca"}],
             events=[leave("bianca")]),
        {"effect": "fog", "effect_active": True},
        {"effect": "fog", "effect_active": False},
        {"effect": "fog", "effect_active": True},
    ),
    "mtg.800.4m": (
        dict(objects=[obj("ante_card", "bianca", "ante")], events=[leave("bianca")]),
        {"object": "ante_card", "zone": "ante"},
        {"object": "ante_card", "zone": "outside"},
        {"object": "ante_card", "zone": "ante"},
    ),
    "mtg.800.4n": (
        dict(objects=[obj("plane", None, "command", controller="alex", types=["plane"])], events=[leave("alex")]),
        {"object": "plane", "zone": "command", "controller": "bianca"},
        {"object": "plane", "zone": "exile"},
        {"object": "plane", "zone": "command", "controller": "alex"},
    ),
}


def _with(parts: dict, *expect: dict, keep_leaves: bool = True) -> dict:
    parts = dict(parts)
    if not keep_leaves:
        parts["events"] = [e for e in parts.get("events", []) if e["type"] != "leave_game"]
    return scenario(**parts, expect=list(expect))


@pytest.mark.parametrize("rule", sorted(CASES))
def test_trivial_nobody_leaves(rule: str) -> None:
    """Without the leave the rule does not act: the ordinary result holds (and the 800.4 result, if it differs, does not)."""
    parts, holds, _, plain = CASES[rule]
    extra = [] if holds == plain else [{**holds, "verdict": "impossible"}]
    res = run(_with(parts, plain, *extra, keep_leaves=False))
    assert res.status.value == "pass", [(e.description, e.verdict.value, e.message) for e in res.expectations]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_feasible_rule_result_holds(rule: str) -> None:
    """With the leave the rule's result holds in every outcome, and the outcome is unique."""
    parts, holds, _, _ = CASES[rule]
    res = run(_with(parts, holds, {"unique": True}))
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(CASES))
def test_infeasible_opposite_excluded_by_rule(rule: str) -> None:
    """The opposite result is impossible, and the minimal core behind it names the rule."""
    parts, _, opposite, _ = CASES[rule]
    res = run(_with(parts, {**opposite, "verdict": "impossible", "because": [rule]}), why=True)
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.rules, e.message) for e in res.expectations])
    e = res.expectations[0]  # in the core of the final state, or of an earlier stage of the event (because_at)
    assert any(r == rule or r.startswith(rule + ".") for r in list(e.rules) + list(e.because_at)), e


def test_false_expectation_fails_with_reason() -> None:
    """Mind Control: expecting that Alex keeps the Griffin after leaving makes the scenario fail, naming 800.4a."""
    doc = yaml.safe_load((ROOT / "scenarios/mtg/800.4a-mind-control-alex-leaves.yaml").read_text())
    doc["expect"] = [{"object": "griffin", "zone": "battlefield", "controller": "alex"}]
    res = run(doc)
    assert res.status.value == "fail"
    ex = res.expectations[0]
    assert ex.verdict.value == "impossible" and not ex.passed
    clauses = [r for r in ex.rules if r.startswith("mtg.800.4a.")]
    assert clauses and all(c in ex.message for c in clauses), (ex.rules, ex.message)


CHOICE = scenario(players=("alex", "bianca", "carla", "dmitri"),
                  objects=[obj("spell", "alex", "stack", action={"kind": "spell"})],
                  events=[leave("bianca"), {"type": "choice", "id": "pick", "player": "bianca", "source": "spell",
                                            "opponent": True}])


def test_800_4f_choice_gives_one_outcome_per_eligible_player() -> None:
    """800.4f is a real choice: two outcomes (Carla or Dmitri); 'Carla chooses' is possible, never holds."""
    res = run({**CHOICE, "expect": [{"player": "carla", "player_flags": {"pick": True}, "verdict": "possible"},
                                    {"player": "dmitri", "player_flags": {"pick": True}, "verdict": "possible"},
                                    {"outcomes": 2}]})
    assert res.status.value == "pass" and len(res.outcomes) == 2 and res.unique is False
    wrong = run({**CHOICE, "expect": [{"player": "carla", "player_flags": {"pick": True}}]})
    assert wrong.status.value == "fail" and wrong.expectations[0].verdict.value == "possible"


def test_800_4f_controller_is_no_opponent_of_himself() -> None:
    """With other opponents in the game, the controller cannot pick himself (800.4f in the core)."""
    res = run({**CHOICE, "expect": [{"player": "alex", "player_flags": {"pick": True}, "verdict": "impossible",
                                     "because": ["mtg.800.4f"]}]})
    assert res.status.value == "pass"


def test_800_4a_stages_in_order() -> None:
    """The leave is staged: 800.4a owned/control, stack, exile, then state-based actions as their own stage."""
    from models.loader import load_scenario
    from solver.encoding.compile import Compiler
    from solver.registry import ruleset_for
    sc = load_scenario(ROOT / "scenarios/mtg/800.4a-mind-control-bianca-leaves.yaml").scenario
    comp = Compiler(sc, ruleset_for("mtg"))
    comp.compile_events()
    labels = [s.label for s in comp.stages[1:]]
    order = [next(i for i, lab in enumerate(labels) if key in lab)
             for key in ("bianca leaves; owned objects leave", "cease to exist", "still controls is exiled",
                         "state-based actions")]
    assert order == sorted(order) and order[0] == 0 and order[-1] == len(labels) - 1


def test_bad_event_zone_is_a_clear_error() -> None:
    """A created object in an unknown zone is an error with file and line, not a traceback."""
    res = run(scenario(events=[{"type": "create", "id": "x", "controller": "alex", "zone": "moon"}]))
    assert res.status.value == "error" and "test.yaml:" in res.error and "moon" in res.error


SCENARIOS = sorted((ROOT / "scenarios/mtg").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_library_scenario_passes(path: Path) -> None:
    """Every mtg library scenario passes."""
    res = check_file(path)
    assert res.status.value == "pass", (res.error, [(e.description, e.verdict.value, e.message)
                                                    for e in res.expectations if not e.passed])


def test_library_cites_every_sub_rule() -> None:
    """The library cites 800.4a, b, c, d, e, f, g, h, i, j, k, m and n."""
    cited = {r for p in SCENARIOS for r in yaml.safe_load(p.read_text()).get("rules", [])}
    for letter in "abcdefghijkmn":
        assert any(r == f"mtg.800.4{letter}" or r.startswith(f"mtg.800.4{letter}.") for r in cited), letter


BIG_PLAYERS = ("p0", "p1", "p2", "p3", "p4")


def many_objects(n: int) -> tuple[dict, int]:
    """A five-player game with ``n`` permanents, a control effect on every fourth, a default controller p0 on every
    fourth other; p0, p1 and p2 leave one after another. Returns the scenario and its number of effects."""
    objects, effects, expect = [], [], []
    for i in range(n):
        owner = BIG_PLAYERS[i % 5]
        o = obj(f"o{i}", owner, types=["creature"])
        if i % 4 == 1 and owner != "p0":
            o["controller"] = "p0"
        objects.append(o)
        if i % 4 == 2:
            effects.append(steal(f"e{i}", BIG_PLAYERS[(i + 1) % 5], f"o{i}", ts=i + 1))
    for i in range(n):
        owner, o = BIG_PLAYERS[i % 5], objects[i]
        if owner in ("p0", "p1", "p2"):
            expect.append({"object": f"o{i}", "zone": "outside"})
        elif o.get("controller") == "p0":
            expect.append({"object": f"o{i}", "zone": "exile"})
        elif i % 4 == 2:
            thief = BIG_PLAYERS[(i + 1) % 5]
            expect.append({"object": f"o{i}", "zone": "battlefield",
                           "controller": owner if thief in ("p0", "p1", "p2") else thief})
    expect.append({"turn": {"priority": "p3"}})
    expect.append({"unique": True})
    doc = scenario(players=BIG_PLAYERS, objects=objects, effects=effects, turn={"active_player": "p0", "priority": "p0"},
                   events=[leave("p0"), leave("p1"), leave("p2")], expect=expect)
    return doc, len(effects)


def test_generated_leave_game_scenario_small() -> None:
    """A generated 30-object game where three players leave: every expectation holds, one outcome."""
    doc, _ = many_objects(30)
    res = run(doc)
    assert res.status.value == "pass", [(e.description, e.verdict.value) for e in res.expectations if not e.passed]


@pytest.mark.benchmark
@pytest.mark.parametrize("n", [200, 400])
def test_generated_leave_game_scenario_large(n: int) -> None:
    """Benchmark: the same with 200 and 400 objects (run with -m benchmark -s to see the time)."""
    import time
    doc, effects = many_objects(n)
    t = time.perf_counter()
    res = run(doc)
    print(f"\n{n} objects, {effects} control effects, 3 leaves: {res.status.value} in {time.perf_counter() - t:.2f}s, "
          f"{res.solves} solves")
    assert res.status.value == "pass"
