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
