"""What a report draws: the pieces of a scenario (cards, tokens, units) before and after, with zone, cell, owner and
controller, and the board's cells.

Before is the scenario's state at the start (read off an outcome, with every change undone, so an effect's
control shows; from the scenario itself when there is no outcome); after is an outcome's final state.
Declared actions and triggered abilities are not pieces. Which panel a zone is drawn in follows the game:
its play zones and the zones that are a holder's by their controller, an owner's zones by their owner,
the other zones shared.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from models.scenario import Scenario
from solver.registry import ruleset_for, vocabulary_for

#: a zone value as a change line shows it: "graveyard (bianca's)"
_WHOSE = re.compile(r" \([^()]*'s\)$")
#: zones where an object is not (yet, or any more) part of the game's state to draw
NOWHERE = ("none",)


@dataclass(frozen=True)
class Piece:
    """One object as drawn: where it is and whose it is."""

    id: str
    name: str
    zone: str
    cell: str | None
    owner: str | None
    controller: str | None
    #: its numbers and texts as the state has them ("life 3", "strike 1-2-3", "prot 2"), life and strike first
    numbers: tuple[str, ...] = ()


#: how a card's number is labelled on a board (others by their own name)
SHORT = {"protection_nonmagical": "prot", "protection_magical": "mprot"}
#: the numbers shown first, in this order
FIRST = ("life", "strike", "power", "toughness", "damage")


def numbers(obj: Any, oid: str, state: dict[str, str] | None) -> tuple[str, ...]:
    """An object's attributes and properties as a board shows them: the state's value where it has one, else the
    scenario's (a property nothing declared keeps the card's)."""
    found: dict[str, str] = {}
    if obj is not None:
        found.update((a, str(v)) for a, v in obj.attributes.items())
        found.update((p, str(v)) for p, v in obj.properties.items() if p != "not_with")
    for key, value in (state or {}).items():
        kind, _, rest = key.partition(".")
        if kind in ("attr", "prop") and rest.startswith(oid + ".") and value != "none":
            found[rest[len(oid) + 1:]] = value
    order = sorted(found, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n))
    return tuple(f"{SHORT.get(n, n)} {found[n]}" for n in order)


@dataclass(frozen=True)
class Layout:
    """How a game's board is drawn: its cells (a grid when rows and cols are given), its players, and where zones go."""

    game: str
    players: tuple[str, ...]
    rows: int
    cols: int
    cells: tuple[str, ...]
    play_zones: tuple[str, ...]
    whose: dict[str, str | None]

    def panel(self, piece: Piece) -> str | None:
        """The player whose panel shows the piece (None: the shared panel)."""
        how = self.whose.get(piece.zone)
        if piece.zone in self.play_zones or how == "holder":
            return piece.controller
        if how == "owner":
            return piece.owner
        return None


def layout(sc: Scenario) -> Layout:
    """The layout of a scenario's board."""
    board = sc.board
    rows, cols = (board.rows or 0, board.cols or 0) if board else (0, 0)
    vocab = vocabulary_for(sc.game)
    return Layout(sc.game, tuple(p.id for p in sc.players), rows, cols, tuple(board.all_cells()) if board else (),
                  tuple(ruleset_for(sc.game).play_zones), {z.name: z.whose for z in vocab.zones})


def _actions(sc: Scenario) -> set[str]:
    """Ids of declared actions and triggered abilities (not pieces)."""
    return {ev.declared_id() for ev in sc.events
            if ev.declared_id() and (ev.type in ("declare", "trigger") or getattr(ev, "creates_action", False))}


def _names(sc: Scenario) -> dict[str, tuple[str, str | None]]:
    """Object id -> (name, owner): the scenario's objects and those its events create."""
    out = {o.id: (o.name or o.id, o.owner) for o in sc.objects}
    for ev in sc.events:
        oid = ev.declared_id()
        if oid and oid not in out:
            owner = getattr(ev, "owner", None) or getattr(ev, "controller", None)
            out[oid] = (getattr(ev, "name", None) or oid, owner)
    return out


def initial_state(outcome: dict) -> dict[str, str]:
    """An outcome's state at the start: its final state with every change undone."""
    state = dict(outcome.get("state") or {})
    for line in outcome.get("changes") or []:
        key, _, rest = line.partition(": ")
        before, _, _ = rest.partition(" -> ")
        state[key] = _WHOSE.sub("", before)
    return state


def pieces(sc: Scenario, state: dict[str, str] | None) -> list[Piece]:
    """The pieces in a state (None: the scenario's own start), in the scenario's order, then created ones."""
    names, actions = _names(sc), _actions(sc)
    objects = {o.id: o for o in sc.objects}
    out = []
    if state is None:
        for o in sc.objects:
            if o.id not in actions and o.zone not in NOWHERE:
                out.append(Piece(o.id, o.name or o.id, o.zone, o.cell, o.owner, o.controller or o.owner,
                                 numbers(o, o.id, None)))
        return out
    for oid, (name, owner) in names.items():
        zone = state.get(f"zone.{oid}")
        if oid in actions or zone is None or zone in NOWHERE:
            continue
        cell = state.get(f"cell.{oid}")
        ctrl = state.get(f"controller.{oid}", state.get(f"ctrl.{oid}"))
        out.append(Piece(oid, name, zone, None if cell in (None, "none") else cell, owner,
                         None if ctrl in (None, "none") else ctrl, numbers(objects.get(oid), oid, state)))
    return out


def statuses(sc: Scenario, state: dict[str, str] | None) -> dict[str, str]:
    """Each player's status in a state (the scenario's at the start when None)."""
    if state is None:
        return {p.id: p.status for p in sc.players}
    return {p.id: state.get(f"pstatus.{p.id}", p.status) for p in sc.players}


def boards(sc: Scenario, outcomes: list[dict[str, Any]]) -> list[tuple[str, list[Piece], dict[str, str]]]:
    """(caption, pieces, player statuses) to draw: before, then after for the first two outcomes."""
    start = initial_state(outcomes[0]) if outcomes else None
    caption = "before" if outcomes else "before (as written: default controllers, no outcome to read effects off)"
    out = [(caption, pieces(sc, start), statuses(sc, start))]
    for o in outcomes[:2]:
        caption = "after" if len(outcomes) == 1 else f"after, outcome {o.get('index', 0)}"
        out.append((caption, pieces(sc, o.get("state") or {}), statuses(sc, o.get("state") or {})))
    return out
