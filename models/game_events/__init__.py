"""Game-specific events, one module per game, found by listing this folder.

Each module names its game (``GAME``) and its event models (``EVENTS``).
``Event`` is the discriminated union (on ``type``) of the core events and every
game's; ``GAMES`` the game names a scenario may give, the core pseudo-game first.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Annotated, Union

from pydantic import Field

from models import events as core

#: every game's events module, by game name, the core first
MODULES = {core.GAME: core}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    _mod = importlib.import_module(f"{__name__}.{_info.name}")
    MODULES[_mod.GAME] = _mod

#: game names, the core pseudo-game first
GAMES: tuple[str, ...] = tuple(MODULES)
#: every game's own events (core events excluded)
GAME_EVENTS: tuple = tuple(e for name, mod in MODULES.items() if name != core.GAME for e in mod.EVENTS)

#: Any event: core or game-specific, told apart by ``type``.
Event = Annotated[Union[core.CORE_EVENTS + GAME_EVENTS], Field(discriminator="type")]  # type: ignore[valid-type]
