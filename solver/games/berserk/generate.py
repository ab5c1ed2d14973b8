"""Random small Berserk scenarios: the core generator plus declared actions, moves, conservation (with symbiotes and
equipment), control and 602.1 events (with decisive advantages the victory analysis decides)."""
from __future__ import annotations

from solver.games.berserk.vocabulary import ELEMENTS
from solver.games.core.generate import ABILITIES, CoreGen
from solver.reference.generate import vary_expectation

BERSERK_KINDS = ("open", "close", "reveal", "hide", "accumulate_tokens", "give_token", "lose_ability", "finishing_blow",
                 "take_control", "summon", "revive", "incarnate", "move", "move")
#: Berserk 532/602 events (control, squads, clean victory), generated with two players
BERSERK_VICTORY = ("recruit", "lose_control", "penalty_loss", "declare_redeal", "card_victory", "check_victory",
                   "concede")


class BerserkGen(CoreGen):
    """One Berserk scenario under construction."""

    game = "berserk"
    category = ("element", ELEMENTS)
    zones = ("play", "play", "play", "auxiliary", "hand", "deck", "graveyard", "outside")
    play_zones = ("play", "auxiliary")

    def __init__(self, rng) -> None:
        super().__init__(rng)
        #: declared action -> how far the events took it ("declared", "started", "done")
        self.stage_of: dict[str, str] = {}

    def obj_flags(self, flags: dict) -> None:
        """Sometimes a card already has the duty to move."""
        if self.cells and self.chance(0.1):
            flags["must_move"] = True

    def obj_abilities(self, o: dict, abilities: list) -> None:
        """Incarnation, auxiliary zone; sometimes a terrain."""
        abilities += [a for a in ("incarnation 1", "incarnation 2", "auxiliary_zone") if self.chance(0.12)]
        if self.chance(0.1):
            o["types"] = ["terrain"]

    def obj_properties(self, o: dict, i: int) -> None:
        """Sometimes 'cannot be taken into a squad with [text]'; a creature has lives and a strike (the victory
        analysis reads them), sometimes a protection, regeneration, movement."""
        r = self.r
        if i and self.chance(0.2):
            o.setdefault("properties", {})["not_with"] = r.choice([f"o{r.randint(0, i - 1)}", "hero", "forests"])
        if "creature" not in o["types"]:
            return
        o.setdefault("properties", {})["strike"] = "-".join(str(r.randint(0, 3)) for _ in range(3))
        attrs = o.setdefault("attributes", {})
        attrs.setdefault("life", r.randint(1, 3))
        for name, lo, hi in (("protection_nonmagical", 1, 3), ("regen", 1, 1), ("move", 0, 2)):
            if self.chance(0.15):
                attrs[name] = r.randint(lo, hi)
        if self.chance(0.2):
            o["triggers"] = [self.trigger()]

    def targets(self, source: str | None, allow_controlled_by: bool) -> object:
        """The core's targets; a selector sometimes chooses by element ('forest creatures', berserk.element.selector),
        except a control effect's (``allow_controlled_by`` false: by element it would be a cycle with an element
        effect choosing by controller)."""
        sel = super().targets(source, allow_controlled_by)
        if isinstance(sel, dict) and allow_controlled_by and self.chance(0.4):
            sel["element"] = self.r.choice(ELEMENTS)
        return sel

    def trigger(self) -> dict:
        """A trigger at the start or end of its controller's turn (berserk.trigger): heal or wound one creature the
        selector matches (adjacent, of a side, other)."""
        r = self.r
        sel: dict = {"types": ["creature"]}
        if self.chance(0.6):
            sel["controlled_by"] = r.choice(["source_controller", "source_opponent"])
        if self.cells and self.chance(0.6):
            sel["cell"] = r.choice(["adjacent", "source"])
        if self.chance(0.5):
            sel["other"] = True
        if self.chance(0.25):
            sel["element"] = r.choice(ELEMENTS)
        return {"id": "t", "at": r.choice(["start_of_turn", "end_of_turn"]), "attribute": "life",
                "value": r.choice([1, 1, -1, 2]), "targets": sel}

    def event_kinds(self) -> list[str]:
        """Core events plus declarations, resolution, the Choice subphase and the 602.1 events."""
        kinds = super().event_kinds() + ["declare"] * 4 + ["resolve"] * 3 + ["start_execution", "finish_execution"]
        if self.cells:
            kinds += ["choice_subphase"] * 3
        if len(self.players) == 2:
            kinds += list(BERSERK_VICTORY)
        return kinds

    def game_event(self, kind: str, i: int) -> dict | None:
        """A declaration, a resolution, a Choice subphase or a control / clean-victory event."""
        r = self.r
        if kind in BERSERK_VICTORY:
            return self.victory_event(kind)
        if kind == "declare":
            return self.declare(i)
        if kind in ("resolve", "start_execution", "finish_execution"):
            return self.carry_on(kind)
        ev = {"type": "choice_subphase", "player": r.choice(self.players)}
        if self.chance(0.2):
            ev["obligatory"] = ["attack_obligation"]
        if self.chance(0.5):
            ev["free"] = True
        return ev

    def declare(self, i: int) -> dict:
        """A declared Berserk action."""
        r = self.r
        kind = r.choice(BERSERK_KINDS)
        aid = f"a{i}"
        ev: dict = {"type": "declare", "id": aid, "actor": r.choice(self.players), "kind": kind,
                    "source": r.choice(self.ids())}
        if kind != "accumulate_tokens" and self.chance(0.5):
            ev["targets"] = [r.choice(self.ids())]
        params: dict = {}
        if kind == "lose_ability":
            params["ability"] = r.choice(ABILITIES)
        if kind == "finishing_blow":
            params["x"] = r.randint(0, 3)
        if kind in ("summon", "revive", "incarnate") and self.cells and self.chance(0.6):
            params["cell"] = r.choice(self.cells)
        if kind == "move":
            if not self.cells:
                return self.declare(i)
            params["cell"] = r.choice(self.cells)
            ev.pop("targets", None)
        if kind not in ("take_control", "summon", "revive", "incarnate", "move") and self.chance(0.15):
            params["cost"] = "none"
        if params:
            ev["params"] = params
        if self.chance(0.2):
            ev["card"] = True
        self.declared.append(aid)
        self.stage_of[aid] = "declared"
        return ev

    def carry_on(self, kind: str) -> dict | None:
        """A resolve, start or finish of a declared action that the events may still find there (one that an earlier
        event took off the stack is not drawn: that is a located error, the checker's tests' business)."""
        wants = {"resolve": "declared", "start_execution": "declared", "finish_execution": "started"}[kind]
        ready = [a for a in self.declared if self.stage_of.get(a) == wants]
        if not ready:
            return None
        aid = self.r.choice(ready)
        self.stage_of[aid] = {"resolve": "done", "start_execution": "started", "finish_execution": "done"}[kind]
        return {"type": kind, "action": aid}

    def extra_events(self) -> list[dict]:
        """Sometimes equipment on a creature taken off and put back on, or a card an effect names leaving play and
        coming back (object identity); sometimes crowd a cell, then judge the duty; sometimes end with a victory
        check that asks the victory analysis for a decisive advantage (and sometimes carries a judge's ruling)."""
        out = self.equip() if self.chance(0.25) else []
        if self.chance(0.25):
            out += self.reentry(self.effects, self.objects, ("hand", "graveyard", "outside"), "play")
        out += self.crowding() if self.cells and len(self.objects) > 1 and self.chance(0.5) else []
        self.after_initial()
        if len(self.players) == 2 and self.chance(0.25):
            out.append({"type": "check_victory", "decisive_advantage": self.r.sample(self.players, self.r.randint(1, 2))})
            if self.chance(0.4):  # often a ruling on the very claim the proof settles (it may contradict it)
                asked = out[-1]["decisive_advantage"]
                out[-1]["judge_ruled"] = [self.r.choice(asked if self.chance(0.6) else self.players)]
        return out

    def after_initial(self) -> None:
        """A begun effect's typed timestamp must come after every initial one (models.timeline): the initial effects
        added here came last, so a begun one that does not is left to its event's position."""
        top = max((e["timestamp"] for e in self.effects if "timestamp" in e), default=-1)
        for ev in self.events:
            if ev["type"] == "begin_effect" and ev["effect"].get("timestamp", top + 1) <= top:
                del ev["effect"]["timestamp"]

    def equip(self) -> list[dict]:
        """Equipment attached to a creature grants it an element (a static ability, sometimes without a timestamp
        when the equipment starts in the hand); sometimes it is taken off and put back on: applied anew, the latest."""
        r = self.r
        gear = [o for o in self.objects if "equipment" in o["types"]]
        bearers = [o for o in self.objects if "creature" in o["types"]]
        if not gear or not bearers:
            return []
        g, bearer = r.choice(gear), r.choice(bearers)
        g["attached_to"] = bearer["id"]
        e = {"id": f"eq_{g['id']}", "source": g["id"], "kind": "set", "attribute": "element",
             "value": r.choice(ELEMENTS), "targets": [bearer["id"]], "duration": "static"}
        if g["zone"] in ("play", "auxiliary") or self.chance(0.5):
            e["timestamp"] = self.stamp()
        self.effects.append(e)
        self.effect_ids.append(e["id"])
        if not self.chance(0.7):
            return []
        out = [{"type": "move", "object": g["id"], "zone": r.choice(("hand", "graveyard"))}] if self.chance(0.7) else []
        return out + [{"type": "move", "object": g["id"], "zone": "play"}]

    def crowding(self) -> list[dict]:
        """A card (a creature, a symbiote, equipment) moves onto another's cell, then the duty is judged: a declared
        move, or a Choice subphase that leaves the move open (several outcomes), or one that kills."""
        r = self.r
        placed = [o for o in self.objects if o["zone"] == "play" and o.get("cell")]
        if not placed or len(self.objects) < 2:
            return []
        other = r.choice(placed)
        mover = r.choice([o for o in self.objects if o is not other])
        cell, player = other["cell"], mover.get("controller", mover["owner"])
        if self.chance(0.4):  # "cannot move" (524.2, 525.2): the free choice may leave it only to die
            self.forbid_move(mover["id"])
        out = [{"type": "move", "object": mover["id"], "zone": "play", "cell": cell}]
        if self.chance(0.3):
            aid = f"step{len(self.events)}"
            out += [{"type": "declare", "id": aid, "actor": player, "kind": "move", "source": mover["id"],
                     "params": {"cell": r.choice(self.cells)}}, {"type": "resolve", "action": aid}]
            self.declared.append(aid)
            self.stage_of[aid] = "done"
        return out + [{"type": "choice_subphase", "player": player, "free": self.chance(0.7)}]

    def forbid_move(self, card: str) -> None:
        """A 'cannot move' effect on the card (a static ability of another card, or lasting), sometimes against a
        permission to move (the prohibition wins, 524.2)."""
        r = self.r
        others = [o["id"] for o in self.objects if o["id"] != card]
        e: dict = {"id": f"chain_{card}", "timestamp": self.stamp(), "kind": "prohibit", "action": "move",
                   "targets": [card]}
        if others and self.chance(0.6):
            e.update(source=r.choice(others), duration="static")
        self.effects.append(e)
        self.effect_ids.append(e["id"])
        if self.chance(0.3):
            self.effects.append({"id": f"haste_{card}", "timestamp": self.stamp(), "kind": "permit", "action": "move",
                                 "targets": [card]})
            self.effect_ids.append(f"haste_{card}")

    def expectation(self) -> dict:
        """Sometimes about the duty to move (of any card: an exempt one never has it)."""
        if self.cells and self.chance(0.15):
            return vary_expectation(self, {"object": self.r.choice(self.ids()), "flags": {"must_move": self.chance(0.5)}})
        if self.cells and self.chance(0.08):
            return vary_expectation(self, {"object": self.r.choice(self.ids()), "allowed": {"move": self.chance(0.5)}})
        return super().expectation()

    def victory_event(self, kind: str) -> dict:
        """A Berserk control / clean-victory event (532.7, 532.8, 602.1)."""
        r = self.r
        ev: dict = {"type": kind}
        if kind != "check_victory":
            ev["player"] = r.choice(self.players)
        else:
            if self.chance(0.5):
                ev["decisive_advantage"] = r.sample(self.players, r.randint(1, 2))
            if self.chance(0.2):
                ev["judge_ruled"] = [r.choice(self.players)]
        if kind == "recruit":
            ev["cards"] = r.sample(self.ids(), r.randint(1, min(2, len(self.objects))))
            if self.cells and self.chance(0.6):
                ev["cells"] = {c: r.choice(self.cells) for c in ev["cards"]}
        elif kind == "lose_control":
            ev["object"] = r.choice(self.ids())
        elif kind == "card_victory":
            ev.update(source=r.choice(self.ids()), result=r.choice(("won", "lost")))
        return ev


def random_doc(rng, index: int = 0) -> dict:
    """A random small Berserk scenario as plain data."""
    return BerserkGen(rng).build(index)
