"""Events of the Magic: The Gathering ruleset (800.4: a player leaves a multiplayer game; damage, life, turns)."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from models.base import Id, Instruction, Name, Value
from models.events import EventBase

GAME = "mtg"


class LeaveGame(EventBase):
    """A player leaves a game of three or more (loses, concedes, ...): the 800.4a procedure runs at once."""

    type: Literal["leave_game"]
    player: Id
    status: Literal["left", "lost", "conceded"] = Field(default="left", description="The player's status afterwards.")
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class CreateObject(EventBase):
    """A player creates an object (a token by default) in a zone; its owner is the creating player unless given."""

    type: Literal["create"]
    id: Id
    controller: Id = Field(description="The player who creates it and under whose control it is created.")
    owner: Id | None = Field(default=None, description="Owner when it is created in another player's zone (default: controller).")
    zone: Name = "battlefield"
    token: bool = True
    source: Id | None = Field(default=None, description="Object whose triggered ability creates it (must be on the battlefield).")
    name: str | None = Field(default=None, max_length=200)
    types: list[Name] = Field(default_factory=list)
    refs: ClassVar[dict[str, str]] = {"controller": "player", "owner": "player", "source": "object"}

    def declared_id(self) -> str | None:
        """The created object."""
        return self.id


class PutOnto(EventBase):
    """An effect puts an object onto the battlefield (or the stack) under a player's control (Bribery)."""

    type: Literal["put_onto"]
    object: Id
    controller: Id | None = Field(default=None, description="The player under whose control it enters (default: owner).")
    zone: Literal["battlefield", "stack"] = "battlefield"
    tapped: bool = Field(default=False, description="It enters the battlefield tapped (110.5b).")
    refs: ClassVar[dict[str, str]] = {"object": "object", "controller": "player"}


class Trigger(EventBase):
    """A (delayed) triggered ability triggers and would be put on the stack; the rules give its controller (603.3a)."""

    type: Literal["trigger"]
    id: Id
    controller: Id | None = Field(default=None, description="Its controller: computed from the source (603.3a, "
                                  "603.10a); given, it must agree; required for a delayed one or one with no source.")
    kind: Name
    source: Id | None = None
    leaves: bool = Field(default=False, description="A leaves-the-battlefield ability of its source (603.10a).")
    delayed: bool = Field(default=False, description="A delayed triggered ability: `controller` gives who controlled "
                          "what created it (603.7d).")
    targets: list[Id] = Field(default_factory=list)
    params: dict[Name, Value | Name] = Field(default_factory=dict)
    instructions: list[Instruction] = Field(default_factory=list)
    refs: ClassVar[dict[str, str]] = {"controller": "player", "source": "object", "targets": "object or player"}
    creates_action: ClassVar[bool] = True

    def declared_id(self) -> str | None:
        """The triggered ability's stack object."""
        return self.id


class CombatDamage(EventBase):
    """Combat damage would be assigned by a creature to a player."""

    type: Literal["combat_damage"]
    source: Id
    player: Id
    amount: Value = Field(ge=0)
    refs: ClassVar[dict[str, str]] = {"source": "object", "player": "player"}


class Damage(EventBase):
    """A source deals damage to a player or a creature: combat damage (510.2) or not (120.3)."""

    type: Literal["damage"]
    source: Id
    target: Id = Field(description="The player or creature dealt the damage.")
    amount: Value = Field(ge=0)
    combat: bool = Field(default=False, description="It is combat damage (800.4e: none to a player who left).")
    refs: ClassVar[dict[str, str]] = {"source": "object", "target": "object or player"}


class GainLife(EventBase):
    """A player gains life (119.3)."""

    type: Literal["gain_life"]
    player: Id
    amount: Value = Field(ge=0)
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class LoseLife(EventBase):
    """A player loses life (119.3)."""

    type: Literal["lose_life"]
    player: Id
    amount: Value = Field(ge=0)
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class Choice(EventBase):
    """An object (source) or a rule (no source) requires a player to make a choice; player flag <id> marks who chooses."""

    type: Literal["choice"]
    id: Name
    player: Id
    source: Id | None = Field(default=None, description="Object requiring the choice; none = a rule requires it.")
    opponent: bool = Field(default=False, description="The choice was to be made by an opponent of the source's controller.")
    refs: ClassVar[dict[str, str]] = {"player": "player", "source": "object"}


class PlayerInformation(EventBase):
    """An effect reads a player's attribute (life total ...) into the reader's attribute ``into``."""

    type: Literal["player_information"]
    player: Id
    attribute: Name
    reader: Id
    into: Name
    refs: ClassVar[dict[str, str]] = {"player": "player", "reader": "player"}


class CountActions(EventBase):
    """An effect counts actions every player took (a per-player counter attribute) into the reader's ``into``."""

    type: Literal["count_actions"]
    attribute: Name
    reader: Id
    into: Name
    refs: ClassVar[dict[str, str]] = {"reader": "player"}


class ExtraTurn(EventBase):
    """An effect gives a player an extra turn, added directly after the current one (500.7)."""

    type: Literal["extra_turn"]
    player: Id
    refs: ClassVar[dict[str, str]] = {"player": "player"}


class PriorityToActive(EventBase):
    """The active player would receive priority (a spell resolved, a step began)."""

    type: Literal["priority_to_active"]


EVENTS: tuple = (LeaveGame, CreateObject, PutOnto, Trigger, CombatDamage, Damage, GainLife, LoseLife, Choice,
                 PlayerInformation, CountActions, ExtraTurn, PriorityToActive)
