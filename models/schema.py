"""JSON Schema of scenario files, in draft-07 form, for editors.

pydantic generates it from the scenario models; the result ships beside this module as
``scenario.schema.json`` so that ``arbiter schema`` starts without building the models
(``tests/test_schema.py`` fails when the shipped copy differs from a fresh one:
regenerate it with ``python -m models.schema --write``). Without the file (an install
that left it out) the schema is generated.
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

#: the generated schema, shipped with the package
SHIPPED = Path(__file__).with_name("scenario.schema.json")


def _to_draft07(node: Any) -> Any:
    """Rewrite pydantic's 2020-12 output ($defs, const) into draft-07 (definitions)."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "$defs":
                out["definitions"] = _to_draft07(v)
            elif k == "$ref" and isinstance(v, str):
                out[k] = v.replace("#/$defs/", "#/definitions/")
            elif k == "discriminator":
                continue
            else:
                out[k] = _to_draft07(v)
        return out
    if isinstance(node, list):
        return [_to_draft07(v) for v in node]
    return node


def scenario_schema() -> dict:
    """The scenario JSON Schema (draft-07): a fresh copy (pydantic generates it once per process).

    The schema is plain JSON data, so a JSON round trip (C speed) copies it exactly."""
    return json.loads(json.dumps(_scenario_schema()))


def generate() -> dict:
    """The scenario JSON Schema (draft-07) generated from the pydantic models."""
    from models.scenario import Scenario

    schema = _to_draft07(Scenario.model_json_schema())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["$id"] = "https://arbiter.invalid/scenario.schema.json"
    return schema


def shipped_text(schema: dict) -> str:
    """The text of the shipped copy of ``schema``."""
    return json.dumps(schema, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


@lru_cache(maxsize=None)
def _scenario_schema() -> dict:
    try:
        return json.loads(SHIPPED.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return generate()


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        SHIPPED.write_text(shipped_text(generate()), encoding="utf-8")
    else:
        print(json.dumps(scenario_schema(), indent=2))
