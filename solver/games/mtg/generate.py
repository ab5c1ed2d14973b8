"""Random small valid MTG scenarios (a player leaves a multiplayer game, and what it is tested through), for the
differential soak.

2-4 players (sometimes on teams, sometimes one already out, sometimes a limited range of influence), with life
totals; a handful of objects of the kinds 800.4 speaks of (permanents, creatures with toughness and damage, an
Aura attached to one, tokens, a Plane in the command zone, cards and non-card objects on the stack, cards in
ante, library, hand ...), a few control effects of every duration and sometimes a toughness effect; 1-3 events
drawn from the 800.4 events, damage and life, spells and abilities with targets, 'exile until it leaves'
(610.3), turns passed by the rules or written in turn order; expectations whose verdicts are compared.
Deterministic for a given ``rng``.
"""
from __future__ import annotations

from solver.reference.generate import RandomParts, vary_expectation

PLAYERS = ("alex", "bianca", "carla", "dmitri")
ZONES = ("battlefield", "battlefield", "battlefield", "hand", "library", "graveyard", "exile", "stack", "ante",
         "outside")
TYPES = (["creature"], ["creature"], ["artifact"], ["enchantment"], ["creature", "artifact"])
DURATIONS = ("permanent", "until_end_of_turn", "until_next_turn", "static", "static")
EVENTS = ("leave_game",) * 5 + ("end_effect", "end_turn", "end_turn", "begin_turn", "begin_effect", "create",
                                "put_onto", "trigger", "resolve", "combat_damage", "choice", "player_information",
                                "count_actions", "priority_to_active", "move", "declare", "declare", "declare",
                                "damage", "damage", "life")
STATUSES = ("in_game", "left", "lost", "conceded")
#: the kinds that do something, with what they take: (targets objects, targets players, needs an amount)
KINDS = {"destroy": (True, False, False), "exile": (True, False, False), "return_to_hand": (True, False, False),
         "damage": (True, True, True), "gain_life": (False, True, True), "lose_life": (False, True, True),
         "each_opponent_loses_life": (False, False, True), "exile_until_leaves": (True, False, False),
         "return_from_graveyard": (True, False, False)}


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
        self.seat: str | None = None
        self.ranged = False
        self.computed = False  # an end_turn came: the rules compute the turns from then on
        self.written = False  # a begin_turn came: turns are written by hand (no extra turn then)
        self.listed_control = False  # control effects list their targets (614.12 with a selector is refused)
        self.draws: list[tuple[list, dict]] = []  # (instruction list, draw instruction): each player gets cards
        self.listed = 0  # spells and abilities with instruction lists drawn

    def player_docs(self) -> list[dict]:
        """Players in turn order: life (sometimes left at 20) and a counter, sometimes teams, rarely one out."""
        r, out = self.r, []
        teams = self.chance(0.15)
        for i, p in enumerate(self.players):
            doc: dict = {"id": p, "attributes": {"spells_cast": r.randint(0, 2)}}
            if self.chance(0.85):
                doc["attributes"]["life"] = r.randint(1, 5)
            if teams:
                doc["team"] = f"t{i % 2}"
            if i and self.chance(0.08):
                doc["status"] = r.choice(STATUSES[1:])
            out.append(doc)
        return out

    def obj(self, i: int) -> dict:
        """Object number ``i``: a card or token somewhere, maybe controlled by a player other than its owner; a
        creature has a toughness, sometimes damage."""
        r = self.r
        o: dict = {"id": f"o{i}", "owner": r.choice(self.players), "zone": r.choice(ZONES),
                   "types": list(r.choice(TYPES))}
        if o["zone"] in ("battlefield", "stack") and self.chance(0.3):
            o["controller"] = r.choice(self.players)
        if o["zone"] == "stack":
            o["card"] = self.chance(0.5)
            if self.chance(0.6):
                o["action"] = self.spec()
                o["types"] = ["ability"] if not o["card"] else ["instant"]
        elif o["zone"] in ("battlefield", "graveyard", "exile") and self.chance(0.15):
            o.update(token=True, card=False)
        if "creature" in o["types"]:
            o["attributes"] = {"toughness": r.randint(0, 3)} if self.chance(0.1) else {"toughness": r.randint(1, 3)}
            if self.chance(0.3):
                o["attributes"]["damage"] = r.randint(0, 2)
        if o["zone"] != "stack" and self.chance(0.3):  # 110.5b: it enters the battlefield untapped
            o["flags"] = {"tapped": self.chance(0.6)}
        if "creature" in o["types"] and o["zone"] != "stack" and self.chance(0.15):
            o["abilities"] = ["flying"]  # 613.1f: a printed ability the layer-6 effects may remove
        return o

    def spec(self, source: str | None = None) -> dict:
        """What a spell or ability on the stack does: a kind that does nothing modelled, or one with targets."""
        r = self.r
        if self.objects and self.chance(0.4):
            return self.instructions(source)
        if self.chance(0.4) or not self.objects:
            return {"kind": r.choice(("spell", "ability"))}
        kind = r.choice([k for k in KINDS if k != "exile_until_leaves" or source])
        objs, players, amount = KINDS[kind]
        candidates = [o for o in self.objects if o["id"] != source and "action" not in o]
        if self.chance(0.7):  # mostly what the kind can hit: permanents (creatures for damage)
            candidates = [o for o in candidates if o["zone"] == "battlefield"
                          and (kind != "damage" or "creature" in o["types"])] or candidates
        pool = ([o["id"] for o in candidates] if objs else []) + (list(self.players) if players else [])
        spec: dict = {"kind": kind}
        if kind != "each_opponent_loses_life":
            if not pool:
                return {"kind": "spell"}
            spec["targets"] = r.sample(pool, 1 if kind == "exile_until_leaves" else r.randint(1, min(2, len(pool))))
        if amount:
            spec["params"] = {"amount": r.randint(0, 3)}
        if kind == "return_from_graveyard":
            spec["params"] = {"to": r.choice(("hand", "battlefield"))}
        elif kind != "each_opponent_loses_life" and self.chance(0.15):
            spec.setdefault("params", {})["whose"] = r.choice(("opponent", "you"))
        return spec

    def instructions(self, source: str | None) -> dict:
        """608.2c: a spell or ability that does 2-3 things in order as one resolution: damage (to a target, or to each
        opponent, player or creature), life gained (maybe for each opponent dealt damage) or lost, a permanent
        destroyed, exiled or returned, cards drawn, a card returned from a graveyard, an extra turn (500.7)."""
        r = self.r
        listed: list[dict] = []
        perms = [o["id"] for o in self.objects if o["id"] != source and "action" not in o]
        creatures = [o for o in perms if o in self.creatures()]
        for _ in range(r.randint(2, 3)):
            kind = r.choice(("damage", "damage", "gain_life", "lose_life", "destroy", "exile", "return_to_hand", "draw",
                             "tap", "untap", "extra_turn", "return_from_graveyard"))
            part: dict = {"kind": kind}
            if kind == "extra_turn":  # 500.7 (Time Walk): its controller or a target player takes the next turn
                if self.written or any(q["kind"] == "extra_turn" for q in listed):
                    continue  # turns written by hand take no extra turn (refused: the rules begin it)
                self.computed = True  # from now on turns pass by the rules (end_turn)
                if self.chance(0.6):
                    part["each"] = "you"
                else:
                    part["targets"] = [r.choice(self.players)]
            elif kind == "return_from_graveyard":  # 'return target creature card from your graveyard'
                cards = [o["id"] for o in self.objects if o["zone"] == "graveyard" and o["id"] != source
                         and "action" not in o]
                if not cards:
                    continue
                part["targets"] = [r.choice(cards)]
                part["params"] = {"to": r.choice(("hand", "battlefield"))}
            elif kind == "draw":
                if len(self.draws) >= 2:
                    continue
                part["params"] = {"amount": 1}
                if self.chance(0.6):
                    part["each"] = "you"
                else:
                    part["targets"] = [r.choice(self.players)]
                self.draws.append((listed, part))
            elif kind in ("destroy", "exile", "return_to_hand", "tap", "untap"):
                if not perms:
                    continue
                part["targets"] = [r.choice(perms)]
            else:
                part["params"] = {"amount": r.randint(0, 3)}
                each = {"damage": ("opponent", "player", "creature"), "gain_life": ("you",),
                        "lose_life": ("you", "opponent")}[kind]
                pool = list(self.players) + (creatures if kind == "damage" else [])
                if self.chance(0.45):
                    part["each"] = r.choice(each)
                else:
                    part["targets"] = [r.choice(pool)]
                if kind == "gain_life" and self.chance(0.5):
                    part["params"]["per"] = "opponent_dealt_damage"
            if part.get("targets") and self.chance(0.1):
                part.setdefault("params", {})["whose"] = r.choice(("opponent", "you"))
            listed.append(part)
        self.listed += 1
        return {"kind": r.choice(("spell", "ability")), "instructions": listed}

    def libraries(self) -> None:
        """Cards for the draws: as many in each player's library as the draws of the scenario; a draw is taken out
        when an event moves a card to or from a library (121.4, a library that changes: not read)."""
        if not self.draws:
            return
        cards = {o["id"] for o in self.objects if o["zone"] == "library"}
        moved = any(ev.get("object") in cards or ev["type"] in ("move", "create") and ev.get("zone") == "library"
                    for ev in self.events)
        if moved:
            for listed, part in self.draws:
                listed.remove(part)
            return
        for p in self.players:
            known = self.r.randint(0, len(self.draws) + 1) if self.chance(0.5) else 0  # the top cards' order known
            order = self.r.sample(range(1, known + 1), known)
            for k in range(len(self.draws) + 1):  # one more: which card is drawn is a choice
                card = {"id": f"lib_{p}{k}", "owner": p, "zone": "library", "types": ["sorcery"]}
                if k < known:  # 121.1: its place from the top (the others lie below, order unknown)
                    card["attributes"] = {"library_position": order[k]}
                self.objects.append(card)

    def ids(self) -> list[str]:
        """The object ids so far."""
        return [o["id"] for o in self.objects]

    def creatures(self) -> list[str]:
        """The creatures (with a toughness) of the scenario."""
        return [o["id"] for o in self.objects if "creature" in o["types"] and "action" not in o]

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
        """A control effect (over objects, rarely over a player) of a random duration, or a toughness effect."""
        r = self.r
        ids = self.ids()
        if self.creatures() and self.chance(0.15):
            return {"id": eid, "timestamp": self.stamp(), "kind": "add", "attribute": "toughness",
                    "value": r.choice((-2, -1, 1)), "targets": {"types": ["creature"]},
                    **({"source": r.choice(ids), "duration": "static"} if self.chance(0.6) else {})}
        e: dict = {"id": eid, "timestamp": self.stamp(), "kind": "control", "player": r.choice(self.players)}
        source = r.choice(ids) if self.chance(0.7) else None
        if source:
            e["source"] = source
        if self.chance(0.1):
            e["targets"] = [r.choice(self.players)]
        elif self.chance(0.75) or self.listed_control:
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

    def turn_event(self) -> dict:
        """A turn: begin_turn for the next seat (while turns are written by hand), else end_turn, or an extra turn
        (500.7) for someone when no turn is written by hand."""
        if not self.written and self.chance(0.25):
            self.computed = True
            return {"type": "extra_turn", "player": self.r.choice(self.players)}
        if self.computed or self.chance(0.6):
            self.computed = True
            return {"type": "end_turn"}
        self.written = True
        i = self.players.index(self.seat)
        self.seat = self.players[(i + 1) % len(self.players)]
        return {"type": "begin_turn", "player": self.seat}

    def event(self, i: int) -> dict | None:
        """Event number ``i`` (None when the drawn kind has nothing to act on)."""
        r, p = self.r, self.r.choice(self.players)
        kind = r.choice(EVENTS)
        if kind == "leave_game":
            return self.leave(p, r.choice(("left", "lost", "conceded")))
        if kind == "end_effect":
            ids = [e["id"] for e in self.effects]
            return {"type": "end_effect", "effect": r.choice(ids)} if ids else None
        if kind in ("end_turn", "begin_turn"):
            return self.turn_event()
        if kind == "priority_to_active":
            return {"type": kind}
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
            if self.chance(0.3):
                ev["tapped"] = True  # 110.5b
            return ev
        if kind == "trigger":
            return self.trigger(i, p)
        if kind == "resolve":
            return {"type": "resolve", "action": r.choice(self.actions)} if self.actions else None
        if kind == "combat_damage":
            return {"type": "combat_damage", "source": r.choice(self.ids()), "player": p, "amount": r.randint(0, 3)}
        if kind == "damage":
            fighting = [o["id"] for o in self.objects if o["id"] in self.creatures() and o["zone"] == "battlefield"]
            target = r.choice(fighting if fighting and self.chance(0.6) else self.creatures() + self.players)
            return {"type": "damage", "source": r.choice(self.ids()), "target": target, "amount": r.randint(0, 3),
                    "combat": self.chance(0.4)}
        if kind == "life":
            return {"type": r.choice(("gain_life", "lose_life")), "player": p, "amount": r.randint(0, 3)}
        if kind == "choice":
            ev = {"type": "choice", "id": f"c{i}", "player": p}
            if self.chance(0.6):
                ev.update(source=r.choice(self.ids()), opponent=self.chance(0.6))
            return ev
        if kind in ("player_information", "count_actions") and self.ranged:
            return None  # 801.11 is not modelled: refused with a limited range of influence
        if kind == "player_information":
            return {"type": "player_information", "player": p, "attribute": r.choice(("life", "spells_cast")),
                    "reader": r.choice(self.players), "into": "seen"}
        if kind == "count_actions":
            return {"type": "count_actions", "attribute": "spells_cast", "reader": p, "into": "counted"}
        if kind == "move":
            return {"type": "move", "object": r.choice(self.ids()), "zone": r.choice(ZONES)}
        return self.declare(i, p)

    def leave(self, p: str, status: str | None = None) -> dict:
        """``p`` leaves the game: with ``status`` (default left), or, in a two-player game, by conceding or losing
        (104.3a, 104.3e: the only ways there)."""
        if len(self.players) == 2:
            status = status if status in ("lost", "conceded") else self.r.choice(("lost", "conceded"))
        ev = {"type": "leave_game", "player": p}
        if status is not None:
            ev["status"] = status
        return ev

    def declare(self, i: int, p: str) -> dict:
        """A player declares a spell or ability, with targets when its kind takes them (maybe with a source)."""
        aid = f"a{i}"
        self.actions.append(aid)
        source = self.r.choice(self.ids()) if self.chance(0.4) else None
        ev = {"type": "declare", "id": aid, "actor": p, "card": self.chance(0.5), **self.spec(source)}
        if source:
            ev["source"] = source
        return ev

    def trigger(self, i: int, p: str) -> dict:
        """A (delayed) triggered ability: Astral Slide's return, or an ability with targets, maybe with a source."""
        r = self.r
        aid = f"t{i}"
        self.actions.append(aid)
        if self.chance(0.4):
            return {"type": "trigger", "id": aid, "controller": p, "kind": "return_to_battlefield",
                    "targets": [r.choice(self.ids())]}
        source = r.choice(self.ids())
        ev = {"type": "trigger", "id": aid, "source": source, **self.spec(source)}  # 603.3a gives its controller
        if self.chance(0.3):
            ev["leaves"] = True  # 603.10a: whoever controlled the source as it left
        return ev

    def create(self, i: int, p: str) -> dict:
        """A player creates a token (or a card) somewhere, maybe owned by another, maybe by a permanent's trigger."""
        r = self.r
        oid = f"n{i}"
        self.created.append(oid)
        ev: dict = {"type": "create", "id": oid, "controller": p, "types": list(r.choice(TYPES[2:4])),
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
        leave = [self.leave(r.choice(self.players))] if self.chance(0.8) else []
        trigger = {"type": "trigger", "id": "slide", "controller": r.choice(self.players),
                   "kind": "return_to_battlefield", "targets": [o["id"]]}
        first = [leave[0], trigger] if leave and self.chance(0.5) else [trigger] + leave
        return first + [{"type": "resolve", "action": "slide"}]

    def extra(self) -> list[dict]:
        """500.7: one or two extra turns for random players, maybe someone leaves (800.4j passes over their turns),
        then a few end_turn events ('until your next turn' effects show whose turns began: 800.4k)."""
        r = self.r
        events = [{"type": "extra_turn", "player": r.choice(self.players)} for _ in range(r.randint(1, 2))]
        if self.chance(0.6):
            events.insert(r.randint(0, len(events)), self.leave(r.choice(self.players)))
        return events + [{"type": "end_turn"} for _ in range(r.randint(1, 3))]

    def leaves(self) -> list[dict]:
        """603.10a: a permanent with a leaves-the-battlefield ability, maybe under another player's control, leaves
        the battlefield (moved, with its owner or controller leaving the game, or put back by a player losing), or
        stays; its ability triggers (looking back for its controller; 800.4d if that player left) and resolves."""
        r = self.r
        src = {"id": "rector", "owner": r.choice(self.players), "zone": "battlefield", "types": ["creature"],
               "attributes": {"toughness": 2}}
        if self.chance(0.4):
            src["controller"] = r.choice(self.players)
        self.objects.append(src)
        if self.chance(0.4):
            self.effects.append({"id": "borrow", "timestamp": self.stamp(), "kind": "control",
                                 "player": r.choice(self.players), "targets": ["rector"],
                                 "duration": r.choice(("permanent", "until_end_of_turn"))})
        self.actions.append("rector_leaves")
        going = r.choice(([{"type": "move", "object": "rector", "zone": r.choice(("graveyard", "hand", "exile"))}],
                          [self.leave(src["owner"])], [self.leave(src.get("controller", src["owner"]))],
                          [self.leave(r.choice(self.players))],
                          [{"type": "damage", "source": "rector", "target": "rector", "amount": 2}], []))
        trigger = {"type": "trigger", "id": "rector_leaves", "source": "rector", "leaves": True,
                   **r.choice(({"kind": "ability"}, {"kind": "each_opponent_loses_life", "params": {"amount": 1}}))}
        return going + [trigger, {"type": "resolve", "action": "rector_leaves"}]

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
        return [self.leave(o["controller"]), end]

    def ring(self) -> list[dict]:
        """610.3 (Oblivion Ring): a permanent exiles another until it leaves the battlefield; then the ring leaves
        (destroyed, moved, with its owner or controller leaving, or by a player losing)."""
        r = self.r
        ring = {"id": "ring", "owner": r.choice(self.players), "zone": "battlefield", "types": ["enchantment"]}
        if self.chance(0.3):
            ring["controller"] = r.choice(self.players)
        self.objects.append(ring)
        target = r.choice([o for o in self.objects if o["id"] != "ring"])
        target["zone"] = r.choice(("battlefield", "battlefield", "battlefield", "graveyard"))
        target.pop("action", None)
        self.actions.append("exiling")
        exiling = {"type": "trigger", "id": "exiling", "source": "ring",  # the ring's controller's (603.3a)
                   "kind": "exile_until_leaves", "targets": [target["id"]]}
        ending = r.choice(([{"type": "move", "object": "ring", "zone": r.choice(("graveyard", "hand", "exile"))}],
                           [self.leave(ring.get("controller", ring["owner"]))],
                           [self.leave(ring["owner"])],
                           [{"type": "lose_life", "player": ring.get("controller", ring["owner"]), "amount": 9}],
                           [self.leave(target["owner"])], []))
        early = self.chance(0.2)  # 610.3a: the ring is gone before the exile resolves
        if early and ending:
            return [exiling] + ending + [{"type": "resolve", "action": "exiling"}]
        return [exiling, {"type": "resolve", "action": "exiling"}] + ending

    def layer6(self) -> list[dict]:
        """613.1f, 613.7, 613.7m: Levitation ('creatures you control have flying') and a 'creatures lose flying'
        enchantment, on the battlefield (entered together: one timestamp, the active player orders them) or entering
        later; one may leave, a creature may enter or change zone; expectations ask who flies."""
        r = self.r
        together = self.chance(0.4)
        for name, kind in (("levitation", "grant"), ("well", "remove")):
            where = "battlefield" if together else r.choice(("battlefield", "battlefield", "hand"))
            self.objects.append({"id": name, "owner": r.choice(self.players), "zone": where, "types": ["enchantment"]})
            e = {"id": f"{name}_fx", "kind": kind, "ability": "flying", "source": name, "duration": "static",
                 "targets": {"types": ["creature"], "zone": "battlefield"}}
            if kind == "grant" and self.chance(0.6):
                e["targets"]["controlled_by"] = "source_controller"
            if where == "battlefield":
                e["timestamp"] = 7 if together else self.stamp()
            self.effects.append(e)
        moves = []
        for name in ("levitation", "well"):
            o = next(x for x in self.objects if x["id"] == name)
            if o["zone"] == "hand":
                moves.append({"type": "put_onto", "object": name})
            elif self.chance(0.3):
                moves.append({"type": "move", "object": name, "zone": r.choice(("graveyard", "hand", "exile"))})
        r.shuffle(moves)
        creature = r.choice(self.creatures()) if self.creatures() else None
        if creature and self.chance(0.4):
            moves.insert(r.randint(0, len(moves)), r.choice((
                {"type": "put_onto", "object": creature, **({"controller": r.choice(self.players)}
                                                            if self.chance(0.5) else {})},
                {"type": "move", "object": creature, "zone": r.choice(("graveyard", "battlefield"))})))
        if self.chance(0.3):
            moves.insert(r.randint(0, len(moves)), self.leave(r.choice(self.players)))
        return moves

    def authority(self) -> list[dict]:
        """614.1d, 611.3a, 800.4a: Authority of the Consuls ('creatures your opponents control enter the battlefield
        tapped'), maybe under another player's control, maybe losing the ability (613.1f); creatures enter before
        and after its controller or owner leaves, or it leaves the battlefield; expectations ask who is tapped."""
        r = self.r
        self.listed_control = True
        self.effects = [e for e in self.effects if not (e["kind"] == "control" and isinstance(e["targets"], dict))]
        auth = {"id": "authority", "owner": r.choice(self.players), "zone": "battlefield", "types": ["enchantment"],
                "abilities": ["opponents_enter_tapped"]}
        if self.chance(0.3):
            auth["controller"] = r.choice(self.players)
        self.objects.append(auth)
        if self.chance(0.3):
            self.effects.append({"id": "borrow", "timestamp": self.stamp(), "kind": "control",
                                 "player": r.choice(self.players), "targets": ["authority"],
                                 "duration": r.choice(("permanent", "until_end_of_turn"))})
        if self.chance(0.2):
            self.effects.append({"id": "blank", "timestamp": self.stamp(), "kind": "remove",
                                 "ability": "opponents_enter_tapped", "targets": ["authority"]})
        for i in range(r.randint(1, 3)):
            self.objects.append({"id": f"c{i}", "owner": r.choice(self.players),
                                 "zone": r.choice(("hand", "hand", "graveyard", "exile", "battlefield")),
                                 "types": ["creature"], "attributes": {"toughness": 2}})
        events = []
        for i in range(r.randint(1, 3)):
            c = f"c{i}" if any(o["id"] == f"c{i}" for o in self.objects) else "c0"
            events.append({"type": "put_onto", "object": c, **({"controller": r.choice(self.players)}
                                                               if self.chance(0.4) else {})})
        ending = r.choice(([self.leave(auth.get("controller", auth["owner"]))], [self.leave(auth["owner"])],
                           [self.leave(r.choice(self.players))],
                           [{"type": "move", "object": "authority", "zone": "graveyard"}],
                           [{"type": "create", "id": "n9", "controller": r.choice(self.players),
                             "types": ["creature"]}], []))
        if ending:
            if ending[0]["type"] == "create":
                self.created.append("n9")
            events.insert(r.randint(0, len(events)), ending[0])
        return events

    def untapping(self) -> list[dict]:
        """502.3: tapped permanents of several players (one maybe under another's control effect); turns pass (by
        the rules or written by hand), a player may leave, something may be tapped; expectations ask who untapped."""
        r = self.r
        for o in self.objects:
            if o["zone"] == "battlefield" and "action" not in o:
                o["flags"] = {"tapped": self.chance(0.8)}
        events = []
        for _ in range(r.randint(1, 3)):
            roll = r.random()
            if roll < 0.15:
                events.append(self.leave(r.choice(self.players)))
            elif roll < 0.3 and self.ids():
                events.append({"type": "set_flag", "object": r.choice(self.ids()), "flag": "tapped", "value": True})
            else:
                events.append(self.turn_event())
        return events

    def cast(self) -> list[dict]:
        """115, 608.2b, 801: a spell or ability with targets (or one that hits each opponent) is declared or
        triggered, a few events happen (a target may leave, change zone, come back, gain protection, change
        controller; a player may lose or leave; a turn may pass), then it resolves."""
        r = self.r
        p = r.choice(self.players)
        source = r.choice(self.ids()) if self.chance(0.4) else None
        spec = self.instructions(source) if self.chance(0.35) else self.spec(source)
        if spec["kind"] in ("spell", "ability") and not spec.get("instructions"):
            spec = {"kind": "each_opponent_loses_life", "params": {"amount": r.randint(1, 3)}}
        self.actions.append("cast")
        if self.chance(0.7):
            first = {"type": "declare", "id": "cast", "actor": p, "card": self.chance(0.5), **spec}
        else:
            first = {"type": "trigger", "id": "cast", "controller": p, **spec}
        if source:
            first["source"] = source
            if first["type"] == "trigger":
                del first["controller"]  # 603.3a gives it
        between = []
        named = {"targets": [t for part in spec.get("instructions", [spec]) for t in part.get("targets", [])]}
        for i in range(r.randint(0, 2)):
            ev = self.meddle(i, named)
            if ev is not None:
                between.append(ev)
        return [first] + between + [{"type": "resolve", "action": "cast"}]

    def meddle(self, i: int, spec: dict) -> dict | None:
        """An event between casting and resolving, often about a target."""
        r = self.r
        objs = [t for t in spec.get("targets", []) if t not in self.players]
        players = [t for t in spec.get("targets", []) if t in self.players]
        if objs and self.chance(0.5):
            t = r.choice(objs)
            return r.choice(({"type": "move", "object": t, "zone": r.choice(ZONES)}, {"type": "put_onto", "object": t},
                             {"type": "begin_effect", "effect": self.begun(
                                 {"id": f"m{i}", "kind": r.choice(("prohibit", "control")), "action": "be_targeted",
                                  "player": r.choice(self.players), "targets": [t], "duration": "until_end_of_turn"})}))
        if players and self.chance(0.5):
            return r.choice((self.leave(r.choice(players)),
                             {"type": "lose_life", "player": r.choice(players), "amount": r.randint(1, 5)}))
        return self.event(10 + i)

    def storm(self) -> list[dict]:
        """702.40a, 707.10: a few spells cast (maybe a turn passes first), then a storm spell at a player: one storm
        copy per spell cast before it this turn, each at a random player, sometimes another player's copy (707.10);
        between resolutions a player may leave (608.2b) or a copy be moved off the stack (707.10a); copies resolve
        before the original."""
        r = self.r
        p = r.choice(self.players)
        events: list[dict] = []
        cast = 0
        for i in range(r.randint(0, 3)):
            if self.chance(0.15):
                events.append({"type": "end_turn"})
                self.computed = True
                cast = 0
            aid = f"s{i}"
            self.actions.append(aid)
            ev = {"type": "declare", "id": aid, "actor": r.choice(self.players), "card": self.chance(0.8),
                  **self.spec()}
            cast += ev["card"]
            events.append(ev)
        kind = r.choice(("damage", "lose_life"))
        self.actions.append("storm")
        events.append({"type": "declare", "id": "storm", "actor": p, "kind": kind, "card": True,
                       "targets": [r.choice(self.players)], "params": {"amount": r.randint(1, 3)}})
        copies = []
        for k in range(cast):
            c = {"type": "copy", "id": f"copy{k}", "spell": "storm", "storm": True}
            if self.chance(0.7):
                c["targets"] = [r.choice(self.players)]
            copies.append(c)
        if self.chance(0.25):
            copies.append({"type": "copy", "id": "twin", "spell": "storm", "controller": r.choice(self.players),
                           "targets": [r.choice(self.players)]})
        if copies and self.chance(0.3):
            events.append(self.leave(r.choice(self.players)))
        events += copies
        self.actions += [c["id"] for c in copies]
        self.created += [c["id"] for c in copies]
        for c in reversed(copies):
            if self.chance(0.2):
                events.append(self.leave(r.choice(self.players)))
            if self.chance(0.1):
                events.append({"type": "move", "object": c["id"], "zone": r.choice(("graveyard", "exile", "stack"))})
            events.append({"type": "resolve", "action": c["id"]})
        if self.chance(0.8):
            events.append({"type": "resolve", "action": "storm"})
        return events

    def raise_dead(self) -> list[dict]:
        """Return a creature card from a graveyard: a spell or ability at it (to hand or battlefield), a
        return_from_graveyard event, or an ability that works from the graveyard (113.6); its owner (or another
        player) may leave first (800.4a: the card left the game), the card may move away (400.7)."""
        r = self.r
        o = r.choice(self.objects)
        o.update(zone=r.choice(("graveyard", "graveyard", "graveyard", "battlefield", "hand")), types=["creature"])
        o.pop("controller", None)
        o.pop("action", None)
        o.pop("card", None)
        o.pop("token", None)
        o["attributes"] = {"toughness": r.randint(1, 3)}
        o.pop("flags", None)
        to = r.choice(("hand", "battlefield"))
        before = []
        if self.chance(0.5):
            before.append(self.leave(r.choice([o["owner"]] * 2 + self.players)))
        if self.chance(0.15):
            before.append({"type": "move", "object": o["id"], "zone": r.choice(ZONES)})
        way = r.randint(0, 2)
        if way == 0:
            return before + [{"type": "return_from_graveyard", "object": o["id"], "to": to}]
        self.actions.append("raise")
        if way == 1:
            first = {"type": "declare", "id": "raise", "actor": r.choice([o["owner"]] * 2 + self.players),
                     "kind": "return_from_graveyard", "targets": [o["id"]], "params": {"to": to}, "card": True}
        else:
            first = {"type": "trigger", "id": "raise", "source": o["id"], "from_graveyard": True,
                     "kind": "return_from_graveyard", "targets": [o["id"]], "params": {"to": to}}
        split = r.randint(0, len(before))
        return before[:split] + [first] + before[split:] + [{"type": "resolve", "action": "raise"}]

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
            lambda: {"player": p, "status": r.choice(STATUSES + ("won",))},
            lambda: {"winner": p},
            lambda: {"player": p, "player_attributes": {"spells_cast": r.randint(0, 2)}},
            lambda: {"turn": {"priority": r.choice(self.players)}},
            lambda: {"turn": {"active_player": r.choice(self.players)}},
        ]
        lives = [d["id"] for d in self.docs if "life" in d["attributes"]]
        if lives:
            options.append(lambda: {"player": r.choice(lives), "player_attributes": {"life": r.randint(-2, 5)}})
        options.append(lambda: {"player": p, "player_attributes": {"life": r.choice((20, 19, 18, 17, r.randint(-2, 5)))}})
        damaged = [x["id"] for x in self.objects if "damage" in x.get("attributes", {})]
        if damaged:
            options.append(lambda: {"object": r.choice(damaged), "attributes": {"damage": r.randint(0, 3)}})
        choices = [ev["id"] for ev in self.events if ev["type"] == "choice"]
        if choices:
            options.append(lambda: {"player": p, "player_flags": {r.choice(choices): self.chance(0.5)}})
        if self.actions:
            options.append(lambda: {"action": r.choice(self.actions),
                                    "action_status": r.choice(("on_stack", "resolved", "interrupted", "ceased",
                                                               "unborn", "illegal"))})
        if self.effects:
            options.append(lambda: {"effect": r.choice([e["id"] for e in self.effects]),
                                    "effect_active": self.chance(0.5)})
        creatures = self.creatures() + [c for c in self.created if c == "n9"]
        if creatures:
            options.append(lambda: {"object": r.choice(creatures), "abilities": {"flying": self.chance(0.5)}})
            options.append(lambda: {"object": r.choice(creatures), "flags": {"tapped": self.chance(0.5)}})
        aura = next((x for x in self.objects if x["id"] == "aura"), None)
        if aura:
            options.append(lambda: {"object": "aura", "attached_to": aura["attached_to"]})
        return vary_expectation(self, r.choice(options)())

    def in_game_leaves(self, events: list[dict]) -> list[dict]:
        """``events`` without the leaves of players already out of the game (a located error: only a player in the
        game leaves it), nor any leave once the game is won (one player, or one team, left in it)."""
        team = {d["id"]: d.get("team", d["id"]) for d in self.docs}
        out = {d["id"] for d in self.docs if d.get("status", "in_game") != "in_game"}
        kept = []
        for ev in events:
            if ev["type"] == "leave_game":
                if ev["player"] in out or len({team[p] for p in self.players if p not in out}) < 2:
                    continue
                out.add(ev["player"])
            kept.append(ev)
        return kept

    def build(self, index: int) -> dict:
        """The whole scenario as plain data."""
        r = self.r
        self.docs = self.player_docs()
        doc: dict = {"id": f"gen-mtg-{index}", "game": "mtg", "players": self.docs}
        self.ranged = len(self.players) >= 3 and self.chance(0.25)
        if self.ranged:
            doc["options"] = {"range_of_influence": 1}
        self.seat = r.choice(self.players)
        doc["turn"] = {"active_player": self.seat, "priority": r.choice(self.players)}
        for i in range(r.randint(1, 4)):
            self.objects.append(self.obj(i))
        self.specials()
        self.effects = [self.effect(f"e{i}") for i in range(r.randint(0, 3))]
        scenario_effects = list(self.effects)
        script = r.choice((None, None, None, self.slide, self.default_left, self.ring, self.ring, self.cast, self.cast,
                           self.cast, self.extra, self.leaves, self.layer6, self.layer6, self.authority,
                           self.authority, self.untapping, self.storm, self.storm, self.raise_dead,
                           self.raise_dead))
        for i in range(r.randint(1, 3)) if script is None else ():
            ev = self.event(i)
            if ev is not None:
                self.events.append(ev)
        if script is not None:
            self.events = script()
            begun = {ev["effect"]["id"] for ev in self.events if ev["type"] == "begin_effect"}
            scenario_effects = [e for e in self.effects if e["id"] not in begun]
        elif not self.events or self.chance(0.4):
            self.events.insert(0, self.leave(r.choice(self.players)))
            if len(self.players) == 3 and self.chance(0.3):  # two leave: the last player wins (104.2a)
                rest = [q for q in self.players if q != self.events[0]["player"]]
                self.events.insert(1, self.leave(r.choice(rest), "conceded"))
        if script is None and self.chance(0.3):  # 400.7: a named object leaves and comes back, a new object
            back = self.reentry(self.effects, self.objects, ("graveyard", "hand", "exile"), "battlefield")
            if back and self.chance(0.5):
                back[1] = {"type": "put_onto", "object": back[1]["object"]}
            self.events += back
        self.libraries()
        self.events = self.in_game_leaves(self.events)
        doc.update(objects=self.objects, effects=scenario_effects, events=self.events)
        doc["expect"] = [self.expectation() for _ in range(r.randint(1, 4))]
        return doc


def random_doc(rng, index: int = 0) -> dict:
    """A random small MTG scenario as plain data."""
    return _Gen(rng).build(index)
