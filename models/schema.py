"""JSON Schema of scenario files, in draft-07 form, for editors."""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from models.scenario import Scenario


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
    """The scenario JSON Schema (draft-07): a fresh copy (pydantic generates it once per process)."""
    return copy.deepcopy(_scenario_schema())


@lru_cache(maxsize=None)
def _scenario_schema() -> dict:
    schema = _to_draft07(Scenario.model_json_schema())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["$id"] = "https://arbiter.invalid/scenario.schema.json"
    return schema


if __name__ == "__main__":
    print(json.dumps(scenario_schema(), indent=2))
