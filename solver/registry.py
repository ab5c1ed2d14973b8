"""The game registry: each game registers once, and every list of games derives from here.

Each game folder ``solver/games/<game>/`` declares ``GAME = Game(...)`` in its
``__init__.py``: what the game provides, by import path, loaded on first use.
``registry()`` discovers the folders. Paths are strings so that listing games or
reading rule texts imports neither the encoding nor ortools, and so that this
module, which the encoding, the reference and the runner all ask, imports no game.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"`` (or the module itself without ``:``)."""
    module, _, attr = path.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


#: the parts every game provides and where they are by convention (``{name}``: the game's name)
CONVENTION = {
    "rules": "solver.games.{name}.rules",
    "events": "models.game_events.{name}",
    "ruleset": "solver.games.{name}.ruleset:RULESET",
    "reference": "solver.games.{name}.reference:RULES",
    "generator": "solver.games.{name}.generate:random_doc",
    "vocabulary": "solver.games.{name}.vocabulary:VOCABULARY",
}


@dataclass(frozen=True)
class Game:
    """Everything a game provides, by import path: ``Game(name, title)`` finds each part at its conventional place
    (``CONVENTION``); a part given explicitly overrides it."""

    #: the name scenarios give in ``game:`` and the folder name under ``solver/games/`` and ``scenarios/``
    name: str
    #: the game's full name
    title: str
    #: rule texts and aliases: a module with ``RULES`` (id -> one line) and ``ALIASES`` (pure data)
    rules: str = ""
    #: the pydantic event models: a module with ``GAME`` and ``EVENTS`` under ``models/game_events/``
    events: str = ""
    #: the CP-SAT encoding: ``module:RULESET``, a ``solver.encoding.ruleset.Ruleset``
    ruleset: str = ""
    #: the solver-free reading of the same rules: ``module:RULES``, a ``solver.reference.rules.CoreRules``
    reference: str = ""
    #: random small scenarios for differential tests and soak: ``module:random_doc`` (rng, index) -> dict
    generator: str = ""
    #: every word its scenarios may use: ``module:VOCABULARY``, a ``solver.vocabulary.words.Vocabulary`` (pure data)
    vocabulary: str = ""
    #: scenarios of any size for benchmarks: ``module:function`` (index, objects, rng, seed, declared, cores) -> dict
    scale: str | None = None
    #: the game's reading of combat for the victory analysis: ``module:COMBAT``, a ``solver.victory.model.Combat``
    combat: str | None = None

    def __post_init__(self) -> None:
        for part, path in CONVENTION.items():
            if not getattr(self, part):
                object.__setattr__(self, part, path.format(name=self.name))

    def rule_texts(self) -> dict[str, str]:
        """Rule id -> one-line text, for this game's own rules."""
        return dict(load(self.rules).RULES)

    def aliases(self) -> dict[str, str]:
        """Rule-id aliases: alias prefix -> canonical prefix."""
        return dict(getattr(load(self.rules), "ALIASES", {}))

    def load(self, part: str) -> Any:
        """One of the parts (``ruleset``, ``reference``, ``generator``, ``events``, ``rules``, ``vocabulary``), imported."""
        return load(getattr(self, part))



@lru_cache(maxsize=None)
def registry() -> dict[str, Game]:
    """Every registered game by name: the core first, then the others by name."""
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules([str(Path(__file__).resolve().parent / "games")]):
        if not info.ispkg:
            continue
        game = getattr(importlib.import_module(f"solver.games.{info.name}"), "GAME", None)
        if isinstance(game, Game):
            if game.name != info.name:
                raise RuntimeError(f"solver/games/{info.name} registers the game '{game.name}': the names must agree")
            found[game.name] = game
    return {name: found[name] for name in sorted(found, key=lambda n: (n != "core", n))}


def names(core: bool = True) -> tuple[str, ...]:
    """Names of the registered games (the core pseudo-game first, unless ``core`` is false)."""
    return tuple(n for n in registry() if core or n != "core")


def game(name: str) -> Game:
    """The registration of a game; KeyError naming the known games otherwise."""
    try:
        return registry()[name]
    except KeyError:
        raise KeyError(f"unknown game '{name}' (known: {', '.join(names())})") from None


@lru_cache(maxsize=None)
def ruleset_for(name: str):
    """The CP-SAT ruleset of a game (imports the encoding)."""
    return game(name).load("ruleset")


@lru_cache(maxsize=None)
def reference_for(name: str):
    """The solver-free reference reading of a game's rules."""
    return game(name).load("reference")


@lru_cache(maxsize=None)
def vocabulary_for(name: str):
    """The vocabulary of a game: every word its scenarios may use (imports neither the encoding nor ortools)."""
    return game(name).load("vocabulary")


@lru_cache(maxsize=None)
def combat_for(name: str):
    """The combat reading the victory analysis applies for a game (None: the game defines no combat)."""
    path = game(name).combat
    return load(path) if path else None


def generator_for(name: str):
    """The random small-scenario generator of a game: ``(rng, index) -> dict``."""
    return game(name).load("generator")
