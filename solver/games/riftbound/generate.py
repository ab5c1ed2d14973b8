"""Random small valid Riftbound scenarios: concessions, the turn passing, chain items, battlefields.

Deterministic per random source (``random.Random(seed)`` or hypothesis' ``st.randoms()``):
2-4 players (sometimes in teams), battlefields each on its own cell (some with a
static "+1 power here"), units, gear, runes, facedown cards, legends, control
effects, chain items (kill, counter), pass flags, and 1-3 events.
"""
from __future__ import annotations

from solver.reference.generate import RandomParts

PLAYERS = ("alice", "bob", "carol", "dave")
UNIT_ZONES = ("base", "base", "battlefield", "battlefield", "hand", "trash", "banishment")
EVENTS = ("concede", "concede", "concede", "pass_turn", "move", "resolve")


class _Gen(RandomParts):
    """One Riftbound scenario under construction."""

    def __init__(self, rng) -> None:
        super().__init__(rng)
        self.players = list(PLAYERS[: rng.randint(2, 4)])
        self.cells: list[str] = []
        self.objects: list[dict] = []
        self.units: list[str] = []
        self.chain: list[str] = []
        self.effects: list[dict] = []
        self.side: dict[str, str] = {}  # player -> their side (team, or themselves)
        self.out: set[str] = set()  # players out of the game so far (lost at the start, conceded, a conceder's team)

    def player(self) -> str:
        """A random player."""
        return self.r.choice(self.players)

    def teams(self) -> dict[str, str]:
        """Sometimes teams (every player in one of two or three teams)."""
        if len(self.players) < 3 or not self.chance(0.35):
            return {}
        names = ["red", "blue", "green"][: self.r.randint(2, min(3, len(self.players)))]
        out = {p: names[i % len(names)] for i, p in enumerate(self.players)}
        return out

    def battlefields(self) -> None:
        """One battlefield per cell, each provided by a player; some give +1 power to units there."""
        n = self.r.randint(1, min(3, len(self.players)))
        self.cells = [f"bf{i}" for i in range(1, n + 1)]
        owners = self.r.sample(self.players, n)
        for i, (cell, owner) in enumerate(zip(self.cells, owners)):
            bid = f"field{i}"
            o = {"id": bid, "owner": owner, "zone": "battlefield", "cell": cell, "types": ["battlefield"]}
            if self.chance(0.5):  # the text '+1 power to units here': the ability is its effect
                o["abilities"] = ["units_here_plus_one"]
            elif self.chance(0.3):  # another card's static +1 to the units at this battlefield
                self.effects.append({"id": f"bonus{i}", "source": bid, "timestamp": self.stamp(), "kind": "add",
                                     "attribute": "power", "value": 1, "duration": "static",
                                     "targets": {"types": ["unit"], "cell": "source"}})
            self.objects.append(o)
        if self.chance(0.3):
            self.objects.append({"id": "spare_field", "owner": self.player(), "zone": "set_aside",
                                 "types": ["battlefield"]})

    def placed(self, o: dict, zone: str) -> dict:
        """Put the object in the zone (on a cell for the battlefield zone)."""
        o["zone"] = zone
        if zone == "battlefield":
            o["cell"] = self.r.choice(self.cells)
        return o

    def card(self, i: int) -> dict:
        """A unit, gear, rune, facedown card or legend."""
        r = self.r
        kind = r.choice(("unit", "unit", "unit", "gear", "rune", "facedown", "legend"))
        o: dict = {"id": f"o{i}", "owner": self.player()}
        if self.chance(0.25):
            o["controller"] = self.player()
        if kind == "unit":
            o["types"] = ["unit"]
            if self.chance(0.85):
                o["attributes"] = {"power": r.randint(2, 6)}
            self.units.append(o["id"])
            return self.placed(o, r.choice(UNIT_ZONES))
        if kind == "gear":
            o["types"] = ["gear"]
            return self.placed(o, r.choice(("base", "base", "battlefield", "hand")))
        if kind == "rune":
            o["types"] = ["rune"]
            return self.placed(o, r.choice(("runes", "runes", "rune_deck")))
        if kind == "legend":
            o["types"] = ["legend"]
            return self.placed(o, "legend")
        o["types"] = ["spell"]
        o["flags"] = {"facedown": self.chance(0.8)}
        return self.placed(o, r.choice(("battlefield", "base", "hand")))

    def chain_item(self, i: int) -> dict | None:
        """A spell or ability on the chain: kill a unit, or counter an earlier chain item."""
        r = self.r
        kinds = (["kill"] if self.units else []) + (["counter"] if self.chain else [])
        if not kinds:
            return None
        kind = r.choice(kinds)
        target = r.choice(self.units if kind == "kill" else self.chain)
        o: dict = {"id": f"c{i}", "owner": self.player(), "zone": "chain",
                   "types": [r.choice(("spell", "ability"))], "action": {"kind": kind, "targets": [target]}}
        if o["types"] == ["ability"]:
            o["card"] = False
        if self.chance(0.3):
            o["controller"] = self.player()
        if self.chance(0.25):
            o["flags"] = {"finalised": False}
        self.chain.append(o["id"])
        return o

    def control_effect(self, i: int) -> dict | None:
        """Another player controls a unit, gear or chain item (permanently, or while a source stays)."""
        r = self.r
        pool = self.units + self.chain + [o["id"] for o in self.objects if o["types"] == ["gear"]]
        if not pool:
            return None
        e: dict = {"id": f"ctl{i}", "timestamp": self.stamp(), "kind": "control", "player": self.player(),
                   "targets": r.sample(pool, r.randint(1, min(2, len(pool))))}
        if self.chance(0.3):
            src = r.choice([o["id"] for o in self.objects if not o["id"].startswith("c")])
            e.update(source=src, duration="static")
        return e

    def concede(self) -> dict:
        """A player still in the game concedes (with their team); once one side is left, the game is over: the turn
        passes instead (conceding out of the game is an error in the scenario)."""
        in_game = [p for p in self.players if p not in self.out]
        if len({self.side[p] for p in in_game}) < 2:
            return {"type": "pass_turn"}
        p = self.r.choice(in_game)
        self.out |= {q for q in self.players if self.side[q] == self.side[p]}
        return {"type": "concede", "player": p}

    def event(self) -> dict | None:
        """A concession, the turn passing, a move, or a chain item resolving."""
        r = self.r
        kind = r.choice(EVENTS)
        if kind == "concede":
            return self.concede()
        if kind == "pass_turn":
            return {"type": "pass_turn"}
        if kind == "resolve":
            return {"type": "resolve", "action": r.choice(self.chain)} if self.chain else None
        cards = [o for o in self.objects if "action" not in o and "battlefield" not in o["types"]]
        if not cards:
            return None
        o = r.choice(cards)
        zone = r.choice(("base", "battlefield", "trash", "hand"))
        ev = {"type": "move", "object": o["id"], "zone": zone}
        if zone == "battlefield":
            ev["cell"] = r.choice(self.cells)
        return ev

    def expectation(self, n_events: int) -> dict:
        """An expectation whose verdict is compared."""
        r = self.r
        ids = [o["id"] for o in self.objects]
        o = r.choice(ids)
        options = [
            lambda: {"object": o, "zone": r.choice(("base", "battlefield", "banishment", "outside", "trash"))},
            lambda: {"object": o, "zone_owner": self.player()},
            lambda: {"object": o, "controller": r.choice(self.players + ["none"])},
            lambda: {"object": o, "exists": self.chance(0.5)},
            lambda: {"object": o, "cell": r.choice(self.cells + ["none"])},
            lambda: {"player": self.player(), "status": r.choice(("in_game", "won", "lost", "conceded"))},
            lambda: {"winner": self.player()},
            lambda: {"turn": {r.choice(("active_player", "priority", "focus")): self.player()}},
            lambda: {"turn": {"showdown": self.chance(0.5)}},
            lambda: {"player": self.player(), "player_flags": {"passed_priority": self.chance(0.5)}},
        ]
        if self.units:
            u = r.choice(self.units)
            options += [lambda: {"object": u, "attributes": {"power": r.randint(2, 7)}},
                        lambda: {"object": u, "flags": {"mighty": self.chance(0.5)}}]
        if self.chain:
            options.append(lambda: {"action": r.choice(self.chain),
                                    "action_status": r.choice(("on_stack", "resolved", "countered", "interrupted"))})
        if self.effects:
            options.append(lambda: {"effect": r.choice(self.effects)["id"], "effect_active": self.chance(0.5)})
        ex = r.choice(options)()
        if n_events and self.chance(0.3):
            ex["at"] = r.randint(0, n_events)
        if self.chance(0.08):
            ex = {"unique": True}
        return ex

    def build(self, index: int) -> dict:
        """The whole scenario as plain data."""
        r = self.r
        teams = self.teams()
        players = []
        everyone = {f: self.chance(0.35) for f in ("passed_focus", "passed_priority")}
        for p in self.players:
            d: dict = {"id": p}
            if p in teams:
                d["team"] = teams[p]
            flags = {f: everyone[f] or self.chance(0.5) for f in ("passed_focus", "passed_priority")
                     if everyone[f] or self.chance(0.6)}
            if flags:
                d["flags"] = flags
            players.append(d)
        if self.chance(0.1):
            players[r.randrange(len(players))]["status"] = "lost"
        self.side = {p: teams.get(p, p) for p in self.players}
        self.out = {d["id"] for d in players if d.get("status") == "lost"}
        self.battlefields()
        for i in range(r.randint(1, 4)):
            self.objects.append(self.card(i))
        for i in range(r.randint(0, 2)):
            item = self.chain_item(i)
            if item:
                self.objects.append(item)
        for i in range(r.randint(0, 2)):
            e = self.control_effect(i)
            if e:
                self.effects.append(e)
        events = [ev for ev in (self.event() for _ in range(r.randint(1, 3))) if ev]
        if not events:
            events = [self.concede()]
        if self.chance(0.3):  # object identity: a card an effect names leaves the board and comes back, a new card
            events += self.reentry(self.effects, self.objects, ("hand", "trash", "outside"), "base")
        turn: dict = {"active_player": self.player(), "priority": self.player()}
        if self.chance(0.5):
            turn.update(focus=self.player(), showdown=self.chance(0.7))
        doc = {"id": f"gen-riftbound-{index}", "game": "riftbound", "players": players,
               "board": {"cells": self.cells}, "objects": self.objects, "effects": self.effects,
               "turn": turn, "events": events}
        doc["expect"] = [self.expectation(len(events)) for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, index: int = 0) -> dict:
    """A random small Riftbound scenario as plain data."""
    return _Gen(rng).build(index)
