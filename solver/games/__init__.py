"""Game rulesets: one module per game; ``ruleset_for`` returns the ruleset of a game."""
from __future__ import annotations

import importlib

from solver.games.base import Ruleset
from solver.rules import RULEBOOK

GAMES = ("core", "berserk", "mtg", "riftbound", "ti4")
_cache: dict[str, Ruleset] = {}


def ruleset_for(game: str) -> Ruleset:
    """The ruleset instance for a game name."""
    if game not in _cache:
        if game == "core":
            rs = Ruleset()
        else:
            rs = importlib.import_module(f"solver.games.{game}").RULESET
        RULEBOOK.register("core", Ruleset.rules)
        RULEBOOK.register(game, rs.rules)
        _cache[game] = rs
    return _cache[game]
