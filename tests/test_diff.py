"""``arbiter diff``: what an errata or a ruleset change breaks, re-decided under both versions.

An errata that changes only the wording of three library cards flips nothing ("no behavioural change"); Joker no
longer prohibiting accumulation flips exactly the scenarios that use Joker, each flip with the changed card line
and the rules deciding the verdict before and after; a rule switched off, or a ruleset option changed, flips the
scenarios whose verdicts that rule or option decides. Versions come from folders or git revisions; a template's
combinations are compared like scenarios; refused input exits 2; the HTML view; --resume.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from models.cards import load_library, read_sources
from solver.cli import app
from solver.run.diff.cards import cards_named, changes
from solver.run.report.diff import diff_report
from solver.run.sweep import SweepRun, prepare

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards" / "berserk"
SCENARIOS = Path("scenarios") / "berserk"  # relative to the repository, where every test runs
DUEL = ROOT / "examples" / "sweep" / "duel.yaml"
DUEL_POOL = ROOT / "examples" / "sweep" / "cards" / "berserk"
runner = CliRunner()


def arbiter(*args):
    """Run the CLI in-process."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def edited(tmp_path: Path, source: Path, *replacements: tuple[str, str]) -> Path:
    """A copy of a card folder with each (old, new) text replaced once (each must be there)."""
    folder = tmp_path / "cards" / source.name
    shutil.copytree(source, folder)
    for f in folder.glob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        for old, new in replacements:
            if old in text:
                text = text.replace(old, new, 1)
        f.write_text(text, encoding="utf-8")
    assert all(any(new in f.read_text(encoding="utf-8") for f in folder.glob("*.yaml")) for _, new in replacements)
    return folder


def diff_doc(tmp_path: Path, *args) -> tuple[int, dict]:
    """Run ``arbiter diff ... -f json -o FILE``: the exit code and the document."""
    out = tmp_path / "diff.json"
    res = arbiter("diff", *args, "-f", "json", "-o", out)
    return res.exit_code, json.loads(out.read_text())


def naming(card: str, folder: Path = SCENARIOS) -> set[str]:
    """The library scenarios that place ``card`` (read off their YAML, independently of the diff)."""
    return {str(p) for p in sorted(folder.glob("*.yaml"))
            if card in cards_named(yaml.safe_load(p.read_text(encoding="utf-8")))}


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# -- (a) wording only ------------------------------------------------------------------------------------------------
WORDING = (("(protection from non-magical", "(errata: protection from non-magical"),
           ("text: \"Не может", "text: \"(errata) Не может"),
           ("  - id: archmage\n", "  - id: archmage\n    flavour: \"He remembers the first war.\"\n"))


def test_a_wording_only_errata_of_three_cards_flips_nothing(tmp_path):
    new = edited(tmp_path, CARDS, *WORDING)
    code, doc = diff_doc(tmp_path, SCENARIOS, "--new", new)
    assert code == 0
    assert sorted(c["card"] for c in doc["cards"]) == ["archmage", "joker", "kornevik"]
    assert {c["kind"] for c in doc["cards"]} == {"wording"}
    assert doc["summary"]["flips"] == 0 and doc["summary"]["wording_only"]
    assert doc["summary"]["scenarios"] == len(list(SCENARIOS.glob("*.yaml"))) > 60  # every scenario re-decided
    res = arbiter("diff", SCENARIOS, "--new", new)
    assert res.exit_code == 0 and "no behavioural change" in res.stdout


@pytest.mark.parametrize("game, field, kind", [("berserk", "name", "functional"), ("mtg", "name", "wording"),
                                               ("berserk", "flavour", "wording"), ("berserk", "text", "wording")])
def test_what_counts_as_wording_is_what_no_rule_of_the_game_reads(tmp_path, game, field, kind):
    """Berserk 532.8 matches a card's name ('cannot be taken into a squad with [text]'): there a name is functional."""
    base = {"id": "c", "types": ["creature"]}
    libs = []
    for i, value in enumerate(("one", "two")):
        f = tmp_path / f"v{i}" / "c.yaml"
        f.parent.mkdir()
        f.write_text(yaml.safe_dump({"game": game, "cards": [{**base, field: value}]}), encoding="utf-8")
        libs.append(read_sources([f]))
    old, new = (load_library(tuple(s), game) for s in libs)
    (change,) = changes(old, new, libs[0], libs[1])
    assert (change.kind, change.fields) == (kind, (field,))


# -- (b) a functional change ---------------------------------------------------------------------------------------
JOKER = ("{id: text, kind: prohibit, action: accumulate_tokens, targets: self}",
         "{id: text, kind: prohibit, action: receive_tokens, targets: self}")


@pytest.fixture(scope="module")
def joker(tmp_path_factory) -> tuple[int, dict]:
    """The diff of Joker no longer prohibiting accumulation (only receiving tokens), run once."""
    tmp = tmp_path_factory.mktemp("joker")
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        return diff_doc(tmp, SCENARIOS, "--new", edited(tmp, CARDS, JOKER))
    finally:
        os.chdir(here)


def test_a_functional_change_flips_exactly_the_scenarios_using_the_card(joker):
    code, doc = joker
    assert code == 1
    assert [(c["card"], c["kind"]) for c in doc["cards"]] == [("joker", "functional")]
    assert {e["name"] for e in doc["flips"]} == naming("joker")
    for e in doc["flips"]:
        assert e["changes"] == ["joker"]


def test_each_flip_shows_the_changed_line_and_the_deciding_rules(joker):
    _, doc = joker
    (card,) = doc["cards"]
    assert f"-      - {JOKER[0]}" in card["diff"] and f"+      - {JOKER[1]}" in card["diff"]
    (entry,) = doc["flips"]
    by_line = {f["what"]: f for f in entry["flips"]}
    f = by_line["Joker may not accumulate tokens"]
    assert (f["old"]["verdict"], f["old"]["passed"], f["new"]["verdict"], f["new"]["passed"]) == \
        ("holds", True, "impossible", False)
    assert "berserk.524.2" in f["old"]["decided_by"] and "berserk.524.2" not in f["new"]["decided_by"]
    assert f["new"]["decided_by"]  # the rules behind the new verdict too


def test_the_text_report_lists_the_flip_with_the_card_line(tmp_path):
    res = arbiter("diff", SCENARIOS / "524.2-archmage-joker.yaml", "--new", edited(tmp_path, CARDS, JOKER))
    assert res.exit_code == 1
    assert "FLIPPED scenarios/berserk/524.2-archmage-joker.yaml" in res.stdout
    assert f"+      - {JOKER[1]}" in res.stdout and "decided by berserk.524.2" in res.stdout


# -- ruleset changes ------------------------------------------------------------------------------------------------
RULED = [SCENARIOS / f for f in ("524.2-archmage-joker.yaml", "525.2-cannot-prohibitions.yaml",
                                 "525.2-contrast-without-prohibition.yaml", "602.1-concede.yaml")]


def test_switching_a_rule_off_flips_the_scenarios_it_decides(tmp_path):
    code, doc = diff_doc(tmp_path, *RULED, "--rules-off", "berserk.524.2")
    assert code == 1 and doc["ruleset"]["rules_off"] == ["berserk.524.2"]
    flipped = {e["name"] for e in doc["flips"]}
    assert "scenarios/berserk/524.2-archmage-joker.yaml" in flipped
    assert "scenarios/berserk/602.1-concede.yaml" not in flipped
    for e in doc["flips"]:
        olds = [r for f in e["flips"] if f["old"] for r in f["old"]["decided_by"]]
        news = [r for f in e["flips"] if f["new"] for r in f["new"]["decided_by"]]
        assert "berserk.524.2" in olds and "berserk.524.2" not in news


def test_changing_a_ruleset_option_flips_what_it_decides(tmp_path):
    target = SCENARIOS / "602.1-decisive-advantage-refuted-weak-strike.yaml"
    code, doc = diff_doc(tmp_path, target, SCENARIOS / "602.1-concede.yaml", "--option", "victory_horizon=1")
    assert code == 1 and doc["ruleset"]["options"] == {"victory_horizon": 1}
    assert [e["name"] for e in doc["flips"]] == [str(target)]


# -- versions from git ------------------------------------------------------------------------------------------------
def test_git_revisions_are_read_with_git_show(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    shutil.copytree(CARDS, repo / "cards" / "berserk")
    (repo / "scenarios").mkdir()
    shutil.copy(ROOT / SCENARIOS / "524.2-archmage-joker.yaml", repo / "scenarios")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "cards"], check=True)
    f = repo / "cards" / "berserk" / "creatures.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace(*JOKER), encoding="utf-8")
    monkeypatch.chdir(repo)
    code, doc = diff_doc(tmp_path, "scenarios", "--old", "HEAD")
    assert code == 1 and doc["old"] == "HEAD" and [c["card"] for c in doc["cards"]] == ["joker"]
    assert [e["name"] for e in doc["flips"]] == ["scenarios/524.2-archmage-joker.yaml"]
    subprocess.run([*git, "commit", "-qam", "errata"], check=True)
    code, doc = diff_doc(tmp_path, "scenarios", "--old", "HEAD~1", "--new", "HEAD")
    assert code == 1 and [e["name"] for e in doc["flips"]] == ["scenarios/524.2-archmage-joker.yaml"]
    code, doc = diff_doc(tmp_path, "scenarios", "--old", "HEAD", "--new", "HEAD")
    assert code == 0 and doc["cards"] == [] and doc["summary"]["flips"] == 0


# -- templates ----------------------------------------------------------------------------------------------------------
def test_a_templates_flipped_combinations_are_those_whose_sweeps_differ(tmp_path):
    """The Tutor prohibiting instead of permitting: exactly the combinations whose results differ between the
    exhaustive sweeps of the two pools flip."""
    new = edited(tmp_path, DUEL_POOL, ("kind: permit", "kind: prohibit"))
    code, doc = diff_doc(tmp_path, "--template", DUEL, "--new", new)
    results = []
    for pool in (DUEL_POOL, new):
        run = SweepRun(paths=[], sweep=prepare(DUEL, [pool]), format="jsonl", quiet=True, progress=False)
        run.execute()
        results.append({tuple(r["cards"]): r["result"] for r in run.records})
    differ = {c for c in results[0] if results[0][c] != results[1][c]}
    assert code == (1 if differ else 0) and differ
    flipped = {tuple(e["cards"]) for e in doc["flips"]}
    assert {c for c in flipped if any(f["key"] == "result" for e in doc["flips"] if tuple(e["cards"]) == c
                                      for f in e["flips"])} == differ
    assert all("tutor" in c for c in flipped)
    assert all(e["changes"] == ["tutor"] for e in doc["flips"])


# -- refused input, the HTML view, resume -------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (["--rules-off", "berserk.999"], "no such rule"),
    (["--option", "no_such_option=1"], "no game has the option"),
    (["--old", "no-such-revision-or-folder"], "no git revision"),
    ([], "nothing to compare"),
])
def test_refused_input_exits_2(args, message):
    res = runner.invoke(app, ["diff", str(SCENARIOS / "602.1-concede.yaml"), *args])
    assert res.exit_code == 2 and message in res.output


def test_a_version_whose_cards_are_broken_is_refused(tmp_path):
    new = edited(tmp_path, CARDS, ("types: [creature]", "types: [creatur]"))
    res = arbiter("diff", SCENARIOS / "524.2-archmage-joker.yaml", "--new", new)
    assert res.exit_code == 2 and "creatur" in res.output


def test_the_html_view_shows_the_changed_lines_flips_and_rule_texts(tmp_path, joker):
    _, doc = joker
    html = diff_report(doc)
    assert "receive_tokens" in html and "FLIPPED" in html and "background:#dcfce7" in html
    assert "Prohibition" in html or "prohibition" in html  # the text of berserk.524.2
    saved = tmp_path / "d.json"
    saved.write_text(json.dumps(doc))
    res = arbiter("report", "--diff", saved, "-o", tmp_path / "d.html")
    assert res.exit_code == 1 and (tmp_path / "d.html").read_text() == html


def test_resume_reuses_what_an_interrupted_run_kept(tmp_path, monkeypatch):
    """Interrupted after two checks, the journal keeps them; --resume checks only the rest, to the same report."""
    new = edited(tmp_path, CARDS, JOKER)
    out = tmp_path / "d.json"
    args = ["diff", *RULED[:2], "--new", new, "-f", "json", "-o", out]
    assert arbiter(*args).exit_code == 1
    whole = out.read_text()
    out.unlink()
    import solver.run.diff as diff_run

    real, calls = diff_run.diff_job, []

    def interrupted(job, opts):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(job["path"])
        return real(job, opts)
    monkeypatch.setattr(diff_run, "diff_job", interrupted)
    assert arbiter(*args).exit_code == 130 and len(calls) == 2
    monkeypatch.setattr(diff_run, "diff_job", lambda job, opts: calls.append(job["path"]) or real(job, opts))
    assert arbiter(*args, "--resume").exit_code == 1
    assert len(calls) == 6 and out.read_text() == whole  # 2 + 4: both sides of both, then the flipped one with why
