"""The step trace: event by event, which rules fired on which objects, read off one outcome's solution.

Every rule clause of a transition (``Transition.set`` / ``keep``) is kept with its
condition. In an outcome a clause *fired* when its condition is true there; a rule
*decided* a key when it owns the key's frame and none of the conditions on the key held
(the key stays because of that rule). ``activity`` is the set of rules that fired or
decided somewhere in an outcome: cores rank the other rules of the transitions, whose
every condition was false, with the bookkeeping (``solver.engine.cores``), so an
explanation follows what happened rather than a case that did not arise (an action that
never reached the stack is not "unpaid because interrupted").

``steps`` renders one outcome: per event, "rule: what it did" in stage order, and the
precedence lines of ``solver.check.precedence`` where the winner is new or changed.
"""
from __future__ import annotations

from models.results import Step
from solver.check import precedence
from solver.encoding.cp import Cat, Lit, cp_model


def condition_reads(comp) -> dict[str, Lit]:
    """Every condition of a clause or a frame of the model, by a name to read it under."""
    out: dict[str, Lit] = {}
    for tr in comp.transitions:
        for _, _, _, when in tr.clauses:
            out[_name(when)] = when
        for _, _, whens in tr.frames:
            for w in whens:
                out[_name(w)] = w
    return out


def _name(lit: Lit) -> str:
    return f"when|{int(lit.index)}"


def transition_rules(comp) -> set[str]:
    """Every rule id that has a clause or owns a frame in some transition."""
    out: set[str] = set()
    for tr in comp.transitions:
        out |= {rule for rule, _, _, _ in tr.clauses}
        for _, owners, _ in tr.frames:
            out |= set(owners)
    return out


def shared_owners(comp) -> set[str]:
    """Rules that own the frame of some key together with another rule (either one keeps it)."""
    return {r for tr in comp.transitions for _, owners, _ in tr.frames if len(owners) > 1 for r in owners}


def activity(comp, values: dict[str, bool]) -> set[str]:
    """The rules that fired (a condition held) or decided (their frame held) in one outcome."""
    out: set[str] = set()
    for tr in comp.transitions:
        out |= {rule for rule, _, _, when in tr.clauses if values.get(_name(when))}
        for _, owners, whens in tr.frames:
            if not any(values.get(_name(w)) for w in whens):
                out |= set(owners)
    return out


def event_label(ev) -> str:
    """A short name of an event: its type and what it is about ('leave_game alex', 'resolve blow')."""
    for field in ("player", "id", "action", "object", "planet", "effect"):
        v = getattr(ev, field, None)
        if v is not None:
            return f"{ev.type} {getattr(v, 'id', v)}"
    return ev.type


def _decode(comp, key: tuple, var, s: cp_model.CpSolver) -> str:
    if isinstance(var, Cat):
        return var.decode(s)
    v = s.value(var)
    return ("true" if v else "false") if comp.domains.get(key) == "bool" else str(v)


def describe(comp, key: tuple, before: str, after: str, kind: str) -> tuple[str, str]:
    """What a clause did to one state key: (subject, phrase), e.g. ('aura', 'left the game (battlefield -> outside)'),
    ('', 'ended mind_control'), ('c_ability', 'status on_stack -> countered')."""
    what, *rest = key
    subject = ".".join(str(r) for r in rest)
    field = {"ctrl": "controller", "attach": "attached to", "pstatus": "", "turn": "", "gflag": ""}.get(what, what)
    if what in ("attr", "pattr", "flag", "pflag", "prop"):
        subject, field = str(rest[0]), ".".join(str(r) for r in rest[1:])
    if kind == "keep":
        return subject, f"{field + ' ' if field else ''}stays {after}"
    if what == "zone" and after in comp.rs.gone_zones and comp.objects.get(subject) and \
            comp.objects[subject].action is None:
        return subject, f"left the game ({before} -> {after})"
    if what in ("active", "ended"):
        on = (after == "true") != (what == "ended")
        return "", f"{'began' if on else 'ended'} {subject}"
    if what == "since":  # object identity: its zone visit began anew
        return subject, f"is a new object (changed zone or attachment: its visit began at event {after})"
    if what == "released":
        return "", f"{rest[0]} no longer applies to {rest[1]}"
    if what == "ability":
        return str(rest[0]), f"{'gains' if after == 'true' else 'loses'} {rest[1]}"
    return subject, f"{field + ' ' if field else ''}{before} -> {after}"


def fired(comp, tr, values: dict[str, bool], s: cp_model.CpSolver) -> list[tuple[str, str, str]]:
    """(rule, subject, what it did) for every clause of a transition that fired: changes and explicit keeps."""
    out: list[tuple[str, str, str]] = []
    for rule, key, kind, when in tr.clauses:
        if not values.get(_name(when)):
            continue
        before, after = _decode(comp, key, tr.prev.vars[key], s), _decode(comp, key, tr.next.vars[key], s)
        if kind == "set" and before == after:
            continue
        item = (rule, *describe(comp, key, before, after, kind))
        if item not in out:
            out.append(item)
    for key in sorted(tr.next.defined, key=lambda k: tuple(map(str, k))):  # static effects following their source
        if key in tr.prev.vars and key in tr.next.vars:
            before, after = _decode(comp, key, tr.prev.vars[key], s), _decode(comp, key, tr.next.vars[key], s)
            if before != after:
                out.append((tr.next.defined_by.get(key, "core.static"), *describe(comp, key, before, after, "set")))
    return out


def _line(rule: str, items: list[tuple[str, str]]) -> str:
    """'rule: subject phrase, phrase; subject phrase' (one subject's phrases together, in order)."""
    subjects: dict[str, list[str]] = {}
    for subject, phrase in items:
        subjects.setdefault(subject, []).append(phrase)
    parts = [(f"{subj} " if subj else "") + ", ".join(phrases) for subj, phrases in subjects.items()]
    return f"{rule}: {'; '.join(parts)}"


def steps(comp, values: dict[str, bool], s: cp_model.CpSolver, contests: list, stages: list[int]) -> list[Step]:
    """The step trace of one outcome: the initial state's precedence, then every event."""
    bounds = comp.boundaries
    out = [Step(event=0, label="initial state", precedence=precedence.report(contests, values, stages, bounds[0]))]
    by_event: dict[int, list] = {}
    for tr in comp.transitions:
        i = next(k for k in range(1, len(bounds)) if tr.next.index <= bounds[k])
        by_event.setdefault(i, []).append(tr)
    for i, ev in enumerate(comp.sc.events, 1):
        lines: dict[str, list[tuple[str, str]]] = {}
        for tr in by_event.get(i, []):
            for rule, subject, what in fired(comp, tr, values, s):
                lines.setdefault(rule, []).append((subject, what))
        prec = precedence.report(contests, values, stages, bounds[i], changed_only=True, before=bounds[i - 1])
        out.append(Step(event=i, label=event_label(ev), fired=[_line(r, items) for r, items in lines.items()],
                        precedence=prec))
    return out


def render(trace: list[Step]) -> list[str]:
    """The trace as text lines: 'after event 2 (leave_game alex):', then one line per rule that fired."""
    out = []
    for st in trace:
        head = "initial state" if st.event == 0 else f"after event {st.event} ({st.label})"
        out.append(head + (":" if st.fired else ("" if st.event == 0 else ": no rule changed anything")))
        out += [f"    {f}" for f in st.fired]
        out += [f"    precedence: {p}" for p in st.precedence]
    return out
