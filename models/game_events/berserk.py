"""Events of the Berserk ruleset."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from models.base import Id, Name
from models.events import EventBase


class ChoiceSubphase(EventBase):
    """A player's Choice subphase: the movements and obligatory abilities they declare."""

    type: Literal["choice_subphase"]
    player: Id
    moves: dict[Id, Id] = Field(default_factory=dict, description="object id -> cell it is declared to move to")
    obligatory: list[Name] = Field(default_factory=list, description="other obligatory abilities declared instead")
    free: bool = Field(default=False, description="the declarations are not given: the solver explores every "
                                                  "choice (move to a free adjacent cell, or let the card die)")
    refs: ClassVar[dict[str, str]] = {"player": "player", "moves": "object"}

    def references(self) -> list[tuple[str, str]]:
        """The player, the moved objects and the cells they move to."""
        return super().references() + [("cell", c) for c in self.moves.values()]


EVENTS: tuple = (ChoiceSubphase,)
