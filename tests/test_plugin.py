"""The pytest plugin: scenario files become test items; a failure shows file:line and the expectation, no traceback."""
from __future__ import annotations

import pytest

from test_batch import FAIL, PASS

pytest_plugins = ["pytester"]


@pytest.fixture
def project(pytester: pytest.Pytester):
    """A project with scenarios/ (two passing, one failing, one invalid) and a stray YAML file outside it."""
    pytester.makefile(".yaml", **{"scenarios/core/ok1": PASS.format(n=1), "scenarios/core/ok2": PASS.format(n=2),
                                  "scenarios/core/bad": FAIL.format(n=3),
                                  "scenarios/core/broken": "id: broken\ngame: [unclosed\n",
                                  "config/stray": PASS.format(n=4)})
    return pytester


def test_one_item_per_scenario_named_by_id(project):
    """Items are collected only under scenarios/, named by the scenario id."""
    r = project.runpytest("--collect-only", "-q", "-p", "no:cacheprovider")
    ids = sorted(line for line in r.outlines if "::" in line)
    assert ids == ["scenarios/core/bad.yaml::fail-3", "scenarios/core/broken.yaml::broken",
                   "scenarios/core/ok1.yaml::pass-1", "scenarios/core/ok2.yaml::pass-2"]


def test_failure_shows_scenario_line_and_message_not_a_traceback(project):
    """The failing expectation's YAML line and message; no Python traceback. The scenario that does not load is an
    error (refused input), not a failure, and the summary gives the exit code arbiter check would."""
    r = project.runpytest("-p", "no:cacheprovider", "scenarios")
    r.assert_outcomes(passed=2, failed=1, errors=1)
    out = r.stdout.str()
    assert "ERROR at setup of" in out
    assert ("arbiter: 2 scenarios passed, 1 failed or unknown, 1 refused, 0 internal errors; "
            "arbiter check would exit 2") in out
    assert "scenarios/core/bad.yaml:7: expectation failed: c: zone=hand: impossible (expected holds)" in out
    assert "scenarios/core/broken.yaml:2:" in out
    assert "Traceback" not in out and "solver/" not in out and "def runtest" not in out


def test_file_named_on_the_command_line_outside_scenarios(project):
    """A scenario file outside scenarios/ is collected when named explicitly and it has game: and id:."""
    r = project.runpytest("-p", "no:cacheprovider", "config/stray.yaml")
    r.assert_outcomes(passed=1)


def test_marker_deselects_scenarios(project):
    """-m 'not arbiter_scenario' leaves scenario items out."""
    r = project.runpytest("-p", "no:cacheprovider", "-m", "not arbiter_scenario", "scenarios")
    r.assert_outcomes()
    assert "4 deselected" in r.stdout.str()


# -- the plugin checks as `arbiter check` does, from any folder (issue 30) -----------------------------------------------
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARD = "game: berserk\ncards:\n  - {{id: knight, types: [creature], attributes: {{life: {life}}}}}\n"
USES = ("id: t\ngame: berserk\nplayers: [{id: alice}, {id: bob}]\nobjects:\n  - {id: k, card: knight, owner: alice, "
        "zone: play}\nexpect:\n  - {object: k, attributes: {life: 9}}\n")


def pytest_in(cwd: Path, *args) -> subprocess.CompletedProcess:
    """pytest run in a subprocess from ``cwd`` (the plugin loaded from its entry point)."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def arbiter_check(cwd: Path, *args) -> subprocess.CompletedProcess:
    """`arbiter check` in a subprocess from ``cwd``."""
    return subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", "check", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture
def two_libraries(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose library gives the knight life 5 (its scenario, expecting 9, fails), and another folder whose
    library gives life 9: (the scenario, the other folder)."""
    project = tmp_path / "project"
    (project / "cards" / "berserk").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    (project / "cards" / "berserk" / "set.yaml").write_text(CARD.format(life=5), encoding="utf-8")
    (project / "scenarios").mkdir()
    scenario = project / "scenarios" / "t.yaml"
    scenario.write_text(USES, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "cards" / "berserk").mkdir(parents=True)
    (elsewhere / "cards" / "berserk" / "set.yaml").write_text(CARD.format(life=9), encoding="utf-8")
    return scenario, elsewhere


@pytest.mark.parametrize("where", ["elsewhere", "project"])
def test_the_plugin_checks_a_card_scenario_against_its_own_library(two_libraries, where):
    """From any working folder, pytest gives the verdict `arbiter check` gives: the scenario's own library decides
    (never the one found from the working folder)."""
    scenario, elsewhere = two_libraries
    cwd = elsewhere if where == "elsewhere" else scenario.parent.parent
    assert arbiter_check(cwd, scenario).returncode == 1
    r = pytest_in(cwd, scenario)
    assert r.returncode == 1 and "1 failed" in r.stdout, r.stdout + r.stderr
    assert "expected holds" in r.stdout and "life" in r.stdout, r.stdout


def test_the_repositorys_card_scenarios_pass_under_pytest_from_outside_it(tmp_path):
    """The bundled scenarios that place library cards pass when pytest runs from a folder outside the repository."""
    files = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if "card:" in p.read_text(encoding="utf-8"))
    assert len(files) >= 10
    r = pytest_in(tmp_path, *files)
    assert r.returncode == 0 and f"{len(files)} passed" in r.stdout, r.stdout[-3000:] + r.stderr


@pytest.fixture
def odd_scenarios(tmp_path: Path) -> Path:
    """A project's scenarios folder with a passing scenario, a card file, and every entry `arbiter check` reports:
    a fifo, a dangling link, a link loop, a folder named like a scenario, a link back up."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    d = tmp_path / "scenarios"
    (d / "sub").mkdir(parents=True)
    (d / "ok.yaml").write_text(PASS.format(n=1), encoding="utf-8")
    os.mkfifo(d / "pipe.yaml")
    (d / "dangling.yaml").symlink_to("nowhere.yaml")
    (d / "loop.yaml").symlink_to("loop.yaml")
    (d / "folder.yaml").mkdir()
    (d / "sub" / "up").symlink_to("..")
    (d / "cards" / "berserk").mkdir(parents=True)
    (d / "cards" / "berserk" / "set.yaml").write_text(CARD.format(life=5), encoding="utf-8")
    return d


ODD = {"pipe.yaml": "is a named pipe", "dangling.yaml": "dangling symbolic link", "loop.yaml": "symbolic link loop",
       "folder.yaml": "is a directory", "up": "leads back to a folder that contains it"}


def test_the_plugin_reports_every_entry_check_reports(odd_scenarios, tmp_path):
    """pytest (from another folder) has an item in error for each entry `arbiter check` reports as an error (refused
    input), with the same reason; the card file is no scenario for either."""
    other = tmp_path / "other"
    other.mkdir()
    check = arbiter_check(other, odd_scenarios)
    assert check.returncode == 2 and check.stdout.rstrip().endswith("1 passed, 0 failed, 5 errors, 0 unknown, "
                                                                     "6 total"), check.stdout
    assert "skipped 1 card file(s)" in check.stderr
    r = pytest_in(other, "--rootdir", odd_scenarios.parent, odd_scenarios)
    assert r.returncode == 1 and "1 passed, 5 errors" in r.stdout, r.stdout
    for name, reason in ODD.items():
        assert any(name in line and reason in line for line in r.stdout.splitlines()), (name, r.stdout)
    assert "set.yaml" not in r.stdout
