"""JSON Schemas (draft-07) generated from the vocabularies: one per game, and one that selects by ``game:``.

A game's schema is the scenario schema (``models/schema.py``) with the game's words as
enums (zones, types, abilities, attributes, flags, action kinds, event types and their
fields, statuses, options), each with its meaning (``enumDescriptions``, which editors
show), and without the fields the game does not read. An editor given it completes the
words and flags mistakes; the closed-world check (``check.py``) says the same at
file:line:col. The combined schema applies a game's schema when ``game`` names it
(``if``/``then``, which draft-07 has).
"""
from __future__ import annotations

from typing import Any

from models.schema import scenario_schema
from solver.registry import names, vocabulary_for
from solver.vocabulary.shared import FEATURE_PATHS, FEATURES
from solver.vocabulary.words import Ability, Number, Switch, Text, Vocabulary, Word

DRAFT07 = "http://json-schema.org/draft-07/schema#"
NOTHING: dict = {"not": {}}


# -- small schemas ------------------------------------------------------------------------------------------
def enum(words: tuple[Word, ...] | list[Word], description: str = "") -> dict:
    """A string that is one of the words (with each word's meaning for editors); nothing when there is none."""
    if not words:
        return {**NOTHING, "description": description or "none in this game"}
    out = {"type": "string", "enum": [w.name for w in words], "enumDescriptions": [w.meaning for w in words]}
    return {**out, "description": description} if description else out


def ability_item(abilities: tuple[Ability, ...]) -> dict:
    """An ability: a plain one by name, or one with its number ("incarnation 3")."""
    plain = [a for a in abilities if not a.param]
    numbered = [{"type": "string", "pattern": f"^{a.name} [0-9]+$", "description": f"{a.name} {a.param}: {a.meaning}"}
                for a in abilities if a.param]
    parts = ([enum(plain)] if plain else []) + numbered
    return parts[0] if len(parts) == 1 else {"anyOf": parts} if parts else dict(NOTHING)


def value_schema(word: Word) -> dict:
    """The schema of one value: a number's range, a switch, a text's values or pattern."""
    if isinstance(word, Number):
        return {"type": "integer", "minimum": word.lo, "maximum": word.hi, "description": word.meaning}
    if isinstance(word, Switch):
        return {"type": "boolean", "description": word.meaning}
    if isinstance(word, Text) and word.values:
        return {"type": "string", "enum": list(word.values), "description": word.meaning}
    if isinstance(word, Text) and word.pattern:
        return {"type": "string", "pattern": word.pattern, "description": word.meaning}
    return {"type": "string", "description": word.meaning}


def keyed(words: tuple[Word, ...], value: dict | None = None) -> dict:
    """A mapping whose keys are the words: each with its value schema (or ``value``), nothing else."""
    props = {w.name: ({**value, "description": w.meaning} if value is not None else value_schema(w)) for w in words}
    return {"type": "object", "properties": props, "additionalProperties": False}


# -- walking the scenario schema ------------------------------------------------------------------------------
class _Schema:
    """One game's copy of the scenario schema, patched in place."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.v = vocab
        self.s = scenario_schema()  # a fresh copy already
        self.defs: dict[str, dict] = self.s["definitions"]

    def d(self, name: str) -> dict:
        """A definition's properties."""
        return self.defs[name]["properties"]

    def put(self, definition: str, field: str, schema: dict) -> None:
        """Replace a field's value schema (keeping null where the field may be null, and its title)."""
        props = self.d(definition) if definition != "Scenario" else self.s["properties"]
        old = props[field]
        nullable = any(alt.get("type") == "null" for alt in old.get("anyOf", []))
        new = {"anyOf": [schema, {"type": "null"}]} if nullable else dict(schema)
        props[field] = {**{k: old[k] for k in ("title", "default") if k in old}, **new}

    def targets(self, pattern: tuple[str, ...]) -> list[tuple[dict, str]]:
        """(properties mapping, field) pairs a feature path names, through refs, lists and unions."""
        found: list[tuple[dict, str]] = []

        def walk(node: dict, rest: tuple[str, ...]) -> None:
            node = self._resolve(node)
            for alt in node.get("anyOf", []) + node.get("oneOf", []):
                walk(alt, rest)
            if rest[0] == "*":
                if "items" in node:
                    walk(node["items"], rest[1:])
                return
            props = node.get("properties", {})
            if rest[0] in props:
                if len(rest) == 1:
                    found.append((props, rest[0]))
                else:
                    walk(props[rest[0]], rest[1:])
        walk(self.s, pattern)
        return found

    def _resolve(self, node: dict) -> dict:
        ref = node.get("$ref")
        return self.defs[ref.split("/")[-1]] if ref else node

    # -- the patches -------------------------------------------------------------------------------------------
    def build(self) -> dict:
        """The game's schema."""
        v = self.v
        self.s["properties"]["game"] = {"const": v.game, "title": "Game", "description": "The game: " + v.game}
        self.s["$id"] = f"https://arbiter.invalid/{v.game}.schema.json"
        self.s["title"] = f"Arbiter scenario: {v.game}"
        self.features()
        self.objects()
        self.effects()
        self.events()
        self.expectations()
        self.put("Scenario", "options", keyed(v.options))
        return self.s

    def features(self) -> None:
        """Fields the game does not read are removed (so the editor flags them: additionalProperties is false)."""
        mine = set(self.v.names("features"))
        for f in FEATURES:
            if f.name not in mine:
                for pattern in FEATURE_PATHS[f.name]:
                    for props, field in self.targets(pattern):
                        props.pop(field, None)

    def flags(self, expectation: bool) -> dict:
        """Object flags: stored ones, and in expectations the computed ones too."""
        words = self.v.flags + (self.v.derived_flags if expectation else ())
        return keyed(words, {"type": "boolean"})

    def objects(self) -> None:
        """Players' statuses, attributes and flags; objects' words; the action spec."""
        v = self.v
        self.put("Player", "status", enum(v.statuses))
        if "player_attributes" not in {d.category for d in v.declared}:
            self.put("Player", "attributes", keyed(v.player_attributes))
        if "player_flags" not in {d.category for d in v.declared}:
            self.put("Player", "flags", keyed(v.player_flags, {"type": "boolean"}))
        self.put("GameObject", "zone", enum(v.zones))
        self.put("GameObject", "types", {"type": "array", "items": enum(v.types)})
        self.put("GameObject", "attributes", keyed(v.attributes))
        self.put("GameObject", "properties", keyed(v.properties))
        self.put("GameObject", "abilities", {"type": "array", "items": ability_item(v.abilities)})
        self.put("GameObject", "flags", self.flags(expectation=False))
        self.put("GameObject", "status", enum(v.action_statuses))
        requires = [{"if": {"properties": {"types": {"contains": {"const": t.name}}}, "required": ["types"]},
                     "then": {"properties": {"types": {"allOf": [{"contains": {"const": r}} for r in t.requires]}}}}
                    for t in v.types if getattr(t, "requires", ())]
        if requires:
            self.defs["GameObject"]["allOf"] = requires
        self.action_kinds("ActionSpec")
        self.put("Selector", "types", {"type": "array", "items": enum(v.types)})
        self.put("Selector", "zone", enum(v.zones))
        if "Trigger" in self.defs:  # a game that reads triggers: the attribute one adds to is the game's
            self.put("Trigger", "attribute", enum(v.attributes))

    def action_kinds(self, definition: str) -> None:
        """An action's kind, and per kind how many targets and which parameters (``if``/``then``)."""
        v = self.v
        self.put(definition, "kind", enum(v.actions))
        rules = []
        for a in v.actions:
            params = {"type": "object", "properties": {p.name: value_schema(p) for p in a.params},
                      "additionalProperties": False,
                      **({"required": [p.name for p in a.params if getattr(p, "required", False)]}
                         if any(getattr(p, "required", False) for p in a.params) else {})}
            then = {"properties": {"targets": {"type": "array", "minItems": a.targets[0], "maxItems": a.targets[1]},
                                   "params": params}}
            if any(getattr(p, "required", False) for p in a.params):
                then["required"] = ["params"]
            rules.append({"if": {"properties": {"kind": {"const": a.name}}, "required": ["kind"]}, "then": then})
        if rules:
            self.defs[definition].setdefault("allOf", []).extend(rules)

    def effects(self) -> None:
        """What an effect sets, permits or grants."""
        v = self.v
        self.put("Effect", "attribute", enum(v.attributes + v.properties))
        self.put("Effect", "action", enum(self.permissions()))
        self.put("Effect", "ability", ability_item(v.abilities))

    def permissions(self) -> tuple[Word, ...]:
        """What an effect may permit or prohibit: permissions, action kinds and abilities."""
        seen: dict[str, Word] = {}
        for w in self.v.permissions + self.v.actions + tuple(a for a in self.v.abilities if not a.param):
            seen.setdefault(w.name, w)
        return tuple(seen.values())

    def events(self) -> None:
        """Only the game's event types, each with only the fields its rules read, words as enums."""
        v = self.v
        by_type = {d["properties"]["type"].get("const"): name for name, d in self.defs.items()
                   if "type" in d.get("properties", {}) and "const" in d["properties"]["type"]}
        mine = {e.name: e for e in v.events}
        items = self.s["properties"]["events"]["items"]
        items["oneOf"] = [alt for alt in items["oneOf"] if self._resolve(alt)["properties"]["type"]["const"] in mine]
        for t, e in mine.items():
            definition = by_type[t]
            props = self.d(definition)
            keep = {f.name for f in e.fields} | {"type", "note"}
            for field in [f for f in props if f not in keep]:
                props.pop(field)
            for f in e.fields:
                if isinstance(f, Text) and f.words in CATEGORY_WORDS and f.name in props:
                    words = CATEGORY_WORDS[f.words](v)
                    item = ability_item(v.abilities) if f.words == "abilities" else enum(words)
                    is_list = props[f.name].get("type") == "array"
                    self.put(definition, f.name, {"type": "array", "items": item} if is_list else item)
                elif isinstance(f, Text) and f.values and f.name in props:
                    item = value_schema(f)
                    is_list = props[f.name].get("type") == "array"  # a list of such values (an event's list field)
                    self.put(definition, f.name, {"type": "array", "items": item} if is_list else item)
            if t in ("declare", "trigger"):
                self.action_kinds(definition)

    def expectations(self) -> None:
        """An expectation's words."""
        v = self.v
        self.put("Expectation", "zone", enum(v.zones))
        self.put("Expectation", "attributes", keyed(v.attributes, {"type": "integer"}))
        self.put("Expectation", "properties", keyed(v.properties))
        self.put("Expectation", "flags", self.flags(expectation=True))
        self.put("Expectation", "abilities", {"type": "object", "propertyNames": ability_item(v.abilities),
                                              "additionalProperties": {"type": "boolean"}})
        self.put("Expectation", "allowed", keyed(self.permissions(), {"type": "boolean"}))
        self.put("Expectation", "status", enum(v.statuses))
        self.put("Expectation", "action_status", enum(v.action_statuses))
        if "player_attributes" not in {d.category for d in v.declared}:
            self.put("Expectation", "player_attributes", keyed(v.player_attributes, {"type": "integer"}))
        if "player_flags" not in {d.category for d in v.declared}:
            self.put("Expectation", "player_flags", keyed(v.player_flags, {"type": "boolean"}))


#: the words a Text field of category ``words`` may take
CATEGORY_WORDS = {
    "zones": lambda v: v.zones, "types": lambda v: v.types, "attributes": lambda v: v.attributes,
    "flags": lambda v: v.flags, "actions": lambda v: v.actions, "abilities": lambda v: v.abilities,
    "player_attributes": lambda v: v.player_attributes,
}


def game_schema(game: str) -> dict:
    """The draft-07 schema of one game's scenarios."""
    return _Schema(vocabulary_for(game)).build()


def _prefixed(schema: dict, prefix: str) -> Any:
    """The schema with its definitions renamed ``<prefix>.<name>`` (and every reference to them)."""
    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: (v.replace("#/definitions/", f"#/definitions/{prefix}.") if k == "$ref" else walk(v))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [walk(x) for x in node]
        return node
    return walk(schema)


def combined_schema() -> dict:
    """One draft-07 schema for every game: ``game`` selects the game's schema (``if``/``then``)."""
    definitions: dict[str, Any] = {}
    branches = []
    for g in names():
        s = _prefixed(game_schema(g), g)
        definitions.update({f"{g}.{k}": v for k, v in s.pop("definitions").items()})
        for k in ("$schema", "$id"):
            s.pop(k, None)
        definitions[f"{g}.Scenario"] = s
        branches.append({"if": {"properties": {"game": {"const": g}}, "required": ["game"]},
                         "then": {"$ref": f"#/definitions/{g}.Scenario"}})
    return {"$schema": DRAFT07, "$id": "https://arbiter.invalid/scenario.schema.json",
            "title": "Arbiter scenario (any game)", "type": "object", "required": ["id", "game", "players"],
            "properties": {"game": {"enum": list(names()), "description": "The game: it selects the words"}},
            "allOf": branches, "definitions": definitions}
