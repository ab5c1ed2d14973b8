"""The kinds of words a scenario may use, and a game's vocabulary: plain data (no encoding, no ortools).

A game declares its words once, in ``solver/games/<game>/vocabulary.py``, as
``VOCABULARY = SHARED.extend(game=..., zones=(...), types=(...), ...)``; the words
every game shares (the core events, player and action statuses, ``be_targeted``,
the zone ``none``) come from ``solver/vocabulary/shared.py``. Adding a word is one
line in the game's module, for example::

    Ability("flying", "only flying or ranged creatures can attack it"),

The closed-world check (``solver/vocabulary/check.py``), the per-game JSON Schema
(``schema.py``) and the per-game reference (``docs.py``, ``docs/games/<game>.md``)
all read these declarations.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace


@dataclass(frozen=True)
class Word:
    """A word with its one-line meaning."""

    name: str
    meaning: str


@dataclass(frozen=True)
class Zone(Word):
    """A zone. ``whose``: None when the players share it; ``"owner"`` when each player has one and an object is in
    its owner's (an MTG graveyard); ``"holder"`` when an object is in the one of the player holding it, its default
    controller (a TI4 hand holding another player's promissory note). ``play``: an object there is in play (its
    static abilities work; the game's ``play_zones``)."""

    whose: str | None = None
    play: bool = False


@dataclass(frozen=True)
class Type(Word):
    """An object type; ``requires``: the types an object of this type must list too (a TI4 space dock is a
    structure: the rules read 'structure')."""

    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class Number(Word):
    """A whole number (attribute, player attribute, parameter, option) within ``lo`` .. ``hi``; ``default``: its value
    when the scenario does not give it, where the game's rules say one (an MTG life total is 20: 103.4)."""

    lo: int = -1_000_000
    hi: int = 1_000_000
    required: bool = False
    default: int | None = None


@dataclass(frozen=True)
class Switch(Word):
    """A true/false value (an option or a parameter)."""

    required: bool = False


@dataclass(frozen=True)
class Text(Word):
    """A text value (property, option, parameter, event field): one of ``values``, or matching ``pattern`` (shown as
    ``example``), or a word of the category ``words`` (``"abilities"``, ``"zones"``, ``"cells"``, ``"names"``: card
    ids, names, types or property values, '+'-separated); with none of them, any id."""

    values: tuple[str, ...] = ()
    pattern: str | None = None
    example: str | None = None
    words: str | None = None
    required: bool = False


@dataclass(frozen=True)
class Ability(Word):
    """An ability. With ``param`` it is written with a whole number ("incarnation 3"), ``lo`` .. ``hi``."""

    param: str | None = None
    lo: int = 0
    hi: int = 99


@dataclass(frozen=True)
class Action(Word):
    """An action kind: how many targets it takes (``targets``: least, most) and its parameters."""

    targets: tuple[int, int] = (0, 0)
    params: tuple[Word, ...] = ()
    instructions: bool = False  # it may do a list of instructions (each an action kind the game lists as one)
    each: tuple[str, ...] = ()  # as an instruction: what it may affect untargeted (``each``: you, opponent ...)


@dataclass(frozen=True)
class Event(Word):
    """An event type and the fields its rules read (``type`` and ``note`` are always allowed)."""

    fields: tuple[Word, ...] = ()


@dataclass(frozen=True)
class Declared(Word):
    """Names a scenario declares itself: the values of field ``field`` of its ``event`` events are words of
    ``category`` (an MTG choice's id names the player flag that marks who chooses)."""

    category: str = ""
    event: str = ""
    field: str = ""


#: category -> (what one word of it is called in messages, where a scenario uses it), in the order of the docs
CATEGORIES: dict[str, tuple[str, str]] = {
    "zones": ("zone", "an object's `zone`, `move` and `create` events, selectors and expectations (`zone`)"),
    "types": ("object type", "an object's `types`, selectors (`types`), `create` events"),
    "abilities": ("ability", "an object's `abilities`, `grant`/`remove` effects (`ability`), expectations "
                             "(`abilities`)"),
    "attributes": ("attribute", "an object's `attributes`, `set`/`add` effects, `modify` events, expectations"),
    "properties": ("property", "an object's `properties`, `set` effects, expectations (`properties`)"),
    "flags": ("flag", "an object's `flags`, `set_flag` events, expectations (`flags`)"),
    "derived_flags": ("computed flag", "expectations (`flags`) only: the rules compute it"),
    "player_attributes": ("player attribute", "a player's `attributes`, expectations (`player_attributes`)"),
    "player_flags": ("player flag", "a player's `flags`, expectations (`player_flags`)"),
    "permissions": ("permission", "`permit`/`prohibit` effects (`action`), expectations (`allowed`); every action "
                                  "kind is one too"),
    "actions": ("action kind", "`declare` events (`kind`), an object's `action`"),
    "action_statuses": ("action status", "expectations (`action_status`), an object's `status`"),
    "events": ("event type", "`events` (`type`)"),
    "statuses": ("player status", "a player's `status`, expectations (`status`)"),
    "options": ("option", "the scenario's `options`"),
    "features": ("scenario field", "the fields only some games read"),
    "declared": ("declared name", "names the scenario declares through its events"),
}


@dataclass(frozen=True)
class Vocabulary:
    """Every word a game's scenarios may use, by category (see ``CATEGORIES``), and a minimal example scenario."""

    game: str = ""
    zones: tuple[Zone, ...] = ()
    types: tuple[Type, ...] = ()
    abilities: tuple[Ability, ...] = ()
    attributes: tuple[Number, ...] = ()
    properties: tuple[Text, ...] = ()
    flags: tuple[Word, ...] = ()
    derived_flags: tuple[Word, ...] = ()
    player_attributes: tuple[Number, ...] = ()
    player_flags: tuple[Word, ...] = ()
    permissions: tuple[Word, ...] = ()
    actions: tuple[Action, ...] = ()
    action_statuses: tuple[Word, ...] = ()
    events: tuple[Event, ...] = ()
    statuses: tuple[Word, ...] = ()
    options: tuple[Word, ...] = ()
    features: tuple[Word, ...] = ()
    declared: tuple[Declared, ...] = ()
    #: how the game's scenarios are written (conventions a newcomer needs), shown in its reference
    notes: str = field(default="", compare=False)
    #: a minimal scenario of the game (YAML), shown in its reference and checked by the tests
    example: str = field(default="", compare=False)
    #: retired words: (category, old word) -> what to write instead (its error says so)
    renamed: dict = field(default_factory=dict, compare=False)

    def extend(self, **more) -> "Vocabulary":
        """This vocabulary with more words (tuples are appended, ``game``, ``notes`` and ``example`` replaced)."""
        out = {}
        for f in fields(self):
            value = more.pop(f.name, None)
            if value is None:
                continue
            out[f.name] = tuple(getattr(self, f.name)) + tuple(value) if isinstance(value, (tuple, list)) else value
        if more:
            raise TypeError(f"unknown vocabulary categories: {', '.join(sorted(more))}")
        return replace(self, **out)

    def words(self, category: str) -> tuple[Word, ...]:
        """The words of one category."""
        return getattr(self, category)

    def names(self, category: str) -> tuple[str, ...]:
        """The names of one category's words, in declaration order."""
        return tuple(w.name for w in self.words(category))

    def word(self, category: str, name: str) -> Word | None:
        """One word of a category by name (None if unknown)."""
        return next((w for w in self.words(category) if w.name == name), None)

    def event(self, name: str) -> Event | None:
        """An event type's declaration."""
        return self.word("events", name)  # type: ignore[return-value]

    def action(self, name: str) -> Action | None:
        """An action kind's declaration."""
        return self.word("actions", name)  # type: ignore[return-value]

    def zone(self, name: str) -> Zone | None:
        """A zone's declaration."""
        return self.word("zones", name)  # type: ignore[return-value]

    def player_zones(self) -> tuple[Zone, ...]:
        """The zones each player has one of (an owner's graveyard, a holder's hand)."""
        return tuple(z for z in self.zones if z.whose)

    def whose(self, zone: str, owner: str | None, holder: str | None) -> str | None:
        """The player whose zone ``zone`` is, for an object with this owner and holder (None: a shared zone)."""
        z = self.zone(zone)
        if z is None or not z.whose:
            return None
        return owner if z.whose == "owner" else holder

    def size(self) -> dict[str, int]:
        """Count of words by category (event fields and action parameters counted under events and actions)."""
        out = {c: len(self.words(c)) for c in CATEGORIES}
        out["event fields"] = sum(len(e.fields) for e in self.events)
        out["action parameters"] = sum(len(a.params) for a in self.actions)
        return out


def pick(words: tuple[Word, ...], *names: str) -> tuple[Word, ...]:
    """The words of ``words`` with these names, in the order given (KeyError naming an unknown one)."""
    by_name = {w.name: w for w in words}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise KeyError(f"not declared: {', '.join(missing)}")
    return tuple(by_name[n] for n in names)
