"""Tests for models.yamlsafe: safe YAML loading, positions and located validation errors."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Literal, Union

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import models.yamlsafe as yamlsafe
from models.yamlsafe import (
    MAX_NODES,
    LineMap,
    LoadError,
    LoadErrors,
    format_validation_error,
    load_yaml_file,
    load_yaml_text,
    validate,
)

VALID = """\
# a comment
name: demo
on: 1
flags: [no, yes, off, true, FALSE, null, ~]
numbers: [12, -3, 0x1f, 0o17, 1.5, 1e3, 1_000, "7"]
events:
  - player: alice
    card: 1
  - player: bob
    card: 2
"""

LOL_BOMB = "\n".join(
    [f'lol1: &lol1 [{", ".join(["lol"] * 10)}]']
    + [f"lol{n}: &lol{n} [{', '.join([f'*lol{n - 1}'] * 10)}]" for n in range(2, 10)]
)


@pytest.fixture(params=["libyaml", "pure"], autouse=True)
def parser(request, monkeypatch) -> str:
    """Every test runs with libyaml's C parser and again with the pure-Python fallback (forced)."""
    if request.param == "pure":
        monkeypatch.setattr(yamlsafe, "CParser", None)
    elif yamlsafe.CParser is None:
        pytest.skip("PyYAML is built without libyaml here")
    assert yamlsafe.parser_name() == request.param
    return request.param


def load_error(text: str | bytes) -> LoadError:
    with pytest.raises(LoadError) as info:
        load_yaml_text(text, "game.yaml")
    return info.value


def test_valid_document_roundtrip() -> None:
    data, linemap = load_yaml_text(VALID, "game.yaml")
    assert data == {
        "name": "demo",
        "on": 1,
        "flags": ["no", "yes", "off", True, False, None, None],
        "numbers": [12, -3, 31, 15, 1.5, 1000.0, "1_000", "7"],
        "events": [{"player": "alice", "card": 1}, {"player": "bob", "card": 2}],
    }


@pytest.mark.parametrize(
    ("path", "position"),
    [
        ((), (1, 1)),
        (("name",), (2, 7)),
        (("on",), (3, 5)),
        (("flags", 1), (4, 13)),
        (("events",), (7, 3)),
        (("events", 1), (9, 5)),
        (("events", 1, "card"), (10, 11)),
        (("events", 1, "missing"), (9, 5)),
        (("events", 7, "card"), (7, 3)),
        (("nope", "deeper"), (1, 1)),
    ],
)
def test_linemap_locates_deepest_existing_prefix(path: tuple, position: tuple[int, int]) -> None:
    _, linemap = load_yaml_text(VALID)
    assert linemap.locate(path) == position


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        pytest.param("a: 1\nb: [1, 2\nc: 3\n", 3, "expected ',' or ']'", id="syntax-flow"),
        pytest.param("a: 1\nb: c: d\n", 2, "mapping values are not allowed", id="syntax-mapping"),
        pytest.param("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a'", id="duplicate-key"),
        pytest.param("a: 1\nb: !!python/object:os.system {}\n", 2, "unsupported tag", id="python-tag"),
        pytest.param("a: 1\n\nb: !foo bar\n", 3, "unsupported tag '!foo'", id="custom-tag"),
        pytest.param("a: !!map x\n", 1, "cannot be used on a scalar", id="wrong-kind-tag"),
        pytest.param("a: !!int abc\n", 1, "invalid !!int value", id="bad-explicit-int"),
        pytest.param("a: &x\n  b: *x\n", 2, "recursive alias", id="cyclic-alias"),
        pytest.param("a: *missing\n", 1, "undefined alias", id="undefined-alias"),
        pytest.param("a: 1\n? [x]\n: 2\n", 2, "mapping keys must be scalars", id="complex-key"),
        pytest.param("a:\n  b: \x00\n", 2, "unacceptable character", id="control-char"),
        pytest.param("a: 1\n---\nb: 2\n", 2, "expected a single YAML document", id="multi-doc"),
        pytest.param("- 1\n- 2\n", 1, "top level must be a mapping", id="top-level-list"),
        pytest.param("just text\n", 1, "top level must be a mapping", id="top-level-scalar"),
        pytest.param("a: " + "[" * 1000 + "]" * 1000, 1, "nesting is deeper than 64", id="deep-flow"),
        pytest.param(
            "".join("  " * i + f"k{i}:\n" for i in range(1000)), 65, "nesting is deeper", id="deep-block"
        ),
        pytest.param(b"a: 1\nb: caf\xe9\n", 2, "not valid UTF-8 (byte offset 11)", id="non-utf8"),
    ],
)
def test_load_errors_are_located(text: str | bytes, line: int, fragment: str) -> None:
    error = load_error(text)
    assert error.line == line
    assert fragment in error.message
    assert str(error).startswith(f"game.yaml:{line}:")
    assert "\n" not in str(error) and "Traceback" not in str(error)


@pytest.mark.parametrize("text", ["", "   \n\n", "# only a comment\n", "---\n", b""])
def test_empty_document(text: str | bytes) -> None:
    error = load_error(text)
    assert (error.line, error.message) == (None, "file is empty")
    assert str(error) == "game.yaml: file is empty"


def test_alias_bomb_is_rejected_quickly() -> None:
    start = time.perf_counter()
    error = load_error(LOL_BOMB)
    elapsed = time.perf_counter() - start
    assert f"more than {MAX_NODES} nodes" in error.message
    assert error.line is not None
    assert elapsed < 5, "hang guard only"


def test_small_alias_use_is_allowed() -> None:
    """An aliased value is located where the alias is used, and names its anchor."""
    data, linemap = load_yaml_text("base: &b {hp: 3}\nunits: [*b, *b]\n")
    assert data == {"base": {"hp": 3}, "units": [{"hp": 3}, {"hp": 3}]}
    assert linemap.locate(("units", 1, "hp")) == (2, 13)
    assert ("units", 1, "hp") in linemap and ("units", 1, "mp") not in linemap
    assert linemap.alias_of(("units", 1, "hp")) == ("b", (1, 7))
    assert linemap.alias_of(("base", "hp")) is None


def test_oversized_input_is_rejected_quickly() -> None:
    start = time.perf_counter()
    error = load_error("a: " + "x" * 5_000_001)
    assert time.perf_counter() - start < 5, "hang guard only"
    assert error.line is None and "larger than" in error.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("on: 1\n", {"on": 1}),
        ("answer: no\n", {"answer": "no"}),
        ("a: yes\nb: off\nc: y\n", {"a": "yes", "b": "off", "c": "y"}),
        ("t: 1:20\n", {"t": "1:20"}),
        ("d: 2024-01-01\n", {"d": "2024-01-01"}),
        ("n: 012\n", {"n": 12}),
        ("f: [.inf, -.Inf]\n", {"f": [float("inf"), float("-inf")]}),
        ("1: one\ntrue: t\n", {"1": "one", "true": "t"}),
        ("<<: {a: 1}\n", {"<<": {"a": 1}}),
        ("s: !!str 12\n", {"s": "12"}),
        (b"\xef\xbb\xbfa: caf\xc3\xa9\n", {"a": "caf\u00e9"}),
    ],
)
def test_yaml_12_core_resolution(text: str | bytes, expected: dict) -> None:
    assert load_yaml_text(text)[0] == expected


def test_non_text_input_becomes_load_error() -> None:
    with pytest.raises(LoadError) as info:
        load_yaml_text(12345, "weird.yaml")  # type: ignore[arg-type]
    assert str(info.value).startswith("weird.yaml: ")


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (LoadError("f.yaml", 3, 7, "bad"), "f.yaml:3:7: bad"),
        (LoadError("f.yaml", 3, None, "bad"), "f.yaml:3: bad"),
        (LoadError("f.yaml", None, None, "bad"), "f.yaml: bad"),
        (LoadError("f.yaml", 1, 1, "two\nlines"), "f.yaml:1:1: two lines"),
    ],
)
def test_load_error_str(error: LoadError, text: str) -> None:
    assert str(error) == text


def test_load_file(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(VALID, encoding="utf-8")
    data, linemap = load_yaml_file(path)
    assert data["name"] == "demo"
    assert linemap.locate(("events", 0, "player")) == (7, 13)


def test_load_file_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\n\nb: \xff\n")
    with pytest.raises(LoadError) as info:
        load_yaml_file(path)
    assert str(info.value) == f"{path}:3: file is not valid UTF-8 (byte offset 9)"


@pytest.mark.parametrize(
    ("name", "message"),
    [(".", "is a directory"), ("missing.yaml", "no such file")],
)
def test_load_file_bad_paths(tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / name
    with pytest.raises(LoadError) as info:
        load_yaml_file(path)
    assert (info.value.line, info.value.message) == (None, message)
    assert str(info.value) == f"{path}: {message}"


def test_module_does_not_import_ortools() -> None:
    code = "import sys, models.yamlsafe; assert 'ortools' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: str
    card: int


class Move(BaseModel):
    kind: Literal["move"]
    to: int


class Pass(BaseModel):
    kind: Literal["pass"]


class Game(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    events: list[Event]
    actions: list[Annotated[Union[Move, Pass], Field(discriminator="kind")]] = []


GAME = """\
name: demo
events:
  - player: alice
    card: 1
  - player: bob
    card: 2
  - player: carol
    card: 3
actions:
  - kind: move
    to: 4
  - kind: pass
"""


def game_errors(old: str, new: str) -> list[str]:
    text = GAME.replace(old, new, 1)
    data, linemap = load_yaml_text(text, "game.yaml")
    with pytest.raises(LoadErrors) as info:
        validate(Game, data, linemap, "game.yaml")
    return str(info.value).splitlines()


def test_validate_returns_model() -> None:
    data, linemap = load_yaml_text(GAME, "game.yaml")
    game = validate(Game, data, linemap, "game.yaml")
    assert game.events[2].player == "carol" and isinstance(game.actions[1], Pass)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(
            "card: 3",
            "card: three",
            "game.yaml:8:11: events[2].card: Input should be a valid integer, unable to parse string as an integer",
            id="wrong-type",
        ),
        pytest.param(
            "player: bob\n    card: 2\n",
            "player: bob\n",
            "game.yaml:5:5: events[1]: missing required field 'card'",
            id="missing-field",
        ),
        pytest.param(
            "card: 1\n",
            "card: 1\n    colour: red\n",
            "game.yaml:5:13: events[0]: unknown field 'colour'",
            id="extra-field",
        ),
        pytest.param(
            "name: demo\n",
            "",
            "game.yaml:1:1: missing required field 'name'",
            id="missing-top-level",
        ),
        pytest.param(
            "to: 4",
            "to: far",
            "game.yaml:11:9: actions[0].to: Input should be a valid integer, unable to parse string as an integer",
            id="union-member-artefact-skipped",
        ),
        pytest.param(
            "kind: pass",
            "kind: jump",
            "game.yaml:12:11: actions[1].kind: unknown value 'jump'; allowed values: 'move', 'pass'",
            id="union-tag-invalid",
        ),
    ],
)
def test_validation_errors_are_located(old: str, new: str, expected: str) -> None:
    assert game_errors(old, new) == [expected]


def test_validation_errors_sorted_by_line() -> None:
    text = GAME.replace("card: 3", "card: x").replace("name: demo", "name: [1]")
    data, linemap = load_yaml_text(text, "game.yaml")
    with pytest.raises(LoadErrors) as info:
        validate(Game, data, linemap, "game.yaml")
    assert [error.line for error in info.value.errors] == [1, 8]


def test_format_validation_error_returns_one_error_per_problem() -> None:
    data, linemap = load_yaml_text(GAME.replace("card: 1", "card: a").replace("card: 2", "card: b"))
    with pytest.raises(ValidationError) as info:
        Game.model_validate(data)
    errors = format_validation_error(info.value, linemap, "game.yaml")
    assert [(error.line, error.col) for error in errors] == [(4, 11), (6, 11)]
    assert all(isinstance(error, LoadError) for error in errors)


def test_linemap_membership() -> None:
    linemap = LineMap({("a",): (1, 4)})
    assert ("a",) in linemap and ("b",) not in linemap


# -- issue 15 (YAML) and 17: one loader on two parsers, aliases located where used, strict Booleans ------
ROOT = Path(__file__).resolve().parents[1]
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))


def both_parsers(text: str | bytes, monkeypatch) -> list[tuple]:
    """(data, positions, aliases) from libyaml's parser and from the pure-Python one."""
    out = []
    for c_parser in (yamlsafe.CParser, None):
        monkeypatch.setattr(yamlsafe, "CParser", c_parser)
        data, linemap = load_yaml_text(text, "f.yaml")
        out.append((data, linemap.positions(), linemap._aliases))
    return out


@pytest.mark.parametrize("parser", ["libyaml"], indirect=True)  # compares both parsers itself, once
@pytest.mark.parametrize("path", LIBRARY[::4], ids=lambda p: p.name)
def test_both_parsers_give_the_same_data_and_positions(path: Path, parser: str, monkeypatch) -> None:
    """The C parser's marks equal the pure parser's, value by value, on library scenarios."""
    c_result, pure_result = both_parsers(path.read_bytes(), monkeypatch)
    assert c_result == pure_result


@pytest.mark.parametrize("text, position", [
    ("name: caf\u00e9 \x07\n", (1, 12)),
    ("a: \u00e9\u00e9\n\u00e9: [1, 2\nb: 3\n", (3, 2)),
    ("\u00e9: 1\n\u00e9: 2\n", (2, 1)),
])
def test_positions_count_characters_after_non_ascii(text: str, position: tuple[int, int]) -> None:
    """Columns count characters, not UTF-8 bytes, with either parser (libyaml reports byte offsets for some errors)."""
    error = load_error(text)
    assert (error.line, error.col) == position


def test_error_inside_an_aliased_value_is_located_at_the_alias() -> None:
    """A validation error inside a value reused through *name: at the alias, naming the anchor (not at the anchor)."""
    aliased = GAME.replace("events:\n", "events:\n  - &e {player: zed, card: nine}\n").replace(
        "  - player: carol\n    card: 3\n", "  - *e\n")
    data, linemap = load_yaml_text(aliased, "game.yaml")
    with pytest.raises(LoadErrors) as info:
        validate(Game, data, linemap, "game.yaml")
    lines = str(info.value).splitlines()
    assert lines[0].startswith("game.yaml:3:") and "alias" not in lines[0]  # the anchor's own error, at the anchor
    assert lines[1].startswith("game.yaml:8:5: events[3].card:")  # the alias's, where *e is used
    assert lines[1].endswith("(value of alias *e; anchor &e at line 3:5)")


@pytest.mark.parametrize("value", ["yes", "'on'", "1", "'true'", "no", "0"])
def test_booleans_are_strict(value: str) -> None:
    """Like numbers: a Boolean field takes true/false only ('on', yes, 1, 'true' are refused, located)."""
    from models.loader import load_scenario_text

    text = f"id: b\ngame: berserk\nplayers: [{{id: a}}]\nexpect:\n  - {{unique: {value}}}\n"
    with pytest.raises(LoadErrors) as info:
        load_scenario_text(text, "b.yaml")
    assert str(info.value).startswith("b.yaml:5:14: expect[0].unique: must be true or false")
    load_scenario_text(text.replace(value, "true"), "b.yaml")
