"""Exit codes of every command (``solver.run.exits``): 0 all pass, 1 a verdict failed or is unknown, 2 input refused
or a usage error, 3 internal error, 130 interrupted; a batch exits with the gravest (3 > 2 > 1 > 0).

Errors go by kind (``solver.errors``): a bug reads as a bug (with a line asking for a report, the traceback only with
ARBITER_DEBUG=1), never as a mistake in the scenario.
"""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app, main
from solver.errors import BUG_REPORT
from solver.run.exits import FAILED, INTERNAL, INTERRUPTED, PASSED, REFUSED, batch_code, record_code
from test_batch import FAIL, PASS

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"
runner = CliRunner()


def arbiter(*args) -> object:
    """Run the CLI in-process (the click result)."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """A passing, a failing, a refused (a field the game does not know) and an unreadable scenario, each in its own
    folder."""
    out = {}
    for name, body in (("pass", PASS.format(n=0)), ("fail", FAIL.format(n=1)),
                       ("refused", PASS.format(n=2).replace("game: core", "game: core\nbogus_field: 1")),
                       ("unreadable", "id: [unclosed\n")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.yaml").write_text(body, encoding="utf-8")
        out[name] = folder / f"{name}.yaml"
    return out


@pytest.fixture
def broken_checker(monkeypatch):
    """The checker raises a bug (a RuntimeError) for every scenario."""
    from solver.check.checker import ScenarioCheck

    def boom(self):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(ScenarioCheck, "run", boom)


# -- the codes of one record and of a batch -----------------------------------------------------------------------
@pytest.mark.parametrize("record, code", [
    ({"status": "pass"}, PASSED), ({"status": "fail"}, FAILED), ({"status": "unknown"}, FAILED),
    ({"status": "error", "error_kind": "input"}, REFUSED), ({"status": "error", "error_kind": "not_modelled"}, REFUSED),
    ({"status": "error"}, REFUSED), ({"status": "error", "error_kind": "internal"}, INTERNAL),
    ({"status": "pass", "result": "contradiction"}, FAILED), ({"status": "pass", "result": "pass"}, PASSED),
    ({"status": "error", "result": "error", "error_kind": "internal"}, INTERNAL),
])
def test_record_code(record, code):
    """Each kind of result calls for its code."""
    assert record_code(record) == code


@pytest.mark.parametrize("statuses, code", [
    ([], PASSED), (["pass", "pass"], PASSED), (["pass", "fail"], FAILED), (["unknown", "pass"], FAILED),
    (["fail", "error:input"], REFUSED), (["error:input", "error:internal", "fail"], INTERNAL),
])
def test_batch_exits_with_the_gravest(statuses, code):
    """3 > 2 > 1 > 0: a refused file beside a failing verdict exits 2; a bug beside both exits 3."""
    recs = [{"status": s.split(":")[0], "error_kind": (s.split(":") + [None])[1]} for s in statuses]
    assert batch_code(recs) == code


# -- check -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("which, extra, code", [
    (["pass"], [], PASSED), (["fail"], [], FAILED), (["pass"], ["--timeout", "1e-9"], FAILED),
    (["refused"], [], REFUSED), (["unreadable"], [], REFUSED), (["fail", "refused"], [], REFUSED),
    (["pass", "fail", "unreadable"], ["--jobs", "2"], REFUSED),
])
def test_check(files, which, extra, code):
    """check: pass 0; a failing verdict or an unknown 1; a refused or unreadable file 2, also beside a failure."""
    r = arbiter("check", *[files[w] for w in which], *extra)
    assert r.exit_code == code, r.stdout


def test_check_internal_error(files, broken_checker):
    """check: a bug is exit 3, said as one (internal error, a bug report asked for), beside a refused file too."""
    r = arbiter("check", files["pass"], files["refused"])
    assert r.exit_code == INTERNAL
    assert "internal error: RuntimeError: kaboom" in r.stdout and BUG_REPORT in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_check_internal_error_traceback_with_debug(files, broken_checker, monkeypatch):
    """ARBITER_DEBUG=1 adds the traceback to the internal error."""
    monkeypatch.setenv("ARBITER_DEBUG", "1")
    r = arbiter("check", files["pass"])
    assert r.exit_code == INTERNAL and "Traceback (most recent call last)" in r.stdout


@pytest.mark.parametrize("args", [["--timeout", "0"], ["--safety-limit", "-1"], ["--jobs", "-1"],
                                  ["--format", "nope"]])
def test_check_usage_error(files, args):
    """check: a usage error is exit 2."""
    assert arbiter("check", files["pass"], *args).exit_code == REFUSED


# -- explain ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("which, extra, code", [
    ("pass", [], PASSED), ("fail", [], FAILED), ("pass", ["--timeout", "1e-9"], FAILED), ("refused", [], REFUSED),
    ("unreadable", ["--json"], REFUSED), ("pass", ["--timeout", "-1"], REFUSED),
])
def test_explain(files, which, extra, code):
    """explain: the same codes for one file."""
    assert arbiter("explain", files[which], *extra).exit_code == code


def test_explain_internal_error(files, broken_checker):
    """explain: a bug is exit 3."""
    r = arbiter("explain", files["pass"])
    assert r.exit_code == INTERNAL and BUG_REPORT in r.stdout


# -- sweep and report -------------------------------------------------------------------------------------------
@pytest.fixture
def blade_pool(tmp_path: Path) -> Path:
    """A pool whose Blade cannot be placed in the template's slot (a refused combination) beside cards that pass."""
    pool = tmp_path / "pool.yaml"
    pool.write_text(textwrap.dedent("""\
        game: berserk
        cards:
          - {id: a, types: [creature]}
          - {id: b, types: [creature, symbiote]}
          - id: blade
            types: [equipment]
            effects: [{id: dark, kind: set, attribute: element, value: darkness, targets: attached}]
        """), encoding="utf-8")
    return pool


def test_sweep_codes(blade_pool, tmp_path):
    """sweep: all pass 0; one combination failing 1; one refused 2; a usage error 2."""
    assert arbiter("sweep", TEMPLATE, "--only", "enchantress,troll,moss_spirit").exit_code == PASSED
    assert arbiter("sweep", TEMPLATE).exit_code == FAILED
    assert arbiter("sweep", TEMPLATE, "--pool", blade_pool).exit_code == REFUSED
    assert arbiter("sweep", tmp_path / "missing.yaml").exit_code == REFUSED


def test_sweep_internal_error(monkeypatch):
    """sweep: a bug in one combination is exit 3."""
    import solver.run.sweep.jobs as sweep_jobs

    def boom(job, opts):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(sweep_jobs, "_check", boom)
    r = arbiter("sweep", TEMPLATE, "--only", "enchantress,troll")
    assert r.exit_code == INTERNAL


@pytest.mark.parametrize("which, code", [(["pass"], PASSED), (["fail"], FAILED), (["pass", "refused"], REFUSED)])
def test_report(files, tmp_path, which, code):
    """report: the codes of check, the HTML written either way."""
    out = tmp_path / "r.html"
    r = arbiter("report", *[files[w] for w in which], "-o", out)
    assert r.exit_code == code and out.exists()


def test_report_internal_error(files, tmp_path, broken_checker):
    """report: a bug is exit 3."""
    assert arbiter("report", files["pass"], "-o", tmp_path / "r.html").exit_code == INTERNAL


# -- commands that check no scenario ------------------------------------------------------------------------------
@pytest.mark.parametrize("args, code", [
    (["rules", "core"], PASSED), (["rules", "nope"], REFUSED), (["schema", "--game", "berserk"], PASSED),
    (["schema", "--game", "nope"], REFUSED), (["soak", "--game", "core", "--count", "2"], PASSED),
    (["soak", "--game", "nope"], REFUSED), (["bench", "--sizes", "x"], REFUSED),
    (["generate", "--out", "OUT", "--game", "nope"], REFUSED), (["check", "--bogus"], REFUSED),
])
def test_other_commands(args, code, tmp_path):
    """rules, schema, soak, bench, generate: 0 when they work, 2 on a usage error."""
    args = [str(tmp_path / "gen") if a == "OUT" else a for a in args]
    assert runner.invoke(app, args).exit_code == code


def test_soak_disagreement_exits_1(monkeypatch):
    """soak: a disagreement is exit 1."""
    import solver.bench.soak as soak

    monkeypatch.setattr(soak, "soak", lambda game, *a, **k: soak.SoakReport(game, compared=1, disagreed=1))
    assert arbiter("soak", "--game", "core", "--count", "1").exit_code == FAILED


def _main(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """Run the console entry point (``arbiter ARGS``) in-process: its exit code and stderr."""
    monkeypatch.setattr(sys, "argv", ["arbiter", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return info.value.code, capsys.readouterr().err


@pytest.mark.parametrize("args, code", [
    (["schema", "--game", "core"], PASSED), (["schema", "--game", "nope"], REFUSED), (["check"], REFUSED),
    (["nosuchcommand"], REFUSED),
])
def test_entry_point_codes(monkeypatch, capsys, args, code):
    """The console entry point: the command's code; a usage error 2."""
    assert _main(monkeypatch, capsys, *args)[0] == code


@pytest.mark.parametrize("command", [["schema"], ["rules", "core"]])
def test_entry_point_internal_error(monkeypatch, capsys, command):
    """A bug outside any scenario (schema, rules): exit 3, a bug report asked for, no traceback unless ARBITER_DEBUG."""
    import solver.vocabulary.docs as docs
    import solver.vocabulary.schema as schema

    def boom(*a, **k):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(schema, "combined_schema", boom)
    monkeypatch.setattr(docs, "render", boom)
    code, err = _main(monkeypatch, capsys, *command)
    assert code == INTERNAL and "internal error: RuntimeError: kaboom" in err and BUG_REPORT in err
    assert "Traceback" not in err
    monkeypatch.setenv("ARBITER_DEBUG", "1")
    code, err = _main(monkeypatch, capsys, *command)
    assert code == INTERNAL and "Traceback (most recent call last)" in err


def test_entry_point_interrupted(monkeypatch, capsys):
    """Ctrl-C in a command that does not handle it itself: exit 130 (click would say 1)."""
    import solver.vocabulary.schema as schema

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(schema, "combined_schema", interrupted)
    assert _main(monkeypatch, capsys, "schema")[0] == INTERRUPTED


# -- the kind of a refusal ------------------------------------------------------------------------------------------
def test_refusals_say_their_kind():
    """Bad input is error_kind 'input'; a mechanic the rules do not model (MTG 801.11 with a limited range of
    influence) is 'not_modelled', naming it; both exit 2, located the same way."""
    from test_mtg import BAD_MECHANICS, run, scenario

    kinds = {message: run(scenario(**parts)).error_kind for parts, message in BAD_MECHANICS}
    assert kinds.pop("801.11") == "not_modelled"
    assert set(kinds.values()) == {"input"}, kinds
