"""The victory analysis: decisive advantage (the Kornevik example and each refutation), bounded forced wins,
the combat encoding against the explicit simulation, ruleset dice data, and claim verdicts in scenarios."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from models.expectations import Claim
from solver.registry import ruleset_for
from solver.run.api import check_file, check_text
from solver.victory.analysis import DecisiveAdvantage, check_claims
from solver.victory.bounded import ForcedWin
from solver.victory.encode import CombatModel
from solver.victory.model import DEFAULT_COMBAT, Position, Unit, damage, dice_from
from solver.victory.naive import NaiveSearch

LIB = Path(__file__).resolve().parent.parent / "scenarios" / "berserk"
DICE = dice_from(DEFAULT_COMBAT)
RULES = ruleset_for("berserk").combat_rules

# scenario file -> (verdict, words the certificate or counterexample must contain)
KORNEVIK = {
    "602.1-decisive-advantage-kornevik.yaml": ("proved", ["invariant", "INFEASIBLE", "ranking", "kornevik"]),
    "602.1-decisive-advantage-refuted-weak-strike.yaml": ("refuted", ["goblin", "die 2 (weak) -> strike 2 -> 2 damage",
                                                                     "does not block"]),
    "602.1-decisive-advantage-refuted-magical-attack.yaml": ("refuted", ["sorcerer", "no protection from magical"]),
    "602.1-decisive-advantage-refuted-heals-faster.yaml": ("refuted", ["troll", "heals 3 per round", "never be destroyed"]),
    "602.1-decisive-advantage-refuted-unreachable.yaml": ("refuted", ["harpy", "no creature of alice can reach", "flies"]),
    "602.1-decisive-advantage-refuted-undamageable.yaml": ("refuted", ["golem", "blocked by protection, 0 damage"]),
}


@pytest.mark.parametrize("name", sorted(KORNEVIK))
def test_kornevik_and_refutations(name):
    """The seed example is proved; each variant is refuted with a counterexample naming creature, die and damage."""
    verdict, words = KORNEVIK[name]
    res = check_file(LIB / name)
    assert res.status.value == "pass", (res.error, [c.message for c in res.claims])
    claim = res.claims[0]
    assert claim.verdict == verdict
    text = "\n".join(claim.certificate + claim.counterexample)
    for w in words:
        assert w in text, text
    assert (claim.certificate if verdict == "proved" else claim.counterexample)


def test_forced_win_proved_and_refuted_pair():
    """Within 3 rounds proved (a plan the counterexample search cannot beat), within 2 refuted (a beating line)."""
    res = check_file(LIB / "602.1-forced-win-bounded.yaml")
    assert res.status.value == "pass"
    proved, refuted = res.claims
    assert proved.verdict == "proved" and any("INFEASIBLE" in x for x in proved.certificate)
    assert refuted.verdict == "refuted" and any("die 1 (weak) -> strike 2" in x for x in refuted.counterexample)


@pytest.mark.parametrize("name,wrong", [("602.1-decisive-advantage-kornevik.yaml", "refuted"),
                                        ("602.1-decisive-advantage-refuted-weak-strike.yaml", "proved")])
def test_wrong_claim_expectation_fails(name, wrong):
    """A claim whose expectation is wrong makes the scenario fail, with the verdict in the message."""
    text = (LIB / name).read_text(encoding="utf-8")
    right = KORNEVIK[name][0]
    res = check_text(text.replace(f"expect: {right}", f"expect: {wrong}"), name)
    assert res.status.value == "fail"
    assert res.claims[0].message.startswith(f"expected {wrong}, but it is {right}")


def _kornevik(*enemies: Unit, life: int = 4) -> Position:
    k = Unit("kornevik", 0, life, life, (1, 2, 3), protect_nonmagical=3)
    return Position((k,) + enemies, DICE, ("alice", "bob"), RULES)


def test_unknown_at_the_time_limit_is_never_a_pass():
    """A deadline already past gives 'unknown', and a claim expecting 'unknown' still does not pass."""
    pos = _kornevik(Unit("ogre", 1, 5, 5, (3, 4, 5)))
    assert DecisiveAdvantage(pos, 1.0, deadline=time.monotonic() - 1).run().verdict == "unknown"
    assert ForcedWin(pos, 0, 2, deadline=time.monotonic() - 1).run().verdict == "unknown"
    res = check_text((LIB / "602.1-decisive-advantage-kornevik.yaml").read_text(encoding="utf-8")
                     .replace("expect: proved", "expect: unknown"), "k.yaml")
    assert res.status.value == "fail"


def test_claim_over_every_outcome_uses_the_controller():
    """A creature taken under control counts for the taker: after the theft bob has nothing left, proved at once."""
    text = """
id: t
game: berserk
players: [{id: alice}, {id: bob}]
objects:
  - {id: kornevik, owner: alice, zone: play, types: [creature], attributes: {life: 4}, properties: {strike: "1-2-3"}}
  - {id: wolf, owner: bob, zone: play, types: [creature], attributes: {life: 9, regen: 9}, properties: {strike: "1-1-1"}}
events:
  - {type: declare, id: charm, actor: alice, kind: take_control, source: kornevik, targets: [wolf]}
  - {type: resolve, action: charm}
claims:
  - {kind: decisive_advantage, player: alice, expect: proved}
"""
    res = check_text(text, "t.yaml")
    assert res.status.value == "pass", [c.message for c in res.claims]
    assert "no creature in play" in res.claims[0].certificate[0]


@pytest.mark.parametrize("unit,words", [
    (Unit("troll", 1, 4, 4, (3, 4, 5), regen=9), "never be destroyed"),
    (Unit("bat", 1, 1, 1, (3, 3, 3), flying=True), "can reach"),
])
def test_refutation_by_an_indestructible_creature(unit, words):
    """A creature the player never destroys refutes the advantage, whatever else happens."""
    res = DecisiveAdvantage(_kornevik(unit)).run()
    assert res.verdict == "refuted" and words in res.counterexample[0]


def test_magical_attack_breaks_the_invariant_but_a_quick_kill_still_proves():
    """A magical attacker that hurts Kornevik only a little, killed at once, is no refutation: bounded proof."""
    imp = Unit("imp", 1, 1, 1, (1, 1, 1), magical=True)
    res = DecisiveAdvantage(_kornevik(imp, life=9), horizon=1).run()
    assert res.verdict == "proved"
    assert "wins within 1 round" in res.certificate[0]


def test_tier_table_is_scenario_data():
    """Options override the die -> tier table: with no weak tier, Kornevik's 3 kills the knight at once."""
    text = (LIB / "602.1-forced-win-bounded.yaml").read_text(encoding="utf-8")
    opts = "options: {tier_weak: none, tier_medium: '1-3', tier_strong: '4-6'}"
    res = check_text(text.replace("turn: {active_player: alice}", "turn: {active_player: alice}\n" + opts), "t.yaml")
    assert [c.verdict for c in res.claims] == ["proved", "proved"]
    assert res.status.value == "fail" and "expected refuted, but it is proved" in res.claims[1].message


@pytest.mark.parametrize("opts,message", [
    ("{tier_strong: '5'}", "die values 6 belong to no strike tier"),
    ("{tier_medium: '2-4'}", "die value 2 is already in tier weak"),
    ("{tier_weak: '0-2'}", "outside the die's values 1-6"),
])
def test_bad_tier_table_is_a_clear_error(opts, message):
    """A tier table that is not a partition of the die's values is a one-line error."""
    text = (LIB / "602.1-forced-win-bounded.yaml").read_text(encoding="utf-8")
    res = check_text(text.replace("turn: {active_player: alice}", f"turn: {{active_player: alice}}\noptions: {opts}"),
                     "bad.yaml")
    assert res.status.value == "error" and message in res.error, res.error


def test_missing_life_is_a_clear_error():
    """Combat data is validated: a creature without life is a one-line error with the claim's line."""
    text = """id: t
game: berserk
players: [{id: alice}, {id: bob}]
objects:
  - {id: a, owner: alice, zone: play, types: [creature], properties: {strike: "1-2-3"}}
claims:
  - {kind: forced_win, player: alice, within: 1}
"""
    res = check_text(text, "t.yaml")
    assert res.status.value == "error"
    assert "claims[0] (line 7)" in res.error and "no 'life'" in res.error


@pytest.mark.parametrize("attacker,target", [
    (Unit("a", 0, 3, 3, (1, 3, 5)), Unit("t", 1, 3, 3, (1, 1, 1), protect_nonmagical=3)),
    (Unit("a", 0, 3, 3, (2, 3, 4), magical=True), Unit("t", 1, 3, 3, (1, 1, 1), protect_nonmagical=1)),
    (Unit("a", 0, 3, 3, (2, 3, 4), magical=True), Unit("t", 1, 3, 3, (1, 1, 1), protect_magical=4)),
])
def test_encoded_damage_matches_the_rules_for_every_die_value(attacker, target):
    """The CP-SAT damage (tiers, strike, protection) equals the explicit rule for every die value."""
    pos = Position((attacker, target), DICE, ("alice", "bob"), RULES)
    for v in DICE.values():
        cm = CombatModel(pos)
        d = cm.damage(attacker, target, cm.die(v))
        status, s, _ = cm.solve(5.0)
        assert status == "sat" and s.value(d) == damage(attacker, target, DICE, v)


POSITIONS = [
    (_kornevik(Unit("g", 1, 2, 2, (3, 4, 5))), 1),
    (_kornevik(Unit("g", 1, 3, 3, (3, 4, 5))), 1),
    (_kornevik(Unit("g", 1, 3, 3, (2, 3, 4))), 2),
    (_kornevik(Unit("g", 1, 2, 2, (1, 2, 3), magical=True), life=2), 2),
    (Position((Unit("a", 0, 3, 3, (1, 2, 3)), Unit("b", 0, 2, 2, (1, 1, 2)), Unit("x", 1, 2, 2, (1, 1, 1))), DICE,
              ("alice", "bob"), RULES), 1),
]


@pytest.mark.parametrize("pos,rounds", POSITIONS)
def test_solver_agrees_with_naive_minimax(pos, rounds):
    """The CP-SAT forced-win check and the plain minimax reference give the same answer."""
    solver = ForcedWin(pos, 0, rounds).run()
    naive = NaiveSearch(pos, 0, rounds).wins()
    assert solver.verdict == ("proved" if naive else "refuted"), solver.lines


def test_check_claims_without_claims_is_empty():
    """A scenario without claims gets no claim results."""
    from models.scenario import Scenario
    sc = Scenario(id="t", game="berserk", players=[{"id": "alice"}, {"id": "bob"}])
    assert check_claims(sc, {}, None, []) == []
    assert Claim(kind="forced_win", player="alice", within=2).expect == "proved"


def test_benchmark_runs_on_the_smallest_size(capsys):
    """The benchmark command works (the full run is `python -m solver.bench.victory`, outside the tests)."""
    from solver.bench.victory import main
    assert main(["--max-creatures", "1", "--max-rounds", "1", "--cap", "5"]) == 0
    assert "| 1v1 | 1 | proved |" in capsys.readouterr().out
