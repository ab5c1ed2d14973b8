"""The scenario: players, board, objects, effects, turn state, events and expectations."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from models.base import Id, Name, RuleId, Strict, Value
from models.effects import Effect, Selector
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
    card: bool = True
    action: ActionSpec | None = Field(default=None, description="For stack objects: what it does when it resolves.")
    status: Name | None = Field(default=None, description="For stack objects: initial action status (default on_stack when in the stack zone).")


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


def _where_again(sc: "Scenario", kind: str, dup: str) -> str:
    """' (again at SECTION[i])': where a duplicate id appears for the second time, for the error's line."""
    places = []
    section = {"player": "players", "object": "objects", "effect": "effects"}.get(kind)
    if section:
        places += [(f"{section}[{i}]", x.id) for i, x in enumerate(getattr(sc, section))]
    places += [(f"events[{i}]", ev.declared_id() if kind == "object" else ev.declared_effect_id())
               for i, ev in enumerate(sc.events) if kind in ("object", "effect")]
    hits = [where for where, i in places if i == dup]
    return f" (again at {hits[1]})" if len(hits) > 1 else ""


def _dupes(ids: list[str]) -> list[str]:
    seen: set[str] = set()
    return sorted({i for i in ids if i in seen or seen.add(i)})


def check_references(sc: Scenario) -> None:
    """Reject duplicate ids, references to unknown players/objects/cells/effects and cyclic attachments."""
    players = [p.id for p in sc.players]
    objects = [o.id for o in sc.objects] + [e.declared_id() for e in sc.events if e.declared_id()]
    effects = [e.id for e in sc.effects] + [e.declared_effect_id() for e in sc.events if e.declared_effect_id()]
    cells = sc.board.all_cells() if sc.board else []
    for kind, ids in (("player", players), ("object", objects), ("effect", effects), ("cell", cells)):
        d = _dupes(ids)
        if d:
            raise ValueError(f"duplicate {kind} id: {', '.join(d)}{_where_again(sc, kind, d[0])}")
    pset, oset, cset = set(players), set(objects), set(cells)

    def need(kind: str, value: str | None, known: set[str], where: str) -> None:
        if value is not None and value not in known:
            raise ValueError(f"{where}: unknown {kind} '{value}'")

    for o in sc.objects:
        need("player", o.owner, pset, f"object {o.id} owner")
        need("player", o.controller, pset, f"object {o.id} controller")
        need("cell", o.cell, cset, f"object {o.id} cell")
        need("object", o.attached_to, oset, f"object {o.id} attached_to")
        if o.action:
            for t in o.action.targets:
                need("object or player", t, oset | pset, f"object {o.id} action target")
    for e in sc.effects:
        need("object", e.source, oset, f"effect {e.id} source")
        need("player", e.controller, pset, f"effect {e.id} controller")
        need("player", e.player, pset, f"effect {e.id} player")
        need("player", e.until_player, pset, f"effect {e.id} until_player")
        targets = (e.targets.objects or []) if isinstance(e.targets, Selector) else e.targets
        for t in targets:
            need("object or player", t, oset | pset, f"effect {e.id} target")
        if isinstance(e.targets, Selector) and e.targets.controlled_by not in (None, "source_controller", "source_opponent"):
            need("player", e.targets.controlled_by, pset, f"effect {e.id} selector controlled_by")
        if isinstance(e.targets, Selector) and e.targets.cell not in (None, "source"):
            need("cell", e.targets.cell, cset, f"effect {e.id} selector cell")
        if isinstance(e.targets, Selector) and e.targets.cell == "source" and e.source is None:
            raise ValueError(f"effect {e.id}: selector cell 'source' needs a source")
    for name in ("active_player", "priority", "focus", "turn_order_next"):
        need("player", getattr(sc.turn, name), pset, f"turn {name}")
    by_id = {o.id: o for o in sc.objects}
    for o in sc.objects:
        seen, cur = {o.id}, o.attached_to
        while cur is not None and cur in by_id:
            if cur in seen:
                raise ValueError(f"object {o.id}: cyclic attachment through '{cur}'")
            seen.add(cur)
            cur = by_id[cur].attached_to
    for i, ev in enumerate(sc.events):
        for kind, ref in ev.references():
            known = {"player": pset, "object": oset, "effect": set(effects), "cell": cset}[kind]
            need(kind, ref, known, f"events[{i}] ({ev.type})")
    actions = {o.id for o in sc.objects if o.action is not None} | {e.declared_id() for e in sc.events
                                                                    if e.type == "declare" or e.creates_action}
    for i, ev in enumerate(sc.events):
        if ev.type in ("resolve", "start_execution", "finish_execution") and ev.action in oset - actions:
            raise ValueError(f"events[{i}] ({ev.type}): '{ev.action}' is not an action (declare it, or give the "
                             f"object an 'action')")
    for i, ex in enumerate(sc.expect):
        for kind, ref in ex.references():
            known = {"player": pset, "object": oset, "effect": set(effects), "cell": cset}[kind]
            need(kind, ref, known, f"expect[{i}]")
        if ex.at is not None and ex.at > len(sc.events):
            raise ValueError(f"expect[{i}]: 'at' {ex.at} is past the last event (there are {len(sc.events)})")
