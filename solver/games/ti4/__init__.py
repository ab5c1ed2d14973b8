"""Twilight Imperium 4: elimination (rule 75 of the Russian living rules reference, 33 of the English one)."""
from solver.registry import Game

GAME = Game("ti4", "Twilight Imperium 4")
