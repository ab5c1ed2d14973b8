"""The games: one folder per game, each registering ``GAME`` once in its ``__init__`` (see ``solver.registry``)."""
