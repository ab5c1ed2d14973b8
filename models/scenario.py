"""The scenario: players, board, objects, effects, turn state, events and expectations."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from models.base import Id, Instruction, Name, RuleId, Strict, Value
from models.effects import Effect, Selector, Trigger
from models.game_events import GAMES, Event
from models.expectations import Claim, Expectation
from models.timeline import check_timeline

#: Hard limits on scenario size; larger input is rejected with a clear error.
LIMITS = {
    "players": 16,
    "objects": 5000,
    "effects": 2000,
    "events": 200,
    "expectations": 500,
    "cells": 2500,
    "claims": 50,
}
#: the scenario field each limit counts, where the names differ
LIMIT_FIELDS = {"expectations": "expect"}

PlayerStatus = Literal["in_game", "left", "lost", "won", "conceded", "eliminated"]
PLAYER_STATUSES: tuple[str, ...] = ("in_game", "left", "lost", "won", "conceded", "eliminated")


class Player(Strict):
    """A player, listed in turn order."""

    id: Id
    name: str | None = Field(default=None, max_length=200)
    team: Id | None = None
    status: PlayerStatus = "in_game"
    attributes: dict[Name, Value] = Field(default_factory=dict, description="Numeric player values (life, VP, hand size ...).")
    flags: dict[Name, bool] = Field(default_factory=dict, description="Boolean player markers (passed_priority, passed_focus ...).")


class Board(Strict):
    """Board geometry: named cells and which cells are adjacent (symmetric)."""

    rows: int | None = Field(default=None, ge=1, le=50, description="Grid rows; generates cells r1c1 .. rNcM with orthogonal adjacency.")
    cols: int | None = Field(default=None, ge=1, le=50)
    cells: list[Id] = Field(default_factory=list)
    adjacent: dict[Id, list[Id]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _cell_limit(self) -> "Board":
        n = len(self.cells) + (self.rows or 0) * (self.cols or 0)
        if n > LIMITS["cells"]:
            raise ValueError(f"too many cells: {n} (limit {LIMITS['cells']})")
        return self

    def all_cells(self) -> list[str]:
        """Every cell id: explicit cells plus the generated grid."""
        out = list(self.cells)
        if self.rows and self.cols:
            out += [f"r{r}c{c}" for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]
        return out

    def neighbours(self) -> dict[str, set[str]]:
        """Symmetric adjacency of every cell."""
        adj: dict[str, set[str]] = {c: set() for c in self.all_cells()}
        if self.rows and self.cols:
            for r in range(1, self.rows + 1):
                for c in range(1, self.cols + 1):
                    for dr, dc in ((0, 1), (1, 0)):
                        if r + dr <= self.rows and c + dc <= self.cols:
                            a, b = f"r{r}c{c}", f"r{r + dr}c{c + dc}"
                            adj[a].add(b)
                            adj[b].add(a)
        for a, bs in self.adjacent.items():
            for b in bs:
                adj.setdefault(a, set()).add(b)
                adj.setdefault(b, set()).add(a)
        return adj


class ActionSpec(Strict):
    """What a stack object or declared action does: its kind, targets and parameters."""

    kind: Name
    targets: list[Id] = Field(default_factory=list)
    params: dict[Name, Value | Name] = Field(default_factory=dict)
    instructions: list[Instruction] = Field(default_factory=list, description=(
        "What it does, in order, as one resolution (a game whose kind reads instructions: MTG 608.2c)."))
    source: Id | None = Field(default=None, description=(
        "For a stack (chain) item: the card whose spell or ability it is. Its prohibitions and permissions for the "
        "kind apply, and a cost paid by the source is its; who controls the item is the object's controller."))


class GameObject(Strict):
    """A card, token, unit, component, ability on the stack or marker."""

    id: Id
    name: str | None = Field(default=None, max_length=200)
    owner: Id | None = Field(default=None, description="Owning player; none for game-owned components.")
    controller: Id | None = Field(default=None, description="Default controller (without control effects); defaults to the owner.")
    zone: Name = Field(description="Zone name of the game (battlefield, play, hand, stack, box ...); 'none' = does not exist (yet).")
    cell: Id | None = None
    types: list[Name] = Field(default_factory=list)
    attributes: dict[Name, Value] = Field(default_factory=dict, description="Numeric values: life, power, strike, tokens ...")
    properties: dict[Name, Name] = Field(default_factory=dict, description="Categorical values: alignment, color, faction ...")
    abilities: list[Name] = Field(default_factory=list, description="Named abilities the object has.")
    flags: dict[Name, bool] = Field(default_factory=dict, description="open, revealed, facedown, tapped ...")
    attached_to: Id | None = None
    token: bool = False
    card: bool | Id = Field(default=True, description=(
        "true/false: it is a card (false for an ability on the stack); a card id: the object is that card of the "
        "library, with everything its definition gives (what the object restates overrides it)."))
    timestamp: int | None = Field(default=None, ge=0, le=1_000_000, description=(
        "For an object placed as a card: when the effects its card grants began (required when it grants some)."))
    action: ActionSpec | None = Field(default=None, description="For stack objects: what it does when it resolves.")
    status: Name | None = Field(default=None, description="For stack objects: initial action status (default on_stack when in the stack zone).")
    triggers: list[Trigger] = Field(default_factory=list, max_length=20, description=(
        "Triggered effects: at the start/end of its controller's turn, while it is in play."))

    @model_validator(mode="after")
    def _distinct_triggers(self) -> "GameObject":
        ids = [t.id for t in self.triggers]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"object {self.id}: trigger '{twice[0]}' is defined twice")
        return self


class TurnState(Strict):
    """Whose turn it is and who holds priority / focus, with passes already made."""

    active_player: Id | None = None
    priority: Id | None = None
    focus: Id | None = None
    phase: Name | None = None
    showdown: bool = False
    turn_order_next: Id | None = Field(default=None, description="Player whose turn would begin next.")


class Scenario(Strict):
    """A game state, the events that happen to it, and what is expected afterwards."""

    id: Id
    game: Literal[GAMES]  # type: ignore[valid-type]  # the games with an events module, core first
    title: str | None = Field(default=None, max_length=500)
    description: str | None = Field(default=None, max_length=5000)
    source: str | None = Field(default=None, max_length=1000, description="Where the example comes from (seed file, rule).")
    rules: list[RuleId] = Field(default_factory=list, description="Rule ids this scenario exercises.")
    options: dict[Name, Value | Name | bool] = Field(default_factory=dict, description="Ruleset data overrides (e.g. strike tiers).")
    players: list[Player] = Field(min_length=1)
    board: Board | None = None
    zones: list[Name] = Field(default_factory=list, description="Extra zone names beyond the game's own.")
    cards: list[str] = Field(default_factory=list, max_length=50, description=(
        "Card libraries its `card:` references use: files or folders, relative to this file (default: the nearest "
        "cards/<game>/ up its folders)."))
    objects: list[GameObject] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    turn: TurnState = Field(default_factory=TurnState)
    events: list[Event] = Field(default_factory=list)
    expect: list[Expectation] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list, description="Victory claims (decisive advantage, forced win).")

    @model_validator(mode="before")
    @classmethod
    def _sizes_first(cls, data):
        """Refuse oversized input before validating its items (fast), naming the first item over the limit."""
        if isinstance(data, dict):
            for name, limit in LIMITS.items():
                items = data.get(LIMIT_FIELDS.get(name, name))
                if isinstance(items, list) and len(items) > limit:
                    raise ValueError(f"too many {name}: {len(items)} (limit {limit}); "
                                     f"{LIMIT_FIELDS.get(name, name)}[{limit}] is one too many")
        return data

    @model_validator(mode="after")
    def _sizes_and_references(self) -> "Scenario":
        for name, limit in LIMITS.items():
            field = LIMIT_FIELDS.get(name, name)
            items = getattr(self, field, None)
            if field == "cells":
                items = self.board.all_cells() if self.board else []
            if items is not None and len(items) > limit:
                raise ValueError(f"too many {name}: {len(items)} (limit {limit})")
        check_references(self)
        check_timeline(self)
        return self


class ScenarioProblems(ValueError):
    """Several problems of one scenario, each at a key path (``("objects", 2, "owner")``); raised by validation,
    the loader reports every one at its own line."""

    def __init__(self, problems: list[tuple[tuple, str]]) -> None:
        super().__init__("; ".join(_at(path, msg) for path, msg in problems))
        self.problems = problems


def _at(path: tuple, message: str) -> str:
    """'objects[2].owner: message'."""
    where = ""
    for p in path:
        where += f"[{p}]" if isinstance(p, int) else (f".{p}" if where else str(p))
    return f"{where}: {message}" if where else message


def _declared_ids(sc: "Scenario") -> dict[str, list[tuple[tuple, str]]]:
    """Every declared id by kind, with where it is declared (in order)."""
    out: dict[str, list[tuple[tuple, str]]] = {
        "player": [(("players", i, "id"), p.id) for i, p in enumerate(sc.players)],
        "object": [(("objects", i, "id"), o.id) for i, o in enumerate(sc.objects)],
        "effect": [(("effects", i, "id"), e.id) for i, e in enumerate(sc.effects)],
        "cell": [(("board", "cells", i), c) for i, c in enumerate(sc.board.cells)] if sc.board else [],
    }
    for i, ev in enumerate(sc.events):
        if ev.declared_id():
            out["object"].append((("events", i, "id"), ev.declared_id()))
        if ev.declared_effect_id():
            out["effect"].append((("events", i, "effect", "id"), ev.declared_effect_id()))
    if sc.board and sc.board.rows and sc.board.cols:
        out["cell"] += [(("board",), c) for c in sc.board.all_cells()[len(sc.board.cells):]]
    return out


def reference_problems(sc: "Scenario") -> list[tuple[tuple, str]]:
    """Every duplicate id, reference to an unknown player/object/cell/effect and cyclic attachment, with where."""
    ids = _declared_ids(sc)
    out: list[tuple[tuple, str]] = []
    for kind, declared in ids.items():
        seen: set[str] = set()
        for path, value in declared:
            if value in seen:
                out.append((path, f"duplicate {kind} id: {value}"))
            seen.add(value)
    known = {kind: {v for _, v in declared} for kind, declared in ids.items()}
    pset, oset, cset = known["player"], known["object"], known["cell"]
    known["object or player"] = oset | pset  # an event field that names either (a target, a damaged thing)

    def need(kind: str, value: str | None, pool: set[str], path: tuple) -> None:
        if value is not None and value not in pool:
            other = next((k for k in ("player", "object", "cell") if k != kind and value in known[k]), None)
            art = "an" if kind[0] in "aeiou" else "a"
            tail = f": '{value}' is a {other}, and this field names {art} {kind}" if other else ""
            out.append((path, f"unknown {kind} '{value}'{tail}"))

    for i, o in enumerate(sc.objects):
        need("player", o.owner, pset, ("objects", i, "owner"))
        need("player", o.controller, pset, ("objects", i, "controller"))
        need("cell", o.cell, cset, ("objects", i, "cell"))
        need("object", o.attached_to, oset, ("objects", i, "attached_to"))
        for j, t in enumerate(o.action.targets if o.action else []):
            need("object or player", t, oset | pset, ("objects", i, "action", "targets", j))
        for j, ins in enumerate(o.action.instructions if o.action else []):
            for k, t in enumerate(ins.targets):
                need("object or player", t, oset | pset, ("objects", i, "action", "instructions", j, "targets", k))
        need("object", o.action.source if o.action else None, oset, ("objects", i, "action", "source"))
    for i, e in enumerate(sc.effects):
        _effect_references(e, ("effects", i), pset, oset, cset, need, out)
    for name in ("active_player", "priority", "focus", "turn_order_next"):
        need("player", getattr(sc.turn, name), pset, ("turn", name))
    by_id = {o.id: o for o in sc.objects}
    for i, o in enumerate(sc.objects):
        seen, cur = {o.id}, o.attached_to
        while cur is not None and cur in by_id:
            if cur in seen:
                out.append((("objects", i, "attached_to"), f"object {o.id}: cyclic attachment through '{cur}'"))
                break
            seen.add(cur)
            cur = by_id[cur].attached_to
    for i, ev in enumerate(sc.events):
        for kind, ref in ev.references():
            need(kind, ref, known[kind], ("events", i) + _field_of(ev, ref))
    actions = {o.id for o in sc.objects if o.action is not None} | {e.declared_id() for e in sc.events
                                                                    if e.type == "declare" or e.creates_action}
    for i, ev in enumerate(sc.events):
        if ev.type in ("resolve", "start_execution", "finish_execution") and ev.action in oset - actions:
            out.append((("events", i, "action"), f"'{ev.action}' is not an action (declare it, or give the object an "
                                                 f"'action')"))
    for i, ex in enumerate(sc.expect):
        for kind, ref in ex.references():
            need(kind, ref, known[kind], ("expect", i) + _field_of(ex, ref))
        if ex.at is not None and ex.at > len(sc.events):
            out.append((("expect", i, "at"), f"'at' {ex.at} is past the last event (there are {len(sc.events)})"))
    return out


def _effect_references(e: Effect, path: tuple, pset, oset, cset, need, out: list) -> None:
    """The references of one effect: source, controller, players, targets, selector."""
    need("object", e.source, oset, path + ("source",))
    need("player", e.controller, pset, path + ("controller",))
    if e.player != "source_controller":  # whoever controls the source (models.effects.SOURCE_CONTROLLER)
        need("player", e.player, pset, path + ("player",))
    need("player", e.until_player, pset, path + ("until_player",))
    if isinstance(e.targets, Selector):
        for j, t in enumerate(e.targets.objects or []):
            need("object or player", t, oset | pset, path + ("targets", "objects", j))
        if e.targets.controlled_by not in (None, "source_controller", "source_opponent"):
            need("player", e.targets.controlled_by, pset, path + ("targets", "controlled_by"))
        if e.targets.cell not in (None, "source", "adjacent"):
            need("cell", e.targets.cell, cset, path + ("targets", "cell"))
        if e.targets.cell in ("source", "adjacent") and e.source is None:
            out.append((path + ("targets", "cell"), f"effect {e.id}: selector cell '{e.targets.cell}' needs a source"))
        if e.targets.other and e.source is None:
            out.append((path + ("targets", "other"), f"effect {e.id}: selector 'other' (all but the source) needs a source"))
    else:
        for j, t in enumerate(e.targets):
            need("object or player", t, oset | pset, path + ("targets", j))


def _field_of(item, value: str) -> tuple:
    """The field (and index or key) of an event or expectation that holds ``value``, for locating a reference."""
    for name in type(item).model_fields:
        v = getattr(item, name)
        if v == value:
            return (name,)
        if isinstance(v, list) and value in v:
            return (name, v.index(value))
        if isinstance(v, dict) and value in v:
            return (name, value)
        if isinstance(v, dict) and value in v.values():
            return (name, next(k for k, x in v.items() if x == value))
        if isinstance(v, BaseModel):
            inner = _field_of(v, value)
            if inner:
                return (name,) + inner
    return ()


def card_problems(sc: "Scenario") -> list[tuple[tuple, str]]:
    """Card references left unplaced: a scenario validated without its library (``models/card_use.py`` places them
    when it is loaded from a file or text)."""
    out = []
    for i, o in enumerate(sc.objects):
        if isinstance(o.card, str):
            out.append((("objects", i, "card"), f"card '{o.card}' is not placed: load the scenario from its file or "
                                                f"text (its card library), not as plain data"))
        elif o.timestamp is not None:
            out.append((("objects", i, "timestamp"), "only an object placed as a card (card: <id>) has one: when the "
                                                     "effects its card grants began"))
    return out


def check_references(sc: Scenario) -> None:
    """Reject duplicate ids, references to unknown players/objects/cells/effects and cyclic attachments: every
    problem at once (``ScenarioProblems``)."""
    found = reference_problems(sc) + card_problems(sc)
    if found:
        raise ScenarioProblems(found)
