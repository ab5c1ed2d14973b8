"""Placing library cards into a scenario: an object that says ``card: kornevik`` gets everything its definition gives.

Placing works on the parsed YAML, before validation, so the placed scenario is validated, checked
against its game's vocabulary and solved like any other:

- the object gets the card's name, types, attributes, properties, abilities, flags and stack action;
  what the object restates overrides the card: a mapping (attributes, properties, flags, an action's
  params) key by key, anything else as a whole;
- each effect the card grants becomes effect ``<object>_<effect>`` of the scenario, with the object as
  its source and the object's ``timestamp`` (when they began: required for a card in play at the start
  and for a card granting a non-static effect; a static ability of a card that enters later counts
  from its entry, which the events order);
  ``targets: self`` is the object, ``attached`` what it is attached to, ``player: controller`` its
  controller (or owner). An effect of the scenario with the same id restates it and replaces it;
- a ``declare`` or ``trigger`` event whose source is the object, of a kind the card grants, gets the
  card's parameters for every parameter it does not give.

Everything the card adds is located at the object's ``card:`` value, and an error there names the card
and where it is defined.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pathlib import Path

from models.cards import (
    Card, CardEffect, CardLibrary, CardSelector, CardSource, find_sources, load_library, nearest, scenario_path,
    uses_cards,
)
from models.yamlsafe import LineMap, LoadError, LoadErrors
from models.yamltree import KeyPath

#: mappings an object's restatement merges key by key with its card's (an action's params too)
MERGED = ("attributes", "properties", "flags", "action")
#: what a card gives an object, in this order
CARD_FIELDS = ("name", "types", "attributes", "properties", "abilities", "flags", "action", "triggers")
#: why an object that is no card has no timestamp
#: properties whose '+'-separated '[text]'s may name a library card by its id (Berserk 532.8, "cannot be taken
#: into a squad with [text]"): placing names every object placed as that card (``_Placer.name_cards``)
CARD_NAMING = ("not_with",)
UNPLACED_TIMESTAMP = "only an object placed as a card (card: <id>) has one: when the effects its card grants began"
#: the events that may use an action kind a card grants
ACTING_EVENTS = ("declare", "trigger")
#: an error message about one effect of the scenario: 'effects[3].id: ...'
_EFFECT = re.compile(r"^effects\[(\d+)\]")


@dataclass
class Placement:
    """A scenario with its cards placed: the new data, its line map, and a note per card reference position."""

    data: Any
    linemap: LineMap
    notes: dict[tuple[int, int], str] = field(default_factory=dict)
    #: the scenario's effects a card granted, by index: the note naming the card's effect and where it is defined
    granted: dict[int, str] = field(default_factory=dict)
    #: the cards that could not be placed (``place_cards(..., collect=True)``): located errors; those objects are
    #: left without their card
    errors: list[LoadError] = field(default_factory=list)

    def annotate(self, errors: list[LoadError]) -> list[LoadError]:
        """Errors located at a card reference, with the card named: ' (from card 'x', defined at f.yaml:3:5)'; an
        error about an effect a card granted names that effect of the card and where it is defined."""
        out = []
        for e in errors:
            m = _EFFECT.match(e.message)
            note = self.granted.get(int(m.group(1))) if m else None
            note = note or self.notes.get((e.line, e.col))
            out.append(LoadError(e.file, e.line, e.col, e.message + note) if note and note not in e.message else e)
        return out


class _Placer:
    """Places the cards of one scenario; collects located errors."""

    def __init__(self, data: dict, linemap: LineMap, file: str, library: CardLibrary | None,
                 collect: bool = False, broken: bool = False) -> None:
        self.d, self.lm, self.file, self.lib, self.collect = data, linemap, file, library, collect
        self.broken = broken
        self.errors: list[LoadError] = []
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        self.notes: dict[tuple[int, int], str] = {}
        self.effects: list[tuple[dict, tuple[int, int], str]] = []
        self.granted_notes: dict[int, str] = {}
        self.granted: dict[str, Card] = {}

    def error(self, path: KeyPath, message: str) -> None:
        """A located error."""
        self.errors.append(LoadError(self.file, *self.lm.locate(path), message))

    def run(self) -> Placement:
        """The placed scenario (LoadErrors when a card cannot be placed; with ``collect``, in its ``errors``)."""
        out = {k: v for k, v in self.d.items() if k != "cards"}
        objects = self.d.get("objects")
        if isinstance(objects, list):
            out["objects"] = [self.place(i, o) for i, o in enumerate(objects)]
            self.name_cards(out["objects"])
            if self.effects and isinstance(self.d.get("effects", []), list):  # else the model says what is wrong
                out["effects"] = self.merged_effects()
            if isinstance(self.d.get("events"), list):
                out["events"] = [self.event(j, ev) for j, ev in enumerate(self.d["events"])]
        placement = Placement(out, self.lm.with_positions(self.positions), self.notes, self.granted_notes)
        if self.errors and not self.collect:
            raise LoadErrors(placement.annotate(self.errors))
        placement.errors = placement.annotate(self.errors)
        return placement

    # -- objects ---------------------------------------------------------------------------------------------
    def place(self, i: int, o: Any) -> Any:
        """One object: unchanged, or merged with its card."""
        if not isinstance(o, dict) or not isinstance(o.get("card"), str):
            if isinstance(o, dict) and "timestamp" in o:
                self.error(("objects", i, "timestamp"), f"objects[{i}].timestamp: {UNPLACED_TIMESTAMP}")
            return o
        ref, here = o["card"], ("objects", i, "card")
        card = self.lib.get(ref) if self.lib else None
        if card is None:
            self.unknown(here, i, ref)
            return {k: v for k, v in o.items() if k not in ("card", "timestamp")}
        pos = self.lm.locate(here)
        self.notes[pos] = f" (from card '{ref}', defined at {card.where})"
        obj = _merged(card, o)
        self.locate_added(("objects", i), obj, pos)
        self.card_effects(i, card, o, pos)
        if isinstance(o.get("id"), str):
            self.granted[o["id"]] = card
        return obj

    def name_cards(self, objects: list) -> None:
        """A '[text]' of a ``CARD_NAMING`` property naming a library card by its id names every object placed as
        that card (and still whatever else in the scenario answers to it); one nothing here answers to is dropped."""
        if self.lib is None:
            return
        placed_as: dict[str, list[str]] = {}
        for oid, card in self.granted.items():
            placed_as.setdefault(card.definition.id, []).append(oid)
        answers: set[str] = set()
        for o in (x for x in objects if isinstance(x, dict)):
            answers |= {v for v in (o.get("id"), o.get("name")) if isinstance(v, str)}
            answers |= {t for t in o.get("types") or [] if isinstance(t, str)}
            props = o.get("properties") if isinstance(o.get("properties"), dict) else {}
            answers |= {v for k, v in props.items() if isinstance(v, str) and k not in CARD_NAMING}
        for i, o in enumerate(objects):
            if not isinstance(o, dict) or not isinstance(o.get("properties"), dict):
                continue
            for name in CARD_NAMING:
                text = o["properties"].get(name)
                if not isinstance(text, str):
                    continue
                parts = [p.strip() for p in text.split("+") if p.strip()]
                if all(self.lib.get(p) is None for p in parts):
                    continue
                named: list[str] = []
                for p in parts:
                    if self.lib.get(p) is None or p in answers:
                        named.append(p)
                    if self.lib.get(p) is not None:
                        named += placed_as.get(p, [])
                props = {k: v for k, v in o["properties"].items() if k != name}
                if named:
                    props[name] = "+".join(dict.fromkeys(named))
                o = objects[i] = {**o, "properties": props}  # a copy: the data as written stays as it was

    def unknown(self, here: KeyPath, i: int, ref: str) -> None:
        """A card reference the library does not define (or there is no library)."""
        if ref.startswith("$"):
            self.error(here, f"objects[{i}].card: '{ref}' is a slot of a sweep template: run `arbiter sweep` on this "
                             f"file, which fills it with each card of a pool")
            return
        if self.broken:
            self.error(here, f"objects[{i}].card: card '{ref}' is not in what loaded of its library (see the "
                             f"library's errors)")
            return
        if self.lib is None or not self.lib.cards:
            game = self.d.get("game")
            self.error(here, f"objects[{i}].card: no card library for '{ref}': give `cards:` (files or folders), "
                             f"--cards, or put the cards in a folder cards/{game}/ next to the scenario or above it, "
                             f"inside its project (the nearest folder up holding .git or pyproject.toml)")
            return
        known = self.lib.ids()
        shown = ", ".join(known[:12]) + (" ..." if len(known) > 12 else "")
        self.error(here, f"objects[{i}].card: unknown card '{ref}' for {self.lib.game}"
                         f"{nearest(ref, known) or f' (known: {shown})'}")

    def locate_added(self, base: KeyPath, value: Any, pos: tuple[int, int]) -> None:
        """Every path the card added under ``base`` is located at the card reference."""
        if base not in self.lm:
            self.positions[base] = pos
        if isinstance(value, dict):
            for k, v in value.items():
                self.locate_added(base + (k,), v, pos)
        elif isinstance(value, list):
            for j, v in enumerate(value):
                self.locate_added(base + (j,), v, pos)

    # -- effects -------------------------------------------------------------------------------------------------
    def card_effects(self, i: int, card: Card, o: dict, pos: tuple[int, int]) -> None:
        """The effects the card grants, as scenario effects of this object."""
        effects = card.definition.effects
        stamp = o.get("timestamp")
        here = ("objects", i, "card")
        if effects and stamp is None and any(e.duration != "static" for e in effects):
            self.error(here, f"objects[{i}].card: card '{card.definition.id}' grants effects "
                             f"({', '.join(e.id for e in effects)}): give the object a `timestamp` (when they began; "
                             f"of conflicting effects the latest wins)")
            return
        if not effects and stamp is not None:
            self.error(("objects", i, "timestamp"), f"objects[{i}].timestamp: card '{card.definition.id}' grants no "
                                                    f"effect: remove it")
            return
        for j, e in enumerate(effects):
            made = self.effect(i, e, o, stamp)
            if made is not None:
                self.effects.append((made, pos, f" (effect '{e.id}' of card '{card.definition.id}', defined at "
                                                f"{card.effect_where(j)}, granted to object {o.get('id')})"))

    def effect(self, i: int, e: CardEffect, o: dict, stamp: Any) -> dict | None:
        """One granted effect, relative to the object ``o``; None (and an error) when it cannot be placed."""
        oid, here = o.get("id"), ("objects", i, "card")
        out: dict[str, Any] = {"id": f"{oid}_{e.id}", "source": oid, "kind": e.kind}
        if stamp is not None:  # a static ability without one counts from when the card enters (the events order it)
            out["timestamp"] = stamp
        if e.targets == "self":
            out["targets"] = [oid]
        elif e.targets == "attached":
            if o.get("attached_to") is None:
                self.error(here, f"objects[{i}].card: effect '{e.id}' of card '{o['card']}' applies to what the card "
                                 f"is attached to: give the object `attached_to`")
                return None
            out["targets"] = [o["attached_to"]]
        elif isinstance(e.targets, CardSelector):
            out["targets"] = e.targets.model_dump(exclude_none=True)
        for name in ("attribute", "value", "action", "ability"):
            if getattr(e, name) is not None:
                out[name] = getattr(e, name)
        for name in ("player", "until_player"):
            if name == "player" and e.player == "controller" and e.duration == "static":
                out[name] = "source_controller"  # a static ability's "you": whoever controls the card at each moment
                continue
            if getattr(e, name) == "controller":
                who = o.get("controller") or o.get("owner")
                if who is None:
                    self.error(here, f"objects[{i}].card: effect '{e.id}' of card '{o['card']}' names the card's "
                                     f"controller: give the object an owner or controller")
                    return None
                out[name] = who
        out["duration"] = e.duration
        if not e.active:
            out["active"] = False
        return out

    def merged_effects(self) -> list:
        """The scenario's effects, then the cards' (each unless the scenario restates its id), located."""
        mine = self.d.get("effects") or []
        restated = {e.get("id") for e in mine if isinstance(e, dict)}
        out = list(mine)
        for made, pos, note in self.effects:
            if made["id"] in restated:
                continue
            if ("effects",) not in self.lm and ("effects",) not in self.positions:
                self.positions[("effects",)] = pos  # the scenario has none: the section is where the first comes from
            self.granted_notes[len(out)] = note
            self.locate_added(("effects", len(out)), made, pos)
            out.append(made)
        return out

    # -- events ----------------------------------------------------------------------------------------------------
    def event(self, j: int, ev: Any) -> Any:
        """An action of a card's object, of a kind its card grants, gets the card's parameters it does not give."""
        if not isinstance(ev, dict) or ev.get("type") not in ACTING_EVENTS or ev.get("source") not in self.granted:
            return ev
        card = self.granted[ev["source"]]
        grant = next((a for a in card.definition.actions if a.kind == ev.get("kind")), None)
        if grant is None or not grant.params:
            return ev
        own = ev.get("params") if isinstance(ev.get("params"), dict) else {}
        self.notes.setdefault(self.lm.locate(("events", j)), f" (parameters from card '{card.definition.id}', "
                                                             f"defined at {card.where})")
        return {**ev, "params": {**grant.params, **own}}


def _merged(card: Card, o: dict) -> dict:
    """The object as its card gives it, with what the object restates on top."""
    given = card.definition.model_dump(include=set(CARD_FIELDS), exclude_none=True, exclude_defaults=True)
    out: dict[str, Any] = {"id": o.get("id")} if "id" in o else {}
    for name in CARD_FIELDS:
        if name in given and name in o and name in MERGED and isinstance(o[name], dict):
            out[name] = _merge_map(given[name], o[name])
        elif name in given and name not in o:
            out[name] = given[name]
    for k, v in o.items():
        if k not in ("card", "timestamp") and k not in out:
            out[k] = v
    return out


def _merge_map(base: dict, over: dict) -> dict:
    """A mapping key by key (an action's ``params`` too)."""
    out = {**base, **over}
    if isinstance(base.get("params"), dict) and isinstance(over.get("params"), dict):
        out["params"] = {**base["params"], **over["params"]}
    return out


def library_for(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None,
                path: Path | None = None, card_errors: list[LoadError] = ()) -> tuple[CardLibrary | None, list[LoadError]]:
    """The library a scenario's card references use, and every located problem of it (its ``cards:`` entries, its
    folders' entries, its files): ``cards`` (card files shipped with it, ``card_errors`` the problems met finding them)
    when given, else read from its ``cards:``, or the nearest ``cards/<game>/`` up its folders; (None, []) when it
    names no card. The library holds the cards of the files that loaded."""
    if not uses_cards(data):
        return None, []
    if cards is not None:
        sources, errors = cards, list(card_errors)
    else:
        sources, errors = find_sources(data, linemap, file, path or scenario_path(file))
    game = data.get("game")
    library = load_library(tuple(sources), game) if sources and isinstance(game, str) else None
    return library, errors + list(library.errors if library is not None else ())


def placed(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None,
           path: Path | None = None) -> Placement:
    """A scenario with its cards placed (unchanged when it names none); LoadErrors in the card files or the scenario."""
    if not uses_cards(data):
        return Placement(data, linemap)
    library, errors = library_for(data, linemap, file, cards, path)
    if errors:
        raise LoadErrors(errors)
    return place_cards(data, linemap, file, library)


def place_cards(data: Any, linemap: LineMap, file: str, library: CardLibrary | None,
                collect: bool = False, broken: bool = False) -> Placement:
    """Place the library cards a scenario's objects name (``card: <id>``); LoadErrors located in the scenario, or with
    ``collect`` the placement of every card that could be placed and the located errors of the others (``broken``:
    the library did not load entirely, so a card missing from it is said to be so)."""
    if not isinstance(data, dict):
        return Placement(data, linemap)
    return _Placer(data, linemap, file, library, collect, broken).run()
