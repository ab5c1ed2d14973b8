"""Magic: The Gathering: a player leaves a multiplayer game (comprehensive rules 800.4a-800.4n)."""
from solver.registry import Game

GAME = Game("mtg", "Magic: The Gathering")
