"""Magic: The Gathering: a player leaves a multiplayer game (comprehensive rules 800.4a-800.4n)."""
from solver.registry import Game

GAME = Game(
    name="mtg",
    title="Magic: The Gathering",
    rules="solver.games.mtg.rules",
    events="models.game_events.mtg",
    ruleset="solver.games.mtg.ruleset:RULESET",
    reference="solver.games.mtg.reference:RULES",
    generator="solver.games.mtg.generate:random_doc",
    vocabulary="solver.games.mtg.vocabulary:VOCABULARY",
)
