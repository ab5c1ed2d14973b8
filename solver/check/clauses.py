"""Where each rule id is written: its clauses in the encoding and its reading in the reference, by file and line.

A rule id is written at its clause as a string literal (``rm.enforce("berserk.525.1", ...)``), so the places a
rule-id literal appears in the code are its clauses. Found by reading the source (``ast``), importing nothing: a
literal merely bound to a name (``X = "id"``, or listed in a tuple bound to one: ``RULES = ("a", "b")``) or a
docstring does not count.

The encoding of a game is its folder ``solver/games/<game>/`` (but its rule texts, vocabulary, generators and
``reference*.py``) with the core's folder and ``solver/encoding/``; its reference is the ``reference*.py`` files of
both folders with ``solver/reference/``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

SOLVER = Path(__file__).resolve().parent.parent
ROOT = SOLVER.parent
#: files of a game folder that are not its encoding (data, generators, registration)
NOT_ENCODING = frozenset({"__init__.py", "rules.py", "generate.py", "scale.py", "vocabulary.py"})


@dataclass(frozen=True)
class Clauses:
    """Where one rule id is written: ``path:line`` of each clause in the encoding and in the reference."""

    rule: str
    encoding: tuple[str, ...] = field(default=())
    reference: tuple[str, ...] = field(default=())


def encoding_files(game: str) -> list[Path]:
    """The encoding of ``game``: its folder's code (not its data, generators or reference), the core's,
    and ``solver/encoding/``."""
    out: list[Path] = []
    for name in dict.fromkeys(("core", game)):
        out += [p for p in sorted((SOLVER / "games" / name).glob("*.py"))
                if p.name not in NOT_ENCODING and not p.name.startswith("reference")]
    return out + sorted((SOLVER / "encoding").rglob("*.py"))


def reference_files(game: str) -> list[Path]:
    """The reference reading of ``game``: the ``reference*.py`` files of its folder and the core's, and
    ``solver/reference/``."""
    out: list[Path] = []
    for name in dict.fromkeys(("core", game)):
        out += sorted((SOLVER / "games" / name).glob("reference*.py"))
    return out + sorted((SOLVER / "reference").rglob("*.py"))


@lru_cache(maxsize=None)
def _file_literals(path: Path) -> tuple[tuple[str, int], ...]:
    """(literal, line) of every string literal of one file that is neither a docstring nor bound to a name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = {id(c) for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
             for c in ([n.value] if isinstance(n.value, ast.Constant) else
                       n.value.elts if isinstance(n.value, ast.Tuple) else [])}
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    skip = bound | docstrings
    return tuple(sorted((n.value, n.lineno) for n in ast.walk(tree)
                        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip))


def literals(paths: list[Path]) -> dict[str, list[str]]:
    """String literal -> every ``path:line`` (relative to the repository) it is written at in ``paths``, in order."""
    out: dict[str, list[str]] = {}
    for path in paths:
        rel = path.resolve().relative_to(ROOT).as_posix()
        for text, line in _file_literals(path.resolve()):
            out.setdefault(text, []).append(f"{rel}:{line}")
    return out


def clauses(game: str) -> list[Clauses]:
    """Every rule id of ``game`` (its own and the core's), sorted, with where the encoding and the reference write
    it."""
    from solver.check import rulebook

    enc, ref = literals(encoding_files(game)), literals(reference_files(game))
    return [Clauses(rid, tuple(enc.get(rid, ())), tuple(ref.get(rid, ()))) for rid in sorted(rulebook.rules(game))]
