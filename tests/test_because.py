"""``because`` by the but-for test: a rule passes only if, switched off, the verdict no longer holds (issue 24).

Each case is a rule that sits in some core (or that a reader might guess) but does not decide the verdict: the
expectation must fail, naming the rules that do decide. Each has its flipped copy: the deciding rule passes.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from models.loader import load_scenario, load_scenario_text
from solver.run.api import check_scenario
from solver.run.single import check_loaded


def check_scenario_data(data: dict, name: str, why: bool = False):
    """Check scenario data as the file ``name`` would be (its card library found from there)."""
    return check_loaded(load_scenario_text(yaml.safe_dump(data, allow_unicode=True), file=name), why=why)

ROOT = Path(__file__).resolve().parent.parent

BERSERK_IMP = {
    "id": "t-berserk-imp", "game": "berserk",
    "players": [{"id": "alice"}, {"id": "bob"}],
    "objects": [{"id": "archmage", "owner": "bob", "zone": "play", "types": ["creature"]},
                {"id": "imp", "owner": "alice", "zone": "play", "types": ["creature"]}],
    "effects": [{"id": "grant", "source": "archmage", "kind": "permit", "action": "accumulate_tokens",
                 "targets": ["imp"], "duration": "static", "timestamp": 1}],
    "events": [{"type": "begin_effect", "effect": {"id": "no_tokens", "kind": "prohibit", "action": "accumulate_tokens",
                                                    "targets": ["imp"], "duration": "until_end_of_turn"}}],
    "expect": [{"object": "imp", "allowed": {"accumulate_tokens": False}, "because": []}],
}


# a rule whose condition cannot hold there (no Production unit of hers, no 'not_with' text, nobody left, the target
# legal) must own nothing: switched off, it frees no key (the probe's t09, b14, m14)
TI4_NO_UNIT = {
    "id": "t-ti4-no-unit", "game": "ti4",
    "players": [{"id": "alice"}, {"id": "bob"}, {"id": "carol"}],
    "objects": [{"id": "alice_planet", "zone": "board", "types": ["planet"], "controller": "alice"},
                {"id": "bob_inf", "owner": "bob", "zone": "board", "types": ["ground_force", "infantry"]},
                {"id": "carol_inf", "owner": "carol", "zone": "board", "types": ["ground_force", "infantry"]}],
    "events": [{"type": "planet_control", "planet": "alice_planet", "player": "bob"}],
    "expect": [{"player": "alice", "status": "eliminated", "because": []}],
}
BERSERK_NO_TEXT = {
    "id": "t-berserk-no-text", "game": "berserk",
    "players": [{"id": "alice"}, {"id": "bob"}],
    "objects": [{"id": "charmer", "owner": "alice", "zone": "play", "types": ["creature"]},
                {"id": "squire", "owner": "bob", "zone": "play", "types": ["creature"]}],
    "events": [{"type": "declare", "id": "charm", "actor": "alice", "kind": "take_control", "source": "charmer",
                "targets": ["squire"]},
               {"type": "resolve", "action": "charm"}],
    "expect": [{"object": "squire", "controller": "alice", "because": []}],
}
MTG_NOBODY_LEFT = {
    "id": "t-mtg-nobody-left", "game": "mtg",
    "players": [{"id": "alex"}, {"id": "bianca"}, {"id": "carla"}],
    "objects": [{"id": "shock", "owner": "alex", "zone": "stack", "types": ["instant"],
                 "action": {"kind": "damage", "targets": ["bianca"], "params": {"amount": 3}}}],
    "turn": {"active_player": "alex", "priority": "alex"},
    "events": [{"type": "resolve", "action": "shock"}],
    "expect": [{"player": "bianca", "player_attributes": {"life": 17}, "because": []}],
}

RIFTBOUND_ELSEWHERE = {
    "id": "t-riftbound-elsewhere", "game": "riftbound",
    "players": [{"id": "a"}, {"id": "b"}],
    "board": {"cells": ["bf1", "bf2"]},
    "objects": [{"id": "b_field", "owner": "b", "zone": "battlefield", "cell": "bf2", "types": ["battlefield"],
                 "abilities": ["units_here_plus_one"]},
                {"id": "a_unit", "owner": "a", "zone": "battlefield", "cell": "bf1", "types": ["unit"],
                 "attributes": {"power": 4}}],
    "turn": {"active_player": "a", "priority": "a"},
    "events": [{"type": "concede", "player": "b"}],
    "expect": [{"object": "a_unit", "attributes": {"power": 4}, "because": []}],
}


def _inline(base: dict, file: str):
    def make(because: list[str]) -> tuple[dict, str, int]:
        data = copy.deepcopy(base)
        data["expect"][0]["because"] = because
        return data, str(ROOT / "scenarios" / base["game"] / file), 0
    return make


def _library(rel: str, index: int, because: list[str]) -> tuple[dict, str, int]:
    data = yaml.safe_load((ROOT / "scenarios" / rel).read_text())
    data["expect"][index]["because"] = because
    return data, str(ROOT / "scenarios" / rel), index


def _imp(because: list[str]) -> tuple[dict, str, int]:
    data = copy.deepcopy(BERSERK_IMP)
    data["expect"][0]["because"] = because
    return data, str(ROOT / "scenarios" / "berserk" / "t-imp.yaml"), 0


CASES = [
    # MTG: Mind Control to its owner's graveyard: 704.5m decides, the ante exception (800.4m) cannot apply
    ("mtg-ante", lambda b: _library("mtg/800.4a-mind-control-bianca-leaves.yaml", 1, b), ["mtg.800.4m"],
     ["mtg.704.5m"]),
    # MTG: the return of an "until it leaves" exile: neither 800.4d's trigger rule nor stack_ceases decides it
    ("mtg-return-trigger", lambda b: _library("mtg/610.3-banishing-light-owner-leaves.yaml", 0, b),
     ["mtg.800.4d.trigger"], ["mtg.610.3"]),
    ("mtg-return-stack", lambda b: _library("mtg/610.3-banishing-light-owner-leaves.yaml", 0, b),
     ["mtg.800.4a.stack_ceases"], ["mtg.610.3"]),
    # TI4: she keeps a ground force: 75.1a decides that she stays, not 75.1c
    ("ti4-ground-force", lambda b: _library("ti4/75.1a-ground-force-prevents-elimination.yaml", 0, b),
     ["ti4.75.1c"], ["ti4.75.1a"]),
    # Berserk: the event's prohibition beats the grant by 524.2 whatever their order; "latest" decides nothing,
    # and at the initial state the verdict was the opposite (Imp could accumulate)
    ("berserk-latest", _imp, ["berserk.conflict.latest"], ["berserk.524.2"]),
    # TI4: Alice has no unit at all and loses her last planet: 75.1 decides, 75.1b (a Production unit spares her)
    # cannot have applied (t09)
    ("ti4-no-production-unit", _inline(TI4_NO_UNIT, "t-no-unit.yaml"), ["ti4.75.1b"], ["ti4.75.1"]),
    # Berserk: taking control of a card with no 'cannot be taken into a squad with' text: 532.7, not 532.8 (b14)
    ("berserk-no-not-with", _inline(BERSERK_NO_TEXT, "t-no-text.yaml"), ["berserk.532.8"], ["berserk.532.7"]),
    # MTG: nobody left and the target is legal: 120.3a decides the damage, neither 800.4.target nor 608.2b (m14)
    ("mtg-nobody-left-target", _inline(MTG_NOBODY_LEFT, "t-nobody-left.yaml"), ["mtg.800.4.target"],
     ["mtg.120.3a"]),
    ("mtg-legal-target-608.2b", _inline(MTG_NOBODY_LEFT, "t-nobody-left.yaml"), ["mtg.608.2b"], ["mtg.120.3a"]),
    # Riftbound: a unit never at the +1 battlefield keeps its power: the +1 rule cannot have applied to it
    ("riftbound-unit-elsewhere", _inline(RIFTBOUND_ELSEWHERE, "t-elsewhere.yaml"),
     ["riftbound.battlefield.units_here_plus_one"], ["riftbound.concede.recompute"]),
]


@pytest.mark.parametrize("name,make,wrong,right", CASES, ids=[c[0] for c in CASES])
def test_a_rule_that_does_not_decide_fails_naming_the_deciding_rules(name, make, wrong, right) -> None:
    """The wrong ``because`` fails: its message says it does not decide and names what does."""
    data, path, i = make(wrong)
    res = check_scenario_data(data, name=path)
    e = res.expectations[i]
    assert e.verdict.value == e.expected, e
    assert not e.passed, e
    assert "does not decide it" in e.message, e.message
    assert any(r in e.message for r in right), e.message


@pytest.mark.parametrize("name,make,wrong,right", CASES, ids=[c[0] for c in CASES])
def test_the_deciding_rule_passes(name, make, wrong, right) -> None:
    """Flipped: the rule that decides passes, and explanations list it under decided by."""
    data, path, i = make(right)
    res = check_scenario_data(data, name=path)
    e = res.expectations[i]
    assert e.passed, e


def test_explanations_split_deciding_from_supporting_rules() -> None:
    """With ``why``, a core's rules are split: decided by (but-for) and also needed (the rest of the core)."""
    data, path, i = _library("ti4/75.1a-ground-force-prevents-elimination.yaml", 0, [])
    res = check_scenario_data(data, name=path, why=True)
    e = res.expectations[i]
    assert e.rules and set(e.decided_by) | set(e.also_needed) == set(e.rules)
    assert "ti4.75.1a" in e.decided_by
    assert not set(e.decided_by) & set(e.also_needed)


def test_a_jointly_deciding_pair_passes_and_a_redundant_member_fails() -> None:
    """Two rules that each keep the token from being created (800.4b: its controller left; 800.4d: its owner left)
    decide only together: the pair passes, each alone fails, and the pair plus a rule that adds nothing fails."""
    rel = "mtg/800.4b-token-not-created.yaml"
    ok = check_scenario_data(*_library(rel, 0, ["mtg.800.4b.token", "mtg.800.4d"])[:2]).expectations[0]
    alone = check_scenario_data(*_library(rel, 0, ["mtg.800.4b.token"])[:2]).expectations[0]
    extra = check_scenario_data(*_library(rel, 0, ["mtg.800.4b.token", "mtg.800.4d", "mtg.800.4m"])[:2]).expectations[0]
    assert ok.passed, ok
    assert not alone.passed and "does not decide" in alone.message
    assert not extra.passed and "mtg.800.4m" in extra.message


OWNS_NOTHING = [
    # (library scenario, a rule whose condition cannot hold there)
    ("mtg/800.4a-mind-control-bianca-leaves.yaml", "mtg.800.4m"),  # nothing is in ante
    ("mtg/108.4a-outside-the-game-no-controller.yaml", "mtg.800.4m"),
    ("ti4/75.1a-ground-force-prevents-elimination.yaml", "ti4.75.c7"),  # no unit is or can be captured
    ("ti4/ti4.transport-cargo-moves-with-carrier.yaml", "ti4.75.c7"),
]


@pytest.mark.parametrize("rel,rule", OWNS_NOTHING, ids=[f"{r}@{p}" for p, r in OWNS_NOTHING])
def test_a_rule_whose_condition_cannot_hold_is_in_no_core(rel, rule) -> None:
    """A rule owns only what its clause can change: where its condition is impossible it explains nothing."""
    data = yaml.safe_load((ROOT / "scenarios" / rel).read_text())
    res = check_scenario_data(data, name=str(ROOT / "scenarios" / rel), why=True)
    cores = [set(e.rules) for e in res.expectations] + [set(a.rules) for a in res.actions]
    assert any(cores), res
    assert all(rule not in c for c in cores), cores


IMPOSSIBLE = [c for c in CASES if c[0] in ("ti4-no-production-unit", "berserk-no-not-with", "mtg-nobody-left-target",
                                           "mtg-legal-target-608.2b", "riftbound-unit-elsewhere")]


@pytest.mark.parametrize("name,make,wrong,right", IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE])
def test_a_rule_whose_condition_cannot_hold_decides_nothing(name, make, wrong, right) -> None:
    """Explained, the verdict's decided-by list names the deciding rule and never the one whose condition is
    impossible there (it owns no key, so switching it off frees nothing)."""
    data, path, i = make([])
    e = check_scenario_data(data, name=path, why=True).expectations[i]
    assert e.verdict.value == e.expected, e
    assert set(right) <= set(e.decided_by), e.decided_by
    assert not set(wrong) & set(e.decided_by), e.decided_by


IMPLIED = ["mtg/800.4a-three-leave.yaml", "ti4/75.10f-mahact-eliminated-later.yaml",
           "riftbound/concede.battlefield-plus-one-power.yaml", "berserk/532.5.4-incarnation-granted-by-an-effect.yaml"]


@pytest.mark.parametrize("rel", IMPLIED)
def test_answers_implied_without_a_solve_are_the_answers_of_a_solve(rel, monkeypatch) -> None:
    """Explaining skips solves whose answer a kept solution (feasible) or a confirmed core (infeasible) implies: each
    skipped question, solved after all, gives that answer, and some questions are skipped."""
    from solver.engine.settings import Answer
    from solver.engine.solve import Engine

    skipped: list[tuple] = []
    known, holds = Engine.known_feasible, Engine.holds_without

    def known_feasible(self, extra, names):
        out = known(self, extra, names)
        if out:
            skipped.append((self, list(extra), sorted(names), Answer.SAT))
        return out

    def holds_without(self, extra, left_out):
        before = self.solves
        out = holds(self, extra, left_out)
        key = (tuple(sorted(int(q.index) for q in extra)), frozenset(left_out), self.options.presolve)
        if out is Answer.UNSAT and key in self._implied_unsat and key not in self._without:
            skipped.append((self, list(extra), [n for n in self.named if n not in left_out], out))
        assert self.solves - before <= 1  # a confirmation replaces the solve, never adds one
        return out

    monkeypatch.setattr(Engine, "known_feasible", known_feasible)
    monkeypatch.setattr(Engine, "holds_without", holds_without)
    path = ROOT / "scenarios" / rel
    res = check_scenario_data(yaml.safe_load(path.read_text()), name=str(path), why=True)
    assert res.status.value == "pass"
    assert skipped
    for engine, extra, names, answer in skipped:
        assert engine.solve(extra, names, core=True)[0] is answer


@pytest.mark.parametrize("rule,passes", [("core.value", True), ("berserk.conflict.latest", False)])
def test_one_effect_alone_is_no_conflict(rule, passes):
    """An effect that applies alone is applied by core.value: the last-applied rule (two effects in direct
    contradiction, seed 003) does not decide it, so a ``because`` naming it fails (it did, through the lone effect)."""
    sc = load_scenario(ROOT / "scenarios" / "berserk" / "conflict-6-one-effect-is-no-conflict.yaml").scenario
    first = sc.expect[0].model_copy(update={"because": [rule]})
    res = check_scenario(sc.model_copy(update={"expect": [first] + sc.expect[1:]}))
    assert res.expectations[0].passed is passes, res.expectations[0].message
    assert passes or f"{rule} does not decide it" in res.expectations[0].message
