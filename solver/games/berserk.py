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
    "berserk.525.1.resolve": "A declared action that can no longer be computed or executed is removed from the stack "
                             "before it would resolve.",
    "berserk.525.1.open": "It is illegal to open a card that is already open.",
    "berserk.525.1.close": "It is illegal to close a card that is already closed.",
    "berserk.525.1.reveal": "It is illegal to reveal a card that is already revealed.",
    "berserk.525.1.hide": "It is illegal to hide a card that is already hidden.",
    "berserk.525.2": "'Cannot [text]' forbids the card an action, a choice of target, or receiving an effect.",
    "berserk.525.3": "'[card] loses [text]' is illegal to declare against a card that does not have [text].",
    "berserk.526.1": "An interrupted action is removed from the stack without being paid for.",
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


RULESET = Berserk()
