"""Arbiter data models: scenarios, events, expectations and results (pure pydantic, no solver).

The names below are loaded on first use (PEP 562), so importing one submodule (``models.scenario`` for
``arbiter schema``) does not build the result models as well.
"""
from importlib import import_module

_WHERE = {
    "ActionSpec": "scenario", "Board": "scenario", "Effect": "scenario", "GameObject": "scenario",
    "Player": "scenario", "Scenario": "scenario", "Selector": "scenario", "TurnState": "scenario",
    "Expectation": "expectations", "Claim": "expectations",
    "ExpectationResult": "results", "Outcome": "results", "ScenarioResult": "results", "ScenarioStatus": "results",
    "Verdict": "results", "BatchSummary": "results",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    """A model class by name, imported from its module when first asked for."""
    if name not in _WHERE:
        raise AttributeError(f"module 'models' has no attribute {name!r}")
    return getattr(import_module(f"models.{_WHERE[name]}"), name)
