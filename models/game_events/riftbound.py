"""Events of the Riftbound ruleset: conceding, and the turn passing among the players still in the game."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from models.base import Id
from models.events import EventBase

GAME = "riftbound"


class Concede(EventBase):
    """A player concedes: they (and their team) lose and leave; a free-for-all that goes on applies the removal steps."""

    type: Literal["concede"]
    player: Id
    blank_battlefields: dict[Id, Id] = Field(
        default_factory=dict,
        description="battlefield the leaver provided -> object slot (zone none) for the blank battlefield that replaces it")
    refs: ClassVar[dict[str, str]] = {"player": "player", "blank_battlefields": "object"}

    def references(self) -> list[tuple[str, str]]:
        """The player, the replaced battlefields and the slots of their blank replacements."""
        return super().references() + [("object", slot) for slot in self.blank_battlefields.values()]


class PassTurn(EventBase):
    """The turn ends and passes to the next player in turn order who is still in the game."""

    type: Literal["pass_turn"]


EVENTS: tuple = (Concede, PassTurn)
