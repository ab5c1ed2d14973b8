"""Report formats: pure renderings of result records; the one table of formats every command reads."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from models.results import ScenarioResult
from solver.cli import app
from solver.run.format_table import COMMANDS, TABLE, formats, help_text, names, renderer
from solver.run.formats import FORMATS, failures, formatter, public, summarize


def record(status: str = "pass", path: str = "scenarios/x/a.yaml", **extra) -> dict:
    """A minimal result record."""
    rec = ScenarioResult(path=path, id="a", game="core", status=status, seconds=0.25, **extra).model_dump(mode="json")
    return {**rec, "hash": "sha256:00"}


FAILED = record("fail", expectations=[{"index": 0, "line": 12, "description": "c in hand", "expected": "holds",
                                       "verdict": "impossible", "passed": False, "message": "excluded by core.move"}])
ERRORED = record("error", path="scenarios/x/b.yaml", error="scenarios/x/b.yaml:3:5: unknown object 'z'")
UNKNOWN = record("unknown", path="scenarios/x/c.yaml",
                 error="scenarios/x/c.yaml: unknown (wall-clock safety limit): stopped after 1 s")


def render(name: str, records: list[dict], timings: bool = False) -> str:
    """A whole report in one format."""
    f = formatter(name, timings)
    return "".join(f.item(r) for r in records) + f.end(records)


@pytest.mark.parametrize("rec, expected", [
    (record(), []),
    (FAILED, [(12, "expectation failed", "c in hand: impossible (expected holds) -- excluded by core.move")]),
    (ERRORED, [(3, "error", "scenarios/x/b.yaml:3:5: unknown object 'z'")]),
    (record("error", path="m.yaml", error="m.yaml:3:1: one\nm.yaml:9:4: two"),
     [(3, "error", "m.yaml:3:1: one"), (9, "error", "m.yaml:9:4: two")]),
    (UNKNOWN, [(None, "unknown", "scenarios/x/c.yaml: unknown (wall-clock safety limit): stopped after 1 s")]),
])
def test_failures_locate_each_problem(rec, expected):
    """(line, title, message) for what went wrong; the line of an error comes from its file:line prefix."""
    assert failures(ScenarioResult.model_validate({k: v for k, v in rec.items() if k != "hash"})) == expected


def test_summary_counts_each_status():
    """One of each status."""
    s = summarize([record(), FAILED, ERRORED, UNKNOWN])
    assert (s.passed, s.failed, s.errors, s.unknown, s.total) == (1, 1, 1, 1, 4)


@pytest.mark.parametrize("timings, has", [(False, False), (True, True)])
def test_public_drops_timing_unless_asked(timings, has):
    """seconds only with timings."""
    assert ("seconds" in public(record(), timings)) is has


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_is_deterministic_and_timing_free(name):
    """Rendering twice gives the same bytes; no timing appears unless asked (text never shows it)."""
    recs = [record(), FAILED, ERRORED, UNKNOWN]
    slow = [{**r, "seconds": 99.5} for r in recs]
    assert render(name, recs) == render(name, slow)


def test_junit_maps_statuses():
    """fail -> failure; error and unknown -> error; pass -> empty test case; timing only with timings."""
    root = ET.fromstring(render("junit", [record(), FAILED, ERRORED, UNKNOWN]))
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "2")
    kinds = [[child.tag for child in case] for case in suite.iter("testcase")]
    assert kinds == [[], ["failure"], ["error"], ["error"]]
    assert "time" not in suite.find("testcase").attrib
    timed = ET.fromstring(render("junit", [record()], timings=True)).find("testsuite/testcase")
    assert timed.get("time") == "0.2500"


def test_junit_escapes_markup():
    """Quotes, ampersands and angle brackets in messages stay well-formed XML."""
    bad = record("error", error='a <b> & "c"')
    case = ET.fromstring(render("junit", [bad])).find("testsuite/testcase/error")
    assert case.get("message") == 'a <b> & "c"'


def test_github_annotation_escapes_and_points_at_line():
    """An ::error per problem (each error of a file is a line of its own) with file and line; percent signs, commas
    and colons escaped as GitHub requires."""
    rec = record("error", path="s/a,b.yaml", error="s/a,b.yaml:4:1: bad 100%\ns/a,b.yaml:7:2: worse")
    lines = render("github", [rec]).splitlines()
    assert lines[0] == "::error file=s/a%2Cb.yaml,line=4,title=arbiter error%3A a::s/a,b.yaml:4:1: bad 100%25"
    assert lines[1] == "::error file=s/a%2Cb.yaml,line=7,title=arbiter error%3A a::s/a,b.yaml:7:2: worse"


MANY = record("error", path="s/m.yaml", error="s/m.yaml:3:1: first\ns/m.yaml:9:4: second")


@pytest.mark.parametrize("name", FORMATS)
def test_every_error_of_a_file_appears_in_every_format(name):
    """A file with several errors shows each of them, whatever the format."""
    out = render(name, [MANY])
    assert "first" in out and "second" in out
    if name in ("text", "github", "tap"):
        assert len([x for x in out.splitlines() if "s/m.yaml:" in x and ("first" in x or "second" in x)]) == 2


def test_jsonl_one_line_per_record_with_hash():
    """Each line parses back to its record (minus timing)."""
    lines = render("jsonl", [record(), FAILED]).splitlines()
    assert [json.loads(x)["status"] for x in lines] == ["pass", "fail"]
    assert all("seconds" not in json.loads(x) and json.loads(x)["hash"] == "sha256:00" for x in lines)


def test_text_ends_with_counts():
    """The person's report ends with the counts line."""
    assert render("text", [record(), FAILED]).endswith("\n1 passed, 1 failed, 0 errors, 0 unknown, 2 total\n")


# -- issue 17: every output parses whatever the scenario contains ---------------------------------------
HOSTILE = "\x01 \x1b[31mred\x1b[0m \ufffe \x7f \u202eevil \udcff end"
NASTY = record("error", path="scenarios/x/\x1b]0;t\x07.yaml", error=f"scenarios/x/a.yaml:3:1: unknown field '{HOSTILE}'")


def test_junit_parses_with_characters_xml_forbids():
    """\\x01, ESC, U+FFFE, a lone surrogate in a message or a path: replaced by visible escapes; xml.etree parses."""
    body = render("junit", [NASTY, FAILED])
    root = ET.fromstring(body.encode("utf-8"))
    case = root.find("testsuite/testcase/error")
    assert "\\x01" in case.get("message") and "\\x1b[31m" in case.get("message") and "\\ufffe" in case.text
    assert "\\x1b]0;t\\x07" in root.find("testsuite/testcase").get("file")


@pytest.mark.parametrize("name", ["text", "github", "tap"])
def test_line_formats_show_control_characters_visibly(name):
    """No raw control character reaches a terminal or a log: ESC, BEL, DEL, bidi overrides, lone surrogates."""
    out = render(name, [NASTY])
    raw = [c for c in out if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f or c in "\u202e"
           or 0xd800 <= ord(c) <= 0xdfff]
    assert raw == []
    assert "\\x1b[31mred" in out and "\\u202eevil" in out
    out.encode("utf-8")  # no lone surrogate left


@pytest.mark.parametrize("name", ["json", "jsonl"])
def test_json_formats_parse_and_encode(name):
    """JSON escapes control characters itself; a lone surrogate is written as a visible escape, so UTF-8 holds."""
    out = render(name, [NASTY])
    out.encode("utf-8")
    docs = [json.loads(line) for line in out.splitlines()] if name == "jsonl" else [json.loads(out)]
    assert docs


def test_text_keeps_one_line_per_error_of_a_file():
    """Several located errors of one file stay on separate lines (the newline between them is structure)."""
    two = record("error", error="a.yaml:1:1: first\na.yaml:2:1: second")
    assert render("text", [two]).splitlines()[1:3] == ["        a.yaml:1:1: first", "        a.yaml:2:1: second"]


# -- one table of formats (solver/run/format_table.py): every command validates, helps and renders from it ------------
ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "berserk" / "524.2-archmage-joker.yaml"
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"
PASSING_POOL = ("--only", "enchantress,troll,moss_spirit")  # three pairs, all passing (tests/test_sweep.py)
runner = CliRunner()


def arbiter(*args):
    """Run the CLI in-process."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def command_line(command: str, name: str) -> list:
    """A small run of ``command`` in format ``name``."""
    return {"check": ["check", SCENARIO], "sweep": ["sweep", TEMPLATE, *PASSING_POOL],
            "diff": ["diff", SCENARIO, "--rules-off", "berserk.524.2"]}[command] + ["-f", name]


OFFERED = [(c, f.name) for c in COMMANDS for f in formats(c)]


@pytest.mark.parametrize("command, name", OFFERED, ids=[f"{c}-{n}" for c, n in OFFERED])
def test_every_command_accepts_every_format_the_table_gives_it(command, name):
    """Each (command, format) of the table runs (no usage error) and writes a report."""
    r = arbiter(*command_line(command, name))
    assert r.exit_code in (0, 1), r.output
    assert r.stdout.strip()


REFUSED = [(c, f.name) for c in COMMANDS for f in TABLE if c not in f.renderers] + [(c, "yaml") for c in COMMANDS]


@pytest.mark.parametrize("command, name", REFUSED, ids=[f"{c}-{n}" for c, n in REFUSED])
def test_a_format_the_table_does_not_give_a_command_is_a_usage_error(command, name):
    """Exit 2, naming the formats the command offers (from the table)."""
    r = arbiter(*command_line(command, name))
    assert r.exit_code == 2
    assert f"unknown format '{name}' (choose from {', '.join(names(command))})" in r.output


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_lists_the_table(command):
    """``--format``'s help is the table's names for the command."""
    import inspect

    from solver import cli

    assert inspect.signature(getattr(cli, command)).parameters["format"].default.help == help_text(command)


def test_the_readme_table_is_the_table():
    """README's "Output formats" table has one row per format: the commands offering it and its description."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|$", text, re.M)
    got = {n: [c.strip() for c in cells.split("|")] for n, cells in rows}
    want = {f.name: ["yes" if c in f.renderers else "" for c in COMMANDS] + [f.description] for f in TABLE}
    assert got == want
    for command in COMMANDS:  # the command list names them the same way
        assert f"`--format {'|'.join(names(command))}`" in text.replace("\n  ", " ")


def test_every_renderer_of_the_table_exists():
    """Each renderer path of the table names a callable."""
    assert all(callable(renderer(c, n)) for c, n in OFFERED)


def test_check_tap_is_a_plan_and_a_test_point_per_scenario():
    """TAP of check: version, plan, ok / not ok per scenario in order, problems as comment lines."""
    lines = render("tap", [record(), FAILED, ERRORED, UNKNOWN]).splitlines()
    assert lines[:2] == ["TAP version 13", "1..4"]
    points = [x for x in lines if x.startswith(("ok ", "not ok "))]
    assert points == ["ok 1 - scenarios/x/a.yaml [a]", "not ok 2 - scenarios/x/a.yaml [a] # fail",
                      "not ok 3 - scenarios/x/b.yaml [a] # error", "not ok 4 - scenarios/x/c.yaml [a] # unknown"]
    assert "# scenarios/x/a.yaml:12: c in hand: impossible (expected holds) -- excluded by core.move" in lines
    assert render("tap", []) == "TAP version 13\n1..0\n"


def test_sweep_tap_has_a_test_point_per_combination():
    """``arbiter sweep -f tap``: the plan, a point per combination (the example's contradiction not ok, with why)."""
    r = arbiter("sweep", TEMPLATE, "-f", "tap")
    lines = r.stdout.splitlines()
    assert r.exit_code == 1 and lines[:2] == ["TAP version 13", "1..21"]
    points = [x for x in lines if x.startswith(("ok ", "not ok "))]
    assert len(points) == 21 and len([x for x in points if x.startswith("not ok")]) == 3
    bad = next(i for i, x in enumerate(lines) if x.endswith("enchantress + wood_elf # contradiction"))
    assert lines[bad + 1].startswith("# ")


def test_why_shows_every_verdict_even_one_no_rule_decides(tmp_path) -> None:
    """``check --why``: every expectation is listed, one that no rule decides says so (not left out)."""
    from typer.testing import CliRunner

    from solver.cli import app
    path = tmp_path / "s.yaml"
    path.write_text("""\
id: why-all
game: berserk
players: [{id: alice}, {id: bob}]
objects:
  - {id: knight, owner: alice, zone: play, types: [creature]}
expect:
  - {object: knight, zone: play}
  - {unique: true}
""", encoding="utf-8")
    out = CliRunner().invoke(app, ["check", str(path), "--why"]).output
    assert out.count("   ok ") == 2 and "decided by: no rule" in out, out
    plain = CliRunner().invoke(app, ["check", str(path)]).output
    assert "   ok " not in plain
