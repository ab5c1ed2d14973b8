"""Riftbound: conceding (two players, teams, the free-for-all removal steps, turn, focus, priority, passes)."""
from solver.registry import Game

GAME = Game("riftbound", "Riftbound")
