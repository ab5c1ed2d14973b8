"""State variables of one stage, and transitions between stages under the frame axiom.

A stage holds one variable per state key:

    ("zone", obj)  ("ctrl", obj)  ("cell", obj)  ("attach", obj)  ("status", action)
    ("attr", obj, name)  ("prop", obj, name)  ("flag", obj, name)  ("ability", obj, name)
    ("active", effect)  ("pstatus", player)  ("pattr", player, name)  ("pflag", player, name)
    ("turn", name)  ("gflag", name)

``ctrl`` is the *default* controller; the effective controller and every other
characteristic that continuous effects touch are derived per stage (solver.derived).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.cp import Cat, Lit, RuleModel

NONE = "none"
INERTIA = "core.inertia"


@dataclass
class Stage:
    """The state variables at one point of the event procedure."""

    index: int
    label: str
    vars: dict[tuple, object] = field(default_factory=dict)
    derived: dict[tuple, object] = field(default_factory=dict)
    #: keys whose value is defined by a rule at every stage (static effects), not by inertia
    defined: set[tuple] = field(default_factory=set)

    def __getitem__(self, key: tuple):
        return self.vars[key]

    def has(self, key: tuple) -> bool:
        """Is there a state variable for ``key``?"""
        return key in self.vars


def new_var(rm: RuleModel, key: tuple, domain, stage_index: int):
    """A fresh variable for ``key``: Cat for a tuple domain, Bool for 'bool', Int for an (lo, hi) pair."""
    name = f"s{stage_index}:" + ".".join(str(k) for k in key)
    if domain == "bool":
        return rm.new_bool(name)
    if isinstance(domain, list):
        return rm.new_int(name, domain[0], domain[1])
    return Cat(rm, name, domain)


def equal(rm: RuleModel, a, b, enforce: list) -> None:
    """Constrain two variables of the same kind equal under ``enforce``."""
    if isinstance(a, Cat):
        a.equal_to(b, enforce)
    else:
        rm.model.add(a == b).only_enforce_if(enforce)


class Transition:
    """One step from a stage to the next: rules set some variables, inertia keeps the rest."""

    def __init__(self, rm: RuleModel, domains: dict[tuple, object], prev: Stage, index: int, label: str) -> None:
        self.rm = rm
        self.domains = domains
        self.prev = prev
        self.next = Stage(index, label)
        for key, dom in domains.items():
            self.next.vars[key] = new_var(rm, key, dom, index)
        self.next.defined = set(prev.defined)
        self._whens: dict[tuple, list[Lit]] = {}
        self._always: set[tuple] = set()

    def _touch(self, key: tuple, when: Lit | None) -> list:
        if key not in self.next.vars:
            raise KeyError(f"no state variable {key}")
        if when is None or when is self.rm.true:
            self._always.add(key)
            return []
        self._whens.setdefault(key, []).append(when)
        return [when]

    def set(self, key: tuple, value, rule_id: str, when: Lit | None = None) -> None:
        """Rule ``rule_id``: if ``when`` holds, next[key] takes ``value`` (a name, bool, int, literal or variable)."""
        enforce = [self.rm.rule(rule_id)] + self._touch(key, when)
        var = self.next.vars[key]
        if isinstance(var, Cat):
            if isinstance(value, Cat):
                var.equal_to(value, enforce)
            else:
                var.assign(value, enforce)
        else:
            self.rm.model.add(var == value).only_enforce_if(enforce)

    def keep(self, key: tuple, rule_id: str, when: Lit | None = None) -> None:
        """Rule ``rule_id``: if ``when`` holds, next[key] explicitly keeps its previous value."""
        enforce = [self.rm.rule(rule_id)] + self._touch(key, when)
        equal(self.rm, self.next.vars[key], self.prev.vars[key], enforce)

    def free(self, key: tuple, when: Lit | None = None) -> None:
        """Release ``key`` from inertia when ``when`` holds: a choice left to the players."""
        self._touch(key, when)

    def finish(self) -> Stage:
        """Add the frame axiom (core.inertia) for every key: unchanged unless some rule's condition held."""
        inertia = self.rm.rule(INERTIA)
        for key in self.domains:
            if key in self._always or key in self.next.defined:
                continue
            whens = self._whens.get(key, [])
            equal(self.rm, self.next.vars[key], self.prev.vars[key], [inertia] + [self.rm.neg(w) for w in whens])
        return self.next
