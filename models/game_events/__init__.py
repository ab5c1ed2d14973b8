"""Game-specific events, one module per game; ``GAME_EVENTS`` joins them into the event union."""
from models.game_events import berserk, mtg, riftbound, ti4

GAME_EVENTS = berserk.EVENTS + mtg.EVENTS + riftbound.EVENTS + ti4.EVENTS
