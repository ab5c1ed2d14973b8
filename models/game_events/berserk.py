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
    refs: ClassVar[dict[str, str]] = {"player": "player", "moves": "object"}


EVENTS: tuple = (ChoiceSubphase,)
