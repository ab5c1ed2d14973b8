"""Berserk action kinds of the legality rules (seed 003): 525.1 open/close/reveal/hide, 525.3, tokens, finishing blow.

Each kind lists its requirements, each under its rule id; an action whose
requirements fail cannot be declared (525.1) or is interrupted (526.1). Each of
these kinds is paid by closing its source, so it also needs that payment to be
possible (525.1 "или оплачено": the source is open).
"""
from __future__ import annotations

from models.effects import Effect
from solver.encoding.context import RuleContext
from solver.encoding.ruleset import ActionKind
from solver.games.berserk.movement import leave_play
from solver.errors import NotModelled


def target(spec) -> str:
    """The card an action is about: its first target, else its source."""
    return spec.targets[0] if spec.targets else spec.source


def closes_source(ctx: RuleContext, spec) -> bool:
    """The action is paid by closing its source: it costs 'close' and its source has an open flag."""
    src = getattr(spec, "source", None)
    return bool(src) and ("flag", src, "open") in ctx.domains and spec.params.get("cost", "close") == "close"


def pay(ctx: RuleContext, tr, spec, when) -> None:
    """berserk.payment: closing the source pays for the action (if it has an open flag and costs 'close')."""
    if closes_source(ctx, spec):
        tr.set(("flag", spec.source, "open"), 0, "berserk.payment", when)


def payable(ctx: RuleContext, st, spec) -> list[tuple]:
    """berserk.525.1.paid: an action that cannot be paid is illegal; one paid by closing its source needs the source
    open (closing a closed card is illegal, 525.1)."""
    return [("berserk.525.1.paid", st["flag", spec.source, "open"])] if closes_source(ctx, spec) else []


def paid(requirements, apply) -> ActionKind:
    """An action kind paid by closing its source: its requirements and, under 525.1, that it can be paid."""
    return ActionKind(lambda ctx, st, spec: requirements(ctx, st, spec) + payable(ctx, st, spec), apply, pay)


def flag_action(flag: str, to: bool, rule: str) -> ActionKind:
    """open/close/reveal/hide: illegal under ``rule`` when the card is already in that state (525.1)."""
    def requirements(ctx: RuleContext, st, spec):
        f = st["flag", target(spec), flag]
        return [(rule, ctx.rm.neg(f) if to else f)]

    def apply(ctx: RuleContext, tr, spec, when):
        tr.set(("flag", target(spec), flag), int(to), "berserk.action.effect", when)
    return paid(requirements, apply)


#: attribute -> the permission of receiving it ("cannot receive tokens" prohibits it, 525.2)
RECEIVE = {"tokens": "receive_tokens"}


def receives(ctx: RuleContext, st, obj: str, attr: str):
    """Literal: the card may receive ``attr`` (a token): nothing forbids it (525.2, 524.2); the one predicate the
    give_token action and every effect that adds to ``attr`` read."""
    return ctx.allowed(st, obj, RECEIVE[attr], default=True)


def receiving(ctx: RuleContext, st, obj: str, attr: str):
    """``derived.value``'s ``receives``: (berserk.525.2, may receive) where an effect speaks of the card receiving
    ``attr``; None where none does (it receives every effect). 525.2 limits receiving effects, numeric values
    included: an effect that sets the value is not modelled against such a prohibition."""
    perm = RECEIVE.get(attr)
    if perm is None or not (ctx.effects_on(obj, "prohibit", perm) or ctx.effects_on(obj, "permit", perm)):
        return None
    if ctx.effects_on(obj, "set", attr):
        raise NotModelled(f"'{perm}' on '{obj}' with an effect that sets its {attr}: whether a set value is "
                          f"received (525.2) is not modelled", perm)
    return ("berserk.525.2", receives(ctx, st, obj, attr))


def tokens(who: str) -> ActionKind:
    """Put a token on the source (accumulate: it needs the ability or a permission) or the target (give: it must
    be able to receive it); a prohibition forbids either (524.2, 525.2)."""
    def requirements(ctx: RuleContext, st, spec):
        if who == "target":
            return [(None, receives(ctx, st, target(spec), "tokens"))]
        return [(None, ctx.allowed(st, spec.source, "accumulate_tokens", default=False))]

    def apply(ctx: RuleContext, tr, spec, when):
        obj = spec.source if who == "source" else target(spec)
        tr.set(("attr", obj, "tokens"), tr.prev["attr", obj, "tokens"] + 1, "berserk.action.effect", when)
    return paid(requirements, apply)


def loss_effect_id(action_id: str) -> str:
    """The id of the 'remove' effect a resolved '[card] loses [text]' applies (berserk.525.3.loses)."""
    return f"{action_id}-loses"


def loss_effects(ctx: RuleContext, index: int, ev) -> list[Effect]:
    """berserk.525.3.loses: the effect a '[card] loses [text]' resolving (or finishing) at event ``index`` applies: it
    removes [text] from its target, applied then, so the latest of the effects on that ability (it beats a grant
    applied before it, berserk.conflict.latest; a grant applied after gives it back)."""
    if ev.type not in ("resolve", "finish_execution") or ev.action not in ctx.objects:
        return []
    spec = ctx.objects[ev.action].action
    if spec is None or spec.kind != "lose_ability" or loss_effect_id(ev.action) in ctx.effects:
        return []
    card = target(spec)
    if card not in ctx.objects or "ability" not in spec.params:
        return []
    return [Effect(id=loss_effect_id(ev.action), source=getattr(spec, "source", None), kind="remove",
                   ability=str(spec.params["ability"]), targets=[card], duration="permanent")]


def _action_id(ctx: RuleContext, spec) -> str:
    """The object id of the action whose spec is ``spec`` (a declared action or an item on the stack at the start)."""
    return next(oid for oid, info in ctx.objects.items() if info.action is spec)


def lose_ability() -> ActionKind:
    """'[card] loses [text]': illegal against a card that does not have [text] (525.3), printed or granted; resolved,
    it applies the effect that removes it (berserk.525.3.loses, ``loss_effects``)."""
    def requirements(ctx: RuleContext, st, spec):
        return [("berserk.525.3", ctx.has_ability(st, target(spec), str(spec.params["ability"])))]

    def apply(ctx: RuleContext, tr, spec, when):
        key = ("active", loss_effect_id(_action_id(ctx, spec)))
        if key in ctx.domains:
            tr.set(key, 1, "berserk.525.3.loses", when)
    return paid(requirements, apply)


def finishing_blow() -> ActionKind:
    """Finishing blow X: destroys a creature in play with X or fewer lives; otherwise it cannot be executed."""
    def requirements(ctx: RuleContext, st, spec):
        t = target(spec)
        life = ctx.value(st, t, "life")
        return [("berserk.card.finishing_blow", ctx.rm.all_of([ctx.rm.int_le(life, int(spec.params["x"])),
                                                                st["zone", t].is_("play")]))]

    def apply(ctx: RuleContext, tr, spec, when):
        t = target(spec)
        leave_play(ctx, tr, t, "graveyard", "berserk.card.finishing_blow", when)
    return paid(requirements, apply)


#: action kind -> its requirements and effect
ACTIONS = {
    "open": flag_action("open", True, "berserk.525.1.open"),
    "close": flag_action("open", False, "berserk.525.1.close"),
    "reveal": flag_action("revealed", True, "berserk.525.1.reveal"),
    "hide": flag_action("revealed", False, "berserk.525.1.hide"),
    "accumulate_tokens": tokens("source"),
    "give_token": tokens("target"),
    "lose_ability": lose_ability(),
    "finishing_blow": finishing_blow(),
}


def event_keys(ctx: RuleContext, ev) -> list[tuple]:
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
