"""Hostile input: every malformed file of the corpus gives one clear error with file and line, a non-zero
exit, no traceback, within a second of CPU; YAML tags never build Python objects; size limits hold.

The corpus is written by ``tests/hostile/make_corpus.py`` (kept next to it) and committed; the manifest
says which line each error must point at.
"""
from __future__ import annotations

import json
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


@pytest.fixture(scope="module")
def corpus_records() -> list[dict]:
    """The result record of every corpus file (each an error), as a batch run makes them."""
    from solver.run.batch import RunOptions, check_job, collect

    return [check_job(j.payload(), RunOptions()) for j in collect([CORPUS])]


def test_every_corpus_file_is_refused_never_an_internal_error(corpus_records) -> None:
    """Each hostile file is refused as input (or as a mechanic not modelled), never reported as a bug."""
    kinds = {Path(r["path"]).name: r.get("error_kind") for r in corpus_records}
    assert {k for k in kinds.values()} <= {"input", "not_modelled"}, kinds


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "junit", "github"])
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
