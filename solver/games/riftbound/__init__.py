"""Riftbound: conceding (two players, teams, the free-for-all removal steps, turn, focus, priority, passes)."""
from solver.registry import Game

GAME = Game(
    name="riftbound",
    title="Riftbound",
    rules="solver.games.riftbound.rules",
    events="models.game_events.riftbound",
    ruleset="solver.games.riftbound.ruleset:RULESET",
    reference="solver.games.riftbound.reference:RULES",
    generator="solver.games.riftbound.generate:random_doc",
    vocabulary="solver.games.riftbound.vocabulary:VOCABULARY",
)
