"""The core pseudo-game: the rules every game shares, with nothing added (scenarios say ``game: core``)."""
from solver.registry import Game

GAME = Game(
    name="core",
    title="Core rules (no game)",
    rules="solver.games.core.rules",
    events="models.events",
    ruleset="solver.games.core.ruleset:RULESET",
    reference="solver.games.core.reference:RULES",
    generator="solver.games.core.generate:random_doc",
    vocabulary="solver.games.core.vocabulary:VOCABULARY",
)
