"""State variables of one stage, and transitions between stages under the frame axiom.

A stage holds one variable per state key:

    ("zone", obj)  ("ctrl", obj)  ("cell", obj)  ("attach", obj)  ("status", action)
    ("attr", obj, name)  ("prop", obj, name)  ("flag", obj, name)  ("ability", obj, name)
    ("active", effect)  ("pstatus", player)  ("pattr", player, name)  ("pflag", player, name)
    ("turn", name)  ("gflag", name)

``ctrl`` is the *default* controller; the effective controller and every other
characteristic that continuous effects touch are derived per stage (solver.encoding.derived).

Rules own their frame: a key that some rule may change in a transition stays as it
was, when none of the conditions on it holds, under the literals of the rules that
could change it (``RuleModel.any_rule``), and under ``core.inertia`` beside them.
A core prefers a game rule to ``core.inertia`` (``solver.engine.cores.rank``), so
the core of a non-event ("X was not countered") names the rule whose condition
excluded X; but switching that rule off (the but-for test of ``because``,
``solver.check.checker``) frees the key only where the rule's own condition holds:
a rule decides only what its clause can change. ``core.inertia`` alone keeps the
keys that no rule could change there (touched only by an explicit keep or read on
the new stage); keys nobody touches share the previous stage's variable.

Cone of influence (slicing): stage 0 creates its variables on first use too, each
fixed to the scenario's value under its fact literal, and a closed stage answers
for the keys it did not use with the previous stage's variable. A key that no
event, effect, rule or expectation reads or sets therefore gets no variable and no
fact at any stage: it keeps its initial value, a constant the checker reads off the
scenario (inertia would force exactly that value). Once an engine solves the model
(``RuleModel.sealed``), a key read for the first time is that constant
(``Fixed``), never a new unconstrained variable.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.encoding.cp import Cat, Fixed, Lit, RuleModel
from solver.errors import MissingState

NONE = "none"


class LazyVars(dict):
    """Stage variables created on first use while a transition is open.

    A key that no rule sets and nobody reads during a transition is not copied:
    the next stage shares the previous stage's variable, which is exactly what
    the frame axiom would force, at no cost. A key that is read or set gets a
    fresh variable, and the frame axiom (core.inertia) ties it to the previous one.
    Closed, the stage answers for a key it never used with the previous stage's
    variable (looked up when first asked, then kept).
    """

    def __init__(self, make=None) -> None:
        super().__init__()
        self._make = make
        self._parent: LazyVars | None = None

    def __missing__(self, key):
        if self._make is None and self._parent is not None:
            var = self._parent[key]
        else:
            var = self._make(key) if self._make is not None else None
        if var is None:
            raise MissingState(key)
        self[key] = var
        return var

    def __contains__(self, key) -> bool:
        if dict.__contains__(self, key):
            return True
        if self._make is not None:
            return self._make(key, probe=True) is not None
        return self._parent is not None and key in self._parent

    def get(self, key, default=None):
        """The variable for ``key`` (created if the stage is open), else ``default``."""
        try:
            return self[key]
        except KeyError:
            return default

    def peek(self, key):
        """The variable this stage has for ``key`` without creating one (None: the key has no variable yet)."""
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self._parent.peek(key) if self._make is None and self._parent is not None else None

    def close(self, previous: "LazyVars") -> None:
        """Stop creating variables; keys never used here are ``previous``'s."""
        self._make = None
        self._parent = previous


@dataclass
class Stage:
    """The state variables at one point of the event procedure."""

    index: int
    label: str
    vars: dict[tuple, object] = field(default_factory=LazyVars)
    derived: dict[tuple, object] = field(default_factory=dict)
    #: keys whose value is defined by a rule at every stage (static effects), not by inertia
    defined: set[tuple] = field(default_factory=set)
    #: the rule that defines each such key (for the step trace)
    defined_by: dict[tuple, str] = field(default_factory=dict)

    def __getitem__(self, key: tuple):
        return self.vars[key]

    def has(self, key: tuple) -> bool:
        """Is there a state variable for ``key``?"""
        return key in self.vars


def fixed(rm: RuleModel, key: tuple, domain, value):
    """The constant ``value`` of ``key`` as a variable would read: Fixed for a tuple domain, else a model constant."""
    if isinstance(domain, tuple):
        return Fixed(rm, ".".join(str(k) for k in key), domain, value)
    return rm.true if domain == "bool" and value else rm.false if domain == "bool" else rm.model.new_constant(int(value))


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
        rm.equal(a, b, enforce)


class Transition:
    """One step from a stage to the next: rules set some variables, inertia keeps the rest."""

    def __init__(self, rm: RuleModel, domains: dict[tuple, object], prev: Stage, index: int, label: str) -> None:
        self.rm = rm
        self.domains = domains
        self.prev = prev
        self.next = Stage(index, label, LazyVars(self._make))
        self.next.defined = set(prev.defined)
        self.next.defined_by = dict(prev.defined_by)
        self._whens: dict[tuple, list[Lit]] = {}
        self._owners: dict[tuple, set[str]] = {}
        self._always: set[tuple] = set()
        #: (rule id, key, kind 'set' | 'keep', condition) of every clause, for the step trace
        self.clauses: list[tuple[str, tuple, str, Lit]] = []
        #: (key, rule ids owning its frame, conditions under which it may change) of every framed key
        self.frames: list[tuple[tuple, tuple[str, ...], list[Lit]]] = []

    def _make(self, key: tuple, probe: bool = False):
        if key not in self.domains:
            return None
        if probe:
            return True
        return new_var(self.rm, key, self.domains[key], self.next.index)

    def _touch(self, key: tuple, when: Lit | None, owner: str | None = None) -> list:
        if key not in self.domains:
            raise MissingState(f"no state variable {key}")
        self.prev.vars[key]  # what it was (the step trace reads it; with slicing, it exists from stage 0 on)
        self.next.vars[key]  # a key a rule may change gets its own variable at this stage
        if owner is not None and when is not self.rm.false:  # a rule that can never fire here does not own it
            self._owners.setdefault(key, set()).add(owner)
        if when is None or when is self.rm.true:
            self._always.add(key)
            return []
        self._whens.setdefault(key, []).append(when)
        return [when]

    def set(self, key: tuple, value, rule_id: str, when: Lit | None = None, frame: bool = True) -> None:
        """Rule ``rule_id``: if ``when`` holds, next[key] takes ``value`` (a name, bool, int, literal or variable).

        The rule also owns the key's frame here (unchanged when no condition on it holds), unless ``frame`` is
        false: an exception to another rule of the same step, which owns it (an interrupted action is the
        resolution rule's business when it never reached the stack).
        """
        enforce = [self.rm.rule(rule_id)] + self._touch(key, when, rule_id if frame else None)
        self.clauses.append((rule_id, key, "set", self.rm.true if when is None else when))
        var = self.next.vars[key]
        if isinstance(var, Cat):
            if isinstance(value, Cat):
                var.equal_to(value, enforce)
            else:
                var.assign(value, enforce)
        else:
            self.rm.equal(var, value, enforce)

    def keep(self, key: tuple, rule_id: str, when: Lit | None = None) -> None:
        """Rule ``rule_id``: if ``when`` holds, next[key] explicitly keeps its previous value."""
        enforce = [self.rm.rule(rule_id)] + self._touch(key, when)
        self.clauses.append((rule_id, key, "keep", self.rm.true if when is None else when))
        equal(self.rm, self.next.vars[key], self.prev.vars[key], enforce)

    def free(self, key: tuple, when: Lit | None = None, rule_id: str | None = None) -> None:
        """Release ``key`` from its frame when ``when`` holds: a choice left to the players (under rule ``rule_id``,
        which then owns the key's frame here, as a rule setting it would)."""
        self._touch(key, when, rule_id)

    def finish(self) -> Stage:
        """Add the frame for every key of the new stage: unchanged unless some condition on it held.

        The frame of a key some rule could change sits under those rules' literals; a key no rule could change
        here keeps its value under ``core.inertia``. Keys defined afresh at every stage (static effects) always get a
        new variable; keys nobody used share the previous variable.
        """
        for key in self.next.defined:
            self.next.vars[key]
        for key, var in list(self.next.vars.items()):
            if key in self._always or key in self.next.defined:
                continue
            whens = self._whens.get(key, [])
            owners = self._owners.get(key)
            # the owners' literals, and core.inertia beside them: switching one rule off frees the key only where its
            # own condition holds (what its clause can change), never where it could not have acted
            frame = self.rm.any_rule(set(owners) | {"core.inertia"}) if owners else self.rm.rule("core.inertia")
            equal(self.rm, var, self.prev.vars[key], [frame] + [self.rm.neg(w) for w in whens])
            self.frames.append((key, tuple(sorted(owners)) if owners else ("core.inertia",), whens))
        self.next.vars.close(self.prev.vars)
        return self.next
