"""Big runs and card libraries under hostile conditions (issue 30): reports cut short by a full disk or a file-size
limit, sweeps too large to hold, --resume under other options, one library shared by many scenarios, one card file
under two spellings, files changing while walked, terminal escapes in every output, memory limits, and errors
located where they are.
"""
from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from test_batch import PASS

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"
RUNNER = CliRunner()
#: a guard against hangs, not a speed limit
HANG_GUARD = 120.0
CARDS = "game: berserk\ncards:\n  - {id: knight, types: [creature], attributes: {life: 5}}\n"


def cli(*args, cwd: Path | None = None, limits: dict | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """The real ``arbiter`` process (``limits``: resource limits set in the child, e.g. RLIMIT_FSIZE)."""
    def setup():
        for what, value in (limits or {}).items():
            resource.setrlimit(what, (value, value))
    return subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", *map(str, args)],
                          stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd or ROOT, timeout=HANG_GUARD,
                          preexec_fn=setup)


def project(tmp_path: Path, scenario: str = "") -> Path:
    """A project (pyproject.toml) with cards/berserk/set.yaml and a scenario placing its knight; the scenario."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (tmp_path / "cards" / "berserk").mkdir(parents=True, exist_ok=True)
    (tmp_path / "cards" / "berserk" / "set.yaml").write_text(CARDS, encoding="utf-8")
    path = tmp_path / "scenarios" / "t.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(scenario or "id: t\ngame: berserk\nplayers: [{id: alice}, {id: bob}]\nobjects:\n  - {id: k, "
                                "card: knight, owner: alice, zone: play}\nexpect:\n  - {object: k, zone: play}\n",
                    encoding="utf-8")
    return path


# -- 3, 10: a report cut short is an error naming the file; nothing half-written --------------------------------------
@pytest.mark.parametrize("fmt", ["json", "jsonl", "junit", "text"])
def test_a_report_cut_short_on_stdout_is_an_error(tmp_path, fmt):
    """Under a file-size limit, a report redirected to a file that cannot take it all: exit 2 and a message, never
    exit 0 with half a report."""
    with open(tmp_path / "out", "w") as out:
        proc = cli("check", "scenarios/", "-f", fmt, stdout=out, limits={resource.RLIMIT_FSIZE: 4096})
    assert proc.returncode == 2, proc.stderr
    assert "cannot write" in proc.stderr and "File too large" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_an_output_file_that_cannot_be_written_names_it_and_keeps_the_journal(tmp_path, fmt):
    """-o under a file-size limit: exit 2, the file named, the resume hint, and no FILE.tmp left behind."""
    out = tmp_path / f"r.{fmt}"
    proc = cli("check", "scenarios/", "-f", fmt, "-o", out, limits={resource.RLIMIT_FSIZE: 20000})
    assert proc.returncode == 2, proc.stderr
    assert f"cannot write {out}" in proc.stderr and "File too large" in proc.stderr, proc.stderr
    assert "rerun with --resume" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.glob("*.tmp"))


def test_atomic_write_removes_its_temporary_file_when_it_fails(tmp_path, monkeypatch):
    """A failed write leaves the old file (or none) and no FILE.tmp, and says which file."""
    from solver.run.output import OutputError, atomic_write

    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")

    def chunks():
        yield "new part"
        raise OSError(28, "No space left on device")
    with pytest.raises(OutputError, match=r"cannot write .*r\.json: No space left on device"):
        atomic_write(target, chunks())
    assert target.read_text() == "old" and not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("args", [["report", "scenarios/berserk", "-o", "{tmp}/missing/r.html"],
                                  ["sweep", str(TEMPLATE), "--report", "{tmp}/missing/s.html"]])
def test_a_report_into_a_missing_folder_is_refused_before_any_work(tmp_path, monkeypatch, args):
    """`report -o` (and `sweep --report`) into a folder that does not exist: exit 2 at once, nothing checked."""
    import solver.run.report.checked as checked

    monkeypatch.setattr(checked, "checked_report", lambda *a, **k: pytest.fail("checked before refusing"))
    res = RUNNER.invoke(app, [a.format(tmp=tmp_path) for a in args])
    assert res.exit_code == 2 and "no such folder" in res.output, res.output
    assert "combinations" not in res.output


def test_a_card_folder_changing_while_walked_is_named_not_a_crash(tmp_path, monkeypatch):
    """A card file removed between listing its folder and reading it: a located error naming it."""
    import models.cards as cards

    path = project(tmp_path)
    real = cards._read_card

    def vanish(p, name):
        p.unlink()
        return real(p, name)
    monkeypatch.setattr(cards, "_read_card", vanish)
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 2 and "set.yaml: no such file" in res.output and "internal error" not in res.output


# -- 4: sweeps: counted and estimated first, bounded, streamed ----------------------------------------------------------
def test_a_sweep_states_its_count_and_estimate_before_it_runs():
    """stderr: the number of combinations, then the estimate (timed on the first few), before the results."""
    res = RUNNER.invoke(app, ["sweep", str(TEMPLATE), "-f", "jsonl"])
    assert "21 combinations" in res.stderr and "arbiter: estimate:" in res.stderr, res.stderr
    assert re.search(r"estimate: [\d.]+ (s|min).* for the 18 combinations left with --jobs 1", res.stderr)


@pytest.fixture(scope="module")
def big_pool(tmp_path_factory) -> Path:
    """A project with a 300-card pool and a template of three slots: 4,455,100 combinations; the template."""
    from solver.bench.memory import sweep_project

    return sweep_project(tmp_path_factory.mktemp("big"), 300, 3)


def test_a_huge_sweep_starts_at_once_and_holds_only_what_is_in_flight(big_pool, tmp_path, monkeypatch):
    """300 cards at k = 3 (4.46 million triples): the first results come within seconds and memory stays small (the
    combinations are made as they are checked, the records go to disk); stopped, it says what it kept."""
    from solver.run.sweep import SweepRun, jobs as sweep_jobs, prepare

    real, calls = sweep_jobs.sweep_job, []

    def stop_after_20(job, opts):
        calls.append(job["slots"])
        if len(calls) > 20:
            raise KeyboardInterrupt
        return real(job, opts)
    import solver.run.sweep as sweep_run
    monkeypatch.setattr(sweep_run, "sweep_job", stop_after_20)
    tracemalloc.start()
    start = time.perf_counter()
    run = SweepRun(paths=[], sweep=prepare(big_pool, []), format="json", output=tmp_path / "s.json", progress=False)
    assert len(run.sweep.combinations) == 4_455_100
    code = run.execute()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert code == 130 and time.perf_counter() - start < HANG_GUARD  # hang guard
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB"
    assert len((tmp_path / "s.json.partial").read_text().splitlines()) == 20 and not (tmp_path / "s.json").exists()


def test_a_streamed_sweep_report_is_the_same_bytes_as_one_rendered_whole(tmp_path):
    """The text and JSON reports written from disk as records stream are the bytes of the reports rendered from
    every record at once (and the records are not held)."""
    from solver.run.sweep import SweepRun, prepare
    from solver.run.sweep.formats import json_text, text

    held = SweepRun(paths=[], sweep=prepare(TEMPLATE, []), format="jsonl", quiet=True, progress=False)
    held.execute()
    for fmt, render in (("text", text), ("json", json_text)):
        run = SweepRun(paths=[], sweep=prepare(TEMPLATE, []), format=fmt, output=tmp_path / f"s.{fmt}",
                       progress=False)
        run.execute()
        assert run.records == []
        assert (tmp_path / f"s.{fmt}").read_text(encoding="utf-8") == render(held.sweep.info, held.records)


def test_sweep_outputs_are_unchanged_but_for_the_hash(tmp_path):
    """A guard: the example sweep's jsonl still gives the README's results, each combination its own hash (of the
    template, the card files hashed once, and its slots)."""
    res = RUNNER.invoke(app, ["sweep", str(TEMPLATE), "-f", "jsonl"])
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(lines) == 21 and len({r["hash"] for r in lines}) == 21
    assert sum(r["result"] == "pass" for r in lines) == 18


# -- 7: --resume under other options -------------------------------------------------------------------------------------
@pytest.mark.parametrize("first, then, rechecked", [
    (["--timeout", "0.000001"], [], True),            # unknown under a tiny time limit: checked again with more
    ([], ["--why"], True),                            # --why asks for cores the records lack
    (["--why"], [], True),                            # and without it a fresh run shows none
    (["--max-outcomes", "1"], [], True),
    ([], ["--timeout", "20"], False),                 # a decided result under a larger time limit is the same
    ([], [], False),
])
def test_resume_rechecks_what_other_options_change(tmp_path, monkeypatch, first, then, rechecked):
    """The journal records the options that change results; --resume reuses a record only when a fresh run under
    the new options would give the same."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "a.yaml").write_text(PASS.format(n=1), encoding="utf-8")
    out = tmp_path / "r.jsonl"
    RUNNER.invoke(app, ["check", str(lib), "-f", "jsonl", "-o", str(out), *first])
    import solver.run.batch.jobs as jobs

    calls = []
    real = jobs._check
    monkeypatch.setattr(jobs, "_check", lambda job, opts: calls.append(job["path"]) or real(job, opts))
    res = RUNNER.invoke(app, ["check", str(lib), "-f", "jsonl", "-o", str(out), "--resume", *then])
    assert bool(calls) == rechecked, (calls, res.output)
    rec = json.loads(out.read_text().splitlines()[0])
    assert rec["status"] == "pass"
    assert ("options" in rec) == bool(then if rechecked else first)


# -- 8, 9: one library shared by many scenarios, one file under two spellings -----------------------------------------------
def test_jobs_share_one_copy_of_a_library_and_ship_it_by_digest(tmp_path):
    """Forty scenarios of one library: one bytes object among all their jobs, and each job's payload names the card
    files by content digest (a worker gets the bytes once)."""
    from solver.run.batch import collect
    from solver.run.batch.jobs import BLOBS

    path = project(tmp_path)
    for n in range(40):
        (path.parent / f"s{n}.yaml").write_text(path.read_text().replace("id: t", f"id: s{n}"), encoding="utf-8")
    jobs = collect([path.parent])
    assert len(jobs) == 41 and len({id(raw) for j in jobs for _, raw in j.cards}) == 1
    payloads = [j.payload() for j in jobs]
    digests = {d for p in payloads for _, d in p["cards"]}
    assert len(digests) == 1 and all(isinstance(d, str) and d.startswith("sha256:") for d in digests)
    assert BLOBS[digests.pop()] == jobs[0].cards[0][1]
    res = RUNNER.invoke(app, ["check", str(path.parent), "--jobs", "2"])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("spelling", ["absolute --cards", "linked file", "linked folder"])
def test_one_card_file_under_two_spellings_is_one_file(tmp_path, spelling):
    """The scenario's own library and the same file under another spelling: not 'defined twice'."""
    path = project(tmp_path)
    text = path.read_text()
    args = ["check", str(path)]
    if spelling == "absolute --cards":
        path.write_text(text.replace("objects:", "cards: [../cards/berserk/set.yaml]\nobjects:"), encoding="utf-8")
        args += ["--cards", str((tmp_path / "cards" / "berserk").resolve())]
    elif spelling == "linked file":
        (tmp_path / "alias.yaml").symlink_to(tmp_path / "cards" / "berserk" / "set.yaml")
        path.write_text(text.replace("objects:", "cards: [../cards/berserk, ../alias.yaml]\nobjects:"), encoding="utf-8")
    else:
        (tmp_path / "alias").symlink_to(tmp_path / "cards" / "berserk")
        path.write_text(text.replace("objects:", "cards: [../cards/berserk, ../alias]\nobjects:"), encoding="utf-8")
    res = RUNNER.invoke(app, args)
    assert res.exit_code == 0 and "defined twice" not in res.output, res.output


# -- 6: one error hides no other; card files are no scenarios; the multi-game root ---------------------------------------
def test_every_card_file_error_and_the_scenarios_own_are_reported(tmp_path):
    """Two broken card files and a misspelt zone in the scenario: all three errors, each located."""
    path = project(tmp_path)
    lib = tmp_path / "cards" / "berserk"
    (lib / "a.yaml").write_text("game: berserk\ncards:\n  - {id: a, types: [creature], colour: red}\n")
    (lib / "b.yaml").write_text("game: berserk\ncards:\n  - {id: b, types: [creature], abilities: [flyng]}\n")
    path.write_text(path.read_text().replace("zone: play}\nexpect", "zone: plya}\nexpect"), encoding="utf-8")
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 2
    assert "a.yaml:3:40: cards[0]: unknown field 'colour'" in res.output, res.output
    assert "b.yaml:3:44: cards[0].abilities[0]: unknown ability 'flyng'" in res.output
    assert "t.yaml:5:47: objects[0].zone: unknown zone 'plya'" in res.output


def test_card_files_in_a_checked_folder_are_skipped_with_a_note(tmp_path):
    """cards/<game>/ next to the scenarios, checked as one folder: the card files are left out, with a note."""
    path = project(tmp_path)
    res = RUNNER.invoke(app, ["check", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert res.stdout.rstrip().endswith("1 passed, 0 failed, 0 errors, 0 unknown, 1 total")
    assert "note: skipped 1 card file(s)" in res.stderr and "set.yaml" in res.stderr
    assert path.name in res.stdout


def test_the_multi_game_root_is_accepted_as_cards(tmp_path):
    """--cards cards/ (the folder holding cards/<game>/): each scenario takes its game's folder."""
    path = project(tmp_path)
    (tmp_path / "cards" / "mtg").mkdir()
    (tmp_path / "cards" / "mtg" / "x.yaml").write_text("game: mtg\ncards: [{id: bear, types: [creature]}]\n")
    res = RUNNER.invoke(app, ["check", str(path), "--cards", str(tmp_path / "cards")])
    assert res.exit_code == 0, res.output


# -- 11: terminal escapes --------------------------------------------------------------------------------------------------
EVIL = "e\x1b]0;owned\x07\u202eyaml"


def _raw_controls(text: str) -> list[str]:
    return re.findall("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)


def test_explain_escapes_terminal_controls(tmp_path):
    """explain shows what a file holds with escapes, as check does (an OSC title, BEL, a bidi override)."""
    path = tmp_path / "x.yaml"
    path.write_text(PASS.format(n=1).replace("id: pass-1", f'id: pass-1\ntitle: "{EVIL}"'.replace("\x1b", "\\e")
                                             .replace("\x07", "\\a").replace("\u202e", "\\u202e")), encoding="utf-8")
    res = RUNNER.invoke(app, ["explain", str(path)])
    assert res.exit_code == 0 and "\\x1b]0;owned\\x07\\u202e" in res.output, res.output
    assert not _raw_controls(res.output)


def test_cannot_sweep_errors_escape_terminal_controls(tmp_path):
    """A template whose errors quote a slot full of escapes: the usage error shows them escaped."""
    (tmp_path / "pyproject.toml").write_text("")
    path = tmp_path / "t.yaml"
    path.write_text('id: t\ngame: berserk\nplayers: [{id: a}]\nobjects:\n  - {id: o, card: "$\\e]0;x\\a\\u202e"}\n',
                    encoding="utf-8")
    res = RUNNER.invoke(app, ["sweep", str(path)])
    assert res.exit_code == 2 and "cannot sweep" in res.output and "\\x1b]0;x\\x07\\u202e" in res.output, res.output
    assert not _raw_controls(res.output)


def test_rules_where_escapes_file_names(tmp_path):
    """rules --where lists scenario files by name: a name with escapes is shown escaped."""
    d = tmp_path / "lib"
    d.mkdir()
    (d / f"{EVIL}.yaml").write_text(PASS.format(n=1).replace("players:", "rules: [core.control]\nplayers:"))
    res = RUNNER.invoke(app, ["rules", "core", "--where", str(d)])
    assert res.exit_code == 0 and "\\x1b]0;owned\\x07\\u202e" in res.output, res.output
    assert not _raw_controls(res.output)


# -- 12: memory limits -------------------------------------------------------------------------------------------------------
def test_too_little_memory_is_a_clean_error_never_a_hang():
    """Under an address-space limit too small to check anything: exit 2 with 'out of memory', no traceback, within the
    hang guard."""
    proc = cli("check", "scenarios/berserk", limits={resource.RLIMIT_AS: 150 * 2**20})
    assert proc.returncode == 2, proc.stderr
    assert "out of memory" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def out_of_memory(job: dict, opts) -> dict:
    """A check that runs out of memory (run by a spawned worker in the test below)."""
    raise MemoryError("std::bad_alloc")


def test_a_worker_out_of_memory_is_retried_then_an_error_naming_it(tmp_path):
    """A worker that runs out of memory is replaced and its scenario retried once, then an error result saying so;
    the run goes on (the parent never hangs)."""
    from solver.run.batch import LocalPool, RunOptions, collect, in_order

    (tmp_path / "a.yaml").write_text(PASS.format(n=1), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(PASS.format(n=2), encoding="utf-8")
    pool = LocalPool(collect([tmp_path]), RunOptions(timeout=5), 2, out_of_memory, chunk=1, grace=1)
    recs = list(in_order(pool.run()))
    assert [r["status"] for r in recs] == ["error", "error"]
    assert all("ran out of memory twice" in r["error"] for r in recs), recs


def test_under_a_memory_limit_checks_run_in_a_worker(monkeypatch):
    """With ulimit -v set, even --jobs 1 checks in a spawned worker (where an abort cannot take the run down)."""
    import solver.run.batch as batch

    monkeypatch.setattr(batch, "run_local", lambda *a, **k: "spawned")
    assert batch.run([object()], batch.RunOptions(), 1) != "spawned"
    monkeypatch.setattr(batch, "memory_limited", lambda: True)
    assert batch.run([object()], batch.RunOptions(), 1) == "spawned"


# -- 13: errors located where they are ---------------------------------------------------------------------------------------
def test_a_granted_effect_error_is_located_at_the_card_reference_and_names_the_cards_effect(tmp_path):
    """A granted effect whose id is too long: at the object's `card:` (line 5), naming the card's effect and where it
    is defined; never at the scenario's id (1:5)."""
    long_id = "e" * 63
    path = project(tmp_path, "id: t\ngame: berserk\nplayers: [{id: alice}, {id: bob}]\nobjects:\n  - {id: k, card: "
                             "long, owner: alice, zone: play, timestamp: 1}\n")
    (tmp_path / "cards" / "berserk" / "set.yaml").write_text(
        f"game: berserk\ncards:\n  - id: long\n    types: [creature]\n    effects:\n      - {{id: {long_id}, kind: "
        f"prohibit, action: accumulate_tokens, targets: self}}\n", encoding="utf-8")
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 2
    assert "t.yaml:5:19: effects[0].id: String should have at most 64 characters" in res.output, res.output
    assert f"effect '{long_id}' of card 'long', defined at" in res.output and "set.yaml:6:9" in res.output
    assert "t.yaml:1:5" not in res.output


def test_github_annotations_of_a_card_file_error_point_at_the_card_file(tmp_path):
    """-f github: an error in a card file is annotated at that file and line."""
    path = project(tmp_path)
    (tmp_path / "cards" / "berserk" / "set.yaml").write_text(CARDS.replace("life: 5}", "life: 5}, colour: red}")
                                                             .replace("}}", "}"), encoding="utf-8")
    res = RUNNER.invoke(app, ["check", str(path), "-f", "github"])
    line = next(x for x in res.stdout.splitlines() if "colour" in x)
    assert re.match(r"::error file=[^,]*cards/berserk/set\.yaml,line=3,", line), line
