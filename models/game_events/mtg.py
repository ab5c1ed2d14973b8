"""Events of the mtg ruleset."""
from __future__ import annotations

EVENTS: tuple = ()
