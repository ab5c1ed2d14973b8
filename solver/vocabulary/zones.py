"""A game's zones, declared once in its vocabulary (``Zone`` words, ``play=True`` for the zones in play) and read
from there by the encoding (``Ruleset.zones``) and by the reference (``CoreRules.zones``), neither importing the
other."""
from __future__ import annotations

from functools import lru_cache

from solver.registry import vocabulary_for


@lru_cache(maxsize=None)
def zones_of(game: str, play: bool = False) -> tuple[str, ...]:
    """The zones of ``game`` in declaration order (``play``: only those in play), without the shared ``none``."""
    return tuple(z.name for z in vocabulary_for(game).zones if z.name != "none" and (z.play or not play))


class DeclaredZones:
    """A class attribute: the zones (``play=True``: the play zones) of the class's ``game``, as its vocabulary
    declares them."""

    def __init__(self, play: bool = False) -> None:
        self.play = play

    def __get__(self, obj, owner) -> tuple[str, ...]:
        return zones_of(owner.game, self.play)
