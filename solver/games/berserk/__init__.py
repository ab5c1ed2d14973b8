"""Berserk (Берсерк) CCG: legality, conflicting effects, conservation, control and squads, clean victory."""
from solver.registry import Game

GAME = Game(
    name="berserk",
    title="Berserk (Берсерк) CCG",
    scale="solver.games.berserk.scale:berserk_scenario",
    combat="solver.games.berserk.combat:COMBAT",
)
