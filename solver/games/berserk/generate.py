"""Random small Berserk scenarios: the core generator plus declared actions, conservation, control and 602.1 events."""
from __future__ import annotations

from solver.games.core.generate import ABILITIES, CoreGen

BERSERK_KINDS = ("open", "close", "reveal", "hide", "accumulate_tokens", "give_token", "lose_ability", "finishing_blow",
                 "take_control", "summon", "revive", "incarnate")
#: Berserk 532/602 events (control, squads, clean victory), generated with two players
BERSERK_VICTORY = ("recruit", "lose_control", "penalty_loss", "declare_redeal", "card_victory", "check_victory",
                   "concede")


class BerserkGen(CoreGen):
    """One Berserk scenario under construction."""

    game = "berserk"
    zones = ("play", "play", "play", "auxiliary", "hand", "deck", "graveyard", "outside")

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
        """Sometimes 'cannot be taken into a squad with [text]'."""
        if i and self.chance(0.2):
            o.setdefault("properties", {})["not_with"] = self.r.choice([f"o{self.r.randint(0, i - 1)}", "hero", "light"])

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
            return {"type": kind, "action": r.choice(self.declared)} if self.declared else None
        ev = {"type": "choice_subphase", "player": r.choice(self.players)}
        if self.chance(0.3):
            ev["moves"] = {r.choice(self.ids()): r.choice(self.cells)}
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
        if kind not in ("take_control", "summon", "revive", "incarnate") and self.chance(0.15):
            params["cost"] = "none"
        if params:
            ev["params"] = params
        if self.chance(0.2):
            ev["card"] = True
        self.declared.append(aid)
        return ev

    def extra_events(self) -> list[dict]:
        """Sometimes crowd a cell, then leave the move open."""
        if self.cells and len(self.objects) > 1 and self.chance(0.5):
            return self.crowding()
        return []

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


def random_doc(rng, index: int = 0) -> dict:
    """A random small Berserk scenario as plain data."""
    return BerserkGen(rng).build(index)
