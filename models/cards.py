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
from models.effects import Duration, Effect, EffectKind
from models.game_events import GAMES
from models.yamlsafe import LineMap, LoadError, LoadErrors, display_name, load_yaml_text, read_bytes, validate

#: the folder holding a library, one sub-folder per game: ``cards/<game>/*.yaml``
CARD_DIR = "cards"
CARD_SUFFIXES = (".yaml", ".yml")
#: most cards in one file, and most files in one library
MAX_CARDS = 5000
MAX_FILES = 500
#: a card file, as shipped to a worker: its name as reports show it, and its bytes
CardSource = tuple[str, bytes]


class CardSelector(Strict):
    """Which objects a card's effect applies to, relative to the card; every given criterion must match."""

    types: list[Name] | None = None
    controlled_by: Literal["source_controller", "source_opponent"] | None = Field(
        default=None, description="Only objects the card's controller (or its opponent) controls.")
    zone: Name | None = None
    cell: Literal["source"] | None = Field(default=None, description="Only objects on the card's cell.")


class CardEffect(Strict):
    """A continuous effect a card's text grants; its source is the card, its targets relative to the card."""

    id: Id = Field(description="Its name on the card: object X placed as this card gets the effect X_<id>.")
    kind: EffectKind
    targets: Literal["self", "attached"] | CardSelector = Field(
        default="self", description="self: the card; attached: the object it is attached to; or a selector.")
    attribute: Name | None = None
    value: Value | Name | None = None
    player: Literal["controller"] | None = Field(default=None, description="For control: the card's controller.")
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

    @model_validator(mode="after")
    def _unique(self) -> "CardDef":
        for what, names in (("effect", [e.id for e in self.effects]), ("action kind", [a.kind for a in self.actions])):
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

    @property
    def where(self) -> str:
        """'cards/berserk/creatures.yaml:3:5'."""
        return f"{self.file}:{self.line}:{self.col}"


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

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None."""
        return self.cards.get(card_id)

    def ids(self) -> list[str]:
        """Every card id, in the order the files define them."""
        return list(self.cards)


# -- loading ------------------------------------------------------------------------------------------------
def load_card_file(source: CardSource) -> CardFileData:
    """Parse and validate one card file; raises LoadError / LoadErrors located in it."""
    name, raw = source
    data, linemap = load_yaml_text(raw, name)
    return CardFileData(name, data, linemap, validate(CardFile, data, linemap, name))


@lru_cache(maxsize=32)
def load_library(sources: tuple[CardSource, ...], game: str) -> CardLibrary:
    """The library of these card files for ``game``: every problem of every file together (LoadErrors).

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
            card = Card(c, f.name, *f.linemap.locate(("cards", i)))
            first = cards.get(c.id)
            if first is not None:
                errors.append(LoadError(f.name, card.line, card.col, f"cards[{i}].id: card '{c.id}' is defined "
                                                                      f"twice (first at {first.where})"))
                continue
            cards[c.id] = card
    if errors:
        raise LoadErrors(errors)
    return CardLibrary(game, tuple(files), cards)


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


def card_files(paths: list[Path]) -> list[Path]:
    """The card files of these paths: a file itself, every ``.yaml``/``.yml`` under a folder (sorted)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.suffix in CARD_SUFFIXES and q.is_file())
        else:
            out.append(p)
    return list(dict.fromkeys(out))[:MAX_FILES + 1]


def discover(scenario: Path, game: str) -> list[Path]:
    """The library found from a scenario file: the nearest ``cards/<game>/`` folder up its folders (none: [])."""
    here = scenario.resolve().parent if scenario.name else Path.cwd()
    for folder in (here, *here.parents):
        lib = folder / CARD_DIR / game
        if lib.is_dir():
            return [_shown(lib)]
    return []


def _shown(path: Path) -> Path:
    """A path as reports name it: relative to the working folder when it lies under it, else absolute."""
    rel = os.path.relpath(path)
    return Path(rel) if not rel.startswith("..") else path


def read_sources(paths: list[Path]) -> list[CardSource]:
    """The files of these paths as card sources (a file that cannot be read: LoadError naming it)."""
    files = card_files(paths)
    if len(files) > MAX_FILES:
        raise LoadError(display_name(paths[0]), None, None, f"more than {MAX_FILES} card files")
    return [(display_name(f), read_bytes(f, display_name(f))) for f in files]


def library_paths(data: dict, linemap: LineMap | None, file: str, scenario: Path | None,
                  extra: list[Path] = ()) -> list[Path]:
    """Where a scenario's cards are: its ``cards:`` (relative to its file) and ``extra`` (``--cards``), or else the
    nearest ``cards/<game>/`` up its folders. A given path that does not exist is a located error."""
    given = data.get("cards")
    items = given if isinstance(given, list) else []
    base = scenario.resolve().parent if scenario is not None and scenario.name else Path.cwd()
    paths, errors = [], []
    if given is not None and not isinstance(given, list):
        errors.append(_at(file, linemap, ("cards",), "cards: a list of card files or folders, like [../cards/berserk]"))
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item:
            errors.append(_at(file, linemap, ("cards", i), f"cards[{i}]: a card file or folder (a path), not {item!r}"))
            continue
        p = Path(item) if Path(item).is_absolute() else base / item
        if not p.exists():
            errors.append(_at(file, linemap, ("cards", i), f"cards: no such card file or folder: {item}"))
        paths.append(_shown(p))
    if errors:
        raise LoadErrors(errors)
    paths += list(extra)
    if not paths and scenario is not None and isinstance(data.get("game"), str):
        paths = discover(scenario, data["game"])
    return paths


def _at(file: str, linemap: LineMap | None, path: tuple, message: str) -> LoadError:
    """An error at a key path of the scenario (its line and column when there is a line map)."""
    return LoadError(file, *(linemap.locate(path) if linemap else (None, None)), message)


def sources_for(data: dict, linemap: LineMap | None, file: str, scenario: Path | None,
                extra: list[Path] = ()) -> list[CardSource]:
    """The card files a scenario uses, read (see ``library_paths``)."""
    return read_sources(library_paths(data, linemap, file, scenario, extra))


def scenario_path(file: str) -> Path | None:
    """The file a scenario name stands for, when it names one ('<string>', '<memory>' name none)."""
    return None if not file or file.startswith("<") else Path(file)
