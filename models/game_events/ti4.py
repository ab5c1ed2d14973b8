"""Events of the ti4 ruleset."""
from __future__ import annotations

EVENTS: tuple = ()
