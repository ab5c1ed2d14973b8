"""Random small valid Twilight Imperium 4 elimination scenarios (rule 75), for the differential soak.

2-4 players, a handful of components of the kinds rule 75 speaks of (units with and without
Production, planets, cards held by players, promissory notes, command tokens, commanders,
faction components and the 75.10 exceptions; sometimes two players eliminated one after the other, or together,
with what an exception keeps in play between them), a few control / Production effects, 1-3 events,
and expectations whose verdicts are compared. Deterministic for a given ``rng``.
"""
from __future__ import annotations

from solver.reference.generate import RandomParts, vary_expectation

PLAYERS = ("alice", "bob", "carol", "dave")
UNIT_ZONES = ("board", "board", "board", "reinforcements", "captured", "box")
TRAITS = ("cultural", "hazardous", "industrial", "frontier")
#: component kind -> (types, zones, owned?, held by a player?)
KINDS = {
    "infantry": (["ground_force", "infantry"], UNIT_ZONES, True, False),
    "mech": (["ground_force", "mech"], UNIT_ZONES, True, False),
    "dock": (["unit", "structure"], UNIT_ZONES, True, False),
    "carrier": (["unit", "ship"], UNIT_ZONES, True, False),
    "planet": (["planet"], ("board",), False, True),
    "speaker": (["speaker_token"], ("play_area",), False, True),
    "strategy": (["strategy_card"], ("play_area",), False, True),
    "agenda": (["agenda"], ("play_area",), False, True),
    "action": (["action_card"], ("hand",), False, True),
    "secret": (["secret_objective"], ("hand", "play_area"), False, True),
    "relic": (["relic"], ("play_area",), False, True),
    "fragment": (["relic_fragment"], ("play_area",), False, True),
    "note": (["promissory_note"], ("hand", "play_area"), True, True),
    "token": (["command_token"], ("fleet_pool", "reinforcements", "board"), True, True),
    "commander": (["commander"], ("play_area",), True, False),
    "home": (["home_system"], ("board",), True, False),
    "wormhole": (["wormhole_token"], ("board", "reinforcements"), True, False),
    "zero": (["zero_token"], ("play_area", "hand"), True, True),
    "tech": (["technology", "faction_technology"], ("play_area",), True, False),
    "sheet": (["faction_sheet"], ("play_area",), True, False),
}
COMMON = ("infantry", "infantry", "mech", "dock", "carrier", "planet", "planet", "speaker")


class _Gen(RandomParts):
    """One scenario under construction."""

    def __init__(self, rng) -> None:
        super().__init__(rng)
        self.players = list(PLAYERS[: rng.randint(2, 4)])
        self.objects: list[dict] = []
        self.effects: list[dict] = []
        self.events: list[dict] = []

    def ids(self, *kinds_types: str) -> list[str]:
        """Ids of objects with one of these types (all objects without arguments)."""
        return [o["id"] for o in self.objects if not kinds_types or set(o["types"]) & set(kinds_types)]

    def obj(self, i: int, kind: str) -> dict:
        """Component number ``i`` of ``kind``."""
        r = self.r
        types, zones, owned, held = KINDS[kind]
        o: dict = {"id": f"o{i}", "zone": r.choice(zones), "types": list(types)}
        if owned:
            o["owner"] = r.choice(self.players)
        if held or (o.get("owner") and self.chance(0.15)):
            o["controller"] = r.choice(self.players + ["none"] if kind == "planet" else self.players)
            if o["controller"] == "none":
                del o["controller"]
        if o["zone"] == "captured" and o.get("owner"):
            o["controller"] = r.choice([p for p in self.players if p != o["owner"]])
        if kind in ("dock", "carrier"):
            abilities = [a for a in ("production", "bombardment") if self.chance(0.5)]
            if abilities:
                o["abilities"] = abilities
        if kind == "fragment":
            o["properties"] = {"trait": r.choice(TRAITS)}
        if kind == "commander":
            o["flags"] = {"unlocked": self.chance(0.6)}
        return o

    def attach(self) -> None:
        """Maybe a Nekro assimilation token on a technology, a Titans attachment on a planet."""
        r = self.r
        techs, planets = self.ids("technology"), self.ids("planet")
        if techs and self.chance(0.5):
            self.objects.append({"id": f"o{len(self.objects)}", "owner": r.choice(self.players), "zone": "play_area",
                                 "types": ["assimilation_token"], "attached_to": r.choice(techs)})
        if planets and self.chance(0.3):
            self.objects.append({"id": f"o{len(self.objects)}", "owner": r.choice(self.players),
                                 "zone": r.choice(("board", "board", "reinforcements")), "types": ["attachment_token"],
                                 "attached_to": r.choice(planets)})

    def two_eliminations(self) -> list[dict]:
        """Two players, ``first`` and ``second``, eliminated one after the other (either order) or by one check, with
        components an exception keeps in play between them: first's command token in second's fleet pool (75.10f)
        with first's commander, first's unit captured by second (comment 7), second's promissory note held by first
        (75.4), first's technology with second's assimilation token (75.10a), first's "0" token held by second
        (75.10c); the other players keep a ground force. Returns the events."""
        r = self.r
        first, second = r.sample(self.players, 2)
        n = len(self.objects)
        add = [({"owner": first, "controller": second, "zone": "fleet_pool", "types": ["command_token"]}, 0.7),
               ({"owner": first, "zone": "play_area", "types": ["commander"], "flags": {"unlocked": True}}, 0.6),
               ({"owner": first, "controller": second, "zone": "captured", "types": ["unit", "ship"]}, 0.5),
               ({"owner": second, "controller": first, "zone": "hand", "types": ["promissory_note"]}, 0.5),
               ({"owner": first, "controller": second, "zone": "play_area", "types": ["zero_token"]}, 0.3)]
        for o, chance in add:
            if self.chance(chance):
                self.objects.append({"id": f"o{n}", **o})
                n += 1
        if self.chance(0.4):
            tech = f"o{n}"
            self.objects += [{"id": tech, "owner": first, "zone": "play_area", "types": ["technology", "faction_technology"]},
                             {"id": f"o{n + 1}", "owner": second, "zone": "play_area", "types": ["assimilation_token"],
                              "attached_to": tech}]
            n += 2
        for q in self.players:
            if q not in (first, second):
                self.objects.append({"id": f"o{n}", "owner": q, "zone": "board", "types": ["ground_force"]})
                n += 1
        planets = {}
        for q in (first, second):
            planets[q] = f"o{n}"
            self.objects.append({"id": f"o{n}", "zone": "board", "types": ["planet"], "controller": q})
            n += 1
        rest = [q for q in self.players if q not in (first, second)] or [first]
        if self.chance(0.2):  # together: both lose their planet before one check
            return [{"type": "planet_control", "planet": planets[first]},
                    {"type": "planet_control", "planet": planets[second]}]
        order = [first, second] if self.chance(0.5) else [second, first]
        out = [{"type": "planet_control", "planet": planets[q], "player": r.choice(rest)} for q in order]
        if self.chance(0.25):
            out.insert(1, {"type": "end_status_phase"})
        return out

    def gift(self) -> None:
        """One player's component keeps another in the game through a static effect (a planet, Production)."""
        r = self.r
        giver, taker = r.sample(self.players, 2)
        src, tgt = f"o{len(self.objects)}", f"o{len(self.objects) + 1}"
        self.objects.append({"id": src, "owner": giver, "zone": "play_area", "types": ["faction_sheet"]})
        if self.chance(0.5):
            self.objects.append({"id": tgt, "zone": "board", "types": ["planet"]})
            e = {"kind": "control", "player": taker}
        else:
            self.objects.append({"id": tgt, "owner": taker, "zone": "board", "types": ["unit", "structure"]})
            e = {"kind": "grant", "ability": "production"}
        self.effects.append({"id": "gift", "timestamp": self.stamp(), "source": src, "targets": [tgt], "duration": "static", **e})

    def effect(self, eid: str) -> dict | None:
        """A control effect on a planet or unit, or a Production grant / removal on units."""
        r = self.r
        units, planets = self.ids("unit", "ground_force"), self.ids("planet")
        kind = r.choice(("control", "grant", "remove"))
        e: dict = {"id": eid, "timestamp": self.stamp(), "kind": kind}
        if kind == "control":
            if not units + planets:
                return None
            e["player"] = r.choice(self.players)
            e["targets"] = [r.choice(units + planets)] if self.chance(0.7) else {"types": ["planet"]}
        else:
            if not units:
                return None
            e["ability"] = "production"
            e["targets"] = [r.choice(units)] if self.chance(0.6) else {"types": ["unit"]}
        if self.chance(0.6):
            owned = [o["id"] for o in self.objects if (o.get("owner") or o.get("controller"))
                     and not set(o["types"]) & {"unit", "ground_force", "planet"}]
            e["source"] = r.choice(owned if owned and self.chance(0.7) else self.ids())
            e["duration"] = "static" if self.chance(0.8) else "permanent"
            if self.chance(0.3) and kind != "control" and isinstance(e["targets"], dict):
                e["targets"]["controlled_by"] = "source_controller"
        else:
            e["duration"] = "permanent"
        return e

    def event(self, i: int) -> dict | None:
        """Event number ``i`` (None when the drawn kind has nothing to act on)."""
        r = self.r
        kind = r.choice(("planet_control", "planet_control", "planet_control", "capture", "return_captured",
                         "move", "move", "end_status_phase", "check_elimination", "check_elimination", "set_flag",
                         "end_effect",
                         "begin_effect", "score"))
        units, planets = self.ids("unit", "ground_force"), self.ids("planet")
        owned_units = [o["id"] for o in self.objects if o.get("owner") and set(o["types"]) & {"unit", "ground_force"}]
        if kind == "planet_control":
            if not planets:
                return None
            ev = {"type": "planet_control", "planet": r.choice(planets)}
            if self.chance(0.8):
                ev["player"] = r.choice(self.players)
            return ev
        if kind == "capture":
            return {"type": "capture", "object": r.choice(units), "player": r.choice(self.players)} if units else None
        if kind == "return_captured":
            return {"type": "return_captured", "object": r.choice(owned_units)} if owned_units else None
        if kind == "move":
            if not self.objects:
                return None
            return {"type": "move", "object": r.choice(units or self.ids()),
                    "zone": r.choice(("board", "box", "reinforcements", "play_area"))}
        if kind == "set_flag":
            cmd = self.ids("commander")
            return {"type": "set_flag", "object": r.choice(cmd), "flag": "unlocked", "value": self.chance(0.5)} \
                if cmd else None
        if kind == "end_effect":
            return {"type": "end_effect", "effect": r.choice(self.effects)["id"]} if self.effects else None
        if kind == "begin_effect":
            e = self.effect(f"b{i}")
            if e is None:
                return None
            return {"type": "begin_effect", "effect": self.begun(e)}
        if kind == "score":
            return self.score(i)
        return {"type": kind}

    def score(self, i: int) -> dict | None:
        """An objective about another player's home system (comment 5a): declared, maybe resolved right away."""
        r = self.r
        homes = self.ids("home_system")
        if not homes:
            return None
        oid = f"obj{i}"
        actor = r.choice(self.players)
        self.objects.append({"id": oid, "zone": "play_area", "types": ["public_objective"],
                             "controller": r.choice(self.players)})
        self.events.append({"type": "declare", "id": f"a{i}", "actor": actor, "kind": "score_objective",
                            "source": oid, "targets": [r.choice(homes)]})
        return {"type": "resolve", "action": f"a{i}"} if self.chance(0.7) else None

    def expectation(self) -> dict:
        """An expectation whose verdict is compared (any verdict will do)."""
        r = self.r
        o = r.choice(self.ids())
        p = r.choice(self.players)
        options = [
            lambda: {"player": p, "status": r.choice(("in_game", "eliminated"))},
            lambda: {"player": p, "status": "eliminated"},
            lambda: {"player": p, "player_attributes": {"strategy_cards": r.randint(1, 2)}},
            lambda: {"object": o, "zone": r.choice(("board", "box", "reinforcements", "hand", "play_area",
                                                     "common_area", "captured"))},
            lambda: {"object": o, "controller": r.choice(self.players + ["none"])},
            lambda: {"object": o, "zone_owner": p},
            lambda: {"object": o, "exists": self.chance(0.5)},
        ]
        return vary_expectation(self, r.choice(options)(), counts=False)

    def build(self, index: int) -> dict:
        """The whole scenario as plain data."""
        r = self.r
        doc: dict = {"id": f"gen-ti4-{index}", "game": "ti4", "players": [{"id": p} for p in self.players]}
        if len(self.players) > 2 and self.chance(0.15):
            doc["players"][r.randrange(len(self.players))]["status"] = "eliminated"
        if self.chance(0.3):
            doc["options"] = {"players_at_start": r.choice((5, 6, len(self.players)))}
        n = r.randint(2, 6)
        kinds = [r.choice(COMMON) if self.chance(0.55) else r.choice(sorted(KINDS)) for _ in range(n)]
        self.objects = [self.obj(i, k) for i, k in enumerate(kinds)]
        self.attach()
        if self.chance(0.2):
            self.gift()
        self.effects += [e for e in (self.effect(f"e{i}") for i in range(r.choice((0, 0, 1, 1, 2)))) if e]
        if len(self.players) >= 3 and self.chance(0.3):
            self.events = self.two_eliminations()
        for i in range(r.randint(1, 3) if not self.events else r.randint(0, 1)):
            ev = self.event(i)
            if ev is not None:
                self.events.append(ev)
        if self.chance(0.3):  # object identity: a component an effect names leaves the board and comes back
            self.events += self.reentry(self.effects, [o for o in self.objects if o["zone"] == "board"],
                                        ("reinforcements", "purged", "box"), "board")
        if not self.events or (len(self.events) < 4 and self.chance(0.3)):
            self.events.append({"type": "check_elimination"})  # a check on the components stage's result
        doc.update(objects=self.objects, effects=self.effects, events=self.events)
        doc["expect"] = [self.expectation() for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, index: int = 0) -> dict:
    """A random small ti4 scenario as plain data."""
    return _Gen(rng).build(index)
