"""Hostile input: every malformed file of the corpus gives one clear error with file and line, a non-zero
exit, no traceback, within a second of CPU; YAML tags never build Python objects; size limits hold.

The corpus is written by ``tests/hostile/make_corpus.py`` (kept next to it) and committed; the manifest
says which line each error must point at.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from models.loader import load_scenario_text
from models.scenario import LIMITS
from models.yamlsafe import MAX_BYTES, MAX_DEPTH, MAX_NODES, LoadError, LoadErrors
from solver.cli import app
from solver.run.formats import FORMATS

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "hostile" / "corpus"
MANIFEST = json.loads((HERE / "hostile" / "manifest.json").read_text(encoding="utf-8"))
#: a guard against hangs, not a speed limit: speed is the benchmark's job (``arbiter bench``)
HANG_GUARD = 60.0
RUNNER = CliRunner()


def test_corpus_is_large_and_complete() -> None:
    """At least 200 files, and the manifest and the folder list the same files."""
    assert len(MANIFEST) >= 200
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(MANIFEST)


def _check(path: Path) -> tuple[int, str, float]:
    start = time.perf_counter()
    res = RUNNER.invoke(app, ["check", str(path)])
    out = res.output
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        out += f"\nTraceback: {type(res.exception).__name__}: {res.exception}"
    return res.exit_code, out, time.perf_counter() - start


def _assert_located(path: Path, want, out: str) -> None:
    where = re.escape(str(path))
    if want == "file":
        assert re.search(where + r":", out), out
        return
    m = re.search(where + r":(\d+)", out)
    assert m, f"no FILE:LINE in: {out}"
    if want is not None:
        assert int(m.group(1)) in want, f"points at line {m.group(1)}, expected one of {want}: {out}"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_hostile_file_gives_a_located_error(name: str) -> None:
    """Exit 2 (refused), 'FILE:LINE: message' (or 'FILE: message' for a whole-file problem), no traceback, no
    hang."""
    path = CORPUS / name
    code, out, wall = _check(path)
    assert code == 2, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert "ERROR" in out, out
    _assert_located(path, MANIFEST[name], out)
    assert wall < HANG_GUARD, f"{wall:.2f} s"  # hang guard


VOCABULARY = json.loads((HERE / "hostile" / "vocabulary.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_vocabulary_error_names_the_word_and_the_nearest_known(name: str) -> None:
    """Each game's vocabulary errors (misspelt, wrong case, plural, unknown option, unknown field, a field the game
    does not model, the TI4 typos of issue 11) are refused with a message naming the word and the nearest words."""
    code, out, _ = _check(CORPUS / name)
    assert code == 2 and VOCABULARY[name]["message"] in out, out
    assert name.startswith(f"vocab-{VOCABULARY[name]['game']}-")


def test_the_vocabulary_errors_cover_each_game_and_kind() -> None:
    """Every game has misspelt, case, plural, unknown-option, unknown-field and unmodelled files; the TI4 typos of
    the issue are among them."""
    for game in ("berserk", "mtg", "riftbound", "ti4"):
        kinds = {n[len(f"vocab-{game}-"):-len(".yaml")] for n in VOCABULARY if n.startswith(f"vocab-{game}-")}
        assert {"misspelt", "plural", "unknown-option", "unknown-field"} <= kinds, (game, kinds)
        assert any(k.startswith("case") or k.endswith("-case") for k in kinds), (game, kinds)
        assert any(k.startswith("unmodelled") for k in kinds), (game, kinds)
    texts = "".join((CORPUS / n).read_text(encoding="utf-8") for n in VOCABULARY if n.startswith("vocab-ti4-"))
    for typo in ("[Production]", '"Production 7"', "[Infantry]", "[ground_forces]", "player_at_start"):
        assert typo in texts, typo


SUBPROCESS = ["tag-python-object-apply.yaml", "enc-latin1.yaml", "dir-named-like-scenario.yaml",
              "resolve-non-action.yaml"]


@pytest.mark.parametrize("name", SUBPROCESS)
def test_real_command_line(name: str, tmp_path: Path) -> None:
    """A handful through the real ``arbiter`` process: exit 2, located message, no traceback on either stream."""
    path = CORPUS / name
    proc = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", "check", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    _assert_located(path, MANIFEST[name], proc.stdout + proc.stderr)


def test_python_tags_build_nothing(tmp_path: Path) -> None:
    """A python/object tag is refused before anything is constructed: its command never runs."""
    marker = tmp_path / "pwned"
    text = f"id: !!python/object/apply:os.system ['touch {marker}']\ngame: berserk\nplayers: [{{id: a}}]\n"
    with pytest.raises((LoadError, LoadErrors)) as info:
        load_scenario_text(text, "evil.yaml")
    assert "evil.yaml:1:" in str(info.value)
    assert not marker.exists()


def test_directory_in_a_folder_is_reported(tmp_path: Path) -> None:
    """A folder named like a scenario inside a checked folder is an error, never silently skipped."""
    (tmp_path / "lib" / "x.yaml").mkdir(parents=True)
    res = RUNNER.invoke(app, ["check", str(tmp_path / "lib")])
    assert res.exit_code == 2
    assert "is a directory" in res.output


@pytest.mark.parametrize("name, limit", sorted(LIMITS.items()))
def test_size_limits_are_enforced_at_the_limit(name: str, limit: int) -> None:
    """Exactly at the limit loads; one more is refused with a located message."""
    def doc(n: int) -> str:
        """A scenario with ``n`` of the limited items."""
        parts = {"players": "players:\n" + "".join(f"  - {{id: p{i}}}\n" for i in range(n)),
                 "objects": "objects:\n" + "".join(f"  - {{id: o{i}, zone: hand}}\n" for i in range(n)),
                 "effects": "effects:\n" + "".join(f"  - {{id: e{i}, timestamp: 1, kind: grant, ability: fly, "
                                                   f"targets: [p0]}}\n" for i in range(n)),
                 "events": "events:\n" + "  - {type: end_turn}\n" * n,
                 "expectations": "expect:\n" + "  - {unique: true}\n" * n,
                 "cells": f"board: {{cells: [{', '.join(f'c{i}' for i in range(n))}]}}\n",
                 "claims": "claims:\n" + "  - {kind: decisive_advantage, player: p0}\n" * n}
        head = "id: limits\ngame: berserk\n"
        body = parts[name] if name == "players" else "players: [{id: p0}]\n" + parts[name]
        return head + body

    if name in ("objects", "effects"):
        pytest.skip("covered by the corpus files limit-objects-5001 / limit-effects-2001 (large)")
    load_scenario_text(doc(limit), "ok.yaml")
    with pytest.raises(LoadErrors) as info:
        load_scenario_text(doc(limit + 1), "big.yaml")
    assert f"too many {name}" in str(info.value)
    assert re.search(r"big\.yaml:\d+:", str(info.value))


def test_documented_limits_match_the_code() -> None:
    """README's Limits section states the numbers the code enforces."""
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Limits", 1)[1]
    for name, limit in LIMITS.items():
        assert re.search(rf"\|\s*{name}[^|\n]*\|\s*{limit:,}\s*\|", section), name
    for value in (MAX_BYTES, MAX_DEPTH, MAX_NODES):
        assert f"{value:,}" in section, value
    from models.card_paths import MAX_ENTRIES, MAX_FILES, MAX_LIBRARY_BYTES

    assert f"| card files in one library | {MAX_FILES:,} |" in section
    assert f"| entries looked at walking a library's folders | {MAX_ENTRIES:,} |" in section
    assert f"| bytes of one library's card files | {MAX_LIBRARY_BYTES // 2**20} MiB |" in section


@pytest.fixture(scope="module")
def corpus_records() -> list[dict]:
    """The result record of every corpus file (each an error), as a batch run makes them."""
    from solver.run.batch import RunOptions, check_job, collect

    return [check_job(j.payload(), RunOptions()) for j in collect([CORPUS])]


def test_every_corpus_file_is_refused_never_an_internal_error(corpus_records) -> None:
    """Each hostile file is refused as input (or as a mechanic not modelled), never reported as a bug."""
    kinds = {Path(r["path"]).name: r.get("error_kind") for r in corpus_records}
    assert {k for k in kinds.values()} <= {"input", "not_modelled"}, kinds


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_parses_for_the_whole_corpus(corpus_records, fmt: str) -> None:
    """Whatever a hostile file holds (control characters in keys, U+FFFE, bidi overrides), each report format is
    valid UTF-8 and parses with a standard consumer; text and github show no raw control character."""
    import xml.etree.ElementTree as ET

    from solver.run.formats import formatter

    f = formatter(fmt)
    body = "".join(f.item(r) for r in corpus_records) + f.end(corpus_records)
    data = body.encode("utf-8")
    assert len(corpus_records) == len(MANIFEST) and all(r["status"] == "error" for r in corpus_records)
    if fmt == "junit":
        assert ET.fromstring(data).find("testsuite").get("errors") == str(len(MANIFEST))
    elif fmt == "json":
        assert json.loads(body)["summary"]["errors"] == len(MANIFEST)
    elif fmt == "jsonl":
        assert len([json.loads(line) for line in body.splitlines()]) == len(MANIFEST)
    else:
        assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", body)


# -- card libraries: what a scenario's `cards:` may read, and every entry of a card folder (issue 30) -------------------
CARD_CASES = sorted(n for n in MANIFEST if n.startswith("cards-"))
SECRETS = ("root:x:0:0", "root:*:", '"alias-as-key.yaml"')


def test_the_corpus_has_the_card_cases() -> None:
    """The hostile `cards:` entries are in the corpus: absolute paths, `/`, `..` out of the project, no path."""
    assert len(CARD_CASES) >= 20
    for name in ("cards-absolute-etc-passwd.yaml", "cards-root-folder.yaml", "cards-dotdot-out-of-project.yaml",
                 "cards-not-a-card-file.yaml"):
        assert name in CARD_CASES


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "github"])
def test_no_card_case_shows_a_byte_of_what_it_refuses(fmt: str) -> None:
    """Whatever a `cards:` entry names (/etc/passwd, /etc/shadow, `/`, a project file that is no card file), no format
    shows a line of it: it is refused by its name, within the hang guard (`cards: [/]` walks nothing)."""
    start = time.perf_counter()
    res = RUNNER.invoke(app, ["check", "-f", fmt, *[str(CORPUS / n) for n in CARD_CASES]])
    assert res.exit_code == 2 and "Traceback" not in res.output and "internal error" not in res.output
    assert not [s for s in SECRETS if s in res.output], res.output
    assert "refused without reading it" in res.output and "not a card file" in res.output
    assert time.perf_counter() - start < HANG_GUARD  # hang guard


def _project(tmp_path: Path) -> Path:
    """A project (pyproject.toml) with a scenario placing card 'k' from its cards/berserk/ library; the scenario."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    lib = tmp_path / "cards" / "berserk"
    lib.mkdir(parents=True)
    (lib / "set.yaml").write_text("game: berserk\ncards:\n  - {id: k, types: [creature]}\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("id: s\ngame: berserk\nplayers: [{id: a}, {id: b}]\nobjects:\n  - {id: o, card: k, owner: a, "
                    "zone: play}\nexpect:\n  - {object: o, zone: play}\n", encoding="utf-8")
    return path


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _outside_link(p: Path) -> None:
    p.symlink_to("/etc/passwd")


def _outside_folder_link(p: Path) -> None:
    p.symlink_to("/etc")


def _vanishing(p: Path) -> None:
    """A card file that is listed, then gone before it is looked at (the folder changed while walked)."""
    p.write_text("game: berserk\ncards: [{id: z, types: [creature]}]\n", encoding="utf-8")
    real = os.scandir

    class Listing:
        def __init__(self, folder):
            self.it = real(folder)

        def __enter__(self):
            entries = list(self.it.__enter__())
            if p.exists():
                p.unlink()
            return iter(entries)

        def __exit__(self, *exc):
            return self.it.__exit__(*exc)
    os.scandir = Listing


#: an entry of cards/berserk/ -> (how to make it, what its error says)
CARD_FOLDER_CASES = {
    "dangling.yaml": (lambda p: p.symlink_to("nowhere.yaml"), "dangling symbolic link"),
    "loop.yaml": (lambda p: p.symlink_to("loop.yaml"), "symbolic link loop"),
    "pipe.yaml": (_fifo, "is a named pipe, not a card file; refused without reading it"),
    "folder.yaml": (lambda p: p.mkdir(), "is a folder named like a card file"),
    "up": (lambda p: p.symlink_to(".."), "leads back to a folder that contains it"),
    "passwd.yaml": (_outside_link, "a symbolic link leading outside"),
    "etc": (_outside_folder_link, "a symbolic link leading outside"),
    "notes.yaml": (lambda p: p.write_text("secret: root:x:0:0\n", encoding="utf-8"), "not a card file"),
    "gone.yaml": (_vanishing, "vanished while its folder was read"),
}


@pytest.mark.parametrize("entry", sorted(CARD_FOLDER_CASES))
def test_every_card_folder_entry_is_a_card_file_or_a_located_error(tmp_path, monkeypatch, entry) -> None:
    """A card folder's odd entry fails the scenario with its reason, named (never read, never skipped silently, never
    a crash): the scenario passes without it."""
    path = _project(tmp_path)
    assert RUNNER.invoke(app, ["check", str(path)]).exit_code == 0
    make, message = CARD_FOLDER_CASES[entry]
    monkeypatch.setattr(os, "scandir", os.scandir)  # restored after the test (the vanishing case replaces it)
    make(tmp_path / "cards" / "berserk" / entry)
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 2, res.output  # refused input (solver.run.exits)
    assert message in res.output and entry in res.output, res.output
    assert "internal error" not in res.output and "root:x" not in res.output


def test_a_symlinked_sub_folder_inside_the_project_is_followed(tmp_path) -> None:
    """A sub-folder linked from elsewhere in the project is part of the library (its cards are found)."""
    path = _project(tmp_path)
    other = tmp_path / "more"
    other.mkdir()
    (other / "more.yaml").write_text("game: berserk\ncards:\n  - {id: m, types: [creature]}\n", encoding="utf-8")
    (tmp_path / "cards" / "berserk" / "linked").symlink_to(other)
    path.write_text(path.read_text().replace("card: k", "card: m"), encoding="utf-8")
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("limit, make, message", [
    ("MAX_ENTRIES", lambda d: [(d / f"n{i}.txt").write_text("x") for i in range(30)], "more than 20 entries"),
    ("MAX_FILES", lambda d: [(d / f"c{i}.yaml").write_text(f"game: berserk\ncards: [{{id: c{i}, types: [creature]}}]\n")
                             for i in range(30)], "more than 20 card files"),
])
def test_walking_a_card_folder_is_bounded(tmp_path, monkeypatch, limit, make, message) -> None:
    """A library folder is walked at most MAX_ENTRIES entries deep and keeps at most MAX_FILES files: past that, one
    located error (a library is never walked without end)."""
    import models.card_paths as card_paths

    monkeypatch.setattr(card_paths, limit, 20)
    path = _project(tmp_path)
    make(tmp_path / "cards" / "berserk")
    res = RUNNER.invoke(app, ["check", str(path)])
    assert res.exit_code == 2 and message in res.output, res.output


def test_a_library_larger_than_its_byte_limit_is_refused(tmp_path, monkeypatch) -> None:
    """The card files of one library hold at most MAX_LIBRARY_BYTES in all."""
    import models.cards as cards

    monkeypatch.setattr(cards, "MAX_LIBRARY_BYTES", 10)
    res = RUNNER.invoke(app, ["check", str(_project(tmp_path))])
    assert res.exit_code == 2 and "more than 10 bytes in all" in res.output, res.output
