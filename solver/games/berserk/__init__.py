"""Berserk (Берсерк) CCG: legality, conflicting effects, conservation, control and squads, clean victory."""
from solver.registry import Game

GAME = Game(
    name="berserk",
    title="Berserk (Берсерк) CCG",
    rules="solver.games.berserk.rules",
    events="models.game_events.berserk",
    ruleset="solver.games.berserk.ruleset:RULESET",
    reference="solver.games.berserk.reference:RULES",
    generator="solver.games.berserk.generate:random_doc",
    vocabulary="solver.games.berserk.vocabulary:VOCABULARY",
    scale="solver.games.berserk.scale:berserk_scenario",
    combat="solver.games.berserk.combat:COMBAT",
)
