"""Which effect wins each contested characteristic, at a stage, and why: read off one outcome.

A characteristic is contested when two or more continuous effects may set it (control,
a 'set' value or property, grant/remove of an ability), or when an action is both
permitted and prohibited. The winner is what the game's precedence rules make it
(``solver.encoding.derived``); the reason is read from the same solution:

- ``applied last``: the winner beats other effects that apply now; "later" is the order in
  time at that stage as the solver has it (``Compiler.later``: a re-entry or re-attachment
  applies an effect anew), read from the outcome;
- ``later effect X ended``: a later effect would win but is no longer active (it was
  active at an earlier stage); ``is not active`` if it never was; ``does not apply`` if
  it is active but not to this object;
- ``no effect applies: base value`` otherwise.

``prepare`` creates the derived literals at the stages asked for and names the ones to
read; ``report`` turns one outcome's values into lines.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.encoding.cp import Lit


@dataclass(frozen=True)
class Contest:
    """One contested characteristic: its name, the object, what kind, and the effects on it in timestamp order."""

    name: str
    obj: str
    kind: str  # control | attr | prop | ability | permission
    what: str | None
    effects: tuple[str, ...]


def contests(comp) -> list[Contest]:
    """Every characteristic two or more effects may decide, and every action both permitted and prohibited."""
    out = []
    for oid in comp.objects:
        ctrl = comp.effects_on(oid, "control")
        if len(ctrl) >= 2:
            out.append(Contest(f"controller.{oid}", oid, "control", None, tuple(e.id for e in ctrl)))
    seen = set()
    for key in comp.effect_groups():
        kind, oid, *rest = key
        what = rest[0] if rest else None
        if (kind, oid, what) in seen or kind not in ("set", "grant", "remove", "permit", "prohibit"):
            continue
        if kind == "set":
            effects = comp.effects_on(oid, "set", what)
            numeric = all(isinstance(e.value, int) and not isinstance(e.value, bool) for e in effects)
            ckind, name = ("attr", f"{oid}.{what}") if numeric else ("prop", f"{oid}.{what}")
        elif kind in ("grant", "remove"):
            effects = sorted(comp.effects_on(oid, "grant", what) + comp.effects_on(oid, "remove", what),
                             key=comp.effect_order)
            ckind, name = "ability", f"{oid}.has.{what}"
            seen |= {("grant", oid, what), ("remove", oid, what)}
        else:
            permits, prohibits = comp.effects_on(oid, "permit", what), comp.effects_on(oid, "prohibit", what)
            seen |= {("permit", oid, what), ("prohibit", oid, what)}
            if permits and prohibits:
                out.append(Contest(f"{oid}.{what}", oid, "permission", what,
                                   tuple(e.id for e in sorted(permits + prohibits, key=comp.effect_order))))
            continue
        seen.add((kind, oid, what))
        if len(effects) >= 2:
            out.append(Contest(name, oid, ckind, what, tuple(e.id for e in effects)))
    return out


def prepare(comp, found: list[Contest], stages: list[int]) -> dict[str, Lit]:
    """Create the derived characteristics of every contest at each stage; the literals to read, by name."""
    reads: dict[str, Lit] = {}
    for si in dict.fromkeys(stages):
        st = comp.stages[si]
        for c in found:
            if c.kind == "control":
                comp.controller(st, c.obj)
                char = ("control", c.obj)
            elif c.kind == "attr":
                comp.value(st, c.obj, c.what)
                char = ("attr", c.obj, c.what)
            elif c.kind == "prop":
                comp.prop(st, c.obj, c.what)
                char = ("prop", c.obj, c.what)
            elif c.kind == "ability":
                comp.has_ability(st, c.obj, c.what)
                char = ("ability", c.obj, c.what)
            else:
                comp.allowed(st, c.obj, c.what)
                permits, prohibits, ok = st.derived["permission", c.obj, c.what]
                reads.update({f"{si}|{c.name}|permit": permits, f"{si}|{c.name}|prohibit": prohibits,
                              f"{si}|{c.name}|ok": ok})
                continue
            effects = {e.id: e for e, _ in st.derived.get(("wins",) + char, [])}
            for e, w in st.derived.get(("wins",) + char, []):
                reads[f"{si}|{c.name}|wins|{e.id}"] = w
                reads[f"{si}|{c.name}|applies|{e.id}"] = st.derived["applies", e.id, c.obj]
                for f in effects.values():
                    if f.id != e.id:
                        reads[f"{si}|{c.name}|later|{f.id}|{e.id}"] = comp.later(st, f, e)
            for eid in c.effects:
                reads[f"{si}|{c.name}|active|{eid}"] = st["active", eid]
    return reads


def line(c: Contest, si: int, values: dict[str, bool], earlier: list[int]) -> str:
    """Who wins contest ``c`` at stage ``si`` and why (``earlier``: the stages before it that were prepared)."""
    if c.kind == "permission":
        permit, prohibit, ok = (values.get(f"{si}|{c.name}|{x}", False) for x in ("permit", "prohibit", "ok"))
        verdict = "allowed" if ok else "not allowed"
        if permit and prohibit:
            return f"{c.name}: prohibition beats permission -> {verdict}"
        if prohibit:
            return f"{c.name}: prohibited -> {verdict}"
        if permit:
            return f"{c.name}: permitted -> {verdict}"
        return f"{c.name}: neither permitted nor prohibited by an effect -> {verdict}"
    wins = [e for e in c.effects if values.get(f"{si}|{c.name}|wins|{e}")]
    applies = [e for e in c.effects if values.get(f"{si}|{c.name}|applies|{e}")]
    if not wins:
        ended = [e for e in c.effects if _ended(c, e, si, values, earlier)]
        return f"{c.name}: no effect applies: base value" + (f" ({', '.join(ended)} ended)" if ended else "")
    w = wins[0]
    later = [e for e in c.effects if e != w and values.get(f"{si}|{c.name}|later|{e}|{w}")]
    if later:
        why = "; ".join(_why_not(c, e, si, values, earlier) for e in later)
        return f"{c.name}: {w} wins: later {why}"
    others = [e for e in applies if e != w]
    if others:
        return f"{c.name}: {w} wins over {', '.join(others)} (applied last)"
    return f"{c.name}: {w} wins (the only one that applies)"


def _ended(c: Contest, e: str, si: int, values: dict[str, bool], earlier: list[int]) -> bool:
    """The effect is inactive now but was active at an earlier prepared stage."""
    return not values.get(f"{si}|{c.name}|active|{e}") and any(values.get(f"{p}|{c.name}|active|{e}") for p in earlier)


def _why_not(c: Contest, e: str, si: int, values: dict[str, bool], earlier: list[int]) -> str:
    """Why a later effect does not win at stage ``si``."""
    if _ended(c, e, si, values, earlier):
        return f"effect {e} ended"
    if not values.get(f"{si}|{c.name}|active|{e}"):
        return f"effect {e} is not active"
    return f"effect {e} does not apply to {c.obj}"


def report(found: list[Contest], values: dict[str, bool], stages: list[int], at: int, changed_only: bool = False,
           before: int | None = None) -> list[str]:
    """Lines for every contest at stage ``at`` (only those whose line differs from stage ``before``, if asked)."""
    earlier = [s for s in stages if s < at]
    out = []
    for c in found:
        now = line(c, at, values, earlier)
        if changed_only and before is not None:
            prev = line(c, before, values, [s for s in stages if s < before])
            if prev == now:
                continue
        out.append(now)
    return out
