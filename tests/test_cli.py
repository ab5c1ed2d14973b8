"""The ``arbiter`` command line: exit codes, formats, --jobs byte-identity, --output, --resume, interruption."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.run import batch
from solver import registry
from solver.cli import app
from test_batch import FAIL, PASS, write

runner = CliRunner()


def arbiter(*args: str):
    """Run the CLI in-process; returns the click Result (stdout in .stdout, stderr in .stderr)."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def lib(tmp_path) -> Path:
    """Three passing scenarios and a failing one."""
    d = tmp_path / "scenarios"
    d.mkdir()
    for n in range(3):
        write(d, f"s{n}.yaml", PASS.format(n=n))
    write(d, "t-fail.yaml", FAIL.format(n=9))
    return d


def test_exit_0_when_all_pass(lib):
    """Every scenario passes: exit 0 and the counts."""
    (lib / "t-fail.yaml").unlink()
    r = arbiter("check", lib)
    assert r.exit_code == 0
    assert r.stdout.endswith("3 passed, 0 failed, 0 errors, 0 unknown, 3 total\n")


def test_exit_1_when_one_fails_and_the_line_is_named(lib):
    """A failing expectation: exit 1; the report names file:line."""
    r = arbiter("check", lib)
    assert r.exit_code == 1
    assert f"{lib / 't-fail.yaml'}:7: c: zone=hand: impossible (expected holds)" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--format", "yaml"], "unknown format 'yaml'"),
    (["--jobs", "-1"], "--jobs must be 0"),
    (["--timeout", "0"], "--timeout must be positive"),
    (["--resume"], "--resume needs --output"),
])
def test_usage_errors_exit_2_with_one_line(lib, args, message):
    """Bad options: exit 2, one line on stderr, nothing on stdout, no traceback."""
    r = arbiter("check", lib, *args)
    assert r.exit_code == 2
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_output_folder_is_a_usage_error(lib, tmp_path):
    """--output must name a file."""
    r = arbiter("check", lib, "--output", tmp_path)
    assert r.exit_code == 2 and "is a folder" in r.stderr


def test_missing_path_exits_2(tmp_path):
    """A path that does not exist is a usage error."""
    r = arbiter("check", tmp_path / "nope")
    assert r.exit_code == 2 and "no such file or folder" in r.stderr


def test_json_keeps_summary_scenarios_verdicts_and_rules(lib):
    """json: summary counts and, per scenario, path, id, game, status, expectations with verdicts and rules."""
    doc = json.loads(arbiter("check", lib, "-f", "json").stdout)
    assert doc["summary"] == {"passed": 3, "failed": 1, "errors": 0, "unknown": 0, "total": 4}
    first = doc["scenarios"][0]
    assert [first[k] for k in ("id", "game", "status")] == ["pass-0", "core", "pass"]
    assert first["expectations"][0]["verdict"] == "holds"
    failed = doc["scenarios"][3]["expectations"][0]
    assert (failed["verdict"], failed["passed"], failed["rules"]) == ("impossible", False, ["core.move"])
    assert [Path(s["path"]).name for s in doc["scenarios"]] == ["s0.yaml", "s1.yaml", "s2.yaml", "t-fail.yaml"]


@pytest.mark.parametrize("timings, present", [((), False), (("--timings",), True)])
def test_timing_only_with_timings(lib, timings, present):
    """Timing would break byte-identity: machine formats leave it out unless --timings."""
    doc = json.loads(arbiter("check", lib, "-f", "json", *timings).stdout)
    assert ("seconds" in doc["scenarios"][0]) is present


def test_jsonl_is_one_line_per_scenario(lib):
    """jsonl: one parsable line per scenario, each with its content hash, nothing else on stdout."""
    lines = arbiter("check", lib, "-f", "jsonl").stdout.splitlines()
    recs = [json.loads(x) for x in lines]
    assert [r["status"] for r in recs] == ["pass", "pass", "pass", "fail"]
    assert all(r["hash"].startswith("sha256:") for r in recs)


def test_junit_counts_and_failure(lib):
    """junit: a test case per scenario; the failing one carries a failure with file:line."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(arbiter("check", lib, "-f", "junit").stdout)
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "0")
    failure = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failure] == ["fail-9"]
    assert failure[0].get("line") == "7" and ":7: c: zone=hand" in failure[0].find("failure").text


def test_github_annotates_file_and_line(lib):
    """github: one ::error annotation at the scenario file and line of the failing expectation."""
    out = arbiter("check", lib, "-f", "github").stdout.splitlines()
    errors = [x for x in out if x.startswith("::error")]
    assert errors == [f"::error file={lib / 't-fail.yaml'},line=7,title=arbiter expectation failed%3A fail-9::"
                      "c: zone=hand: impossible (expected holds) -- expected holds, but it is impossible "
                      "(excluded by core.move)"]


def test_jobs_2_output_is_byte_identical_to_jobs_1(lib):
    """The report does not depend on the number of worker processes (2 spawned workers vs in-process)."""
    one, two = arbiter("check", lib, "-f", "jsonl"), arbiter("check", lib, "-f", "jsonl", "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout


def test_output_file_gets_the_report_and_stdout_stays_empty(lib, tmp_path):
    """--output FILE: the report goes to FILE, the partial journal is gone after a complete run."""
    out = tmp_path / "report.json"
    r = arbiter("check", lib, "-f", "json", "--output", out)
    assert r.exit_code == 1 and r.stdout == ""
    assert json.loads(out.read_text())["summary"]["total"] == 4
    assert not (tmp_path / "report.json.partial").exists()


def test_resume_rechecks_only_missing_or_changed(lib, tmp_path):
    """Marked records of unchanged scenarios are reused; a changed file and a lost record are re-checked."""
    out = tmp_path / "r.jsonl"
    arbiter("check", lib, "-f", "jsonl", "--output", out)
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    for r in recs:
        r["title"] = "from the first run"
    kept = "".join(json.dumps(r) + "\n" for r in recs[:3])
    out.write_text(kept + json.dumps(recs[3])[:40])  # the last record was cut by a kill
    write(lib, "s1.yaml", PASS.format(n=1) + "# changed\n")
    r = arbiter("check", lib, "-f", "jsonl", "--output", out, "--resume")
    assert r.exit_code == 1
    titles = {Path(x["path"]).name: x["title"] for x in map(json.loads, out.read_text().splitlines())}
    assert titles == {"s0.yaml": "from the first run", "s1.yaml": None, "s2.yaml": "from the first run",
                      "t-fail.yaml": None}


def test_interrupted_batch_keeps_results_written(lib, tmp_path, monkeypatch):
    """Ctrl-C after two results: exit 130, both results are in --output, and --resume finishes the rest."""
    real_run = batch.run

    def interrupted(jobs, opts, workers=1, cluster=None, fn=batch.check_job):
        for k, pair in enumerate(real_run(jobs, opts, workers, cluster, fn)):
            if k == 2:
                raise KeyboardInterrupt
            yield pair
    monkeypatch.setattr(batch, "run", interrupted)
    out = tmp_path / "r.json"
    r = arbiter("check", lib, "-f", "json", "--output", out)
    assert r.exit_code == 130 and "rerun with --resume" in r.stderr
    partial = tmp_path / "r.json.partial"
    assert len(partial.read_text().splitlines()) == 2
    monkeypatch.setattr(batch, "run", real_run)
    r = arbiter("check", lib, "-f", "json", "--output", out, "--resume")
    assert r.exit_code == 1 and json.loads(out.read_text())["summary"]["total"] == 4
    assert not partial.exists()


def test_internal_error_in_a_scenario_is_a_result_not_a_traceback(lib, monkeypatch):
    """A crash inside the checker becomes that scenario's internal error (exit 3, a bug report asked for, no
    traceback); the others finish."""
    import solver.run.batch.jobs as jobs

    real = jobs.check_text

    def boom(text, file, *a, **k):
        if file.endswith("s1.yaml"):
            raise RuntimeError("kaboom")
        return real(text, file, *a, **k)
    monkeypatch.setattr(jobs, "check_text", boom)
    r = arbiter("check", lib)
    assert r.exit_code == 3 and "Traceback" not in r.stdout + r.stderr
    assert "internal error: RuntimeError: kaboom" in r.stdout and "this is a bug in Arbiter" in r.stdout
    assert r.stdout.strip().endswith("2 passed, 1 failed, 1 errors, 0 unknown, 4 total")


@pytest.mark.parametrize("args, needle", [
    (["rules", "berserk"], "berserk.524.2"),
    (["rules", "ti4"], "| `production` | Production:"),
    (["rules", "berserk", "--where", "scenarios"], "scenarios/berserk/524.2-archmage-joker.yaml"),
    (["schema"], '"$schema"'),
    (["schema", "--game", "mtg"], '"return_to_battlefield"'),
])
def test_other_commands_still_work(args, needle):
    """rules and schema print their listings."""
    r = arbiter(*args)
    assert r.exit_code == 0 and needle in r.stdout


@pytest.mark.parametrize("args", [["rules", "chess"], ["schema", "--game", "chess"]])
def test_unknown_game_is_a_usage_error(args):
    """An unknown game name exits 2 naming the known games."""
    r = arbiter(*args)
    assert r.exit_code == 2 and "berserk" in r.stderr


def test_explain_still_works(lib):
    """explain shows outcomes and expectations."""
    r = arbiter("explain", lib / "s0.yaml")
    assert r.exit_code == 0 and "outcomes: 1" in r.stdout and "expectations:" in r.stdout


# -- generate and bench -------------------------------------------------------------------------
def test_generate_is_deterministic_for_a_seed(tmp_path):
    """The same seed writes the same bytes; another seed writes other scenarios."""
    for d, seed in (("a", 5), ("b", 5), ("c", 6)):
        assert arbiter("generate", "--out", tmp_path / d, "--count", 3, "--objects", 12, "--seed", seed).exit_code == 0
    read = lambda d: [p.read_bytes() for p in sorted((tmp_path / d).iterdir())]  # noqa: E731
    assert read("a") == read("b") and read("a") != read("c") and len(read("a")) == 3


@pytest.mark.parametrize("cores", [False, True])
def test_generated_scenarios_pass_check(tmp_path, cores):
    """Generated scenarios are valid and every expectation (known by construction) gets the stated verdict."""
    extra = ["--cores"] if cores else []
    arbiter("generate", "--out", tmp_path, "--count", 4, "--objects", 6, "--seed", 3, *extra)
    r = arbiter("check", tmp_path, "-f", "json")
    assert r.exit_code == 0, r.stdout
    doc = json.loads(r.stdout)
    verdicts = {e["verdict"] for s in doc["scenarios"] for e in s["expectations"]}
    assert verdicts == ({"holds", "impossible"} if cores else {"holds"})


def test_generated_expectation_turned_false_fails(tmp_path):
    """The generated expectations are decided by the solver: flip one and the scenario fails."""
    arbiter("generate", "--out", tmp_path, "--count", 1, "--objects", 5, "--seed", 1, "--declared", 5)
    p = next(tmp_path.iterdir())
    p.write_text(p.read_text().replace("action_status: illegal", "action_status: resolved", 1))
    assert arbiter("check", p).exit_code == 1


@pytest.mark.parametrize("args", [["--game", "chess"], ["--objects", "0"]])
def test_generate_bad_arguments_exit_2(tmp_path, args):
    """Unknown game or impossible size: a one-line usage error."""
    r = arbiter("generate", "--out", tmp_path, *args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_bench_unit_and_table_format():
    """The unit solve is measured; the table shows one line per row with the cost in units."""
    from solver.bench.bench import Bench, Row, minimal_solve_seconds

    b = Bench()
    b.unit = minimal_solve_seconds(repeat=5)
    assert 0 < b.unit < 1
    b.rows = [Row("generated, --jobs 1", 10, 1, 2.0, 30, 0), Row("generated, --jobs 2", 10, 2, 1.25, 30, 0, "x1.6")]
    lines = b.table().splitlines()
    row = next(x for x in lines if x.startswith("generated, --jobs 2"))
    assert row.split()[-1] == "x1.6" and f"{0.25 / b.unit:.0f}" in row.split()


@pytest.mark.benchmark
def test_bench_runs_end_to_end(tmp_path):
    """A tiny full benchmark run (marked benchmark: not run by default)."""
    r = arbiter("bench", "--generated", 4, "--sizes", "5", "--per-size", 1, "--library", tmp_path / "none",
                "--starts", 1)
    assert r.exit_code == 0 and "speed-up" in r.stdout and "size 5 objects" in r.stdout
    assert "size 5 objects, --jobs 1, baseline" in r.stdout and "cold start" in r.stdout and "YAML load" in r.stdout


@pytest.mark.parametrize("name", registry.names())
def test_rules_clauses_lists_every_rule_at_its_clause(name):
    """``rules GAME --clauses`` names every rule id of the game, each with at least one clause in the encoding; every
    place it lists is a line that writes the rule id; the listing is the same on every run."""
    from solver.check import rulebook

    r = arbiter("rules", name, "--clauses")
    assert r.exit_code == 0
    found: dict[str, dict[str, list[str]]] = {}
    for line in r.stdout.splitlines():
        if not line.startswith(" "):
            rule = line
            found[rule] = {"encoding": [], "reference": []}
            continue
        part, place = line.split()
        if place != "(none)":
            found[rule][part].append(place)
    assert list(found) == sorted(rulebook.rules(name))
    assert not [r for r, where in found.items() if not where["encoding"]], "a rule with no clause in the encoding"
    root = Path(__file__).resolve().parent.parent
    for rule, where in found.items():
        for place in where["encoding"] + where["reference"]:
            path, line = place.rsplit(":", 1)
            assert f'"{rule}"' in (root / path).read_text(encoding="utf-8").splitlines()[int(line) - 1], place
        assert all(p.startswith(("solver/games/", "solver/encoding/")) for p in where["encoding"])
        assert all(p.startswith(("solver/games/", "solver/reference/")) and "/reference" in p
                   for p in where["reference"])
    assert arbiter("rules", name, "--clauses").stdout == r.stdout
    if name == "berserk":
        assert all(p.startswith("solver/games/berserk/combat.py:") for p in found["berserk.combat.reach"]["encoding"])
