"""Berserk (Берсерк) rules: conflicting effects, conservation, 524.2, 525.1-525.3, 526.1.

Each rule clause is added under its rule id; scenarios citing it live in
``scenarios/berserk/``.
"""
from __future__ import annotations

from solver import derived
from solver.games.base import ActionKind, Ruleset
from solver.state import NONE

RULES = {
    "berserk.conflict.latest": "Two directly contradicting continuous effects on one card: the one applied last wins; "
                               "the other is ignored until the later one is removed.",
    "berserk.conservation": "Two cards (not symbiotes or equipment) on one cell: the controller of the card that came "
                            "last must declare its move in their next Choice subphase, or it dies.",
    "berserk.conservation.carry": "Declaring another obligatory ability in the Choice subphase carries the duty to "
                                  "move over to the player's next Choice subphase.",
    "berserk.movement": "A declared movement puts the creature on the named cell.",
    "berserk.524.2": "When one effect permits (or obliges) an action and another prohibits it, the prohibition wins.",
    "berserk.525.1": "An action that cannot be declared is illegal and is never put on the stack.",
    "berserk.525.1.open": "It is illegal to open a card that is already open.",
    "berserk.525.1.close": "It is illegal to close a card that is already closed.",
    "berserk.525.1.reveal": "It is illegal to reveal a card that is already revealed.",
    "berserk.525.1.hide": "It is illegal to hide a card that is already hidden.",
    "berserk.525.2": "'Cannot [text]' forbids the card an action, a choice of target, or receiving an effect.",
    "berserk.525.3": "'[card] loses [text]' is illegal to declare against a card that does not have [text].",
    "berserk.526.1": "An action that became impossible is interrupted: removed from the stack before it would resolve "
                     "(525.1), without being paid for.",
    "berserk.526.1.executing": "An action that is already executing (has left the stack) cannot be interrupted.",
    "berserk.payment": "A resolving action is paid for: its source is closed (tapped).",
    "berserk.action.effect": "A resolved action has the effect its text describes.",
    "berserk.card.finishing_blow": "Finishing blow X: destroys a creature that has X or fewer lives left; "
                                   "otherwise it cannot be executed.",
}

IDS = {
    "latest": "berserk.conflict.latest", "control": "core.control", "value": "core.value", "add": "core.add",
    "permission": "core.permission", "cannot": "berserk.525.2", "prohibit_beats_permit": "berserk.524.2",
    "static": "core.static", "declare": "core.declare", "illegal": "berserk.525.1",
    "resolve": "core.resolve", "interrupt": "berserk.526.1", "executing": "berserk.526.1.executing",
}

#: types that do not count for conservation
NOT_CONSERVED = {"symbiote", "equipment"}
OBLIGATION = "must_move"


def _target(spec) -> str:
    return spec.targets[0] if spec.targets else spec.source


# -- action kinds: requirement lists and effects ------------------------------------------------
def _flag_action(flag: str, to: bool, rule: str) -> ActionKind:
    """open/close/reveal/hide: illegal when the card is already in that state (525.1)."""
    def requirements(comp, st, spec):
        f = st["flag", _target(spec), flag]
        return [(rule, comp.rm.neg(f) if to else f)]

    def apply(comp, tr, spec, when):
        tr.set(("flag", _target(spec), flag), int(to), "berserk.action.effect", when)
    return ActionKind(requirements, apply, _pay)


def _pay(comp, tr, spec, when) -> None:
    """Closing the source pays for the action (if it has an open flag)."""
    src = getattr(spec, "source", None)
    if src and ("flag", src, "open") in comp.domains and spec.params.get("cost", "close") == "close":
        tr.set(("flag", src, "open"), 0, "berserk.payment", when)


def _tokens(who: str, permission: str) -> ActionKind:
    def requirements(comp, st, spec):
        obj = spec.source if who == "source" else _target(spec)
        return [(None, derived.allowed(comp, st, obj, permission, default=(who == "target")))]

    def apply(comp, tr, spec, when):
        obj = spec.source if who == "source" else _target(spec)
        tr.set(("attr", obj, "tokens"), tr.prev["attr", obj, "tokens"] + 1, "berserk.action.effect", when)
    return ActionKind(requirements, apply, _pay)


def _lose_ability() -> ActionKind:
    def requirements(comp, st, spec):
        return [("berserk.525.3", derived.has_ability(comp, st, _target(spec), str(spec.params["ability"])))]

    def apply(comp, tr, spec, when):
        key = ("ability", _target(spec), str(spec.params["ability"]))
        if key in comp.domains:
            tr.set(key, 0, "berserk.action.effect", when)
    return ActionKind(requirements, apply, _pay)


def _finishing_blow() -> ActionKind:
    def requirements(comp, st, spec):
        t = _target(spec)
        life = derived.value(comp, st, t, "life")
        return [("berserk.card.finishing_blow", comp.rm.all_of([comp.rm.int_le(life, int(spec.params["x"])),
                                                                st["zone", t].is_("play")]))]

    def apply(comp, tr, spec, when):
        t = _target(spec)
        tr.set(("zone", t), "graveyard", "berserk.card.finishing_blow", when)
        if ("cell", t) in comp.domains:
            tr.set(("cell", t), NONE, "berserk.card.finishing_blow", when)
    return ActionKind(requirements, apply, _pay)


class Berserk(Ruleset):
    """The Berserk ruleset."""

    game = "berserk"
    zones = ("play", "hand", "deck", "graveyard", "auxiliary", "stack", "outside")
    play_zones = ("play", "auxiliary")
    ids = IDS
    rules = RULES
    actions = {
        "open": _flag_action("open", True, "berserk.525.1.open"),
        "close": _flag_action("open", False, "berserk.525.1.close"),
        "reveal": _flag_action("revealed", True, "berserk.525.1.reveal"),
        "hide": _flag_action("revealed", False, "berserk.525.1.hide"),
        "accumulate_tokens": _tokens("source", "accumulate_tokens"),
        "give_token": _tokens("target", "receive_tokens"),
        "lose_ability": _lose_ability(),
        "finishing_blow": _finishing_blow(),
    }

    def event_keys(self, comp, ev):
        """Token counters for token actions; flags for open/close/reveal/hide targets."""
        out = []
        if ev.type == "declare":
            obj = ev.source if ev.kind == "accumulate_tokens" else (ev.targets[0] if ev.targets else ev.source)
            if ev.kind in ("accumulate_tokens", "give_token") and obj:
                out.append((("attr", obj, "tokens"), [-1_000_000, 1_000_000], 0))
            if ev.kind in ("open", "close") and obj:
                out.append((("flag", obj, "open"), "bool", False))
            if ev.kind in ("reveal", "hide") and obj:
                out.append((("flag", obj, "revealed"), "bool", False))
            if ev.kind == "finishing_blow" and obj:
                out.append((("attr", obj, "life"), [-1_000_000, 1_000_000], 0))
        out += control_event_keys(comp, ev)
        return out

    def declare_keys(self, comp) -> None:
        """Conservation duty flag for every card that can stand on a cell."""
        if not comp.cells:
            return
        for oid, info in comp.objects.items():
            if ("cell", oid) in comp.domains and not NOT_CONSERVED & set(info.types) and info.action is None:
                comp.add_key(("flag", oid, OBLIGATION), "bool", bool(info.data and info.data.flags.get(OBLIGATION)))

    def cost_keys(self, comp, source: str | None) -> list[tuple]:
        """Paying closes the source: its open flag."""
        return [("flag", source, "open")] if source and ("flag", source, "open") in comp.domains else []

    # -- conservation -------------------------------------------------------------------
    def moved(self, comp, tr, obj: str, zone: str, cell: str | None) -> None:
        """Conservation: a card arriving on an occupied cell must move away in the next Choice subphase."""
        if cell is None or zone != "play" or ("flag", obj, OBLIGATION) not in comp.domains:
            return
        rm, st = comp.rm, tr.prev
        occupied = [rm.all_of([st["zone", q].is_("play"), st["cell", q].is_(cell)])
                    for q in comp.objects
                    if q != obj and ("flag", q, OBLIGATION) in comp.domains]
        tr.set(("flag", obj, OBLIGATION), 1, "berserk.conservation", rm.any_of(occupied))

    def on_choice_subphase(self, comp, ev) -> None:
        """Choice subphase: obliged cards move if declared, keep the duty if another obligatory ability was declared, else die."""
        rm, st = comp.rm, comp.stage
        with comp.step(f"{ev.player}'s Choice subphase") as tr:
            for oid, cell in ev.moves.items():
                tr.set(("cell", oid), cell, "berserk.movement")
                if ("flag", oid, OBLIGATION) in comp.domains:
                    tr.set(("flag", oid, OBLIGATION), 0, "berserk.conservation")
            for oid in comp.objects:
                key = ("flag", oid, OBLIGATION)
                if key not in comp.domains or oid in ev.moves:
                    continue
                due = rm.all_of([st[key], derived.controller(comp, st, oid).is_(ev.player)])
                if ev.obligatory:
                    tr.keep(key, "berserk.conservation.carry", due)
                    continue
                if ev.free:
                    self._move_or_die(comp, tr, oid, due)
                    continue
                tr.set(("zone", oid), "graveyard", "berserk.conservation", due)
                tr.set(("cell", oid), NONE, "berserk.conservation", due)
                tr.set(key, 0, "berserk.conservation", due)


    def _move_or_die(self, comp, tr, obj: str, due) -> None:
        """An undeclared choice: the obliged card moves to a free adjacent cell, or dies."""
        rm, rid, prev, nxt = comp.rm, "berserk.conservation", tr.prev, tr.next
        tr.free(("zone", obj), due)
        tr.free(("cell", obj), due)
        tr.set(("flag", obj, OBLIGATION), 0, rid, due)
        dies, stays = nxt["zone", obj].is_("graveyard"), nxt["zone", obj].is_("play")
        rm.clause(rid, [dies, stays], [due])
        rm.implies(rid, [due, dies], nxt["cell", obj].is_(NONE))
        for c in comp.cells:
            rm.clause(rid, [nxt["cell", obj].is_(d) for d in sorted(comp.adjacency.get(c, ()))],
                      [due, stays, prev["cell", obj].is_(c)])
        for q in comp.objects:
            if q == obj or ("flag", q, OBLIGATION) not in comp.domains:
                continue
            for d in comp.cells:
                rm.implies(rid, [due, stays, prev["zone", q].is_("play"), prev["cell", q].is_(d)],
                           rm.neg(nxt["cell", obj].is_(d)))
                # two cards moving at once cannot end up sharing a cell either
                rm.implies(rid, [due, stays, nxt["zone", q].is_("play"), nxt["cell", q].is_(d)],
                           rm.neg(nxt["cell", obj].is_(d)))

    # -- 532.7 / 532.8 control and squads, 602.1 clean victory (appended) ---------------------------
    def on_recruit(self, comp, ev) -> None:
        """Recruit subphase: each card joins the squad in turn, unless 532.8 forbids it with the squad so far."""
        for card in ev.cards:
            st = comp.stage
            ok = _rule_lit(comp, st, "berserk.532.8.recruit", comp.rm.neg(_conflict(comp, st, card, ev.player)),
                           f"recruit.{card}")
            with comp.step(f"{ev.player} recruits {card}") as tr:
                tr.set(("zone", card), "play", "berserk.recruit", ok)
                tr.set(("ctrl", card), ev.player, "berserk.recruit", ok)
                if ("cell", card) in comp.domains:
                    tr.set(("cell", card), ev.cells.get(card, NONE), "berserk.recruit", ok)

    def on_lose_control(self, comp, ev) -> None:
        """532.7: the opponent becomes the controller, unless the card cannot join their squad (532.8): then it stays."""
        rm, st = comp.rm, comp.stage
        opp = _opponent(comp, ev.player)
        mine = derived.controller(comp, st, ev.object).is_(ev.player)
        joins = _rule_lit(comp, st, "berserk.532.8", rm.neg(_conflict(comp, st, ev.object, opp)),
                          f"joins.{ev.object}")
        with comp.step(f"{ev.player} loses control of {ev.object}") as tr:
            tr.set(("ctrl", ev.object), opp, "berserk.532.7.lose", rm.all_of([mine, joins]))
            tr.keep(("ctrl", ev.object), "berserk.532.7.keep", rm.all_of([mine, rm.neg(joins)]))

    def on_concede(self, comp, ev) -> None:
        """602.1: a player who concedes loses; the opponent gets a clean victory."""
        if getattr(ev, "blank_battlefields", None):
            raise NotImplementedError("blank_battlefields is not part of the berserk rules")
        opp = _opponent(comp, ev.player)
        with comp.step(f"{ev.player} concedes") as tr:
            _award(comp, tr, opp, "berserk.602.1.concede", comp.rm.true, loser_status="conceded")

    def on_penalty_loss(self, comp, ev) -> None:
        """602.1: a player given a penalty loss loses; the opponent gets a clean victory."""
        with comp.step(f"penalty loss for {ev.player}") as tr:
            _award(comp, tr, _opponent(comp, ev.player), "berserk.602.1.penalty", comp.rm.true)

    def on_declare_redeal(self, comp, ev) -> None:
        """602.1: a player who declares a redeal with exactly one card in hand gives the opponent a clean victory."""
        rm, st = comp.rm, comp.stage
        in_hand = [st["zone", o].is_("hand") for o, info in comp.objects.items() if info.owner == ev.player and info.card]
        count = rm.new_int(f"s{st.index}:hand.{ev.player}", 0, max(1, len(in_hand)))
        rm.model.add(count == sum(in_hand))
        one = rm.int_eq(count, 1)
        with comp.step(f"{ev.player} declares a redeal") as tr:
            _award(comp, tr, _opponent(comp, ev.player), "berserk.602.1.redeal", one)

    def on_card_victory(self, comp, ev) -> None:
        """602.1: an ability of a card in play whose text says a player won (or lost) is fulfilled."""
        st = comp.stage
        winner = ev.player if ev.result == "won" else _opponent(comp, ev.player)
        active = st["zone", ev.source].one_of(self.play_zones)
        with comp.step(f"{ev.source}: {ev.player} {ev.result}") as tr:
            _award(comp, tr, winner, "berserk.602.1.card_text", active)

    def on_check_victory(self, comp, ev) -> None:
        """602.1: clean victory when the opponent controls no creature in play (and you do), or by decisive advantage."""
        rm, st = comp.rm, comp.stage
        for p in comp.players:
            _opponent(comp, p)
        has = {p: _has_creature(comp, st, p) for p in comp.players}
        with comp.step("clean victory check") as tr:
            for p in comp.players:
                q = _opponent(comp, p)
                _award(comp, tr, p, "berserk.602.1.no_creatures", rm.all_of([has[p], rm.neg(has[q])]))
                if ("pflag", p, "decisive_advantage") in comp.domains:
                    _award(comp, tr, p, "berserk.602.1.decisive_advantage", st["pflag", p, "decisive_advantage"])


RULESET = Berserk()


# -- 532.5.4, 532.6, 532.7, 532.8 and 602.1 (control, squads, incarnation, clean victory) ------------------
RULES.update({
    "berserk.532.5.4": "Incarnation is a named ability: with several 'incarnation X' only the one with the highest X "
                       "applies.",
    "berserk.532.5.4.once": "Each creature may use incarnation once per battle.",
    "berserk.532.6": "Declaring a summon, revival or incarnation names the cell it goes to, except for flying "
                     "creatures, terrain and cards placed in the auxiliary zone, which name none.",
    "berserk.532.7": "Taking control of a card makes you its controller; the opponent stops controlling it.",
    "berserk.532.7.lose": "When an effect makes you lose control of a card, the opponent becomes its controller.",
    "berserk.532.7.keep": "If the card cannot be taken into the opponent's squad, you keep controlling it until "
                          "another effect changes its owner.",
    "berserk.532.8": "'Cannot be taken into a squad with [text]': a player whose squad holds [text] cannot summon, "
                     "revive, incarnate or take control of the card (nor receive it).",
    "berserk.532.8.recruit": "In the Recruit subphase a player cannot recruit the card if the squad holds [text], "
                             "nor recruit [text] if the squad holds the card.",
    "berserk.recruit": "A recruited card joins its player's squad in play.",
    "berserk.summon": "A summoned, revived or incarnated card enters play (or the auxiliary zone) under the "
                      "declarer's control, on the named cell.",
    "berserk.602.1.no_creatures": "Clean victory: no creature under the opponent's control is left in play (creatures "
                                  "taken under your control count for you).",
    "berserk.602.1.concede": "Clean victory: the opponent concedes.",
    "berserk.602.1.decisive_advantage": "Clean victory: the player has a decisive advantage (wins whatever the dice, "
                                        "and cannot lose).",
    "berserk.602.1.card_text": "Clean victory: an ability whose text says the player won or the opponent lost is "
                               "fulfilled.",
    "berserk.602.1.penalty": "Clean victory: the opponent is given a penalty loss.",
    "berserk.602.1.redeal": "Clean victory: the opponent declares a redeal with one card in hand.",
    "berserk.combat.tiers": "A strike is weak, medium or strong by the die value (ruleset table, scenario options "
                            "may override it).",
    "berserk.combat.strike": "An attack deals the attacker's strike of the rolled tier to the target.",
    "berserk.combat.counterstrike": "An attacked creature strikes back at its attacker with its own roll.",
    "berserk.combat.protection": "Protection from (non-)magical attacks of strength X or more: such a strike deals "
                                 "no damage.",
    "berserk.combat.reach": "A flying creature can be attacked only by flying or ranged creatures.",
    "berserk.combat.attack": "Each creature attacks at most once per turn.",
    "berserk.combat.death": "A creature whose life drops to 0 or less is destroyed.",
    "berserk.combat.regen": "At the end of each round a living creature heals its regeneration, up to its maximum "
                            "life.",
})

#: ruleset combat data for the victory analysis (scenario ``options`` override it)
Berserk.combat = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6",
                  "counterstrike": True, "victory_horizon": 3}


def _opponent(comp, player: str) -> str:
    """The other player of a two-player battle."""
    if len(comp.players) != 2:
        raise NotImplementedError("the berserk control and victory rules (532.7, 602.1) are for two players")
    return comp.next_player(player)


def _rule_lit(comp, st, rule_id: str, cond, name: str):
    """A literal equal to ``cond`` under rule ``rule_id`` (free when the rule is left out of a core)."""
    r = comp.rm.new_bool(f"s{st.index}:{rule_id}.{name}")
    comp.rm.implies(rule_id, [r], cond)
    comp.rm.implies(rule_id, [cond], r)
    return r


def _not_with(comp, obj: str) -> list[str]:
    """The [text]s of a card's 'cannot be taken into a squad with [text]' (property not_with, '+'-separated)."""
    data = comp.objects[obj].data
    text = data.properties.get("not_with") if data else None
    return [t.strip() for t in str(text).split("+") if t.strip()] if text else []


def _matches(comp, obj: str, text: str) -> bool:
    """Does a card answer to [text]: its id, name, a type or a property value."""
    info = comp.objects[obj]
    d = info.data
    values = {obj, *info.types} | ({d.name} if d and d.name else set()) | (
        {v for k, v in d.properties.items() if k != "not_with"} if d else set())
    return text in values


def _conflict(comp, st, obj: str, player: str):
    """Literal: ``player``'s squad in play holds a card that ``obj`` cannot be with, or one that cannot be with ``obj``."""
    rm, zones = comp.rm, RULESET.play_zones
    mine = _not_with(comp, obj)
    lits = []
    for q, info in comp.objects.items():
        if q == obj or info.action is not None:
            continue
        if any(_matches(comp, q, t) for t in mine) or any(_matches(comp, obj, t) for t in _not_with(comp, q)):
            lits.append(rm.all_of([st["zone", q].one_of(zones), derived.controller(comp, st, q).is_(player)]))
    return rm.any_of(lits)


def _has_creature(comp, st, player: str):
    """Literal: the player controls a creature in play."""
    rm = comp.rm
    return rm.any_of([rm.all_of([st["zone", o].one_of(RULESET.play_zones), derived.controller(comp, st, o).is_(player)])
                      for o, info in comp.objects.items() if "creature" in info.types])


def _award(comp, tr, winner: str, rule_id: str, when, loser_status: str = "lost") -> None:
    """Rule ``rule_id``: while both players are in the game and ``when`` holds, ``winner`` wins and the other loses."""
    rm, st = comp.rm, tr.prev
    loser = _opponent(comp, winner)
    go = rm.all_of([when, st["pstatus", winner].is_("in_game"), st["pstatus", loser].is_("in_game")])
    tr.set(("pstatus", winner), "won", rule_id, go)
    tr.set(("pstatus", loser), loser_status, rule_id, go)


# -- action kinds: take control, summon, revive, incarnate ------------------------------------------------
def _actor(comp, spec) -> str:
    actor = getattr(spec, "actor", None)
    if actor is None:
        raise NotImplementedError(f"action '{spec.kind}' needs a declaring player (declare it with an actor)")
    return actor


def _card(spec) -> str:
    return spec.targets[0] if spec.targets else spec.source


def _take_control() -> ActionKind:
    def requirements(comp, st, spec):
        card, actor = _card(spec), _actor(comp, spec)
        return [("berserk.532.7", st["zone", card].one_of(RULESET.play_zones)),
                ("berserk.532.8", comp.rm.neg(_conflict(comp, st, card, actor)))]

    def apply(comp, tr, spec, when):
        tr.set(("ctrl", _card(spec)), _actor(comp, spec), "berserk.532.7", when)
    return ActionKind(requirements, apply, None)


def _no_cell(comp, st, card: str):
    """Literal: the card names no cell on entering (532.6): flying creature, terrain or auxiliary-zone card."""
    rm = comp.rm
    terrain = rm.true if "terrain" in comp.objects[card].types else rm.false
    return rm.any_of([derived.has_ability(comp, st, card, "flying"), terrain,
                      derived.has_ability(comp, st, card, "auxiliary_zone")])


def _incarnations(comp, card: str) -> list[tuple[str, int]]:
    """The card's 'incarnation X' abilities with their X."""
    data = comp.objects[card].data
    out = []
    for ab in (data.abilities if data else []):
        name, _, x = ab.partition(" ")
        if name == "incarnation" and x.strip().isdigit():
            out.append((ab, int(x)))
    return out


def _enter(source_zones: tuple[str, ...] | None, incarnation: bool = False) -> ActionKind:
    """Summon (from hand), revive (from the graveyard) or incarnate: 532.8 squad, 532.6 cell, 532.5.4 incarnation."""
    def requirements(comp, st, spec):
        rm, card, actor = comp.rm, _card(spec), _actor(comp, spec)
        cell = spec.params.get("cell")
        if cell is not None and cell not in comp.cells:
            raise NotImplementedError(f"action '{spec.kind}': unknown cell '{cell}'")
        no_cell = _no_cell(comp, st, card)
        reqs = [("berserk.532.8", rm.neg(_conflict(comp, st, card, actor))),
                ("berserk.532.6", rm.neg(no_cell) if cell is not None else no_cell)]
        zone = st["zone", card]
        reqs.append(("berserk.summon", zone.one_of(source_zones) if source_zones else
                     rm.neg(zone.one_of(RULESET.play_zones))))
        if incarnation:
            has = [derived.has_ability(comp, st, card, ab) for ab, _ in _incarnations(comp, card)]
            reqs.append(("berserk.532.5.4", rm.any_of(has)))
            reqs.append(("berserk.532.5.4.once", rm.neg(st["flag", card, "incarnated"])))
        return reqs

    def apply(comp, tr, spec, when):
        rm, card, st = comp.rm, _card(spec), tr.prev
        aux = derived.has_ability(comp, st, card, "auxiliary_zone")
        tr.set(("zone", card), "auxiliary", "berserk.summon", rm.all_of([when, aux]))
        tr.set(("zone", card), "play", "berserk.summon", rm.all_of([when, rm.neg(aux)]))
        tr.set(("ctrl", card), _actor(comp, spec), "berserk.summon", when)
        if ("cell", card) in comp.domains:
            tr.set(("cell", card), spec.params.get("cell") or NONE, "berserk.summon", when)
        if incarnation:
            tr.set(("flag", card, "incarnated"), 1, "berserk.532.5.4.once", when)
            tr.set(("attr", card, "incarnation"), _highest_x(comp, st, card), "berserk.532.5.4", when)
    return ActionKind(requirements, apply, None)


def _highest_x(comp, st, card: str):
    """Rule 532.5.4: the applied X is the highest of the card's incarnation abilities it has."""
    rm, rid = comp.rm, "berserk.532.5.4"
    options = _incarnations(comp, card)
    x = rm.new_int(f"s{st.index}:incarnation.{card}", 0, max([v for _, v in options] + [0]))
    picks = []
    for ab, v in options:
        has = derived.has_ability(comp, st, card, ab)
        rm.enforce(rid, rm.model.add(x >= v), [has])
        pick = rm.new_bool(f"s{st.index}:incarnation.{card}.{v}")
        rm.implies(rid, [pick], has)
        rm.enforce(rid, rm.model.add(x == v), [pick])
        picks.append(pick)
    # some X is picked only when the card has an incarnation: without one the action never resolves (it is
    # illegal), and an unconditional clause would make the whole scenario contradictory
    having = [derived.has_ability(comp, st, card, ab) for ab, _ in options]
    rm.clause(rid, picks + [rm.neg(rm.any_of(having))])
    return x


def control_event_keys(comp, ev) -> list[tuple]:
    """State variables the control and incarnation actions need."""
    out = []
    if ev.type == "declare" and ev.kind == "incarnate":
        card = ev.targets[0] if ev.targets else ev.source
        out.append((("flag", card, "incarnated"), "bool", False))
        out.append((("attr", card, "incarnation"), [-1_000_000, 1_000_000], 0))
    return out


Berserk.actions.update({
    "take_control": _take_control(),
    "summon": _enter(("hand",)),
    "revive": _enter(("graveyard",)),
    "incarnate": _enter(None, incarnation=True),
})
