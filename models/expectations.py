"""Expectations about a scenario's outcomes, and victory claims."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from models.base import Id, Name, RuleId, Strict, Value

ACTION_STATUSES: tuple[str, ...] = (
    "unborn", "on_stack", "illegal", "executing", "resolved", "interrupted", "countered", "ceased")
ActionStatus = Literal["unborn", "on_stack", "illegal", "executing", "resolved", "interrupted", "countered", "ceased"]
ExpectedVerdict = Literal["holds", "possible", "impossible"]


class TurnExpect(Strict):
    """Expected turn-state holders; 'none' means nobody holds it."""

    active_player: Id | None = None
    priority: Id | None = None
    focus: Id | None = None
    showdown: bool | None = None


class Expectation(Strict):
    """A statement about the outcome: every given atom must be true (a conjunction), with the verdict it should get."""

    description: str | None = Field(default=None, max_length=1000)
    at: int | None = Field(default=None, ge=0, description="Check the state after the first 'at' events (0 = the initial state); default: the end.")
    step: str | None = Field(default=None, min_length=1, max_length=200, description="With 'at' (an event, 1 or more): the state after this step inside that event, by the step's name (e.g. Riftbound's concede: 'removal: turn, focus and priority'); an unknown name is an error listing the event's steps.")
    verdict: ExpectedVerdict = Field(default="holds", description="holds: in every outcome; possible: in some but not all; impossible: in none.")
    because: list[RuleId] = Field(default_factory=list, description="Rule ids (or sections) that decide the verdict: with them switched off it no longer holds (but-for; several listed: each decides, or is a needed member of the list deciding jointly).")
    # object atoms
    object: Id | None = None
    zone: Name | None = None
    zone_owner: Id | None = Field(default=None, description="The player whose zone the object is in (a zone each "
                                                            "player has one of: an owner's graveyard, a holder's hand).")
    owner: Id | None = Field(default=None, description="The object's owner (control never changes it).")
    controller: Id | None = Field(default=None, description="Effective controller; 'none' for no controller.")
    cell: Id | None = Field(default=None, description="Cell id or 'none'.")
    attached_to: Id | None = None
    exists: bool | None = None
    attributes: dict[Name, Value] = Field(default_factory=dict)
    properties: dict[Name, Name] = Field(default_factory=dict)
    flags: dict[Name, bool] = Field(default_factory=dict)
    abilities: dict[Name, bool] = Field(default_factory=dict, description="ability -> has it (after effects)")
    allowed: dict[Name, bool] = Field(default_factory=dict, description="action -> may the object do it (permission vs prohibition)")
    # action atoms
    action: Id | None = None
    action_status: ActionStatus | None = None
    # effect atoms
    effect: Id | None = None
    effect_active: bool | None = None
    # player atoms
    player: Id | None = None
    status: Literal["in_game", "left", "lost", "won", "conceded", "eliminated"] | None = None
    player_attributes: dict[Name, Value] = Field(default_factory=dict)
    player_flags: dict[Name, bool] = Field(default_factory=dict)
    # game atoms
    turn: TurnExpect | None = None
    winner: Id | None = Field(default=None, description="This player has won.")
    # whole-outcome atoms
    unique: bool | None = Field(default=None, description="The rules determine exactly one outcome.")
    outcomes: int | None = Field(default=None, ge=0, le=64, description="Exactly this many distinct outcomes.")

    OBJECT_ATOMS: ClassVar[tuple[str, ...]] = (
        "zone", "zone_owner", "owner", "controller", "cell", "attached_to", "exists", "attributes", "properties", "flags", "abilities", "allowed")
    PLAYER_ATOMS: ClassVar[tuple[str, ...]] = ("status", "player_attributes", "player_flags")

    @model_validator(mode="after")
    def _atoms_have_subjects(self) -> "Expectation":
        if any(getattr(self, a) not in (None, {}) for a in self.OBJECT_ATOMS) and self.object is None:
            raise ValueError("object atoms (zone, controller, cell, ...) need 'object'")
        if any(getattr(self, a) not in (None, {}) for a in self.PLAYER_ATOMS) and self.player is None:
            raise ValueError("player atoms (status, ...) need 'player'")
        if self.action_status is not None and self.action is None:
            raise ValueError("'action_status' needs 'action'")
        if self.effect_active is not None and self.effect is None:
            raise ValueError("'effect_active' needs 'effect'")
        if not self.atom_names():
            raise ValueError("an expectation needs at least one atom (zone, status, action_status, winner, unique ...)")
        if self.step is not None and not self.at:
            raise ValueError("'step' names a step inside an event: it needs 'at' (the event, 1 or more)")
        if self.step is not None and (self.unique is not None or self.outcomes is not None):
            raise ValueError("'unique' and 'outcomes' are about whole outcomes: they take no 'step'")
        if (self.unique is not None or self.outcomes is not None) and self.verdict != "holds":
            raise ValueError("'unique' and 'outcomes' are about the whole outcome set: verdict must be holds")
        return self

    def atom_names(self) -> list[str]:
        """Names of the atoms this expectation states."""
        names = list(self.OBJECT_ATOMS) + list(self.PLAYER_ATOMS) + [
            "action_status", "effect_active", "turn", "winner", "unique", "outcomes"]
        return [n for n in names if getattr(self, n) not in (None, {})]

    def references(self) -> list[tuple[str, str]]:
        """(kind, id) pairs this expectation refers to."""
        out = []
        for field, kind in (("object", "object"), ("action", "object"), ("effect", "effect"), ("player", "player"),
                            ("winner", "player"), ("zone_owner", "player"), ("owner", "player")):
            if getattr(self, field) is not None:
                out.append((kind, getattr(self, field)))
        if self.attached_to not in (None, "none"):  # none: attached to nothing
            out.append(("object", self.attached_to))
        if self.controller not in (None, "none"):
            out.append(("player", self.controller))
        if self.cell not in (None, "none"):
            out.append(("cell", self.cell))
        if self.turn:
            out += [("player", v) for v in (self.turn.active_player, self.turn.priority, self.turn.focus)
                    if v not in (None, "none")]
        return out


class Claim(Strict):
    """A victory claim for the victory analysis: decisive advantage, or a forced win within N rounds."""

    kind: Literal["decisive_advantage", "forced_win"]
    player: Id
    within: int | None = Field(default=None, ge=1, le=50, description="Rounds bound for forced_win.")
    expect: Literal["proved", "refuted", "unknown"] = "proved"
    description: str | None = Field(default=None, max_length=1000)
