"""Card libraries: each game's cards defined once, in YAML files, validated like scenarios.

A card file names its game and defines cards::

    game: berserk
    cards:
      - id: kornevik
        name: Корневик
        text: "Protection from non-magical attacks of strength 3 or more."
        types: [creature]
        attributes: {life: 4, protection_nonmagical: 3}
        properties: {strike: "1-2-3"}

A definition gives what a scenario object would (types, attributes, properties, abilities, flags,
the action a card on the stack does), the continuous effects its text grants, written relative to
the card (``targets: self``, ``attached``, or a selector; ``player: controller`` for "you"), and
the action kinds its text lets it declare with their parameters (``finishing_blow`` with ``x: 2``).
Where a scenario finds its library (its ``cards:``, ``--cards``, else the nearest ``cards/<game>/``
up its folders) is here; placing cards into a scenario is ``models/card_use.py``.
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from models.base import Id, Name, Strict, Value
from models.effects import Duration, Effect, EffectKind, Trigger, TriggerAt
from models.game_events import GAMES
from models.card_paths import (
    CARD_DIR, CARD_SUFFIXES, MAX_FILES, MAX_LIBRARY_BYTES, Found, Roots, discover, outside_error, real, shown, walk,
)
from models.yamlsafe import LineMap, LoadError, LoadErrors, display_name, load_yaml_text, read_bytes, validate

__all__ = ["CARD_DIR", "CARD_SUFFIXES", "MAX_CARDS", "MAX_FILES", "Card", "CardFile", "CardLibrary", "CardSource",
           "card_files", "find_sources", "is_card_file", "library_paths", "load_card_file", "load_library",
           "read_sources", "sources_for", "uses_cards"]

#: most cards in one file
MAX_CARDS = 5000
#: a card file, as shipped to a worker: its name as reports show it, and its bytes
CardSource = tuple[str, bytes]


class CardSelector(Strict):
    """Which objects a card's effect applies to, relative to the card; every given criterion must match."""

    types: list[Name] | None = None
    controlled_by: Literal["source_controller", "source_opponent"] | None = Field(
        default=None, description="Only objects the card's controller (or its opponent) controls.")
    zone: Name | None = None
    cell: Literal["source", "adjacent"] | None = Field(default=None, description=(
        "Only objects on the card's cell (source), or on a cell next to it (adjacent)."))
    other: bool = Field(default=False, description="Every object but the card itself ('all other heroes').")


class CardEffect(Strict):
    """A continuous effect a card's text grants; its source is the card, its targets relative to the card."""

    id: Id = Field(description="Its name on the card: object X placed as this card gets the effect X_<id>.")
    kind: EffectKind
    targets: Literal["self", "attached"] | CardSelector = Field(
        default="self", description="self: the card; attached: the object it is attached to; or a selector.")
    attribute: Name | None = None
    value: Value | Name | None = None
    player: Literal["controller"] | None = Field(default=None, description="For control: the card's controller "
                                                 "('you'): for a static ability whoever controls the card at each "
                                                 "moment (source_controller), otherwise its controller when placed.")
    action: Name | None = None
    ability: Name | None = None
    duration: Duration = Field(default="static", description="Default static: active while the card is in play.")
    until_player: Literal["controller"] | None = None
    active: bool = True

    @model_validator(mode="after")
    def _as_an_effect(self) -> "CardEffect":
        """The fields its kind needs, checked by the scenario's own effect model (with a stand-in source)."""
        targets = self.targets.model_dump(exclude_none=True) if isinstance(self.targets, CardSelector) else ["card"]
        Effect.model_validate({
            "id": self.id, "source": "card", "timestamp": 0, "kind": self.kind, "targets": targets,
            **{k: v for k, v in (("attribute", self.attribute), ("value", self.value), ("action", self.action),
                                 ("ability", self.ability)) if v is not None},
            **({"player": "p"} if self.player else {}), "duration": self.duration,
            **({"until_player": "p"} if self.until_player else {}),
        })
        return self


class CardTrigger(Strict):
    """A triggered effect a card's text has ("at the start of your turn, heal 1 life of an adjacent creature of yours"):
    its source is the card, its targets relative to the card."""

    id: Id
    at: TriggerAt
    whose: Literal["controller"] = "controller"
    kind: Literal["add"] = "add"
    attribute: Name
    value: int = Field(ge=-1000, le=1000)
    targets: CardSelector
    choose: Literal["one"] = "one"

    @model_validator(mode="after")
    def _as_a_trigger(self) -> "CardTrigger":
        """Checked by the scenario's own trigger model."""
        Trigger.model_validate(self.model_dump(exclude_none=True))
        return self


class CardAction(Strict):
    """An action kind the card's text lets it declare, with its parameters ("finishing blow 2")."""

    kind: Name
    params: dict[Name, Value | Name] = Field(default_factory=dict)
    text: str | None = Field(default=None, max_length=1000, description="The ability as printed.")


class CardStackAction(Strict):
    """What a card on the stack does when it resolves (a spell): its kind and parameters."""

    kind: Name
    params: dict[Name, Value | Name] = Field(default_factory=dict)


class CardDef(Strict):
    """One card: everything a scenario object placed as it gets."""

    id: Id
    name: str | None = Field(default=None, max_length=200)
    text: str | None = Field(default=None, max_length=2000, description="The card's text, as printed (for reports).")
    flavour: str | None = Field(default=None, max_length=2000, description="Flavour text, as printed (no rule reads "
                                                                           "it).")
    types: list[Name] = Field(default_factory=list)
    attributes: dict[Name, Value] = Field(default_factory=dict)
    properties: dict[Name, Name] = Field(default_factory=dict)
    abilities: list[Name] = Field(default_factory=list)
    flags: dict[Name, bool] = Field(default_factory=dict)
    action: CardStackAction | None = None
    effects: list[CardEffect] = Field(default_factory=list, max_length=50)
    actions: list[CardAction] = Field(default_factory=list, max_length=50)
    triggers: list[CardTrigger] = Field(default_factory=list, max_length=20)

    @model_validator(mode="after")
    def _unique(self) -> "CardDef":
        for what, names in (("effect", [e.id for e in self.effects]), ("action kind", [a.kind for a in self.actions]),
                            ("trigger", [t.id for t in self.triggers])):
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"card {self.id}: {what} '{twice[0]}' is defined twice")
        return self


class CardFile(Strict):
    """A card file: its game and its cards."""

    game: Literal[GAMES]  # type: ignore[valid-type]
    cards: list[CardDef] = Field(min_length=1, max_length=MAX_CARDS)


@dataclass(frozen=True)
class Card:
    """A card of a library, with where it is defined."""

    definition: CardDef
    file: str
    line: int
    col: int
    #: where each of its effects is defined (line, col), in order
    effects_at: tuple[tuple[int, int], ...] = ()

    @property
    def where(self) -> str:
        """'cards/berserk/creatures.yaml:3:5'."""
        return f"{self.file}:{self.line}:{self.col}"

    def effect_where(self, j: int) -> str:
        """Where its ``j``-th effect is defined: 'cards/berserk/creatures.yaml:9:9'."""
        line, col = self.effects_at[j] if j < len(self.effects_at) else (self.line, self.col)
        return f"{self.file}:{line}:{col}"


@dataclass(frozen=True, eq=False)
class CardFileData:
    """One loaded card file: its parsed data and line map (for the closed-world check), and its model."""

    name: str
    data: dict
    linemap: LineMap
    model: CardFile


@dataclass(frozen=True, eq=False)
class CardLibrary:
    """The cards a scenario may use, by id, from one or more card files of one game."""

    game: str
    files: tuple[CardFileData, ...]
    cards: dict[str, Card]
    #: the located problems of the files that did not load (their cards are missing from ``cards``)
    errors: tuple[LoadError, ...] = ()
    #: the card files it was loaded from (those that did not load too)
    sources: tuple[CardSource, ...] = ()

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None."""
        return self.cards.get(card_id)

    def ids(self) -> list[str]:
        """Every card id, in the order the files define them."""
        return list(self.cards)


# -- loading ------------------------------------------------------------------------------------------------
#: a top-level ``cards:`` key, and a top-level ``id:`` (which a scenario has and a card file has not)
_CARDS_KEY = re.compile(rb"^cards[ \t]*:", re.M)
_ID_KEY = re.compile(rb"^id[ \t]*:", re.M)
#: why a file that is not a card file is refused (its content is never shown)
NOT_A_CARD_FILE = "not a card file (no top-level `cards:` mapping with its cards); its content is not shown"


def load_card_file(source: CardSource) -> CardFileData:
    """Parse and validate one card file; raises LoadError / LoadErrors located in it. A file that is not a card file
    (no top-level ``cards:``) is refused by its name alone: nothing of its content is shown."""
    name, raw = source
    try:
        data, linemap = load_yaml_text(raw, name)
    except LoadError:
        if not _CARDS_KEY.search(raw):
            raise LoadError(name, None, None, NOT_A_CARD_FILE) from None
        raise
    if not isinstance(data, dict) or "cards" not in data:
        raise LoadError(name, None, None, NOT_A_CARD_FILE)
    return CardFileData(name, data, linemap, validate(CardFile, data, linemap, name))


def is_card_file(raw: bytes) -> bool:
    """Whether a file found among scenarios is a card file: a top-level ``cards:`` of card definitions (mappings)
    and no ``id:`` (a file that does not parse: a top-level ``cards:`` line and no ``id:`` line)."""
    if not _CARDS_KEY.search(raw):
        return False
    try:
        data, _ = load_yaml_text(raw, "<card file?>")
    except LoadError:
        return not _ID_KEY.search(raw)
    items = data.get("cards") if isinstance(data, dict) else None
    return "id" not in data and isinstance(items, list) and any(isinstance(c, dict) for c in items)


@lru_cache(maxsize=32)
def load_library(sources: tuple[CardSource, ...], game: str) -> CardLibrary:
    """The library of these card files for ``game``, with every problem of every file (``errors``): the cards of the
    files that loaded are there, a file that did not load has its located errors.

    A file of another game, and a card id defined twice, are errors naming both places.
    """
    errors: list[LoadError] = []
    files: list[CardFileData] = []
    cards: dict[str, Card] = {}
    for source in sources:
        try:
            f = load_card_file(source)
        except LoadError as exc:
            errors.append(exc)
            continue
        except LoadErrors as exc:
            errors += exc.errors
            continue
        if f.model.game != game:
            errors.append(LoadError(f.name, *f.linemap.locate(("game",)),
                                    f"game: a card file of {f.model.game}, but the scenario is {game}"))
            continue
        files.append(f)
        for i, c in enumerate(f.model.cards):
            card = Card(c, f.name, *f.linemap.locate(("cards", i)),
                        tuple(f.linemap.locate(("cards", i, "effects", j)) for j in range(len(c.effects))))
            first = cards.get(c.id)
            if first is not None:
                errors.append(LoadError(f.name, card.line, card.col, f"cards[{i}].id: card '{c.id}' is defined "
                                                                      f"twice (first at {first.where})"))
                continue
            cards[c.id] = card
    return CardLibrary(game, tuple(files), cards, tuple(errors), sources)


def loaded_library(sources: tuple[CardSource, ...], game: str) -> CardLibrary:
    """``load_library``, raising LoadErrors when a file has a problem (a pool, a template's own library)."""
    library = load_library(sources, game)
    if library.errors:
        raise LoadErrors(library.errors)
    return library


def nearest(word: str, known: list[str]) -> str:
    """'; did you mean 'x'?' with the closest known ids, else '' (no solver import here: a small version of the
    closed-world hint)."""
    near = difflib.get_close_matches(word, known, n=3, cutoff=0.6)
    return "; did you mean " + " or ".join(f"'{x}'" for x in near) + "?" if near else ""


# -- where a scenario's cards come from ----------------------------------------------------------------------
#: a quick look at raw bytes: could the file use a card library (``card: <id>`` or ``cards:``)?
_MENTIONS = re.compile(rb"\bcards\s*:|\bcard\s*:\s*(?!(?:true|false)\b)[\"']?[A-Za-z_$]")


def may_use_cards(raw: bytes) -> bool:
    """Whether a scenario's bytes may reference cards (a cheap test before parsing; false only when it cannot)."""
    return bool(_MENTIONS.search(raw))


def uses_cards(data: Any) -> bool:
    """Whether parsed scenario data references a card (``card: <id>``) or names libraries (``cards:``)."""
    if not isinstance(data, dict):
        return False
    if data.get("cards") is not None:
        return True
    objects = data.get("objects")
    return isinstance(objects, list) and any(isinstance(o, dict) and isinstance(o.get("card"), str) for o in objects)


def card_files(paths: list[Path], roots: Roots | None = None, game: str | None = None) -> list[Path]:
    """The card files of these paths: a file itself, every ``.yaml``/``.yml`` under a folder (sorted), each once;
    bounded (see ``models/card_paths.py``; the entries that are not card files are left out here)."""
    return walk(paths, roots or Roots(None, tuple(real(p) for p in paths)), game).files


#: the bytes of the card files read in this process, by (resolved path, device, inode, size, mtime): one copy of a
#: file however many scenarios use it (at most ``_READ_BYTES`` kept)
_READ: dict[tuple, bytes] = {}
_READ_BYTES = 4 * MAX_LIBRARY_BYTES


def _read_card(path: Path, name: str) -> bytes:
    """The bytes of one card file, the same object for every scenario that uses it while it is unchanged."""
    try:
        st = os.stat(path)
        key = (real(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        return read_bytes(path, name)  # it says what is wrong
    raw = _READ.get(key)
    if raw is None:
        raw = read_bytes(path, name)
        if len(_READ) >= 4 * MAX_FILES or sum(map(len, _READ.values())) + len(raw) > _READ_BYTES:
            _READ.clear()
        _READ[key] = raw
    return raw


def read_found(found: Found) -> tuple[list[CardSource], list[LoadError]]:
    """The files a walk found, read (each once), and the walk's and the reading's located problems; at most
    ``MAX_LIBRARY_BYTES`` in all."""
    sources: list[CardSource] = []
    errors = list(found.errors)
    total = 0
    for f in found.files:
        name = display_name(f)
        try:
            raw = _read_card(f, name)
        except LoadError as exc:
            errors.append(exc)
            continue
        total += len(raw)
        if total > MAX_LIBRARY_BYTES:
            errors.append(LoadError(name, None, None, f"the library's card files hold more than {MAX_LIBRARY_BYTES} "
                                                      f"bytes in all; this one and the rest are not read"))
            break
        sources.append((name, raw))
    return sources, errors


def read_sources(paths: list[Path], roots: Roots | None = None, game: str | None = None) -> list[CardSource]:
    """The card files of these paths (files or folders given on the command line), read; LoadErrors naming every
    entry that is not a card file that can be read."""
    sources, errors = read_found(walk(paths, roots or Roots(None, tuple(real(p) for p in paths)), game))
    if errors:
        raise LoadErrors(errors)
    return sources


def library_paths(data: dict, linemap: LineMap | None, file: str, scenario: Path | None,
                  extra: list[Path] = ()) -> tuple[list[Path], Roots, list[LoadError]]:
    """Where a scenario's cards are: its ``cards:`` (relative to its file, inside its project or a given folder) and
    ``extra`` (``--cards``), or else the nearest ``cards/<game>/`` up its folders (no further than its project); the
    paths, the roots they may lie in, and the located errors of the ``cards:`` entries refused."""
    given = data.get("cards")
    items = given if isinstance(given, list) else []
    roots = Roots.of(scenario if scenario is not None and scenario.name else None, extra)
    base = real(scenario).parent if roots.project is not None else None
    paths: list[Path] = []
    errors: list[LoadError] = []
    if given is not None and not isinstance(given, list):
        errors.append(_at(file, linemap, ("cards",), "cards: a list of card files or folders, like [../cards/berserk]"))
    for i, item in enumerate(items):
        here = ("cards", i)
        if not isinstance(item, str) or not item:
            errors.append(_at(file, linemap, here, f"cards[{i}]: a card file or folder (a path), not {item!r}"))
        elif Path(item).is_absolute() or item.startswith("~"):
            errors.append(_at(file, linemap, here, f"cards[{i}]: '{item}' is an absolute path: give a path relative "
                                                   f"to the scenario file, inside its project; refused without "
                                                   f"reading it"))
        elif base is None:
            errors.append(_at(file, linemap, here, f"cards[{i}]: '{item}' is relative to the scenario's file, and a "
                                                   f"scenario given as text has none: give --cards"))
        elif not roots.holds(base / item):
            errors.append(_at(file, linemap, here, f"cards[{i}]: {outside_error(base / item, item, roots)}"))
        elif not os.path.lexists(base / item):
            errors.append(_at(file, linemap, here, f"cards: no such card file or folder: {item}"))
        else:
            paths.append(shown(base / item))
    paths += list(extra)
    if not paths and not errors and scenario is not None and roots.project is not None \
            and isinstance(data.get("game"), str):
        paths = discover(scenario, data["game"], roots)
    return paths, roots, errors


def _at(file: str, linemap: LineMap | None, path: tuple, message: str) -> LoadError:
    """An error at a key path of the scenario (its line and column when there is a line map)."""
    return LoadError(file, *(linemap.locate(path) if linemap else (None, None)), message)


def find_sources(data: dict, linemap: LineMap | None, file: str, scenario: Path | None,
                 extra: list[Path] = ()) -> tuple[list[CardSource], list[LoadError]]:
    """The card files a scenario uses, read, and every located problem met finding and reading them (see
    ``library_paths``); nothing is raised, so the scenario's own errors can be reported with them."""
    paths, roots, errors = library_paths(data, linemap, file, scenario, extra)
    game = data.get("game") if isinstance(data.get("game"), str) else None
    sources, problems = read_found(walk(paths, roots, game)) if paths else ([], [])
    return sources, errors + problems


def sources_for(data: dict, linemap: LineMap | None, file: str, scenario: Path | None,
                extra: list[Path] = ()) -> list[CardSource]:
    """The card files a scenario uses, read (see ``library_paths``); LoadErrors with every problem."""
    sources, errors = find_sources(data, linemap, file, scenario, extra)
    if errors:
        raise LoadErrors(errors)
    return sources


def scenario_path(file: str) -> Path | None:
    """The file a scenario name stands for, when it names one ('<string>', '<memory>' name none)."""
    return None if not file or file.startswith("<") else Path(file)
