"""The JSON Schema (`arbiter schema`) is valid draft-07 and agrees with the pydantic models on the library."""
from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from models.loader import load_scenario
from models.schema import scenario_schema
from models.yamlsafe import load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))
VALIDATOR = jsonschema.Draft7Validator(scenario_schema())


def test_the_shipped_schema_is_the_one_the_models_generate():
    """``models/scenario.schema.json`` (read by ``arbiter schema`` so it need not build the models) is current:
    regenerate it with ``python -m models.schema --write`` after changing a model."""
    from models.schema import SHIPPED, generate, shipped_text

    assert SHIPPED.read_text(encoding="utf-8") == shipped_text(generate()), "run: python -m models.schema --write"


def test_without_the_shipped_file_the_schema_is_generated(monkeypatch, tmp_path):
    """An install without the shipped copy still gives the same schema (generated from the models)."""
    from models import schema as module

    monkeypatch.setattr(module, "SHIPPED", tmp_path / "missing.json")
    module._scenario_schema.cache_clear()
    try:
        assert module.scenario_schema() == module.generate()
    finally:
        module._scenario_schema.cache_clear()


def test_schema_is_valid_draft07():
    """The schema itself is a valid draft-07 schema with no 2020-12 leftovers."""
    schema = scenario_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    assert "$defs" not in str(schema) and schema["$schema"].endswith("draft-07/schema#")


@pytest.mark.parametrize("path", LIBRARY, ids=[p.name for p in LIBRARY])
def test_library_scenarios_validate_against_schema(path):
    """Every library scenario is accepted by both the schema and the models."""
    data, _ = load_yaml_text(path.read_bytes(), str(path))
    assert not list(VALIDATOR.iter_errors(data))
    load_scenario(path)


def test_schema_rejects_unknown_fields_like_the_models():
    """An unknown top-level field is an error in the editor too."""
    doc = {"id": "x", "game": "berserk", "players": [{"id": "a"}], "colour": "red"}
    assert list(VALIDATOR.iter_errors(doc))
