"""Berserk action kinds of the legality rules (seed 003): 525.1 open/close/reveal/hide, 525.3, tokens, finishing blow.

Each kind lists its requirements, each under its rule id; an action whose
requirements fail cannot be declared (525.1) or is interrupted (526.1).
"""
from __future__ import annotations

from solver.encoding.ruleset import ActionKind
from solver.encoding.state import NONE


def target(spec) -> str:
    """The card an action is about: its first target, else its source."""
    return spec.targets[0] if spec.targets else spec.source


def pay(comp, tr, spec, when) -> None:
    """berserk.payment: closing the source pays for the action (if it has an open flag and costs 'close')."""
    src = getattr(spec, "source", None)
    if src and ("flag", src, "open") in comp.domains and spec.params.get("cost", "close") == "close":
        tr.set(("flag", src, "open"), 0, "berserk.payment", when)


def flag_action(flag: str, to: bool, rule: str) -> ActionKind:
    """open/close/reveal/hide: illegal under ``rule`` when the card is already in that state (525.1)."""
    def requirements(comp, st, spec):
        f = st["flag", target(spec), flag]
        return [(rule, comp.rm.neg(f) if to else f)]

    def apply(comp, tr, spec, when):
        tr.set(("flag", target(spec), flag), int(to), "berserk.action.effect", when)
    return ActionKind(requirements, apply, pay)


def tokens(who: str, permission: str) -> ActionKind:
    """Put a token on the source (accumulate) or the target (give): needs the permission (524.2, 525.2)."""
    def requirements(comp, st, spec):
        obj = spec.source if who == "source" else target(spec)
        return [(None, comp.allowed(st, obj, permission, default=(who == "target")))]

    def apply(comp, tr, spec, when):
        obj = spec.source if who == "source" else target(spec)
        tr.set(("attr", obj, "tokens"), tr.prev["attr", obj, "tokens"] + 1, "berserk.action.effect", when)
    return ActionKind(requirements, apply, pay)


def lose_ability() -> ActionKind:
    """'[card] loses [text]': illegal against a card that does not have [text] (525.3)."""
    def requirements(comp, st, spec):
        return [("berserk.525.3", comp.has_ability(st, target(spec), str(spec.params["ability"])))]

    def apply(comp, tr, spec, when):
        key = ("ability", target(spec), str(spec.params["ability"]))
        if key in comp.domains:
            tr.set(key, 0, "berserk.action.effect", when)
    return ActionKind(requirements, apply, pay)


def finishing_blow() -> ActionKind:
    """Finishing blow X: destroys a creature in play with X or fewer lives; otherwise it cannot be executed."""
    def requirements(comp, st, spec):
        t = target(spec)
        life = comp.value(st, t, "life")
        return [("berserk.card.finishing_blow", comp.rm.all_of([comp.rm.int_le(life, int(spec.params["x"])),
                                                                st["zone", t].is_("play")]))]

    def apply(comp, tr, spec, when):
        t = target(spec)
        tr.set(("zone", t), "graveyard", "berserk.card.finishing_blow", when)
        if ("cell", t) in comp.domains:
            tr.set(("cell", t), NONE, "berserk.card.finishing_blow", when)
    return ActionKind(requirements, apply, pay)


#: action kind -> its requirements and effect
ACTIONS = {
    "open": flag_action("open", True, "berserk.525.1.open"),
    "close": flag_action("open", False, "berserk.525.1.close"),
    "reveal": flag_action("revealed", True, "berserk.525.1.reveal"),
    "hide": flag_action("revealed", False, "berserk.525.1.hide"),
    "accumulate_tokens": tokens("source", "accumulate_tokens"),
    "give_token": tokens("target", "receive_tokens"),
    "lose_ability": lose_ability(),
    "finishing_blow": finishing_blow(),
}


def event_keys(comp, ev) -> list[tuple]:
    """Token counters for token actions; flags for open/close/reveal/hide targets; life for a finishing blow."""
    out = []
    if ev.type != "declare":
        return out
    obj = ev.source if ev.kind == "accumulate_tokens" else (ev.targets[0] if ev.targets else ev.source)
    if not obj:
        return out
    if ev.kind in ("accumulate_tokens", "give_token"):
        out.append((("attr", obj, "tokens"), [-1_000_000, 1_000_000], 0))
    if ev.kind in ("open", "close"):
        out.append((("flag", obj, "open"), "bool", False))
    if ev.kind in ("reveal", "hide"):
        out.append((("flag", obj, "revealed"), "bool", False))
    if ev.kind == "finishing_blow":
        out.append((("attr", obj, "life"), [-1_000_000, 1_000_000], 0))
    return out
