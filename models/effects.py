"""Continuous effects and the selectors of the objects they apply to."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from models.base import Id, Name, Strict, Value

#: what an effect does
EffectKind = Literal["set", "add", "control", "permit", "prohibit", "grant", "remove"]
#: how long an effect lasts
Duration = Literal["static", "until_end_of_turn", "until_next_turn", "permanent"]


class Selector(Strict):
    """Which objects an effect applies to; every given criterion must match."""

    objects: list[Id] | None = None
    types: list[Name] | None = None
    controlled_by: Literal["source_controller", "source_opponent"] | Id | None = None
    zone: Name | None = None
    cell: Id | None = Field(default=None, description=(
        "Only objects on this cell; 'source' = on the effect source's cell; 'adjacent' = on a cell next to it."))
    other: bool = Field(default=False, description="Every object but the effect's source ('all other heroes').")
    element: Name | None = Field(default=None, description=(
        "Only objects of this element (Berserk: 'forest creatures'), as the game reads it: the element an effect on "
        "the element sees is the one the effects applied before it produce."))


#: when a triggered effect fires: at the start or at the end of a turn of its source's controller
TriggerAt = Literal["start_of_turn", "end_of_turn"]


class Trigger(Strict):
    """A triggered effect of an object: at the start (end) of its controller's turn, while the object is in play, it
    adds ``value`` to ``attribute`` of ONE object in play its selector matches then (a choice; none: nothing)."""

    id: Id = Field(description="Its name (the object's triggers have distinct ids).")
    at: TriggerAt = Field(description="start_of_turn: at a begin_turn; end_of_turn: at an end_turn.")
    whose: Literal["controller"] = Field(default="controller", description=(
        "Whose turn: the turn of the player who controls the source at that moment ('your turn')."))
    kind: Literal["add"] = Field(default="add", description="What it does to its target: add (heal, give tokens).")
    attribute: Name
    value: int = Field(ge=-1000, le=1000)
    targets: Selector = Field(description="The objects it may choose among (relative to its source).")
    choose: Literal["one"] = Field(default="one", description="one: one object the selector matches, chosen.")

    @model_validator(mode="after")
    def _changes(self) -> "Trigger":
        if self.value == 0:
            raise ValueError(f"trigger {self.id}: value 0 changes nothing")
        return self


#: an effect's ``player`` that names no player but whoever controls its source at each moment
SOURCE_CONTROLLER = "source_controller"


class Effect(Strict):
    """A continuous effect: sets/adds a value, changes control, permits or prohibits an action, grants or removes an ability."""

    id: Id
    source: Id | None = None
    controller: Id | None = Field(default=None, description="Player controlling the effect (defaults to the source's controller).")
    timestamp: int | None = Field(default=None, ge=0, le=1_000_000, description=(
        "Order among the initial state's effects (required there, except for a static ability whose source enters "
        "later: its entry orders it); an effect begun by an event is ordered by the event and may leave it out."))
    kind: EffectKind
    targets: list[Id] | Selector = Field(default_factory=list)
    attribute: Name | None = Field(default=None, description="For set/add: attribute or property name.")
    value: Value | Name | None = None
    player: Id | None = Field(default=None, description="For control: the player given control, or "
                              "'source_controller': whoever controls the effect's source at each moment (a static "
                              "ability's 'you': Mind Control's 'you control enchanted creature').")
    action: Name | None = Field(default=None, description="For permit/prohibit: the action.")
    ability: Name | None = Field(default=None, description="For grant/remove: the ability.")
    duration: Duration = Field(
        default="permanent", description="static = active while its source is in play; until_next_turn needs 'until_player'.")
    until_player: Id | None = None
    active: bool = True

    @model_validator(mode="after")
    def _fields_for_kind(self) -> "Effect":
        need = {"set": ("attribute", "value"), "add": ("attribute", "value"), "control": ("player",),
                "permit": ("action",), "prohibit": ("action",), "grant": ("ability",), "remove": ("ability",)}[self.kind]
        missing = [f for f in need if getattr(self, f) is None]
        if missing:
            raise ValueError(f"effect of kind '{self.kind}' needs {', '.join(missing)}")
        if self.kind == "add" and not isinstance(self.value, int):
            raise ValueError("effect of kind 'add' needs an integer value")
        if self.kind == "control" and isinstance(self.targets, Selector) and self.targets.controlled_by:
            raise ValueError("a control effect cannot choose its targets by who controls them "
                             "(the choice would depend on the effect itself); list the targets")
        if self.player == SOURCE_CONTROLLER and (self.source is None or self.duration != "static"):
            raise ValueError("player 'source_controller' is a static ability's 'you': it needs a source and "
                             "duration static (an effect that began gives control to a player named when it began)")
        if self.duration == "static" and self.source is None:
            raise ValueError("a static effect needs a source")
        if self.duration == "until_next_turn" and self.until_player is None:
            raise ValueError("duration until_next_turn needs until_player")
        return self
