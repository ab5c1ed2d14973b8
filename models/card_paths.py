"""Where card files may come from: inside the scenario's project or a folder given on the command line, found by
a bounded walk in which every entry is a card file or a located error.

The rule (``README.md``, "Card libraries"):

- a scenario's **project** is the nearest folder up from its file (symbolic links resolved) holding ``.git`` or
  ``pyproject.toml``; with none, the scenario's own folder;
- a ``cards:`` entry is a path relative to the scenario file that must lead, links resolved, inside the project
  or inside a folder given on the command line (``--cards``, ``--pool``); an absolute path, a ``..`` that leaves
  them, or a link pointing out of them is a located error that reads nothing;
- the nearest ``cards/<game>/`` is looked for up the scenario's folders, no further than its project;
- a folder holding ``<game>/`` sub-folders (``cards/``, the multi-game root) stands for its ``<game>/`` folder;
- walking a folder looks at most ``MAX_ENTRIES`` entries and keeps at most ``MAX_FILES`` files of at most
  ``MAX_LIBRARY_BYTES`` in all; a dangling link, a link loop, a fifo, a folder named ``*.yaml``, an entry that
  vanishes while the folder is read: each a located error naming the entry;
- one file reached by two spellings (absolute and relative, or through a link) is one file.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from models.game_events import GAMES
from models.yamlsafe import LoadError, display_name, link_problem, special_kind

#: what marks the top folder of a project
PROJECT_MARKERS = (".git", "pyproject.toml")
#: the folder holding a library, one sub-folder per game: ``cards/<game>/*.yaml``
CARD_DIR = "cards"
CARD_SUFFIXES = (".yaml", ".yml")
#: most card files in one library, most entries looked at while walking its folders, most bytes in all
MAX_FILES = 500
MAX_ENTRIES = 10_000
MAX_LIBRARY_BYTES = 64 * 2**20


def real(path: str | os.PathLike) -> Path:
    """A path with every symbolic link resolved (what two spellings of one file have in common)."""
    return Path(os.path.realpath(path))


def project_root(scenario: Path) -> Path:
    """The project of a scenario file: the nearest folder up from it holding ``.git`` or ``pyproject.toml``, else
    the scenario's own folder (links resolved)."""
    here = real(scenario).parent
    for folder in (here, *here.parents):
        if any(os.path.lexists(folder / m) for m in PROJECT_MARKERS):
            return folder
    return here


def _inside(path: Path, top: Path) -> bool:
    """Whether ``path`` is ``top`` or lies under it (both resolved)."""
    return path == top or top in path.parents


@dataclass(frozen=True)
class Roots:
    """The places card files may lie in: the scenario's project (None for a scenario given as text) and the files
    and folders given on the command line (``--cards``, ``--pool``), all resolved."""

    project: Path | None
    given: tuple[Path, ...] = ()

    @classmethod
    def of(cls, scenario: Path | None, given: Iterable[Path] = ()) -> "Roots":
        """The roots of a scenario file (None: text with no file) and the paths given with it."""
        return cls(project_root(scenario) if scenario is not None else None, tuple(real(p) for p in given))

    def holds(self, path: Path) -> bool:
        """Whether a path, links resolved, lies inside the project or a given file or folder."""
        where = real(path)
        return any(_inside(where, top) for top in (*([self.project] if self.project else []), *self.given))

    def describe(self) -> str:
        """'the project /x/y' (and the given folders), for messages."""
        tops = ([f"the scenario's project {display_name(self.project)}"] if self.project else []) + \
            [display_name(g) for g in self.given]
        return " or ".join(tops) or "no project (a scenario given as text has no folder)"


def entry_error(path: Path, message: str) -> LoadError:
    """A located error about one entry of a card library (its name only, never its content)."""
    return LoadError(display_name(path), None, None, message)


def outside_error(path: Path, item: str, roots: Roots) -> str:
    """Why a card path is refused: where it leads is outside every root."""
    return (f"'{item}' leads outside {roots.describe()}: card files must lie inside it (or under a --cards "
            f"folder); refused without reading it")


def multi_game(folder: Path) -> bool:
    """Whether a folder is a multi-game root (``cards/``): it holds a sub-folder named after a game."""
    return any((folder / g).is_dir() for g in GAMES)


@dataclass
class Found:
    """The card files of a library (each once, by resolved path, in the order found) and the located problems of
    the entries that are not."""

    files: list[Path] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)
    seen: set[Path] = field(default_factory=set)
    looked: int = 0
    full: bool = False


class _Walk:
    """One bounded walk of the paths of a library."""

    def __init__(self, roots: Roots, game: str | None) -> None:
        self.roots, self.game, self.out = roots, game, Found()

    def path(self, p: Path) -> None:
        """A given path: a file, or a folder to walk (a multi-game root: its folder of the game)."""
        problem = link_problem(p)
        if problem is not None:
            self.out.errors.append(entry_error(p, problem))
        elif p.is_dir():
            if self.game is not None and multi_game(p):
                if not (p / self.game).is_dir():
                    have = ", ".join(g for g in GAMES if (p / g).is_dir())
                    self.out.errors.append(entry_error(p, f"holds the card folders of {have}, none of {self.game}"))
                    return
                p = p / self.game
            self.folder(p, frozenset())
        else:
            self.file(p)

    def file(self, p: Path) -> None:
        """One card file (a special file is refused from its status; a second spelling of a file is the same file)."""
        try:
            kind = special_kind(os.stat(p).st_mode)
        except FileNotFoundError:
            self.out.errors.append(entry_error(p, "vanished while its folder was read" if os.path.lexists(p.parent)
                                               and p.parent != p else "no such card file"))
            return
        except OSError as exc:
            self.out.errors.append(entry_error(p, f"cannot read: {exc.strerror or exc}"))
            return
        if kind is not None:
            self.out.errors.append(entry_error(p, f"is {kind}, not a card file; refused without reading it"))
            return
        where = real(p)
        if where in self.out.seen:
            return
        if len(self.out.files) >= MAX_FILES:
            self.full(p, f"more than {MAX_FILES} card files in one library; the rest are not read")
            return
        self.out.seen.add(where)
        self.out.files.append(p)

    def full(self, p: Path, message: str) -> None:
        """The walk's limit is reached: one error, then nothing more."""
        if not self.out.full:
            self.out.errors.append(entry_error(p, message))
        self.out.full = True

    def folder(self, d: Path, above: frozenset) -> None:
        """Every entry of a folder, sorted; ``above`` holds the (device, inode) of the folders containing it."""
        try:
            st = os.stat(d)
            key = (st.st_dev, st.st_ino)
            with os.scandir(d) as it:
                names = sorted(e.name for e in it)
        except FileNotFoundError:
            self.out.errors.append(entry_error(d, "vanished while its folder was read"))
            return
        except OSError as exc:
            self.out.errors.append(entry_error(d, f"cannot list folder: {exc.strerror or exc}"))
            return
        for name in names:
            if self.out.full:
                return
            self.out.looked += 1
            if self.out.looked > MAX_ENTRIES:
                self.full(d, f"more than {MAX_ENTRIES} entries under the library's folders; the rest are not read")
                return
            self.entry(d / name, above | {key})

    def entry(self, p: Path, above: frozenset) -> None:
        """One entry of a walked folder: a card file, a sub-folder to walk, a located error, or (not named like a
        YAML file) nothing."""
        problem = link_problem(p)
        if problem is not None:
            if p.suffix in CARD_SUFFIXES or p.is_symlink():
                self.out.errors.append(entry_error(p, problem))
            return
        if p.is_symlink() and not self.roots.holds(p):
            self.out.errors.append(entry_error(p, f"a symbolic link leading outside {self.roots.describe()}; "
                                                  f"refused without reading it"))
            return
        try:
            st = os.stat(p)
        except FileNotFoundError:
            self.out.errors.append(entry_error(p, "vanished while its folder was read"))
            return
        except OSError as exc:
            self.out.errors.append(entry_error(p, f"cannot read: {exc.strerror or exc}"))
            return
        is_dir = stat.S_ISDIR(st.st_mode)
        if p.suffix in CARD_SUFFIXES:
            if is_dir:
                self.out.errors.append(entry_error(p, "is a folder named like a card file"))
            else:
                self.file(p)
        elif is_dir:
            if (st.st_dev, st.st_ino) in above:
                self.out.errors.append(entry_error(p, "symbolic link loop: it leads back to a folder that "
                                                      "contains it"))
            else:
                self.folder(p, above)


def walk(paths: Sequence[Path], roots: Roots, game: str | None = None) -> Found:
    """The card files of these files and folders, every entry that is not one a located error, bounded."""
    w = _Walk(roots, game)
    for p in paths:
        w.path(Path(p))
    return w.out


def discover(scenario: Path, game: str, roots: Roots) -> list[Path]:
    """The library found from a scenario file: the nearest ``cards/<game>/`` up its folders, no further than its
    project (none: [])."""
    here = real(scenario).parent
    for folder in (here, *here.parents):
        lib = folder / CARD_DIR / game
        if lib.is_dir():
            return [shown(lib)]
        if roots.project is not None and folder == roots.project:
            break
    return []


def shown(path: Path) -> Path:
    """A path as reports name it: relative to the working folder when it lies under it, else absolute."""
    rel = os.path.relpath(path)
    return Path(rel) if not rel.startswith("..") else path
