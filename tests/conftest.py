"""Shared fixtures: paths to the repo and its scenario library."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT
