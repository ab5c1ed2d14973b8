"""Random small scenarios of the core rules (effects, control, permission, core events).

``CoreGen`` is also the base of the Berserk generator, which adds its own parts
at the hooks (``obj_flags``, ``obj_abilities``, ``obj_properties``,
``event_kinds``, ``game_event``, ``extra_events``).
"""
from __future__ import annotations

from solver.reference.generate import RandomParts, vary_expectation

PLAYERS = ("alice", "bob", "carol")
TYPES = (["creature"], ["creature"], ["creature", "hero"], ["symbiote"], ["equipment"])
ABILITIES = ("accumulate_tokens", "flying")
ACTIONS = ("accumulate_tokens", "receive_tokens", "give_token", "open", "be_targeted", "flying")
ALIGNMENTS = ("light", "dark", "neutral")


class CoreGen(RandomParts):
    """One scenario under construction."""

    game = "core"
    #: the categorical property objects get and 'set' effects change, with its values
    category: tuple[str, tuple[str, ...]] = ("alignment", ALIGNMENTS)
    zones: tuple[str, ...] = ("play", "play", "hand", "deck", "graveyard", "exile", "outside")
    #: where a static ability works (an initial one whose source starts elsewhere may have no timestamp)
    play_zones: tuple[str, ...] = ("play",)

    def __init__(self, rng) -> None:
        super().__init__(rng)
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
        o: dict = {"id": f"o{i}", "owner": r.choice(self.players), "zone": r.choice(self.zones),
                   "types": list(r.choice(TYPES))}
        if self.chance(0.2):
            o["controller"] = r.choice(self.players)
        if self.cells and o["zone"] == "play" and self.chance(0.75):
            o["cell"] = r.choice(self.cells)
        attrs = {a: r.randint(0, 3) for a in ("life", "tokens") if self.chance(0.5)}
        flags = {f: self.chance(0.5) for f in ("open", "revealed") if self.chance(0.45)}
        self.obj_flags(flags)
        abilities = [a for a in ABILITIES if self.chance(0.3)]
        self.obj_abilities(o, abilities)
        for name, value in (("attributes", attrs), ("flags", flags), ("abilities", abilities)):
            if value:
                o[name] = value
        if self.chance(0.3):
            o["properties"] = {self.category[0]: r.choice(self.category[1])}
        self.obj_properties(o, i)
        return o

    def obj_flags(self, flags: dict) -> None:
        """Hook: game flags of a new object."""

    def obj_abilities(self, o: dict, abilities: list) -> None:
        """Hook: game abilities (and type changes) of a new object."""

    def obj_properties(self, o: dict, i: int) -> None:
        """Hook: game properties of object number ``i``."""

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
        e: dict = {"id": eid, "timestamp": self.stamp(), "kind": kind}
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
            e.update(attribute=self.category[0], value=r.choice(self.category[1]))
        else:
            e.update(attribute="life", value=r.randint(0, 3))
        durations = ["permanent", "until_end_of_turn", "until_next_turn"] + (["static", "static"] if source else [])
        e["duration"] = r.choice(durations)
        if e["duration"] == "until_next_turn":
            e["until_player"] = r.choice(self.players)
        if self.chance(0.15):
            e["active"] = False
        zone = next((o["zone"] for o in self.objects if o["id"] == source), None)
        if e["duration"] == "static" and zone not in self.play_zones and self.chance(0.5):
            del e["timestamp"]  # a static ability of a card that enters later: its entry orders it
        return e

    def event_kinds(self) -> list[str]:
        """The event types to draw from (a game adds its own)."""
        return ["move", "move", "modify", "set_flag", "end_effect", "begin_effect", "end_turn", "begin_turn"]

    def event(self, i: int) -> dict | None:
        """Event number ``i`` (None when the drawn kind has nothing to act on)."""
        r = self.r
        kind = r.choice(self.event_kinds())
        if kind == "move":
            zone = r.choice(self.zones)
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
            e = self.begun(self.effect(f"b{i}"))
            self.effect_ids.append(e["id"])
            return {"type": "begin_effect", "effect": e}
        if kind == "end_turn":
            return {"type": "end_turn"}
        if kind == "begin_turn":
            return {"type": "begin_turn", "player": r.choice(self.players)}
        return self.game_event(kind, i)

    def game_event(self, kind: str, i: int) -> dict | None:
        """Hook: an event of a game's own kind."""
        raise ValueError(f"no generator for event type '{kind}'")

    def extra_events(self) -> list[dict]:
        """Hook: events appended after the drawn ones."""
        return []

    def expectation(self) -> dict:
        """An expectation whose verdict is compared (any verdict will do)."""
        r = self.r
        o = r.choice(self.ids())
        options = [
            lambda: {"object": o, "zone": r.choice(self.zones)},
            lambda: {"object": o, "zone_owner": r.choice(self.players)},
            lambda: {"object": o, "owner": r.choice(self.players)},
            lambda: {"object": o, "controller": r.choice(self.players + ["none"])},
            lambda: {"object": o, "attributes": {r.choice(("tokens", "life")): r.randint(0, 3)}},
            lambda: {"object": o, "allowed": {r.choice(ACTIONS): self.chance(0.5)}},
            lambda: {"object": o, "abilities": {r.choice(ABILITIES): self.chance(0.5)}},
            lambda: {"object": o, "properties": {self.category[0]: r.choice(self.category[1])}},
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
        self.events += self.extra_events()
        if self.chance(0.3):
            doc["turn"] = {"active_player": r.choice(self.players)}
        doc.update(objects=self.objects, effects=self.effects, events=self.events)
        doc["expect"] = [self.expectation() for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, index: int = 0) -> dict:
    """A random small core scenario as plain data."""
    return CoreGen(rng).build(index)
