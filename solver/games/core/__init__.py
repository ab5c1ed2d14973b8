"""The core pseudo-game: the rules every game shares, with nothing added (scenarios say ``game: core``)."""
from solver.registry import Game

GAME = Game(
    name="core",
    title="Core rules (no game)",
    events="models.events",
)
