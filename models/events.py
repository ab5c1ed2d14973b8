"""Events that happen to a scenario's state, in order: the base class and the core events.

Each game adds its own in ``models/game_events/<game>.py``; ``models.game_events``
joins them all into the discriminated union ``Event`` on ``type``.
"""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from models.base import Id, Instruction, Name, Strict, Value
from models.effects import Effect


class EventBase(Strict):
    """Common fields and reference bookkeeping of every event."""

    note: str | None = Field(default=None, max_length=1000)
    #: field name -> kind of id it references (player/object/effect/cell), checked on load.
    refs: ClassVar[dict[str, str]] = {}
    #: the object this event declares (``declared_id``) is an action that can be resolved
    creates_action: ClassVar[bool] = False

    def references(self) -> list[tuple[str, str]]:
        """(kind, id) pairs this event refers to, for reference checking."""
        out: list[tuple[str, str]] = []
        for field, kind in self.refs.items():
            value = getattr(self, field)
            if isinstance(value, dict):
                value = list(value)
            for v in value if isinstance(value, list) else [value]:
                if v is not None:
                    out.append((kind, v))
        return out

    def declared_id(self) -> str | None:
        """Id of an object this event brings into being, if any."""
        return None

    def declared_effect_id(self) -> str | None:
        """Id of an effect this event starts, if any."""
        return None


class Declare(EventBase):
    """A player declares an action (attack, ability, spell): it goes on the stack if legal."""

    type: Literal["declare"]
    id: Id
    actor: Id
    kind: Name
    source: Id | None = None
    targets: list[Id] = Field(default_factory=list)
    params: dict[Name, Value | Name] = Field(default_factory=dict)
    instructions: list[Instruction] = Field(default_factory=list)
    card: bool = False
    refs: ClassVar[dict[str, str]] = {"actor": "player", "source": "object"}

    def declared_id(self) -> str | None:
        """The action object created by the declaration."""
        return self.id


class Resolve(EventBase):
    """The action on the stack resolves: legality is checked again; if it fails the action is interrupted."""

    type: Literal["resolve"]
    action: Id
    refs: ClassVar[dict[str, str]] = {"action": "object"}


class StartExecution(EventBase):
    """The action leaves the stack and starts executing (legality checked one last time)."""

    type: Literal["start_execution"]
    action: Id
    refs: ClassVar[dict[str, str]] = {"action": "object"}


class FinishExecution(EventBase):
    """An executing action completes; it can no longer be interrupted."""

    type: Literal["finish_execution"]
    action: Id
    refs: ClassVar[dict[str, str]] = {"action": "object"}


class EndEffect(EventBase):
    """A continuous effect ends (removed, dispelled, duration over)."""

    type: Literal["end_effect"]
    effect: Id
    refs: ClassVar[dict[str, str]] = {"effect": "effect"}


class BeginEffect(EventBase):
    """A new continuous effect starts (its timestamp orders it among the others)."""

    type: Literal["begin_effect"]
    effect: Effect

    def declared_effect_id(self) -> str | None:
        """The new effect's id."""
        return self.effect.id

    def references(self) -> list[tuple[str, str]]:
        """The new effect's source and player."""
        out = [("object", self.effect.source)] if self.effect.source else []
        return out + ([("player", self.effect.player)] if self.effect.player else [])


class Move(EventBase):
    """An object moves to a zone (and optionally a cell)."""

    type: Literal["move"]
    object: Id
    zone: Name
    cell: Id | None = None
    refs: ClassVar[dict[str, str]] = {"object": "object", "cell": "cell"}


class Modify(EventBase):
    """An attribute changes by delta (damage, heal, token gained)."""

    type: Literal["modify"]
    object: Id
    attribute: Name
    delta: Value
    refs: ClassVar[dict[str, str]] = {"object": "object"}


class SetFlag(EventBase):
    """A flag of an object is set (open, revealed, tapped ...)."""

    type: Literal["set_flag"]
    object: Id
    flag: Name
    value: bool
    refs: ClassVar[dict[str, str]] = {"object": "object"}


class EndTurn(EventBase):
    """The current turn ends: 'until end of turn' effects end."""

    type: Literal["end_turn"]


class BeginTurn(EventBase):
    """A player's turn begins: 'until your next turn' effects of that player end."""

    type: Literal["begin_turn"]
    player: Id
    refs: ClassVar[dict[str, str]] = {"player": "player"}


#: the core events, shared by every game
CORE_EVENTS = (Declare, Resolve, StartExecution, FinishExecution, EndEffect, BeginEffect, Move, Modify,
               SetFlag, EndTurn, BeginTurn)
#: the core pseudo-game's name and events (the same shape as a game's events module)
GAME = "core"
EVENTS: tuple = CORE_EVENTS
