"""Arbiter data models: scenarios, events, expectations and results (pure pydantic, no solver)."""
from models.scenario import (
    Board, Effect, GameObject, Player, Scenario, Selector, TurnState, ActionSpec,
)
from models.expectations import Expectation, Claim
from models.results import (
    ExpectationResult, Outcome, ScenarioResult, ScenarioStatus, Verdict, BatchSummary,
)

__all__ = [
    "ActionSpec", "Board", "Effect", "GameObject", "Player", "Scenario", "Selector", "TurnState",
    "Expectation", "Claim", "ExpectationResult", "Outcome", "ScenarioResult", "ScenarioStatus",
    "Verdict", "BatchSummary",
]
