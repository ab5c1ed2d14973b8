"""Every rule is tested by its scenarios: switching a rule's literal off makes some library scenario fail.

``arbiter rules GAME --coverage`` is the same check for a person. A rule listed here as uncovered is either
dead (remove it from the encoding, the reference and rules.py together) or untested (give it a scenario).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from solver.check.coverage import coverage, library
from solver.registry import names

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lib():
    """The bundled library, loaded and compiled once."""
    return library(ROOT / "scenarios")


@pytest.mark.parametrize("game", names())
def test_every_rule_of_every_game_has_a_scenario_that_depends_on_it(game: str, lib) -> None:
    """Switch each rule off in turn: at least one library scenario no longer passes."""
    found = coverage(game, ROOT / "scenarios", entries=lib)
    assert found, "a game with rules"
    missing = [f"{c.rule} ({c.tried} scenarios tried)" for c in found if not c.scenario]
    assert not missing, f"rules no library scenario depends on: {missing}"


def _write(folder: Path, doc: dict) -> Path:
    path = folder / "berserk" / f"{doc['id']}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


BLOW = {"id": "blow", "game": "berserk", "players": [{"id": "alice"}, {"id": "bob"}],
        "objects": [{"id": "executioner", "owner": "alice", "zone": "play", "types": ["creature"],
                     "flags": {"open": True}},
                    {"id": "victim", "owner": "bob", "zone": "play", "types": ["creature"], "attributes": {"life": 2}}],
        "events": [{"type": "declare", "id": "blow", "actor": "alice", "kind": "finishing_blow",
                    "source": "executioner", "targets": ["victim"], "params": {"x": 2}},
                   {"type": "resolve", "action": "blow"}]}


#: the blow resolves and kills: the finishing blow's own rule decides the death; nothing looks at the payment
KILLED = [{"action": "blow", "action_status": "resolved"}, {"object": "victim", "zone": "graveyard"}]


def test_a_rule_the_expectations_do_not_depend_on_is_reported(tmp_path: Path) -> None:
    """With 'the blow resolves and the victim dies' expected, paying is never looked at: berserk.payment is not
    covered, while the finishing blow's own rule is (switched off, nothing kills the victim)."""
    _write(tmp_path, {**BLOW, "expect": KILLED})
    found = {c.rule: c for c in coverage("berserk", tmp_path, rules=["berserk.payment", "berserk.card.finishing_blow"])}
    assert found["berserk.payment"].scenario is None and found["berserk.payment"].tried == 1
    assert found["berserk.card.finishing_blow"].scenario is not None


def test_an_expectation_on_the_payment_covers_it(tmp_path: Path) -> None:
    """Expecting the source closed (paid) makes the scenario depend on berserk.payment."""
    _write(tmp_path, {**BLOW, "expect": [{"object": "executioner", "flags": {"open": False}}]})
    (c,) = coverage("berserk", tmp_path, rules=["berserk.payment"])
    assert c.scenario and "executioner" in c.how


def test_a_rule_absent_from_every_model_is_tried_nowhere(tmp_path: Path) -> None:
    """Coverage only switches off rules a scenario's model holds: nothing about conservation here."""
    _write(tmp_path, {**BLOW, "expect": [{"action": "blow", "action_status": "resolved"}]})
    (c,) = coverage("berserk", tmp_path, rules=["berserk.conservation.carry"])
    assert c.scenario is None and c.tried == 0


def test_cli_rules_coverage_exit_code(tmp_path: Path) -> None:
    """``arbiter rules berserk --coverage --where DIR`` lists each rule and exits 1 when one is not covered."""
    from typer.testing import CliRunner

    from solver.cli import app

    _write(tmp_path, {**BLOW, "expect": KILLED})
    res = CliRunner().invoke(app, ["rules", "berserk", "--coverage", "--where", str(tmp_path)])
    assert res.exit_code == 1
    assert "berserk.payment" in res.output and "NOT COVERED" in res.output
    assert "covered by" in res.output and "rules covered; not covered:" in res.output
