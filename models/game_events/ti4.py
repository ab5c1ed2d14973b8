"""Events of the Twilight Imperium 4 ruleset (elimination, rule 75 / LRR 33)."""
from __future__ import annotations

from typing import ClassVar, Literal

from models.base import Id
from models.events import EventBase

GAME = "ti4"


class PlanetControl(EventBase):
    """A player gains control of a planet; without ``player`` the planet becomes uncontrolled."""

    type: Literal["planet_control"]
    planet: Id
    player: Id | None = None
    refs: ClassVar[dict[str, str]] = {"planet": "object", "player": "player"}


class Capture(EventBase):
    """A player captures a unit: it goes onto the captor's faction sheet, still owned by its owner."""

    type: Literal["capture"]
    object: Id
    player: Id
    refs: ClassVar[dict[str, str]] = {"object": "object", "player": "player"}


class ReturnCaptured(EventBase):
    """The captor returns a captured unit (to its owner's reinforcements, or to the box, comment 7)."""

    type: Literal["return_captured"]
    object: Id
    refs: ClassVar[dict[str, str]] = {"object": "object"}


class EndStatusPhase(EventBase):
    """The status phase ends (a Naalu "0" token of an eliminated Naalu player leaves the game, 75.10c)."""

    type: Literal["end_status_phase"]


class CheckElimination(EventBase):
    """Nothing else happens: the elimination check (75.1) that follows every event runs on the current state."""

    type: Literal["check_elimination"]


EVENTS: tuple = (PlanetControl, Capture, ReturnCaptured, EndStatusPhase, CheckElimination)
