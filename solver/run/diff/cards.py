"""The two versions of a card library a diff compares, and what changed in each card.

A version is where the card files come from: the working tree, files or folders (``--old DIR``: they stand for
every library of their game), or a git revision (``--old REV``: every library file a scenario or template uses,
read at that revision with ``git show``, no checkout; the files its folders hold there, so a file added or
removed counts). A card's *functional content* is its definition without its wording, the fields no rule of its
game reads (``Ruleset.card_wording``; an action's printed ``text``): two definitions with the same functional
content place the same object, so a change to the wording alone changes no verdict.
"""
from __future__ import annotations

import difflib
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.cards import (
    CARD_SUFFIXES, Card, CardLibrary, CardSource, card_files, load_card_file, load_library, read_sources,
)
from models.yamlsafe import LoadError, LoadErrors, display_name
from solver.registry import ruleset_for
from solver.load import capped
from solver.vocabulary.check import library_errors

WORKING = "working tree"


class VersionError(ValueError):
    """A version that cannot be read (no such path, not a git revision, git failing): refused, exit 2."""


def _git(root: Path, *args: str) -> bytes:
    """Run git in ``root``; its stdout (VersionError with git's message when it fails)."""
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise VersionError(f"git {' '.join(args)}: {exc}") from None
    if out.returncode != 0:
        raise VersionError(f"git {' '.join(args)}: {out.stderr.decode('utf-8', 'replace').strip()}")
    return out.stdout


def git_root(start: Path | None = None) -> Path | None:
    """The top folder of the git work tree holding ``start`` (the working folder), or None."""
    try:
        return Path(_git(start or Path.cwd(), "rev-parse", "--show-toplevel").decode().strip())
    except VersionError:
        return None


@dataclass
class Version:
    """One side of a diff: the working tree, files or folders, or a git revision."""

    label: str
    paths: tuple[Path, ...] = ()
    rev: str | None = None
    root: Path | None = None
    _by_game: dict[str, list[CardSource]] | None = None
    _shown: dict[str, bytes | None] = field(default_factory=dict)
    _trees: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, given: str | None) -> "Version":
        """A version from ``--old`` / ``--new``: an existing file or folder, else a git revision; None: the working
        tree. VersionError when it is neither."""
        if given is None:
            return cls(WORKING)
        if os.path.lexists(given):
            return cls(given, paths=(Path(given),))
        root = git_root()
        if root is None:
            raise VersionError(f"'{given}' is no file or folder, and there is no git repository here to read a "
                               "revision from")
        try:
            commit = _git(root, "rev-parse", "--verify", "--quiet", f"{given}^{{commit}}").decode().strip()
        except VersionError:
            raise VersionError(f"'{given}' is no file or folder and no git revision") from None
        return cls(given, rev=commit, root=root)

    # -- the card files standing for a library ----------------------------------------------------------
    def sources(self, game: str, working: list[CardSource]) -> list[CardSource]:
        """The card files of this version standing for ``working`` (a scenario's or pool's library of ``game``)."""
        if self.paths:
            return self._for_game(game) or list(working)
        if self.rev is None:
            return list(working)
        out: dict[str, bytes] = {}
        names = {name for name, _ in working}
        for folder in dict.fromkeys(str(Path(name).parent) for name, _ in working):
            here = {display_name(f) for f in card_files([Path(folder)])}
            if here <= names:  # the library is the folder: the card files it holds at the revision
                for name in self._tree(folder):
                    raw = self._show(name)
                    if raw is not None:
                        out[name] = raw
        for name in names:  # the library's own files (a file named on its own: just it)
            raw = self._show(name)
            if raw is not None:
                out.setdefault(name, raw)
        return sorted(out.items())

    def _for_game(self, game: str) -> list[CardSource]:
        if self._by_game is None:
            self._by_game = {}
            for src in read_sources(list(self.paths)):
                try:
                    g = load_card_file(src).model.game
                except (LoadError, LoadErrors):
                    g = _game_line(src[1])
                self._by_game.setdefault(g or "", []).append(src)
        return self._by_game.get(game, [])

    def _rel(self, name: str) -> str:
        """A file's path in the repository (as ``git show`` wants it)."""
        return Path(os.path.relpath(Path(name).resolve(), self.root)).as_posix()

    def _show(self, name: str) -> bytes | None:
        """A file's bytes at the revision (None: it is not there)."""
        if name not in self._shown:
            rel = self._rel(name)
            if rel.startswith(".."):
                raise VersionError(f"{name} lies outside the git repository {self.root}")
            listed = _git(self.root, "ls-tree", "--name-only", self.rev, "--", rel).decode().strip()
            self._shown[name] = _git(self.root, "show", f"{self.rev}:{rel}") if listed else None
        return self._shown[name]

    def _tree(self, folder: str) -> list[str]:
        """The card files under ``folder`` at the revision, named as the working tree names them."""
        if folder not in self._trees:
            rel = self._rel(folder)
            names = _git(self.root, "ls-tree", "-r", "--name-only", self.rev, "--", rel + "/").decode().splitlines()
            base = Path(folder)
            self._trees[folder] = sorted(str(base / Path(n).relative_to(rel)) if rel != "." else str(base / n)
                                         for n in names if n.endswith(CARD_SUFFIXES))
        return self._trees[folder]


def _game_line(raw: bytes) -> str | None:
    m = re.search(rb"^game:\s*([A-Za-z_]+)", raw, re.M)
    return m.group(1).decode() if m else None


# -- what changed in each card ------------------------------------------------------------------------------
def functional(card: Card, game: str) -> dict:
    """A card's functional content: its definition without the fields no rule of ``game`` reads."""
    wording = set(ruleset_for(game).card_wording)
    d = card.definition.model_dump(mode="json", exclude_none=True, exclude=wording)
    for a in d.get("actions", []):
        a.pop("text", None)
    return d


@dataclass(frozen=True)
class CardChange:
    """One card that differs between the versions: added, removed, wording only, or functional (with the fields)."""

    id: str
    game: str
    kind: str
    fields: tuple[str, ...]
    old_where: str | None
    new_where: str | None
    diff: tuple[str, ...]

    @property
    def behavioural(self) -> bool:
        """Whether it can change a verdict (anything but a wording-only change)."""
        return self.kind != "wording"

    def document(self) -> dict[str, Any]:
        """The change as JSON."""
        return {"card": self.id, "game": self.game, "kind": self.kind, "fields": list(self.fields),
                "old": self.old_where, "new": self.new_where, "diff": list(self.diff)}


def load_checked(sources: list[CardSource], game: str, label: str) -> CardLibrary:
    """A version's library, every card file valid (LoadErrors located in the files, naming the version)."""
    lib = load_library(tuple(sources), game)
    if lib.errors:
        raise capped(list(lib.errors))
    if library_errors(lib):
        raise capped(list(library_errors(lib)))
    return lib


def changes(old: CardLibrary, new: CardLibrary, old_sources: list[CardSource], new_sources: list[CardSource]
            ) -> list[CardChange]:
    """Every card that differs between two libraries of one game, in the new library's order (removed ones last)."""
    game = new.game
    old_text, new_text = dict(old_sources), dict(new_sources)
    out = []
    for cid in list(new.cards) + [c for c in old.cards if c not in new.cards]:
        a, b = old.get(cid), new.get(cid)
        if a is not None and b is not None and a.definition == b.definition:
            continue
        if a is None or b is None:
            kind, fields = ("added" if a is None else "removed"), ()
        else:
            da, db = a.definition.model_dump(mode="json"), b.definition.model_dump(mode="json")
            fields = tuple(k for k in da if da[k] != db.get(k))
            kind = "wording" if functional(a, game) == functional(b, game) else "functional"
        out.append(CardChange(cid, game, kind, fields, a.where if a else None, b.where if b else None,
                              tuple(card_diff(a, b, old_text, new_text, old, new))))
    return out


def definition_lines(card: Card, text: bytes, library: CardLibrary) -> tuple[int, list[str]]:
    """The lines of a card's definition in its file: (first line number, lines), up to the next card's entry."""
    lines = text.decode("utf-8", "replace").splitlines()
    later = sorted(c.line for c in library.cards.values() if c.file == card.file and c.line > card.line)
    end = (later[0] - 1) if later else len(lines)
    block = lines[card.line - 1:end]
    while block and (not block[-1].strip() or block[-1].lstrip().startswith("#")):
        block.pop()
    return card.line, block


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def card_diff(a: Card | None, b: Card | None, old_text: dict, new_text: dict, old: CardLibrary, new: CardLibrary
              ) -> list[str]:
    """A unified diff of one card's definition between the versions, its line numbers those of the files."""
    sa, la = definition_lines(a, old_text[a.file], old) if a else (0, [])
    sb, lb = definition_lines(b, new_text[b.file], new) if b else (0, [])
    out = []
    for line in difflib.unified_diff(la, lb, a.file if a else "/dev/null", b.file if b else "/dev/null",
                                     lineterm="", n=1):
        m = _HUNK.match(line)
        if m:
            line = (f"@@ -{int(m.group(1)) + max(sa - 1, 0)}{m.group(2) or ''} "
                    f"+{int(m.group(3)) + max(sb - 1, 0)}{m.group(4) or ''} @@")
        out.append(line)
    return out


def cards_named(data: Any) -> set[str]:
    """The card ids a scenario names (every ``card:`` that is a string)."""
    out: set[str] = set()

    def walk(v) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "card" and isinstance(x, str) and not x.startswith("$"):
                    out.add(x)
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(data)
    return out
