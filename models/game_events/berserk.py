"""Events of the Berserk ruleset."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from models.base import Id, Name
from models.events import EventBase

GAME = "berserk"


class ChoiceSubphase(EventBase):
    """The end of a player's Choice subphase: an obliged card that has not moved (a declared ``move`` action that
    resolved) dies, unless another obligatory ability was declared."""

    type: Literal["choice_subphase"]
    player: Id
    obligatory: list[Name] = Field(default_factory=list, description="other obligatory abilities declared instead")
    free: bool = Field(default=False, description="the declarations are not given: the solver explores every "
                                                  "choice (move to a free adjacent cell, or let the card die)")
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class Recruit(EventBase):
    """The Recruit subphase: the cards a player recruits into the squad, in order (532.8 may forbid some)."""

    type: Literal["recruit"]
    player: Id
    cards: list[Id] = Field(min_length=1)
    cells: dict[Id, Id] = Field(default_factory=dict, description="card -> cell it is placed on")
    refs: ClassVar[dict[str, str]] = {"player": "player", "cards": "object"}

    def references(self) -> list[tuple[str, str]]:
        """The player, the cards and their cells."""
        return super().references() + [("cell", c) for c in self.cells.values()]


class LoseControl(EventBase):
    """An effect makes a player lose control of a card (532.7)."""

    type: Literal["lose_control"]
    player: Id
    object: Id
    refs: ClassVar[dict[str, str]] = {"player": "player", "object": "object"}


class PenaltyLoss(EventBase):
    """A player is given a penalty loss (602.1)."""

    type: Literal["penalty_loss"]
    player: Id
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class DeclareRedeal(EventBase):
    """A player declares a redeal (602.1: with one card in hand, the opponent wins)."""

    type: Literal["declare_redeal"]
    player: Id
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class CardVictory(EventBase):
    """A card's ability whose text says a player won or lost is fulfilled (602.1)."""

    type: Literal["card_victory"]
    source: Id
    player: Id
    result: Literal["won", "lost"] = "won"
    refs: ClassVar[dict[str, str]] = {"source": "object", "player": "player"}


class CheckVictory(EventBase):
    """The clean-victory conditions of 602.1 are checked: no creatures left, and for the players named, a decisive
    advantage decided by the victory analysis on the position at this point."""

    type: Literal["check_victory"]
    decisive_advantage: list[Id] = Field(default_factory=list, description="players whose decisive advantage the "
                                                                           "victory analysis decides here")
    judge_ruled: list[Id] = Field(default_factory=list, description="players a judge has ruled to hold a decisive "
                                                                    "advantage here: a ruling, kept apart from the proof")
    refs: ClassVar[dict[str, str]] = {"decisive_advantage": "player", "judge_ruled": "player"}


EVENTS: tuple = (ChoiceSubphase, Recruit, LoseControl, PenaltyLoss, DeclareRedeal, CardVictory, CheckVictory)
