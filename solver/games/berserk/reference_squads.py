"""The reference reading of Berserk control, squads and clean victory (seed 002): 532.5.4, 532.6, 532.7, 532.8, 602.1.

Plain Python over a state dict; shares no code with the encoding (``squads.py``, ``victory.py``). A mixin
for the reference ``BerserkRules``: action kinds take_control / summon / revive /
incarnate, and the events recruit, lose_control, concede, penalty_loss,
declare_redeal, card_victory, check_victory.
"""
from __future__ import annotations

from models.events import Declare
from solver.reference.rules import Step, Unsupported
from solver.reference.world import BOOL, INT, NONE, State, World, key

ENTER_FROM = {"summon": ("hand",), "revive": ("graveyard",), "incarnate": None}


def _data(w: World, obj: str):
    return next((o for o in w.sc.objects if o.id == obj), None)


def _texts(w: World, obj: str) -> list[str]:
    """The [text]s of 'cannot be taken into a squad with [text]'."""
    d = _data(w, obj)
    raw = d.properties.get("not_with") if d else None
    return [t.strip() for t in raw.split("+") if t.strip()] if raw else []


def _is(w: World, obj: str, text: str) -> bool:
    """The card answers to [text] by id, name, type or a property value."""
    d = _data(w, obj)
    names = {obj, *w.objects[obj].types}
    if d is not None:
        names |= {d.name} if d.name else set()
        names |= {v for k, v in d.properties.items() if k != "not_with"}
    return text in names


def _incarnations(w: World, obj: str) -> list[tuple[str, int]]:
    """The 'incarnation X' abilities the card may have (printed or granted: 532.5.4 speaks of the creature's
    abilities, whatever gave them), with their X; whether it has each is ``has_ability``'s answer."""
    out = []
    for ab in w.rules.ability_names(w, obj):
        word, _, x = ab.partition(" ")
        if word == "incarnation" and x.strip().isdigit():
            out.append((ab, int(x)))
    return out


class ControlVictoryRules:
    """Mixin: 532.5.4-532.8 and 602.1 for the reference Berserk rules."""

    def extra_keys(self, w: World) -> None:
        """The incarnation flag and value of cards that incarnate."""
        super().extra_keys(w)  # type: ignore[misc]
        for ev in w.sc.events:
            if isinstance(ev, Declare) and ev.kind == "incarnate":
                card = ev.targets[0] if ev.targets else ev.source
                w.add(key("flag", card, "incarnated"), BOOL, "0")
                w.add(key("attr", card, "incarnation"), INT, "0")

    # -- helpers --------------------------------------------------------------------------
    def opponent(self, w: World, player: str) -> str:
        """The other player of a two-player battle."""
        if len(w.players) != 2:
            raise Unsupported("berserk control and victory rules need two players")
        return next(p for p in w.players if p != player)

    def in_squad(self, w: World, st: State, obj: str, player: str) -> bool:
        """The card is in play under the player's control."""
        return st[key("zone", obj)] in self.play_zones and self.controller(w, st, obj) == player

    def clashes(self, w: World, st: State, obj: str, player: str, recruit: bool = False) -> bool:
        """The player's squad holds a card ``obj`` cannot be with (532.8: summon, revive, incarnate, control keep out
        only the card with the feature); when recruiting, also one that cannot be with ``obj`` (the first bullet)."""
        for q, info in w.objects.items():
            if q == obj or info.spec is not None:
                continue
            if (any(_is(w, q, t) for t in _texts(w, obj)) or (recruit and any(_is(w, obj, t) for t in _texts(w, q)))) \
                    and self.in_squad(w, st, q, player):
                return True
        return False

    def award(self, w: World, prev: State, step: Step, winner: str, rule: str, loser_status: str = "lost") -> None:
        """The winner wins and the other player loses, if both are still in the game."""
        w.note(rule)
        loser = self.opponent(w, winner)
        if prev[key("pstatus", winner)] == "in_game" and prev[key("pstatus", loser)] == "in_game":
            step.set(key("pstatus", winner), "won", rule)
            step.set(key("pstatus", loser), loser_status, rule)
        else:  # 602.1: the game is over, nothing more is awarded
            w.note("berserk.602.1.game_over")

    # -- action kinds ---------------------------------------------------------------------------
    def kind_requirements(self, w: World, st: State, spec) -> list[tuple[str, bool]]:
        """take_control: the card is in play and may join the squad; summon/revive/incarnate: 532.8, 532.6, 532.5.4."""
        if spec.kind == "take_control":
            card, actor = self._card(spec), self._actor(spec)
            return [("berserk.532.7", st[key("zone", card)] in self.play_zones),
                    ("berserk.532.8", not self.clashes(w, st, card, actor))]
        if spec.kind in ENTER_FROM:
            card, actor = self._card(spec), self._actor(spec)
            flying = self.has_ability(w, st, card, "flying")
            no_cell = flying or "terrain" in w.objects[card].types or self.has_ability(w, st, card, "auxiliary_zone")
            named = spec.params.get("cell") is not None
            zone = st[key("zone", card)]
            where = zone in ENTER_FROM[spec.kind] if ENTER_FROM[spec.kind] else zone not in self.play_zones
            out = [("berserk.532.8", not self.clashes(w, st, card, actor)),
                   ("berserk.532.6", named != no_cell), ("berserk.summon", where)]
            cell = spec.params.get("cell")
            if cell is not None and key("cell", card) in w.domains:
                w.note("berserk.532.6.free")  # weighed whether or not the cell is taken
                out.append(("berserk.532.6.free",
                            not (self.counts(w, card) and self.taken(w, st, cell, card))))  # type: ignore[attr-defined]
            if spec.kind == "incarnate":
                out.append(("berserk.532.5.4", any(self.has_ability(w, st, card, a) for a, _ in _incarnations(w, card))))
                out.append(("berserk.532.5.4.once", st[key("flag", card, "incarnated")] == "0"))
            return out
        return super().kind_requirements(w, st, spec)  # type: ignore[misc]

    def kind_apply(self, w: World, st: State, spec, step: Step) -> None:
        """The new controller; the entering card's zone, cell, controller (and applied incarnation X)."""
        if spec.kind == "take_control":
            step.set(key("ctrl", self._card(spec)), self._actor(spec), "berserk.532.7")
            return
        if spec.kind not in ENTER_FROM:
            super().kind_apply(w, st, spec, step)  # type: ignore[misc]
            return
        card = self._card(spec)
        aux = self.has_ability(w, st, card, "auxiliary_zone")
        step.set(key("zone", card), "auxiliary" if aux else "play", "berserk.summon")
        step.set(key("ctrl", card), self._actor(spec), "berserk.summon")
        if key("cell", card) in w.domains:
            step.set(key("cell", card), spec.params.get("cell") or NONE, "berserk.summon")
            if not aux:
                self.arrive(w, st, card, spec.params.get("cell"), step)  # type: ignore[attr-defined]
        if spec.kind == "incarnate":
            step.set(key("flag", card, "incarnated"), "1", "berserk.532.5.4.once")
            xs = [x for a, x in _incarnations(w, card) if self.has_ability(w, st, card, a)]
            step.set(key("attr", card, "incarnation"), str(max(xs, default=0)), "berserk.532.5.4")

    def kind_pay(self, w: World, st: State, spec, step: Step) -> None:
        """Control and entering actions cost nothing here."""
        if spec.kind in ENTER_FROM or spec.kind == "take_control":
            return
        super().kind_pay(w, st, spec, step)  # type: ignore[misc]

    @staticmethod
    def _card(spec) -> str:
        return spec.targets[0] if spec.targets else spec.source

    @staticmethod
    def _actor(spec) -> str:
        actor = getattr(spec, "actor", None)
        if actor is None:
            raise Unsupported(f"'{spec.kind}' needs a declaring player")
        return actor

    # -- events ------------------------------------------------------------------------------------
    def on_recruit(self, w: World, prev: State, ev, step: Step) -> None:
        """Cards join the squad one by one unless the squad so far holds a clashing card (532.8)."""
        st = dict(prev)
        for card in ev.cards:
            w.note("berserk.532.8.recruit", "berserk.recruit")  # whether it joins or not, recruiting is weighed
            if self.clashes(w, st, card, ev.player, recruit=True):
                continue
            for k, v in ((key("zone", card), "play"), (key("ctrl", card), ev.player)):
                step.set(k, v, "berserk.recruit")
                st[k] = v
            if key("cell", card) in w.domains:
                self.arrive(w, st, card, ev.cells.get(card), step)  # type: ignore[attr-defined]
                step.set(key("cell", card), ev.cells.get(card, NONE), "berserk.recruit")
                st[key("cell", card)] = ev.cells.get(card, NONE)

    def on_begin_effect(self, w: World, prev: State, ev, step: Step) -> None:
        """532.8: a control effect that would give a player a card their squad cannot be with does not begin."""
        e = ev.effect
        if e.kind == "control" and e.duration != "static" and isinstance(e.targets, list):
            banned = [t for t in e.targets if t in w.objects and self._paired(w, t)]
            if banned and len(e.targets) != 1:
                raise Unsupported(f"532.8 for a control effect over several cards ({e.id})")
            if banned:
                w.note("berserk.532.8")
                if self.clashes(w, prev, banned[0], e.player):
                    step.set(key("active", e.id), prev[key("active", e.id)], "berserk.532.8")
                    return
        super().on_begin_effect(w, prev, ev, step)  # type: ignore[misc]

    def _paired(self, w: World, obj: str) -> bool:
        """Some card cannot be taken into a squad with ``obj``, or ``obj`` with it (532.8)."""
        return any((any(_is(w, q, t) for t in _texts(w, obj)) or any(_is(w, obj, t) for t in _texts(w, q)))
                   for q, info in w.objects.items() if q != obj and info.spec is None)

    def on_lose_control(self, w: World, prev: State, ev, step: Step) -> None:
        """The opponent takes the card, unless it cannot join their squad: then it stays (532.7, 532.8)."""
        w.note("berserk.532.7.lose", "berserk.532.7.keep", "berserk.532.8")  # weighed even when the card is not theirs
        if self.controller(w, prev, ev.object) != ev.player:
            return
        opp = self.opponent(w, ev.player)
        if self.clashes(w, prev, ev.object, opp):
            step.set(key("ctrl", ev.object), prev[key("ctrl", ev.object)], "berserk.532.7.keep")
        else:
            step.set(key("ctrl", ev.object), opp, "berserk.532.7.lose")

    def effects_end(self, w: World, prev: State, step: Step, effects: list[str]) -> None:
        """532.7 (seed 002: "Если в результате какого-либо эффекта вы потеряли контроль над картой, то ваш противник
        автоматически становится игроком, контролирующим эту карту"): a control effect that ends while it is the one
        making a player control the card, not its default controller, makes that player lose control: the opponent
        takes it, unless it cannot join the opponent's squad (532.8), then the player keeps it. Two players only."""
        super().effects_end(w, prev, step, effects)  # type: ignore[misc]
        if len(w.players) != 2:
            return
        by_id = {e.id: e for e in w.effects}
        for eid in effects:
            e = by_id[eid]
            if e.kind != "control":
                continue
            for obj in w.targets(e):
                if w.objects[obj].spec is not None or key("ctrl", obj) not in w.domains:
                    continue
                w.note("berserk.532.7.lose", "berserk.532.7.keep", "berserk.532.8")
                winner = self.latest_by(w, prev, w.effects_on(obj, "control"), obj,  # type: ignore[attr-defined]
                                        latest="berserk.conflict.latest")
                if winner is None or winner.id != eid:
                    continue
                holder = self.receiver(w, prev, e)  # type: ignore[attr-defined]
                if holder == prev[key("ctrl", obj)] or holder == NONE:
                    continue  # the card stays with its default controller: no control is lost
                opp = self.opponent(w, holder)
                if self.clashes(w, prev, obj, opp):
                    step.set(key("ctrl", obj), holder, "berserk.532.7.keep")
                else:
                    step.set(key("ctrl", obj), opp, "berserk.532.7.lose")

    def on_concede(self, w: World, prev: State, ev, step: Step) -> None:
        """The conceding player loses; the opponent wins."""
        self.award(w, prev, step, self.opponent(w, ev.player), "berserk.602.1.concede", loser_status="conceded")

    def on_penalty_loss(self, w: World, prev: State, ev, step: Step) -> None:
        """A penalty loss: the opponent wins."""
        self.award(w, prev, step, self.opponent(w, ev.player), "berserk.602.1.penalty")

    def on_declare_redeal(self, w: World, prev: State, ev, step: Step) -> None:
        """A redeal declared with exactly one card in hand: the opponent wins."""
        w.note("berserk.602.1.redeal")
        held = [o for o, info in w.objects.items()
                if info.owner == ev.player and info.card and prev[key("zone", o)] == "hand"]
        if len(held) == 1:
            self.award(w, prev, step, self.opponent(w, ev.player), "berserk.602.1.redeal")

    def on_card_victory(self, w: World, prev: State, ev, step: Step) -> None:
        """An ability of a card in play says a player won (or lost)."""
        w.note("berserk.602.1.card_text")
        if prev[key("zone", ev.source)] in self.play_zones:
            winner = ev.player if ev.result == "won" else self.opponent(w, ev.player)
            self.award(w, prev, step, winner, "berserk.602.1.card_text")

    def on_check_victory(self, w: World, prev: State, ev, step: Step) -> None:
        """No creature left under the opponent's control (while you have one), or, for the players named, a decisive
        advantage in the combat position now (read exhaustively: ``reference_victory``)."""
        w.note("berserk.602.1.no_creatures")
        creatures = [o for o, info in w.objects.items() if "creature" in info.types]
        has = {p: any(self.in_squad(w, prev, o, p) for o in creatures) for p in w.players}
        for p in w.players:
            q = self.opponent(w, p)
            if has[p] and not has[q]:
                self.award(w, prev, step, p, "berserk.602.1.no_creatures")
            proved = None
            if p in ev.decisive_advantage:
                w.note("berserk.602.1.decisive_advantage")
                proved = self.decisive_advantage(w, prev, p)  # type: ignore[attr-defined]
                if proved:
                    self.award(w, prev, step, p, "berserk.602.1.decisive_advantage")
            if p in ev.judge_ruled:
                w.note("berserk.602.1.decisive_advantage")
                if proved is False:  # a ruling is a fact only where no proof was asked (or it is unknown)
                    step.check("berserk.602.1.decisive_advantage", lambda nxt: False,
                               f"a judge ruled a decisive advantage for {p} that the proof refutes")
                    continue
                self.award(w, prev, step, p, "berserk.602.1.decisive_advantage")
