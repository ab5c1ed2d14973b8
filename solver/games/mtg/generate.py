"""Random small valid MTG 800.4 scenarios (a player leaves a multiplayer game), for the differential soak.

2-4 players (sometimes on teams, sometimes one already out), a handful of objects of the
kinds 800.4 speaks of (permanents, an Aura attached to one, tokens, a Plane in the command
zone, cards and non-card objects on the stack, cards in ante, library, hand ...), a few
control effects of every duration, 1-3 events drawn mostly from the 800.4 events, and
expectations whose verdicts are compared. Deterministic for a given ``rng``.
"""
from __future__ import annotations

from solver.reference.generate import RandomParts, vary_expectation

PLAYERS = ("alex", "bianca", "carla", "dmitri")
ZONES = ("battlefield", "battlefield", "battlefield", "hand", "library", "graveyard", "exile", "stack", "ante",
         "outside")
TYPES = (["creature"], ["creature"], ["artifact"], ["enchantment"], ["creature", "artifact"])
DURATIONS = ("permanent", "until_end_of_turn", "until_next_turn", "static", "static")
EVENTS = ("leave_game",) * 6 + ("end_effect", "end_turn", "begin_turn", "begin_turn", "begin_effect", "create",
                                "put_onto", "trigger", "resolve", "combat_damage", "choice", "choice",
                                "player_information", "count_actions", "priority_to_active", "priority_to_active",
                                "move", "declare")
STATUSES = ("in_game", "left", "lost", "conceded")


class _Gen(RandomParts):
    """One MTG scenario under construction."""

    def __init__(self, rng) -> None:
        super().__init__(rng)
        n = rng.choice((2, 3, 3, 3, 4, 4))
        self.players = list(PLAYERS[:n])
        self.objects: list[dict] = []
        self.effects: list[dict] = []
        self.events: list[dict] = []
        self.actions: list[str] = []
        self.created: list[str] = []

    def player_docs(self) -> list[dict]:
        """Players in turn order: life and a counter, sometimes teams, rarely one already out."""
        r, out = self.r, []
        teams = self.chance(0.15)
        for i, p in enumerate(self.players):
            doc: dict = {"id": p, "attributes": {"life": r.randint(1, 5), "spells_cast": r.randint(0, 2)}}
            if teams:
                doc["team"] = f"t{i % 2}"
            if i and self.chance(0.08):
                doc["status"] = r.choice(STATUSES[1:])
            out.append(doc)
        return out

    def obj(self, i: int) -> dict:
        """Object number ``i``: a card or token somewhere, maybe controlled by a player other than its owner."""
        r = self.r
        o: dict = {"id": f"o{i}", "owner": r.choice(self.players), "zone": r.choice(ZONES),
                   "types": list(r.choice(TYPES))}
        if o["zone"] in ("battlefield", "stack") and self.chance(0.3):
            o["controller"] = r.choice(self.players)
        if o["zone"] == "stack":
            o["card"] = self.chance(0.5)
            if self.chance(0.6):
                o["action"] = {"kind": r.choice(("spell", "ability"))}
                o["types"] = ["ability"] if not o["card"] else ["instant"]
        elif o["zone"] in ("battlefield", "graveyard", "exile") and self.chance(0.15):
            o.update(token=True, card=False)
        return o

    def ids(self) -> list[str]:
        """The object ids so far."""
        return [o["id"] for o in self.objects]

    def specials(self) -> None:
        """Sometimes an Aura attached to a permanent, sometimes a Plane in the command zone."""
        r = self.r
        perms = [o["id"] for o in self.objects if o["zone"] == "battlefield"]
        if perms and self.chance(0.35):
            self.objects.append({"id": "aura", "owner": r.choice(self.players), "zone": "battlefield",
                                 "types": ["enchantment", "aura"], "attached_to": r.choice(perms)})
        if self.chance(0.15):
            self.objects.append({"id": "plane", "owner": self.players[0], "zone": "command", "types": ["plane"],
                                 "controller": r.choice(self.players)})

    def effect(self, eid: str) -> dict:
        """A control effect (over objects, rarely over a player) of a random duration."""
        r = self.r
        ids = self.ids()
        e: dict = {"id": eid, "timestamp": self.stamp(), "kind": "control", "player": r.choice(self.players)}
        source = r.choice(ids) if self.chance(0.7) else None
        if source:
            e["source"] = source
        if self.chance(0.1):
            e["targets"] = [r.choice(self.players)]
        elif self.chance(0.75):
            e["targets"] = r.sample(ids, r.randint(1, min(2, len(ids))))
        else:
            e["targets"] = {"types": list(r.choice(TYPES))}
        durations = DURATIONS if source else DURATIONS[:3]
        e["duration"] = r.choice(durations)
        if e["duration"] == "until_next_turn":
            e["until_player"] = r.choice(self.players)
        if self.chance(0.1):
            e["active"] = False
        return e

    def event(self, i: int) -> dict | None:
        """Event number ``i`` (None when the drawn kind has nothing to act on)."""
        r, p = self.r, self.r.choice(self.players)
        kind = r.choice(EVENTS)
        if kind == "leave_game":
            return {"type": "leave_game", "player": p, "status": r.choice(("left", "lost", "conceded"))}
        if kind == "end_effect":
            ids = [e["id"] for e in self.effects]
            return {"type": "end_effect", "effect": r.choice(ids)} if ids else None
        if kind in ("end_turn", "priority_to_active"):
            return {"type": kind}
        if kind == "begin_turn":
            return {"type": "begin_turn", "player": p}
        if kind == "begin_effect":
            e = self.begun(self.effect(f"b{i}"))
            self.effects.append(e)
            return {"type": "begin_effect", "effect": e}
        if kind == "create":
            return self.create(i, p)
        if kind == "put_onto":
            ev = {"type": "put_onto", "object": r.choice(self.ids())}
            if self.chance(0.6):
                ev["controller"] = r.choice(self.players)
            return ev
        if kind == "trigger":
            aid = f"t{i}"
            self.actions.append(aid)
            ev = {"type": "trigger", "id": aid, "controller": p,
                  "kind": r.choice(("return_to_battlefield", "return_to_battlefield", "ability"))}
            if ev["kind"] == "return_to_battlefield":
                ev["targets"] = [r.choice(self.ids())]
            return ev
        if kind == "resolve":
            return {"type": "resolve", "action": r.choice(self.actions)} if self.actions else None
        if kind == "combat_damage":
            return {"type": "combat_damage", "source": r.choice(self.ids()), "player": p, "amount": r.randint(0, 3)}
        if kind == "choice":
            ev = {"type": "choice", "id": f"c{i}", "player": p}
            if self.chance(0.6):
                ev.update(source=r.choice(self.ids()), opponent=self.chance(0.6))
            return ev
        if kind == "player_information":
            return {"type": "player_information", "player": p, "attribute": r.choice(("life", "spells_cast")),
                    "reader": r.choice(self.players), "into": "seen"}
        if kind == "count_actions":
            return {"type": "count_actions", "attribute": "spells_cast", "reader": p, "into": "counted"}
        if kind == "move":
            return {"type": "move", "object": r.choice(self.ids()), "zone": r.choice(ZONES)}
        aid = f"a{i}"
        self.actions.append(aid)
        return {"type": "declare", "id": aid, "actor": p, "kind": r.choice(("spell", "ability")),
                "card": self.chance(0.5)}

    def create(self, i: int, p: str) -> dict:
        """A player creates a token (or a card) somewhere, maybe owned by another, maybe by a permanent's trigger."""
        r = self.r
        oid = f"n{i}"
        self.created.append(oid)
        ev: dict = {"type": "create", "id": oid, "controller": p, "types": list(r.choice(TYPES)),
                    "zone": r.choice(("battlefield", "battlefield", "graveyard", "hand", "stack"))}
        if self.chance(0.3):
            ev["owner"] = r.choice(self.players)
        if self.chance(0.2):
            ev["token"] = False
        if self.chance(0.3):
            ev["source"] = r.choice(self.ids())
        return ev

    def slide(self) -> list[dict]:
        """Astral Slide (800.4d): a card in exile, a delayed trigger to return it, maybe someone leaves, it resolves."""
        r = self.r
        o = r.choice(self.objects)
        o["zone"] = "exile"
        o.pop("controller", None)
        self.actions.append("slide")
        leave = [{"type": "leave_game", "player": r.choice(self.players)}] if self.chance(0.8) else []
        trigger = {"type": "trigger", "id": "slide", "controller": r.choice(self.players),
                   "kind": "return_to_battlefield", "targets": [o["id"]]}
        first = [leave[0], trigger] if leave and self.chance(0.5) else [trigger] + leave
        return first + [{"type": "resolve", "action": "slide"}]

    def default_left(self) -> list[dict]:
        """800.4c (Bribery): a permanent's default controller leaves while another player's effect controls it, which then ends."""
        r = self.r
        o = r.choice(self.objects)
        o.update(zone="battlefield", controller=r.choice(self.players))
        o.pop("action", None)
        e = {"id": "borrow", "timestamp": self.stamp(), "kind": "control", "player": r.choice(self.players),
             "targets": [o["id"]], "duration": r.choice(("permanent", "until_end_of_turn"))}
        self.effects.append(e)
        end = {"type": "end_effect", "effect": "borrow"} if self.chance(0.5) else {"type": "end_turn"}
        return [{"type": "leave_game", "player": o["controller"]}, end]

    def expectation(self) -> dict:
        """An expectation whose verdict is compared (any verdict will do)."""
        r = self.r
        o = r.choice(self.ids() + self.created)
        p = r.choice(self.players)
        options = [
            lambda: {"object": o, "zone": r.choice(ZONES + ("command", "none"))},
            lambda: {"object": o, "zone_owner": p},
            lambda: {"object": o, "controller": r.choice(self.players)},
            lambda: {"object": o, "exists": self.chance(0.5)},
            lambda: {"player": p, "status": r.choice(STATUSES)},
            lambda: {"player": p, "player_attributes": {"life": r.randint(0, 5)}},
            lambda: {"turn": {"priority": r.choice(self.players)}},
            lambda: {"turn": {"active_player": r.choice(self.players)}},
        ]
        choices = [ev["id"] for ev in self.events if ev["type"] == "choice"]
        if choices:
            options.append(lambda: {"player": p, "player_flags": {r.choice(choices): self.chance(0.5)}})
        if self.actions:
            options.append(lambda: {"action": r.choice(self.actions),
                                    "action_status": r.choice(("on_stack", "resolved", "interrupted", "ceased",
                                                               "unborn"))})
        if self.effects:
            options.append(lambda: {"effect": r.choice([e["id"] for e in self.effects]),
                                    "effect_active": self.chance(0.5)})
        aura = next((x for x in self.objects if x["id"] == "aura"), None)
        if aura:
            options.append(lambda: {"object": "aura", "attached_to": aura["attached_to"]})
        return vary_expectation(self, r.choice(options)())

    def build(self, index: int) -> dict:
        """The whole scenario as plain data."""
        r = self.r
        doc: dict = {"id": f"gen-mtg-{index}", "game": "mtg", "players": self.player_docs()}
        self.objects = [self.obj(i) for i in range(r.randint(1, 4))]
        self.specials()
        self.effects = [self.effect(f"e{i}") for i in range(r.randint(0, 3))]
        scenario_effects = list(self.effects)
        script = r.choice((None, None, None, None, self.slide, self.default_left))
        for i in range(r.randint(1, 3)) if script is None else ():
            ev = self.event(i)
            if ev is not None:
                self.events.append(ev)
        if script is not None:
            self.events = script()
            scenario_effects = self.effects
        elif not self.events or self.chance(0.5):
            self.events.insert(0, {"type": "leave_game", "player": r.choice(self.players)})
        doc["turn"] = {"active_player": r.choice(self.players), "priority": r.choice(self.players)}
        doc.update(objects=self.objects, effects=scenario_effects, events=self.events)
        doc["expect"] = [self.expectation() for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, index: int = 0) -> dict:
    """A random small MTG 800.4 scenario as plain data."""
    return _Gen(rng).build(index)
