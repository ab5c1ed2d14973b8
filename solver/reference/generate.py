"""Random small valid scenarios, for differential and metamorphic testing: the shared parts.

Each game's generator is ``solver/games/<game>/generate.py`` (registered as the
game's ``generator``); this module holds what they share, the dispatch by game
and the metamorphic transformations.

The generator draws from anything with ``random.Random``'s ``random``/``randint``/
``choice``/``sample`` methods: ``random.Random(seed)`` for the soak command, or
hypothesis' ``st.randoms()`` in the tests (so failures shrink). A scenario has a
handful of players, objects, cells, effects and events, and expectations whose
verdicts are compared.
"""
from __future__ import annotations

import json
import re

from models.scenario import Scenario
from solver.registry import generator_for, names

#: the games with a generator, from the registry
GAMES = names()


def vary_expectation(gen, ex: dict, counts: bool = True) -> dict:
    """Sometimes ask about an earlier state, sometimes about the outcome set instead of a state."""
    r = gen.r
    if gen.events and gen.chance(0.3):
        ex["at"] = r.randint(_first_stage(gen.events, ex), len(gen.events))
    if gen.chance(0.1):
        ex = {"unique": True} if not counts or gen.chance(0.5) else {"outcomes": r.randint(1, 3)}
    return ex


def _first_stage(events: list[dict], ex: dict) -> int:
    """The first stage at which every object the expectation names exists (models.timeline: not before its
    creating event)."""
    names = {ex.get("object"), ex.get("attached_to")} - {None}
    return max([i + 1 for i, ev in enumerate(events) if ev.get("id") in names], default=0)


class RandomParts:
    """Base of the scenario generators: the random source and a biased coin."""

    def __init__(self, rng) -> None:
        self.r = rng

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.r.random() < p

    def stamp(self) -> int:
        """A timestamp for an initial effect that no other effect of this scenario has (models.timeline: effects
        contesting one characteristic may not tie)."""
        taken = self.__dict__.setdefault("_stamps", set())
        value = self.r.choice([t for t in range(5 + len(taken)) if t not in taken])
        taken.add(value)
        return value

    def begun(self, e: dict) -> dict:
        """An effect as an event begins it: ordered by the event, sometimes with a typed timestamp that agrees."""
        taken = self.__dict__.setdefault("_stamps", set())
        taken.discard(e.pop("timestamp", None))
        if self.chance(0.3):
            e["timestamp"] = max(taken, default=0) + self.r.randint(1, 3)
            taken.add(e["timestamp"])
        e.pop("active", None)
        return e


    def reentry(self, effects: list[dict], objects: list[dict], out: tuple[str, ...], back: str,
                extra: dict | None = None) -> list[dict]:
        """Object identity (400.7 and its kin): an object an effect names (a listed target, or the source of a static
        ability) leaves its zone and comes back as a new object: two move events ([] when no effect names one)."""
        named = [t for e in effects for t in (e.get("targets") if isinstance(e.get("targets"), list) else [])]
        named += [e["source"] for e in effects if e.get("duration") == "static" and e.get("source")]
        ids = {o["id"] for o in objects}
        named = [t for t in dict.fromkeys(named) if t in ids]
        if not named:
            return []
        obj = self.r.choice(named)
        return [{"type": "move", "object": obj, "zone": self.r.choice(out)},
                {"type": "move", "object": obj, "zone": back, **(extra or {})}]


def random_doc(rng, game: str, index: int = 0) -> dict:
    """A random small scenario of ``game`` as plain data (the game's registered generator)."""
    return generator_for(game)(rng, index)


def random_scenario(rng, game: str, index: int = 0) -> Scenario:
    """A random small valid scenario of ``game``."""
    return Scenario.model_validate(random_doc(rng, game, index))


# -- metamorphic transformations (on plain data) ---------------------------------------------
_ID = re.compile(r'"((?:o|e|b|a)\d+|alice|bob|carol)"')


def rename(doc: dict) -> dict:
    """Rename every player, object, effect and action (the new names sort in another order)."""
    text = json.dumps(doc)
    return json.loads(_ID.sub(lambda m: f'"zz_{m.group(1)[::-1]}_x"', text))


def reorder_objects(doc: dict, rng) -> dict:
    """The same objects listed in another order."""
    out = json.loads(json.dumps(doc))
    rng.shuffle(out["objects"])
    return out


def shift_timestamps(doc: dict, by: int) -> dict:
    """Every effect's timestamp shifted by the same amount."""
    out = json.loads(json.dumps(doc))
    for e in out.get("effects", []):
        if "timestamp" in e:  # a static ability whose source enters later has none: its entry orders it
            e["timestamp"] += by
    for ev in out.get("events", []):
        if ev["type"] == "begin_effect" and "timestamp" in ev["effect"]:
            ev["effect"]["timestamp"] += by
    return out
