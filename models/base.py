"""Shared pydantic base classes and constrained types."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

#: An identifier of a player, object, effect, cell or event in a scenario.
Id = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_.\-]*$", min_length=1, max_length=64)]
#: A rule id such as ``berserk.524.2`` or ``mtg.800.4a``.
RuleId = Annotated[str, Field(pattern=r"^[a-z0-9_]+(\.[A-Za-z0-9_\-]+)+$", max_length=80)]
#: A bounded integer value of an attribute (life, power, tokens ...).
Value = Annotated[int, Field(ge=-1_000_000, le=1_000_000, strict=True)]  # strict: 'true' is not a number
#: A short name (zone, type, ability, property value).
Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-+ ]*$", min_length=1, max_length=64)]


class Strict(BaseModel):
    """Base model: unknown fields are errors, values are validated on assignment, and no value is coerced.

    Strict: a Boolean is ``true``/``false`` only (not 'on', 'yes', 1), a number is a YAML number (not '3', not
    ``true``), like numbers already were.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


class Instruction(Strict):
    """One instruction of a spell or ability that does several things in order, as one resolution (MTG 608.2c): an
    action kind of the game (what it does), its own targets, the players or objects it affects without targeting
    them (``each``) and its parameters (amount ...)."""

    kind: Name
    targets: list[Id] = Field(default_factory=list)
    each: Name | None = Field(default=None, description="Affected without being targeted: you, opponent, player, "
                                                        "creature (the game says which it reads).")
    params: dict[Name, Value | Name] = Field(default_factory=dict)
