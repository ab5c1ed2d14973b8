"""Properties of a game's rules (issue 25): loaded from ``solver/games/<game>/properties.yaml`` and checked.

A property is written from the seed rule texts, once per game: an id, the rule it comes from (a rule id of the
game) with the words of that rule quoted, one sentence, and a statement in the expectation atom language,
quantified over the scenario's players and objects::

    - id: outside-no-controller
      rule: mtg.108.4a
      quote: "..."
      says: An object outside the game has no controller.
      forall: {o: object, p: player}
      when: [{object: o, zone: outside}]
      never: [{object: o, controller: p}]

``when`` (a conjunction) implies ``then`` (a conjunction); with ``never`` instead of ``then``, ``when`` and
``never`` together are false. An item is an expectation's atoms (``{player: p, status: left}``, a variable name
standing for its value), ``{not: {...}}`` (the atoms do not all hold), ``{before: {...}}`` (the atoms held at the
end of the event before: the initial state for the first), or ``{every_other: {q: player}, all: [items]}`` (the
items hold for every other player; ``some_other`` instead: for some other player), or ``{targets: {action: a,
player: p}}`` (a fact of the scenario, not of an outcome: the stack object ``a`` targets ``p``). Variables range over players, objects, cells of the board and effects; those
of one sort are distinct. The statement is read at
the end of every event (``solver.prove.prove``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from models.expectations import Expectation
from solver.check import rulebook
from solver.vocabulary.check import problems

GAMES = Path(__file__).resolve().parent.parent / "games"
#: the sorts a variable ranges over, and the scenario list it reads
SORTS = {"player": "players", "object": "objects", "cell": "cells", "effect": "effects"}
#: the keys of one property
KEYS = {"id", "rule", "quote", "says", "forall", "when", "then", "never", "note", "min_players", "max_players", "also", "off_holds"}


def cited(p: Property) -> tuple[str, ...]:
    """Every rule a property comes from (``rule``, then ``also``)."""
    return (p.rule, *p.also)


class PropertyError(ValueError):
    """A property file that does not say what it must: located by file and property id."""


@dataclass(frozen=True)
class Property:
    """One property of a game's rules."""

    game: str
    id: str
    rule: str
    quote: str
    says: str
    forall: dict[str, str]
    when: tuple
    then: tuple | None
    never: tuple | None
    note: str = ""
    #: other rules the property comes from together with ``rule`` (each alone keeps it: the rule-off test switches
    #: them all off)
    also: tuple[str, ...] = ()
    #: why the property still holds with its rules switched off (so its rule-off test is not run): a documented
    #: reason, or "" (the rule-off test must find a counterexample)
    off_holds: str = ""
    #: the rule speaks of games of at least this many players (800.4: a multiplayer game)
    min_players: int = 0
    #: the rule speaks of games of at most this many players (a two-player game), 0: no limit
    max_players: int = 0
    #: read at the end of the last event only (a space statement, ``solver.prove.closure``), not of every event
    final: bool = False
    where: str = field(default="", compare=False)

    def bindings(self, ids: dict[str, list[str]]):
        """Every assignment of the quantified variables to distinct ids of their sort."""
        names = list(self.forall)
        pools = [ids[SORTS[self.forall[n]]] for n in names]
        for combo in itertools.product(*pools):
            by_sort: dict[str, set] = {}
            ok = True
            for n, v in zip(names, combo):
                seen = by_sort.setdefault(self.forall[n], set())
                ok = ok and v not in seen
                seen.add(v)
            if ok:
                yield dict(zip(names, combo))


def path_of(game: str) -> Path:
    """Where a game declares its properties."""
    return GAMES / game / "properties.yaml"


@cache
def load(game: str) -> tuple[Property, ...]:
    """The game's properties, validated (``PropertyError`` names the file and property when one is wrong)."""
    path = path_of(game)
    if not path.exists():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("game") != game or not isinstance(data.get("properties"), list):
        raise PropertyError(f"{path}: needs 'game: {game}' and a 'properties' list")
    out, seen = [], set()
    for k, doc in enumerate(data["properties"]):
        where = f"{path}: properties[{k}] ({doc.get('id') if isinstance(doc, dict) else '?'})"
        p = _property(game, doc, where)
        if p.id in seen:
            raise PropertyError(f"{where}: id '{p.id}' given twice")
        seen.add(p.id)
        validate(p)
        out.append(p)
    return tuple(out)


def _property(game: str, doc: object, where: str) -> Property:
    if not isinstance(doc, dict):
        raise PropertyError(f"{where}: a property is a mapping")
    unknown = set(doc) - KEYS
    if unknown:
        raise PropertyError(f"{where}: unknown key(s) {sorted(unknown)} (known: {sorted(KEYS)})")
    for key in ("id", "rule", "quote", "says", "forall", "when"):
        if key not in doc:
            raise PropertyError(f"{where}: '{key}' is missing")
    if ("then" in doc) == ("never" in doc):
        raise PropertyError(f"{where}: give exactly one of 'then' and 'never'")
    forall = doc["forall"]
    if not isinstance(forall, dict) or any(s not in SORTS for s in forall.values()):
        raise PropertyError(f"{where}: 'forall' maps variables to a sort ({', '.join(SORTS)})")
    for rid in [doc["rule"], *(doc.get("also") or ())]:
        try:
            rulebook.lookup(game, rid)
        except Exception as exc:  # noqa: BLE001 - an unknown rule id, named
            raise PropertyError(f"{where}: rule '{rid}': {exc}") from None
    return Property(game=game, id=str(doc["id"]), rule=str(doc["rule"]), quote=str(doc["quote"]),
                    says=str(doc["says"]), forall=dict(forall), when=tuple(doc["when"] or ()),
                    then=tuple(doc["then"]) if "then" in doc else None,
                    never=tuple(doc["never"]) if "never" in doc else None, note=str(doc.get("note", "")),
                    min_players=int(doc.get("min_players", 0)),
                    max_players=int(doc.get("max_players", 0)), also=tuple(doc.get("also") or ()),
                    off_holds=str(doc.get("off_holds", "")), where=where)


def substitute(atoms: dict, binding: dict[str, str]) -> dict:
    """An atom mapping with its variables replaced by the ids they are bound to (inside ``turn`` too)."""
    out = {}
    for k, v in atoms.items():
        if isinstance(v, dict):
            out[k] = substitute(v, binding)
        elif isinstance(v, str) and v in binding:
            out[k] = binding[v]
        else:
            out[k] = v
    return out


def items(p: Property) -> list[tuple[str, dict]]:
    """Every atom mapping of the property, with the part it sits in (for validation)."""
    out = []

    def walk(part: str, seq) -> None:
        for it in seq:
            if not isinstance(it, dict):
                raise PropertyError(f"{p.where}: {part}: an item is a mapping")
            if "not" in it:
                walk(part, [it["not"]])
            elif "before" in it:
                walk(part, [it["before"]])
            elif "every_other" in it or "some_other" in it:
                walk(part, it.get("all") or [])
            elif "targets" in it:
                _check_targets(p, it)
            else:
                out.append((part, it))
    for part in ("when", "then", "never"):
        walk(part, getattr(p, part) or ())
    return out


def _check_targets(p: Property, it: dict) -> None:
    t = it["targets"]
    if set(it) != {"targets"} or not isinstance(t, dict) or set(t) != {"action", "player"}:
        raise PropertyError(f"{p.where}: {it}: a targets item is {{targets: {{action: A, player: P}}}}")


def targets(doc_objects, action: str, player: str) -> bool:
    """The stack object ``action`` of the scenario (its objects) targets ``player`` (a fact of the scenario)."""
    return any(o.id == action and o.action is not None and player in o.action.targets for o in doc_objects)


def named_ids(p: Property) -> dict[str, set[str]]:
    """The objects and effects a property names by id (not through a variable): a state without one of them is not
    one the property speaks of."""
    free = _free(p)
    out: dict[str, set[str]] = {"objects": set(), "effects": set()}
    for _, a in items(p):
        for key, sort in (("object", "objects"), ("effect", "effects")):
            if isinstance(a.get(key), str) and a[key] not in free:
                out[sort].add(a[key])
    return out


def speaks_of(p: Property, ids: dict[str, list[str]]) -> bool:
    """Every object and effect the property names is in the state (``ids``: the state's ids by sort)."""
    return all(n <= set(ids[sort]) for sort, n in named_ids(p).items())


def _free(p: Property) -> dict[str, str]:
    """Every variable of the property (``forall`` and ``every_other``), with its sort."""
    out = dict(p.forall)

    def walk(seq) -> None:
        for it in seq:
            if "not" in it:
                walk([it["not"]])
            elif "before" in it:
                walk([it["before"]])
            elif "every_other" in it or "some_other" in it:
                out.update(it.get("every_other") or it.get("some_other"))
                walk(it.get("all") or [])
    for part in ("when", "then", "never"):
        walk(getattr(p, part) or ())
    return out


def validate(p: Property) -> None:
    """Each atom mapping is an expectation of the game's vocabulary once its variables are bound to sample ids."""
    free = _free(p)
    by = {sort: [v for v, s in free.items() if s == sort] for sort in SORTS}
    players = by["player"] + ["_p1", "_p2"]
    named = {a["object"] for _, a in items(p) if isinstance(a.get("object"), str) and a["object"] not in free}
    objects = by["object"] + sorted(named) + ["_o1"]
    cells = [f"r1c{k + 1}" for k in range(len(by["cell"]) + 1)]
    binding = {v: v for v in free}
    binding.update(zip(by["cell"], cells))
    for part, atoms in items(p):
        try:
            Expectation.model_validate(substitute(atoms, binding))
        except Exception as exc:  # noqa: BLE001 - pydantic's message, located
            raise PropertyError(f"{p.where}: {part}: {atoms}: {' '.join(str(exc).splitlines())}") from None
    doc = {"id": "property-check", "game": p.game, "players": [{"id": v} for v in players],
           "objects": [{"id": o, "owner": players[0], "zone": _a_zone(p.game)} for o in objects],
           "expect": [substitute(a, binding) for _, a in items(p)]}
    if by["cell"]:
        doc["board"] = {"rows": 1, "cols": len(cells)}
    if by["effect"]:
        doc["effects"] = [{"id": e, "kind": "prohibit", "action": "move", "targets": [objects[0]], "timestamp": 1}
                          for e in by["effect"]]
    found = [f"{'.'.join(map(str, path))}: {msg}" for path, msg in problems(doc) if path and path[0] == "expect"]
    if found:
        raise PropertyError(f"{p.where}: " + "; ".join(found))


def _a_zone(game: str) -> str:
    from solver.registry import vocabulary_for
    return vocabulary_for(game).zones[0].name
