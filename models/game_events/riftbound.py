"""Events of the riftbound ruleset."""
from __future__ import annotations

EVENTS: tuple = ()
