"""Events of the Magic: The Gathering ruleset (800.4: a player leaves a multiplayer game; damage, life, turns)."""
from __future__ import annotations

from typing import ClassVar, Literal, NamedTuple

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
    from_graveyard: bool = Field(default=False, description="The card says the ability works from its graveyard "
                                 "(113.6): it triggers only while its source is in a graveyard, controlled by the "
                                 "source's owner (113.8).")
    instructions: list[Instruction] = Field(default_factory=list)
    refs: ClassVar[dict[str, str]] = {"controller": "player", "source": "object", "targets": "object or player"}
    creates_action: ClassVar[bool] = True

    def declared_id(self) -> str | None:
        """The triggered ability's stack object."""
        return self.id


class CopySpell(EventBase):
    """An effect copies a spell on the stack (707.10): the copy, not a card, is put on the stack under the player who
    copies it (who owns it), with the original's kind and parameters; new targets may be chosen for it (707.10c).
    With ``storm``, it is one of the copies the spell's storm trigger makes (702.40a)."""

    type: Literal["copy"]
    id: Id
    spell: Id = Field(description="The spell copied (declared, triggered, copied, or on the stack at the start).")
    controller: Id | None = Field(default=None, description="Who copies it and controls the copy; a storm copy's is "
                                  "the spell's caster (603.3a), and a given one must be that player.")
    targets: list[Id] | None = Field(default=None, description="The copy's targets (707.10c: new ones must be "
                                     "legal); default: the original's.")
    storm: bool = Field(default=False, description="A copy made by the spell's storm trigger (702.40a): the k-th "
                        "storm copy of a spell exists only if at least k other spells were cast before it this turn.")
    refs: ClassVar[dict[str, str]] = {"spell": "object", "controller": "player", "targets": "object or player"}
    creates_action: ClassVar[bool] = True

    def declared_id(self) -> str | None:
        """The copy (a stack object)."""
        return self.id


class CopiedSpec(NamedTuple):
    """What a copy does: the original's kind, parameters and source, and the copy's own targets (707.10)."""

    kind: str
    targets: list
    params: dict
    source: str | None


def original(sc, spell: str, before: int):
    """What the spell ``spell`` does (its object's action, or the event before index ``before`` that put it on the
    stack), or None when nothing before names it."""
    for o in sc.objects:
        if o.id == spell and o.action is not None:
            return o.action
    for i, ev in enumerate(sc.events[:before]):
        if ev.declared_id() == spell and ev.type in ("declare", "trigger"):
            return ev
        if ev.declared_id() == spell and ev.type == "copy":
            return copied(sc, ev)
    return None


def copied(sc, ev: CopySpell) -> CopiedSpec | None:
    """The copy event's spec: the original's kind, parameters and source, its own targets (default the original's)."""
    spec = original(sc, ev.spell, sc.events.index(ev))
    if spec is None:
        return None
    targets = list(spec.targets) if ev.targets is None else list(ev.targets)
    return CopiedSpec(spec.kind, targets, dict(spec.params), getattr(spec, "source", None))


class ReturnFromGraveyard(EventBase):
    """An effect returns a card from its owner's graveyard to their hand or onto the battlefield under their
    control (the same effect as the ``return_from_graveyard`` kind of spells and abilities)."""

    type: Literal["return_from_graveyard"]
    object: Id
    to: Literal["hand", "battlefield"]
    refs: ClassVar[dict[str, str]] = {"object": "object"}


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


EVENTS: tuple = (LeaveGame, CreateObject, PutOnto, Trigger, CopySpell, ReturnFromGraveyard, CombatDamage, Damage, GainLife, LoseLife, Choice,
                 PlayerInformation, CountActions, ExtraTurn, PriorityToActive)
