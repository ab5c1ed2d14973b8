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
        # owned by Alex, who is in the game: 800.4b alone keeps it out (with Bianca its owner, 800.4d would too)
        dict(events=[leave("bianca"), {"type": "create", "id": "myr", "controller": "bianca", "owner": "alex"}]),
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
    """The leave is staged: 800.4a owned/control, stack, exile, then the check's state-based actions as their own
    stages (the last stage of the event is one)."""
    from models.loader import load_scenario
    from solver.encoding.compile import Compiler
    from solver.registry import ruleset_for
    sc = load_scenario(ROOT / "scenarios/mtg/800.4a-mind-control-bianca-leaves.yaml").scenario
    comp = Compiler(sc, ruleset_for("mtg"))
    comp.compile_events()
    labels = [s.label for s in comp.stages[1:]]
    order = [next(i for i, lab in enumerate(labels) if key in lab)
             for key in ("bianca leaves; owned objects leave", "cease to exist", "still control is exiled",
                         "state-based actions")]
    assert order == sorted(order) and order[0] == 0 and labels[-1] == "state-based actions"


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


# -- targets, damage and life, state-based actions, 610.3, turns, range of influence -------------------------
def creature(oid: str, owner: str, toughness: int = 2, zone: str = "battlefield", **kw) -> dict:
    """A creature with a toughness."""
    return obj(oid, owner, zone, types=["creature"], attributes={"toughness": toughness, **kw.pop("attributes", {})},
               **kw)


def spell(sid: str, actor: str, kind: str, targets: list[str], **params) -> dict:
    """A declare event for a spell of ``kind``."""
    ev = {"type": "declare", "id": sid, "actor": actor, "kind": kind, "targets": targets, "card": True}
    return {**ev, "params": params} if params else ev


def resolve(action: str) -> dict:
    """The resolve event."""
    return {"type": "resolve", "action": action}


def ring_exiles(target: str, controller: str = "bianca") -> list[dict]:
    """The ring's 'exile until it leaves' trigger, resolved."""
    return [{"type": "trigger", "id": "exiling", "controller": controller, "source": "ring", "kind": "exile_until_leaves",
             "targets": [target]}, resolve("exiling")]


RING = obj("ring", "bianca", types=["enchantment"])
LIVES = [{"id": p, "attributes": {"life": 20}} for p in PLAYERS]
FOUR = [{"id": p, "attributes": {"life": 20}} for p in ("alex", "bianca", "carla", "dmitri")]

# rule -> (scenario parts, expectation that holds, expectation the rule makes impossible,
#          parts of a calm variant where the rule does not act, expectation that holds there)
RULE_CASES = {
    "mtg.115.1": (
        dict(objects=[creature("bears", "bianca", zone="graveyard")], events=[spell("kill", "alex", "destroy", ["bears"])]),
        {"action": "kill", "action_status": "illegal"},
        {"action": "kill", "action_status": "on_stack"},
        dict(objects=[creature("bears", "bianca")], events=[spell("kill", "alex", "destroy", ["bears"])]),
        {"action": "kill", "action_status": "on_stack"},
    ),
    "mtg.115.2": (
        dict(objects=[creature("bears", "bianca")],
             events=[spell("kill", "alex", "destroy", ["bears"]), {"type": "move", "object": "bears", "zone": "hand"},
                     resolve("kill")]),
        {"action": "kill", "action_status": "interrupted"},
        {"object": "bears", "zone": "graveyard"},
        dict(objects=[creature("bears", "bianca")], events=[spell("kill", "alex", "destroy", ["bears"]), resolve("kill")]),
        {"object": "bears", "zone": "graveyard"},
    ),
    "mtg.400.7": (
        dict(objects=[creature("bears", "bianca")],
             events=[spell("kill", "alex", "destroy", ["bears"]), {"type": "move", "object": "bears", "zone": "hand"},
                     {"type": "put_onto", "object": "bears"}, resolve("kill")]),
        {"object": "bears", "zone": "battlefield"},
        {"object": "bears", "zone": "graveyard"},
        dict(objects=[creature("bears", "bianca")], events=[spell("kill", "alex", "destroy", ["bears"]), resolve("kill")]),
        {"object": "bears", "zone": "graveyard"},
    ),
    "mtg.115.restriction": (
        dict(objects=[creature("bears", "alex")], events=[spell("kill", "alex", "destroy", ["bears"], whose="opponent")]),
        {"action": "kill", "action_status": "illegal"},
        {"action": "kill", "action_status": "on_stack"},
        dict(objects=[creature("bears", "bianca")], events=[spell("kill", "alex", "destroy", ["bears"], whose="opponent")]),
        {"action": "kill", "action_status": "on_stack"},
    ),
    "mtg.800.4.target": (
        dict(players=LIVES, events=[leave("bianca"), spell("drain", "alex", "lose_life", ["bianca"], amount=2)]),
        {"action": "drain", "action_status": "illegal"},
        {"action": "drain", "action_status": "on_stack"},
        dict(players=LIVES, events=[spell("drain", "alex", "lose_life", ["bianca"], amount=2)]),
        {"action": "drain", "action_status": "on_stack"},
    ),
    "mtg.608.2b": (
        dict(players=LIVES, events=[spell("drain", "alex", "lose_life", ["bianca"], amount=2), leave("bianca"),
                                    resolve("drain")]),
        {"action": "drain", "action_status": "interrupted"},
        {"action": "drain", "action_status": "resolved"},
        dict(players=LIVES, events=[spell("drain", "alex", "lose_life", ["bianca"], amount=2), resolve("drain")]),
        {"player": "bianca", "player_attributes": {"life": 18}},
    ),
    "mtg.608.2b.partial": (
        dict(players=LIVES, objects=[creature("bears", "bianca")],
             events=[spell("arc", "alex", "damage", ["bears", "carla"], amount=2),
                     {"type": "move", "object": "bears", "zone": "hand"}, {"type": "put_onto", "object": "bears"},
                     resolve("arc")]),
        {"object": "bears", "zone": "battlefield", "attributes": {"damage": 0}},
        {"object": "bears", "zone": "graveyard"},
        dict(players=LIVES, objects=[creature("bears", "bianca")],
             events=[spell("arc", "alex", "damage", ["bears", "carla"], amount=2), resolve("arc")]),
        {"object": "bears", "zone": "graveyard"},
    ),
    "mtg.destroy": (
        dict(objects=[obj("idol", "bianca", types=["artifact"])],
             events=[spell("shatter", "alex", "destroy", ["idol"]), resolve("shatter")]),
        {"object": "idol", "zone": "graveyard", "zone_owner": "bianca"},
        {"object": "idol", "zone": "battlefield"},
        dict(objects=[obj("idol", "bianca", types=["artifact"])], events=[spell("shatter", "alex", "destroy", ["idol"])]),
        {"object": "idol", "zone": "battlefield"},
    ),
    "mtg.exile": (
        dict(objects=[obj("idol", "bianca", types=["artifact"])],
             events=[spell("swords", "alex", "exile", ["idol"]), resolve("swords")]),
        {"object": "idol", "zone": "exile", "zone_owner": "bianca"},
        {"object": "idol", "zone": "battlefield"},
        dict(objects=[obj("idol", "bianca", types=["artifact"])], events=[spell("swords", "alex", "exile", ["idol"])]),
        {"object": "idol", "zone": "battlefield"},
    ),
    "mtg.return_to_hand": (
        dict(objects=[obj("idol", "bianca", controller="alex", types=["artifact"])],
             events=[spell("bounce", "carla", "return_to_hand", ["idol"]), resolve("bounce")]),
        {"object": "idol", "zone": "hand", "zone_owner": "bianca"},
        {"object": "idol", "zone": "battlefield"},
        dict(objects=[obj("idol", "bianca", types=["artifact"])],
             events=[spell("bounce", "carla", "return_to_hand", ["idol"])]),
        {"object": "idol", "zone": "battlefield"},
    ),
    "mtg.610.3": (
        dict(objects=[RING, creature("bears", "alex")],
             events=ring_exiles("bears") + [{"type": "move", "object": "ring", "zone": "graveyard"}]),
        {"object": "bears", "zone": "battlefield"},
        {"object": "bears", "zone": "exile"},
        dict(objects=[RING, creature("bears", "alex")], events=ring_exiles("bears")),
        {"object": "bears", "zone": "exile"},
    ),
    "mtg.610.3a": (
        dict(objects=[RING, creature("bears", "alex")],
             events=[ring_exiles("bears")[0], {"type": "move", "object": "ring", "zone": "graveyard"}, resolve("exiling")]),
        {"object": "bears", "zone": "battlefield"},
        {"object": "bears", "zone": "exile"},
        dict(objects=[RING, creature("bears", "alex")], events=ring_exiles("bears")),
        {"object": "bears", "zone": "exile"},
    ),
    "mtg.610.3c": (
        dict(objects=[RING, creature("bears", "alex", controller="carla")],
             events=ring_exiles("bears") + [{"type": "move", "object": "ring", "zone": "graveyard"}]),
        {"object": "bears", "zone": "battlefield", "controller": "alex"},
        {"object": "bears", "controller": "carla"},
        dict(objects=[RING, creature("bears", "alex", controller="carla")]),
        {"object": "bears", "zone": "battlefield", "controller": "carla"},
    ),
    "mtg.120.3a": (
        dict(players=LIVES, objects=[creature("bears", "alex")],
             events=[{"type": "damage", "source": "bears", "target": "bianca", "amount": 3}]),
        {"player": "bianca", "player_attributes": {"life": 17}},
        {"player": "bianca", "player_attributes": {"life": 20}},
        dict(players=LIVES, objects=[creature("bears", "alex")]),
        {"player": "bianca", "player_attributes": {"life": 20}},
    ),
    "mtg.120.3e": (
        dict(objects=[creature("bears", "alex"), creature("wall", "bianca", 5)],
             events=[{"type": "damage", "source": "bears", "target": "wall", "amount": 3}]),
        {"object": "wall", "attributes": {"damage": 3}},
        {"object": "wall", "attributes": {"damage": 0}},
        dict(objects=[creature("bears", "alex"), creature("wall", "bianca", 5, attributes={"damage": 0})]),
        {"object": "wall", "attributes": {"damage": 0}},
    ),
    "mtg.119.3": (
        dict(players=LIVES, events=[{"type": "gain_life", "player": "carla", "amount": 4},
                                    {"type": "lose_life", "player": "bianca", "amount": 1}]),
        {"player": "carla", "player_attributes": {"life": 24}},
        {"player": "carla", "player_attributes": {"life": 20}},
        dict(players=LIVES),
        {"player": "carla", "player_attributes": {"life": 20}},
    ),
    "mtg.800.4.absent": (
        dict(players=LIVES, events=[leave("carla"), {"type": "gain_life", "player": "carla", "amount": 4}]),
        {"player": "carla", "player_attributes": {"life": 20}},
        {"player": "carla", "player_attributes": {"life": 24}},
        dict(players=LIVES, events=[{"type": "gain_life", "player": "carla", "amount": 4}]),
        {"player": "carla", "player_attributes": {"life": 24}},
    ),
    "mtg.704.5a": (
        dict(players=LIVES, objects=[obj("land", "bianca", types=["land"])],
             events=[{"type": "lose_life", "player": "bianca", "amount": 20}]),
        {"player": "bianca", "status": "lost"},
        {"player": "bianca", "status": "in_game"},
        dict(players=LIVES, objects=[obj("land", "bianca", types=["land"])],
             events=[{"type": "lose_life", "player": "bianca", "amount": 19}]),
        {"player": "bianca", "status": "in_game"},
    ),
    "mtg.704.5f": (
        dict(objects=[creature("bears", "alex")],
             events=[{"type": "begin_effect", "effect": {"id": "shrink", "kind": "add", "attribute": "toughness",
                                                          "value": -2, "targets": ["bears"]}}]),
        {"object": "bears", "zone": "graveyard"},
        {"object": "bears", "zone": "battlefield"},
        dict(objects=[creature("bears", "alex")],
             events=[{"type": "begin_effect", "effect": {"id": "shrink", "kind": "add", "attribute": "toughness",
                                                          "value": -1, "targets": ["bears"]}}]),
        {"object": "bears", "zone": "battlefield"},
    ),
    "mtg.704.5g": (
        dict(objects=[creature("bears", "alex"), creature("wall", "bianca", 5)],
             events=[{"type": "damage", "source": "wall", "target": "bears", "amount": 2}]),
        {"object": "bears", "zone": "graveyard"},
        {"object": "bears", "zone": "battlefield"},
        dict(objects=[creature("bears", "alex"), creature("wall", "bianca", 5)],
             events=[{"type": "damage", "source": "wall", "target": "bears", "amount": 1}]),
        {"object": "bears", "zone": "battlefield"},
    ),
    "mtg.704.5n": (
        dict(objects=[creature("bears", "bianca"), obj("sword", "alex", types=["artifact", "equipment"], attached_to="bears")],
             events=[{"type": "move", "object": "bears", "zone": "graveyard"}]),
        {"object": "sword", "zone": "battlefield", "attached_to": "none"},
        {"object": "sword", "attached_to": "bears"},
        dict(objects=[creature("bears", "bianca"), obj("sword", "alex", types=["artifact", "equipment"], attached_to="bears")]),
        {"object": "sword", "zone": "battlefield", "attached_to": "bears"},
    ),
    "mtg.514.2": (
        dict(objects=[creature("bears", "alex", 3), creature("wall", "bianca", 5)],
             events=[{"type": "damage", "source": "wall", "target": "bears", "amount": 2}, {"type": "end_turn"},
                     {"type": "damage", "source": "wall", "target": "bears", "amount": 2}]),
        {"object": "bears", "zone": "battlefield"},
        {"object": "bears", "zone": "graveyard"},
        dict(objects=[creature("bears", "alex", 3), creature("wall", "bianca", 5)],
             events=[{"type": "damage", "source": "wall", "target": "bears", "amount": 2},
                     {"type": "damage", "source": "wall", "target": "bears", "amount": 2}]),
        {"object": "bears", "zone": "graveyard"},
    ),
    "mtg.500.next": (
        dict(events=[{"type": "end_turn"}]),
        {"turn": {"active_player": "bianca", "priority": "bianca"}},
        {"turn": {"active_player": "alex"}},
        dict(events=[]),
        {"turn": {"active_player": "alex"}},
    ),
    "mtg.104.3a": (
        dict(players=LIVES, events=[leave("bianca") | {"status": "conceded"}]),
        {"player": "bianca", "status": "conceded"},
        {"player": "bianca", "status": "in_game"},
        dict(players=LIVES),
        {"player": "bianca", "status": "in_game"},
    ),
    "mtg.801.4": (
        dict(players=FOUR, options={"range_of_influence": 1},
             events=[spell("drain", "alex", "lose_life", ["carla"], amount=2)]),
        {"action": "drain", "action_status": "illegal"},
        {"action": "drain", "action_status": "on_stack"},
        dict(players=FOUR, events=[spell("drain", "alex", "lose_life", ["carla"], amount=2)]),
        {"action": "drain", "action_status": "on_stack"},
    ),
    "mtg.801.2c": (
        dict(players=FOUR, options={"range_of_influence": 1}, turn={"active_player": "dmitri", "priority": "dmitri"},
             events=[leave("bianca"), {"type": "end_turn"}, spell("drain", "alex", "lose_life", ["carla"], amount=2)]),
        {"action": "drain", "action_status": "on_stack"},
        {"action": "drain", "action_status": "illegal"},
        dict(players=FOUR, options={"range_of_influence": 1}, turn={"active_player": "dmitri", "priority": "dmitri"},
             events=[leave("bianca"), spell("drain", "alex", "lose_life", ["carla"], amount=2)]),
        {"action": "drain", "action_status": "illegal"},
    ),
    "mtg.801.5a": (
        dict(players=FOUR, options={"range_of_influence": 1}, objects=[obj("fof", "alex", "stack", action={"kind": "spell"})],
             events=[leave("bianca"), {"type": "choice", "id": "pick", "player": "bianca", "source": "fof",
                                       "opponent": True}]),
        {"player": "dmitri", "player_flags": {"pick": True}},
        {"player": "carla", "player_flags": {"pick": True}},
        dict(players=FOUR, options={"range_of_influence": 1}, objects=[obj("fof", "alex", "stack", action={"kind": "spell"})],
             events=[{"type": "choice", "id": "pick", "player": "bianca", "source": "fof"}]),
        {"player": "bianca", "player_flags": {"pick": True}},
    ),
    "mtg.801.10": (
        dict(players=FOUR, options={"range_of_influence": 1},
             objects=[obj("torch", "alex", "stack", types=["sorcery"],
                          action={"kind": "each_opponent_loses_life", "params": {"amount": 3}})],
             events=[resolve("torch")]),
        {"player": "carla", "player_attributes": {"life": 20}},
        {"player": "carla", "player_attributes": {"life": 17}},
        dict(players=FOUR, objects=[obj("torch", "alex", "stack", types=["sorcery"],
                                        action={"kind": "each_opponent_loses_life", "params": {"amount": 3}})],
             events=[resolve("torch")]),
        {"player": "carla", "player_attributes": {"life": 17}},
    ),
}


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_new_rule_trivial_when_it_does_not_act(rule: str) -> None:
    """Without what the rule reads (no damage, no leaver, no range ...), the ordinary result holds."""
    _, _, _, calm, plain = RULE_CASES[rule]
    res = run(scenario(**calm, expect=[plain, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [(e.description, e.verdict.value, e.message) for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_new_rule_feasible_result_holds(rule: str) -> None:
    """The rule's result holds in every outcome, and the outcome is unique."""
    parts, holds, _, _, _ = RULE_CASES[rule]
    res = run(scenario(**parts, expect=[holds, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [(e.description, e.verdict.value, e.message) for e in res.expectations])


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_new_rule_infeasible_opposite_names_the_rule(rule: str) -> None:
    """The opposite is impossible with the rule in the core; expecting it to hold fails."""
    parts, _, wrong, _, _ = RULE_CASES[rule]
    res = run(scenario(**parts, expect=[{**wrong, "verdict": "impossible", "because": [rule]}]))
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.rules, e.message) for e in res.expectations])
    flipped = run(scenario(**parts, expect=[wrong]))
    assert flipped.status.value == "fail" and flipped.expectations[0].verdict.value == "impossible"


NEW_LIBRARY = sorted(p for p in SCENARIOS if not p.name.startswith("800.4") or p.name.startswith("800.4."))
NEW_LIBRARY += sorted(ROOT / "scenarios/mtg" / n for n in ("800.4j-end-turn-skips-leaver.yaml",
                                                           "800.4k-natural-turn-sequence.yaml",
                                                           "800.4d-leavers-leaves-trigger.yaml",
                                                           "800.4j-extra-turn-of-leaver.yaml",
                                                           "800.4k-extra-turn-is-next-turn.yaml"))


def _flips(paths: list[Path]) -> list[tuple[Path, int]]:
    out = []
    for p in paths:
        for i, ex in enumerate(yaml.safe_load(p.read_text())["expect"]):
            if not ({"unique", "outcomes"} & set(ex)) and ex.get("verdict", "holds") in ("holds", "impossible"):
                out.append((p, i))
    return out


@pytest.mark.parametrize("path, index", _flips(NEW_LIBRARY), ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_flipped_library_expectation_fails(path: Path, index: int) -> None:
    """Each expectation of the new library scenarios, with its verdict flipped (holds <-> impossible), fails."""
    doc = yaml.safe_load(path.read_text())
    ex = dict(doc["expect"][index])
    ex["verdict"] = "impossible" if ex.get("verdict", "holds") == "holds" else "holds"
    ex.pop("because", None)
    res = run({**doc, "expect": [ex]})
    assert res.status.value == "fail", (path.name, index, res.error)


OUT_OF_ORDER = [
    ([{"type": "begin_turn", "player": "carla"}], "after alex's turn comes bianca's"),
    ([{"type": "end_turn"}, {"type": "begin_turn", "player": "carla"}], "follows an end_turn"),
    ([{"type": "priority_to_active"}, {"type": "begin_turn", "player": "bianca"}, {"type": "extra_turn", "player": "alex"}],
     "with extra turns"),
]


@pytest.mark.parametrize("events, message", OUT_OF_ORDER, ids=["skipped seat", "after end_turn", "extra turns"])
def test_turns_written_out_of_order_are_a_located_error(events, message) -> None:
    """A hand-written turn out of turn order is an error at the event's line, not an answer."""
    res = run(scenario(events=events))
    assert res.status.value == "error" and message in res.error, res.error
    line = int(res.error.split("test.yaml:")[1].split(":")[0])
    assert yaml.safe_dump(scenario(events=events), sort_keys=False).splitlines()[line - 1] == "- type: begin_turn", res.error


def test_end_turn_needs_whose_turn_it_is() -> None:
    """end_turn with no current turn is an error, not a guess."""
    res = run(scenario(turn={}, events=[{"type": "end_turn"}]))
    assert res.status.value == "error" and "turn.active_player" in res.error, res.error


BAD_MECHANICS = [
    (dict(objects=[obj("bears", "bianca", types=["creature"])],
          events=[{"type": "damage", "source": "bears", "target": "bears", "amount": 1}]), "has no toughness"),
    (dict(objects=[obj("idol", "bianca", types=["artifact"])],
          events=[{"type": "damage", "source": "idol", "target": "idol", "amount": 1}]), "only a player or a creature"),
    (dict(objects=[creature("bears", "bianca")], events=[spell("x", "alex", "exile_until_leaves", ["bears"])]),
     "give it a source"),
    (dict(objects=[creature("bears", "bianca")], events=[spell("x", "alex", "destroy", ["nobody"])]), "unknown target"),
    (dict(objects=[obj("s", "alex", "stack", action={"kind": "spell"})], events=[{"type": "start_execution", "action": "s"}]),
     "not an MTG event"),
    (dict(options={"range_of_influence": 1}, events=[{"type": "count_actions", "attribute": "spells_cast",
                                                      "reader": "alex", "into": "storm"}]), "801.11"),
]


@pytest.mark.parametrize("parts, message", BAD_MECHANICS, ids=["no toughness", "not a creature", "no source",
                                                               "unknown target", "start_execution", "801.11"])
def test_what_the_rules_cannot_read_is_an_error(parts, message) -> None:
    """A mechanic the ruleset does not model is a clear error with the file and line, never an answer."""
    res = run(scenario(**parts))
    assert res.status.value == "error" and message in res.error and "test.yaml:" in res.error, res.error


# -- triggered abilities: who controls them (603.3a, 603.10a, 603.7d) ------------------------------------------
TREASON = {"id": "treason", "timestamp": 1, "kind": "control", "player": "alex", "targets": ["warden"],
           "duration": "until_end_of_turn"}


def _warden_trigger(**kw) -> dict:
    return {"type": "trigger", "id": "t", "source": "warden", "kind": "ability", **kw}


@pytest.mark.parametrize("given, leaves, ok", [("alex", False, True), ("bianca", False, False),
                                               ("alex", True, True), ("bianca", True, False)],
                         ids=["agrees", "contradicts 603.3a", "agrees (leaves)", "contradicts 603.10a"])
def test_a_given_trigger_controller_must_agree_with_the_rules(given: str, leaves: bool, ok: bool) -> None:
    """Alex controls Bianca's Warden: a controller given for its trigger is checked against 603.3a (603.10a for a
    leaves-the-battlefield ability); a contradiction is an error located at the trigger, never an answer."""
    moved = [{"type": "move", "object": "warden", "zone": "graveyard"}] if leaves else []
    events = moved + [_warden_trigger(controller=given, leaves=leaves)]
    doc = scenario(objects=[obj("warden", "bianca", types=["creature"])], effects=[TREASON], events=events,
                   expect=[{"object": "t", "controller": "alex"}])
    res = run(doc)
    if ok:
        assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])
        return
    assert res.status.value == "error" and "contradicts" in res.error, res.error
    line = int(res.error.split("test.yaml:")[1].split(":")[0])
    assert yaml.safe_dump(doc, sort_keys=False).splitlines()[line - 1].strip() == "- type: trigger", res.error


def test_a_leaves_trigger_whose_source_stayed_does_not_trigger() -> None:
    """603.10a: the ability triggers only once its source has left the battlefield (mtg.603.3a.none otherwise)."""
    doc = scenario(objects=[obj("warden", "bianca", types=["creature"])], events=[_warden_trigger(leaves=True)],
                   expect=[{"action": "t", "action_status": "unborn", "because": ["mtg.603.3a.none"]},
                           {"unique": True}])
    res = run(doc)
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])
    flipped = run({**doc, "expect": [{"action": "t", "action_status": "on_stack"}]})
    assert flipped.status.value == "fail"


@pytest.mark.parametrize("trigger, message", [
    ({"type": "trigger", "id": "t", "kind": "ability"}, "give its `controller`"),
    ({"type": "trigger", "id": "t", "kind": "ability", "source": "warden", "delayed": True}, "603.7d"),
    ({"type": "trigger", "id": "t", "kind": "ability", "controller": "alex", "leaves": True}, "603.10a"),
], ids=["no source", "delayed", "leaves without source"])
def test_a_trigger_the_rules_cannot_give_a_controller_is_an_error(trigger: dict, message: str) -> None:
    """No source to take the controller from, or a delayed ability (603.7d): the scenario must give it."""
    res = run(scenario(objects=[obj("warden", "bianca", types=["creature"])], events=[trigger]))
    assert res.status.value == "error" and message in res.error and "test.yaml:" in res.error, res.error


@pytest.mark.parametrize("leaver, turns", [(None, ["carla", "bianca", "bianca", "carla"]),
                                           ("carla", ["bianca", "bianca", "alex", "bianca"])],
                         ids=["nobody leaves", "carla leaves"])
def test_extra_turns_are_taken_newest_first_then_turn_order_goes_on(leaver, turns) -> None:
    """500.7: extra turns for Bianca then Carla on Alex's turn: Carla's (newest), Bianca's, then Bianca's natural
    turn; a leaver's extra and natural turns are passed over (800.4j). Each other active player is impossible."""
    events = [{"type": "extra_turn", "player": "bianca"}, {"type": "extra_turn", "player": "carla"}]
    events += [leave(leaver)] if leaver else []
    events += [{"type": "end_turn"}] * len(turns)
    start = len(events) - len(turns)
    expect = [{"at": start + k + 1, "turn": {"active_player": q}} for k, q in enumerate(turns)] + [{"unique": True}]
    res = run(scenario(events=events, expect=expect))
    assert res.status.value == "pass", (res.error, [(e.description, e.verdict.value) for e in res.expectations])
    for k, q in enumerate(turns):
        for other in [p for p in ("alex", "bianca", "carla") if p != q]:
            wrong = run(scenario(events=events, expect=[{"at": start + k + 1, "turn": {"active_player": other}}]))
            assert wrong.status.value == "fail", (k, other)


# -- 110.5b: tapped permanents ------------------------------------------------------------------------------------
@pytest.mark.parametrize("event, tapped", [({"type": "put_onto", "object": "bears"}, False),
                                           ({"type": "put_onto", "object": "bears", "tapped": True}, True),
                                           ({"type": "move", "object": "bears", "zone": "battlefield"}, False)],
                         ids=["put onto", "put onto tapped", "moved"])
def test_a_permanent_enters_untapped_unless_put_onto_the_battlefield_tapped(event: dict, tapped: bool) -> None:
    """110.5b: a tapped card in the graveyard enters the battlefield untapped, unless the effect says tapped; the
    other value is impossible."""
    parts = dict(objects=[obj("bears", "bianca", "graveyard", types=["creature"], flags={"tapped": True})],
                 events=[event])
    res = run(scenario(**parts, expect=[{"object": "bears", "zone": "battlefield", "flags": {"tapped": tapped}},
                                        {"unique": True}]))
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])
    wrong = run(scenario(**parts, expect=[{"object": "bears", "flags": {"tapped": not tapped}}]))
    assert wrong.status.value == "fail"


def test_a_tapped_flag_stays_while_the_permanent_stays() -> None:
    """110.5b reads only an arrival: a tapped permanent put onto the battlefield where it already is stays tapped."""
    res = run(scenario(objects=[obj("bears", "bianca", types=["creature"], flags={"tapped": True})],
                       events=[{"type": "put_onto", "object": "bears"}],
                       expect=[{"object": "bears", "flags": {"tapped": True}}, {"unique": True}]))
    assert res.status.value == "pass", (res.error, [(e.verdict.value, e.message) for e in res.expectations])


def test_put_onto_the_stack_tapped_is_an_error() -> None:
    """Only a permanent is tapped: `tapped` for the stack is refused at the event."""
    res = run(scenario(objects=[obj("bolt", "alex", "hand", types=["instant"])],
                       events=[{"type": "put_onto", "object": "bolt", "zone": "stack", "tapped": True}]))
    assert res.status.value == "error" and "tapped" in res.error and "test.yaml:" in res.error, res.error


# -- 800.4a, 104.3a: only a player in the game leaves it ---------------------------------------------------------
LEAVE_AGAIN = [
    (PLAYERS, [{"type": "leave_game", "player": "bianca"},
               {"type": "leave_game", "player": "bianca", "status": "conceded"}], 1),        # left already
    (("alex", "bianca"), [{"type": "leave_game", "player": "alex", "status": "conceded"},
                          {"type": "leave_game", "player": "bianca", "status": "conceded"}], 1),  # bianca has won
    (PLAYERS, [{"type": "leave_game", "player": "bianca"}, {"type": "leave_game", "player": "carla", "status": "lost"},
               {"type": "leave_game", "player": "alex"}], 2),                                  # alex won (104.2a)
]


@pytest.mark.parametrize("players, events, bad", LEAVE_AGAIN, ids=["twice", "two players, after the win",
                                                                   "the last player, after the win"])
def test_leaving_when_out_of_the_game_is_a_located_error(players, events, bad) -> None:
    """A player who has left, lost, conceded or won cannot leave the game: an error at that event's line, never a
    silent no-op; the reference refuses it at the same event."""
    doc = scenario(players=players, events=events, expect=[{"unique": True}])
    res = run(doc)
    assert res.status.value == "error" and f"events[{bad}] (leave_game)" in res.error, res.error
    assert "not in it any more" in res.error and "800.4a" in res.error, res.error
    line = int(res.error.split("test.yaml:")[1].split(":")[0])
    assert yaml.safe_dump(doc, sort_keys=False).splitlines()[line - 1].startswith("- type: leave_game"), res.error
    from models.scenario import Scenario
    from tests.helpers import assert_agrees
    assert_agrees(Scenario.model_validate(doc))
