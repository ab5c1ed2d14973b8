"""The core pseudo-game's reference reading: the shared rules alone (``solver.reference.rules.CoreRules``)."""
from solver.reference.rules import CoreRules

RULES = CoreRules()
