"""Random small valid scenarios per game, for differential and metamorphic testing.

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

PLAYERS = ("alice", "bob", "carol")
ZONES = {
    "core": ("play", "play", "hand", "deck", "graveyard", "exile", "outside"),
    "berserk": ("play", "play", "play", "auxiliary", "hand", "deck", "graveyard", "outside"),
}
TYPES = (["creature"], ["creature"], ["creature", "hero"], ["symbiote"], ["equipment"])
ABILITIES = ("accumulate_tokens", "flying")
ACTIONS = ("accumulate_tokens", "receive_tokens", "give_token", "open", "be_targeted", "flying")
ALIGNMENTS = ("light", "dark", "neutral")
BERSERK_KINDS = ("open", "close", "reveal", "hide", "accumulate_tokens", "give_token", "lose_ability", "finishing_blow",
                 "take_control", "summon", "revive", "incarnate")
#: Berserk 532/602 events (control, squads, clean victory), generated with two players
BERSERK_VICTORY = ("recruit", "lose_control", "penalty_loss", "declare_redeal", "card_victory", "check_victory",
                   "concede")
GAMES = tuple(ZONES)



def vary_expectation(gen, ex: dict, counts: bool = True) -> dict:
    """Sometimes ask about an earlier state, sometimes about the outcome set instead of a state."""
    r = gen.r
    if gen.events and gen.chance(0.3):
        ex["at"] = r.randint(0, len(gen.events))
    if gen.chance(0.1):
        ex = {"unique": True} if not counts or gen.chance(0.5) else {"outcomes": r.randint(1, 3)}
    return ex

class RandomParts:
    """Base of the scenario generators: the random source and a biased coin."""

    def __init__(self, rng) -> None:
        self.r = rng

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.r.random() < p


class _Gen(RandomParts):
    """One scenario under construction."""

    def __init__(self, rng, game: str) -> None:
        super().__init__(rng)
        self.game = game
        self.players = list(PLAYERS[: rng.randint(2, 3)])
        self.cells: list[str] = []
        self.objects: list[dict] = []
        self.effects: list[dict] = []
        self.events: list[dict] = []
        self.declared: list[str] = []
        self.effect_ids: list[str] = []

    # -- parts ----------------------------------------------------------------
    def board(self) -> dict | None:
        """A small grid board, or none."""
        if not self.chance(0.55):
            return None
        rows, cols = self.r.choice([(1, 2), (1, 3), (2, 2)])
        self.cells = [f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)]
        return {"rows": rows, "cols": cols}

    def obj(self, i: int) -> dict:
        """Object number ``i``: zone, owner, types, attributes, flags, abilities, properties."""
        r = self.r
        o: dict = {"id": f"o{i}", "owner": r.choice(self.players), "zone": r.choice(ZONES[self.game]),
                   "types": list(r.choice(TYPES))}
        if self.chance(0.2):
            o["controller"] = r.choice(self.players)
        if self.cells and o["zone"] == "play" and self.chance(0.75):
            o["cell"] = r.choice(self.cells)
        attrs = {a: r.randint(0, 3) for a in ("life", "tokens") if self.chance(0.5)}
        flags = {f: self.chance(0.5) for f in ("open", "revealed") if self.chance(0.45)}
        if self.game == "berserk" and self.cells and self.chance(0.1):
            flags["must_move"] = True
        abilities = [a for a in ABILITIES if self.chance(0.3)]
        if self.game == "berserk":
            abilities += [a for a in ("incarnation 1", "incarnation 2", "auxiliary_zone") if self.chance(0.12)]
            if self.chance(0.1):
                o["types"] = ["terrain"]
        for name, value in (("attributes", attrs), ("flags", flags), ("abilities", abilities)):
            if value:
                o[name] = value
        if self.chance(0.3):
            o["properties"] = {"alignment": r.choice(ALIGNMENTS)}
        if self.game == "berserk" and i and self.chance(0.2):
            o.setdefault("properties", {})["not_with"] = r.choice([f"o{r.randint(0, i - 1)}", "hero", "light"])
        return o

    def ids(self) -> list[str]:
        """The object ids so far."""
        return [o["id"] for o in self.objects]

    def targets(self, source: str | None, allow_controlled_by: bool) -> object:
        """Listed targets or a selector (types, controller, zone)."""
        r = self.r
        if self.chance(0.5):
            return r.sample(self.ids(), r.randint(1, min(2, len(self.objects))))
        sel: dict = {"types": list(r.choice(TYPES))}
        if allow_controlled_by and self.chance(0.5):
            options = list(self.players) + (["source_controller", "source_opponent"] if source else [])
            sel["controlled_by"] = r.choice(options)
        if self.chance(0.2):
            sel["zone"] = "play"
        return sel

    def effect(self, eid: str) -> dict:
        """A continuous effect of a random kind and duration."""
        r = self.r
        kind = r.choice(("control", "control", "permit", "prohibit", "prohibit", "grant", "remove", "set", "set", "add"))
        source = r.choice(self.ids()) if self.chance(0.7) else None
        e: dict = {"id": eid, "timestamp": r.randint(0, 4), "kind": kind}
        if source:
            e["source"] = source
        e["targets"] = self.targets(source, allow_controlled_by=kind != "control")
        if kind == "control":
            e["player"] = r.choice(self.players)
        elif kind in ("permit", "prohibit"):
            e["action"] = r.choice(ACTIONS)
        elif kind in ("grant", "remove"):
            e["ability"] = r.choice(ABILITIES)
        elif kind == "set" and self.chance(0.5):
            e.update(attribute="alignment", value=r.choice(ALIGNMENTS))
        else:
            e.update(attribute="life", value=r.randint(-1, 3))
        durations = ["permanent", "until_end_of_turn", "until_next_turn"] + (["static", "static"] if source else [])
        e["duration"] = r.choice(durations)
        if e["duration"] == "until_next_turn":
            e["until_player"] = r.choice(self.players)
        if self.chance(0.15):
            e["active"] = False
        return e

    def declare(self, i: int) -> dict:
        """A declared Berserk action."""
        r = self.r
        kind = r.choice(BERSERK_KINDS)
        aid = f"a{i}"
        ev: dict = {"type": "declare", "id": aid, "actor": r.choice(self.players), "kind": kind,
                    "source": r.choice(self.ids())}
        if self.chance(0.5):
            ev["targets"] = [r.choice(self.ids())]
        params: dict = {}
        if kind == "lose_ability":
            params["ability"] = r.choice(ABILITIES)
        if kind == "finishing_blow":
            params["x"] = r.randint(0, 3)
        if kind in ("summon", "revive", "incarnate") and self.cells and self.chance(0.6):
            params["cell"] = r.choice(self.cells)
        if self.chance(0.15):
            params["cost"] = "none"
        if params:
            ev["params"] = params
        if self.chance(0.2):
            ev["card"] = True
        self.declared.append(aid)
        return ev

    def event(self, i: int) -> dict | None:
        """Event number ``i`` (None when the drawn kind has nothing to act on)."""
        r = self.r
        kinds = ["move", "move", "modify", "set_flag", "end_effect", "begin_effect", "end_turn", "begin_turn"]
        if self.game == "berserk":
            kinds += ["declare"] * 4 + ["resolve"] * 3 + ["start_execution", "finish_execution"]
            if self.cells:
                kinds += ["choice_subphase"] * 3
            if len(self.players) == 2:
                kinds += list(BERSERK_VICTORY)
        kind = r.choice(kinds)
        if kind in BERSERK_VICTORY:
            return self.victory_event(kind)
        if kind == "declare":
            return self.declare(i)
        if kind in ("resolve", "start_execution", "finish_execution"):
            pending = self.declared or [d["id"] for d in []]
            return {"type": kind, "action": r.choice(pending)} if pending else None
        if kind == "move":
            zone = r.choice(ZONES[self.game])
            ev = {"type": "move", "object": r.choice(self.ids()), "zone": zone}
            if self.cells and zone == "play" and self.chance(0.7):
                ev["cell"] = r.choice(self.cells)
            return ev
        if kind == "modify":
            pairs = [(o["id"], a) for o in self.objects for a in o.get("attributes", {})]
            if not pairs:
                return None
            obj, attr = r.choice(pairs)
            return {"type": "modify", "object": obj, "attribute": attr, "delta": r.randint(-2, 2)}
        if kind == "set_flag":
            pairs = [(o["id"], f) for o in self.objects for f in o.get("flags", {})]
            if not pairs:
                return None
            obj, flag = r.choice(pairs)
            return {"type": "set_flag", "object": obj, "flag": flag, "value": self.chance(0.5)}
        if kind == "end_effect":
            return {"type": "end_effect", "effect": r.choice(self.effect_ids)} if self.effect_ids else None
        if kind == "begin_effect":
            e = self.effect(f"b{i}")
            e["timestamp"] = r.randint(3, 8)
            e.pop("active", None)
            self.effect_ids.append(e["id"])
            return {"type": "begin_effect", "effect": e}
        if kind == "end_turn":
            return {"type": "end_turn"}
        if kind == "begin_turn":
            return {"type": "begin_turn", "player": r.choice(self.players)}
        ev = {"type": "choice_subphase", "player": r.choice(self.players)}
        if self.chance(0.3):
            ev["moves"] = {r.choice(self.ids()): r.choice(self.cells)}
        if self.chance(0.2):
            ev["obligatory"] = ["attack_obligation"]
        if self.chance(0.5):
            ev["free"] = True
        return ev

    def crowding(self) -> list[dict]:
        """A card moves onto another's cell, then a Choice subphase leaves the move open: several outcomes."""
        r = self.r
        creatures = [o for o in self.objects if "creature" in o["types"]]
        placed = [o for o in creatures if o["zone"] == "play" and o.get("cell")]
        if not placed or len(creatures) < 2:
            return []
        other = r.choice(placed)
        mover = r.choice([o for o in creatures if o is not other])
        cell = other["cell"]
        return [{"type": "move", "object": mover["id"], "zone": "play", "cell": cell},
                {"type": "choice_subphase", "player": mover.get("controller", mover["owner"]), "free": True}]

    def victory_event(self, kind: str) -> dict:
        """A Berserk control / clean-victory event (532.7, 532.8, 602.1)."""
        r = self.r
        ev: dict = {"type": kind}
        if kind != "check_victory":
            ev["player"] = r.choice(self.players)
        if kind == "recruit":
            ev["cards"] = r.sample(self.ids(), r.randint(1, min(2, len(self.objects))))
            if self.cells and self.chance(0.6):
                ev["cells"] = {c: r.choice(self.cells) for c in ev["cards"]}
        elif kind == "lose_control":
            ev["object"] = r.choice(self.ids())
        elif kind == "card_victory":
            ev.update(source=r.choice(self.ids()), result=r.choice(("won", "lost")))
        return ev

    def expectation(self) -> dict:
        """An expectation whose verdict is compared (any verdict will do)."""
        r = self.r
        o = r.choice(self.ids())
        options = [
            lambda: {"object": o, "zone": r.choice(ZONES[self.game])},
            lambda: {"object": o, "controller": r.choice(self.players + ["none"])},
            lambda: {"object": o, "attributes": {r.choice(("tokens", "life")): r.randint(0, 3)}},
            lambda: {"object": o, "allowed": {r.choice(ACTIONS): self.chance(0.5)}},
            lambda: {"object": o, "abilities": {r.choice(ABILITIES): self.chance(0.5)}},
            lambda: {"object": o, "properties": {"alignment": r.choice(ALIGNMENTS)}},
            lambda: {"object": o, "exists": self.chance(0.5)},
            lambda: {"object": o, "flags": {"open": self.chance(0.5)}},
            lambda: {"turn": {"active_player": r.choice(self.players)}},
            lambda: {"player": r.choice(self.players), "status": r.choice(("in_game", "won", "lost", "conceded"))},
            lambda: {"winner": r.choice(self.players)},
        ]
        if self.cells:
            options.append(lambda: {"object": o, "cell": r.choice(self.cells + ["none"])})
        if self.declared:
            options.append(lambda: {"action": r.choice(self.declared),
                                    "action_status": r.choice(("on_stack", "illegal", "resolved", "interrupted",
                                                               "executing", "unborn"))})
        if self.effect_ids:
            options.append(lambda: {"effect": r.choice(self.effect_ids), "effect_active": self.chance(0.5)})
        return vary_expectation(self, r.choice(options)())

    def build(self, index: int) -> dict:
        """The whole scenario as plain data."""
        r = self.r
        doc: dict = {"id": f"gen-{self.game}-{index}", "game": self.game,
                     "players": [{"id": p} for p in self.players]}
        board = self.board()
        if board:
            doc["board"] = board
        self.objects = [self.obj(i) for i in range(r.randint(1, 4))]
        self.effects = [self.effect(f"e{i}") for i in range(r.randint(0, 3))]
        self.effect_ids = [e["id"] for e in self.effects]
        for i in range(r.randint(1, 4)):
            ev = self.event(i)
            if ev is not None:
                self.events.append(ev)
        if self.game == "berserk" and self.cells and len(self.objects) > 1 and self.chance(0.5):
            self.events += self.crowding()
        if self.chance(0.3):
            doc["turn"] = {"active_player": r.choice(self.players)}
        doc.update(objects=self.objects, effects=self.effects, events=self.events)
        doc["expect"] = [self.expectation() for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, game: str, index: int = 0) -> dict:
    """A random small scenario of ``game`` as plain data."""
    if game == "ti4":
        from solver.reference.generate_ti4 import random_doc as ti4_doc
        return ti4_doc(rng, index)
    if game == "riftbound":
        from solver.reference.generate_riftbound import random_doc as riftbound_doc
        return riftbound_doc(rng, index)
    if game == "mtg":
        from solver.reference.generate_mtg import random_doc as mtg_doc
        return mtg_doc(rng, index)
    return _Gen(rng, game).build(index)


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
        e["timestamp"] += by
    for ev in out.get("events", []):
        if ev["type"] == "begin_effect":
            ev["effect"]["timestamp"] += by
    return out
