"""The core pseudo-game's ruleset: the shared rules alone (``solver.encoding.ruleset.Ruleset``)."""
from solver.encoding.ruleset import Ruleset

RULESET = Ruleset()
