"""Twilight Imperium 4: elimination (rule 75 of the Russian living rules reference, 33 of the English one)."""
from solver.registry import Game

GAME = Game(
    name="ti4",
    title="Twilight Imperium 4",
    rules="solver.games.ti4.rules",
    events="models.game_events.ti4",
    ruleset="solver.games.ti4.ruleset:RULESET",
    reference="solver.games.ti4.reference:RULES",
    generator="solver.games.ti4.generate:random_doc",
    vocabulary="solver.games.ti4.vocabulary:VOCABULARY",
)
