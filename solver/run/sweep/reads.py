"""The read probe behind the fast sweep: which numbers and texts of the cards in a combination's slots its check uses.

A combination's check is a deterministic program of the placed scenario. It reads a slot card's attribute and
property *values* in three ways only, and the probe logs each (``Probe``):

- through the state variable of the key at stage 0 (``Compiler._initial_var``), when a rule, an expectation, a
  proof's observation or an explanation asks for it. The probe builds with nothing created ahead (no object is
  "named": ``_named_objects`` is empty, and no rebuild with late objects), so a key gets a variable exactly when
  something reads or sets it;
- from the compiler's table of initial values (``Compiler.initial``) by any code but the two that only copy or show
  it (``_initial_var``, logged above, and ``initial_text``, the constant an outcome shows): the domain check of stage
  0, a ruleset's static test (MTG 704.5 reads toughness there), last known information;
- from the placed object itself (``GameObject.attributes`` / ``properties``) by any code but the compiler's
  transport of them into that table (``_build_domains``, ``add_prop``): Berserk 532.8 matching a card's property
  values, the victory analysis reading combat numbers.

Whatever else of a card reaches the check (its types, abilities, flags, name, effects, actions, and which attributes
and properties it has) is the card's *shape* and is compared whole. So two combinations with the same shapes that
agree on every value the probe logged for one of them run the same program: the same model, the same solves, the same
verdicts, cores and messages; their outcomes differ only in the values nothing read, each its own initial value
(nothing set it). ``solver.run.sweep.fast`` settles combinations on that argument.
"""
from __future__ import annotations

import sys
from typing import Any

from models.loader import LoadedScenario
from models.results import ScenarioResult
from solver.check.checker import ScenarioCheck
from solver.encoding.compile import Compiler

#: what a probe logs: (object id, "attr" | "prop", name)
Read = tuple[str, str, str]
#: the kinds of values a card gives whose reads are logged (everything else of a card is its shape)
VALUE_KINDS = ("attr", "prop")
#: code that only moves a placed object's values into the compiler's table (not a read: reads of the table are logged)
_TRANSPORT = frozenset({Compiler._build_domains.__code__, Compiler.add_prop.__code__})
#: code that reads the table only to create the logged variable, or to show an unread key's constant
_TABLE_OWN = frozenset({Compiler._initial_var.__code__, Compiler.initial_text.__code__})


class _Forget(set):
    """A set that keeps nothing: the probe never rebuilds with late objects first (only their order would change)."""

    def add(self, item) -> None:  # noqa: D401 - set API
        """Keep nothing."""


class ObjectValues(dict):
    """A placed slot object's attributes or properties, logging each value read by code other than the transport."""

    def __init__(self, data: dict, log: set, obj: str, kind: str) -> None:
        super().__init__(data)
        self._log, self._obj, self._kind = log, obj, kind

    def _note(self, names) -> None:
        if sys._getframe(2).f_code not in _TRANSPORT:
            self._log.update((self._obj, self._kind, n) for n in names)

    def __getitem__(self, name):
        self._note((name,))
        return super().__getitem__(name)

    def get(self, name, default=None):
        """The value (logged)."""
        self._note((name,))
        return super().get(name, default)

    def items(self):
        """Every (name, value) (all logged)."""
        self._note(list(self.keys()))
        return super().items()

    def values(self):
        """Every value (all logged)."""
        self._note(list(self.keys()))
        return super().values()

    def copy(self) -> dict:
        """A plain copy (every value logged)."""
        self._note(list(self.keys()))
        return dict(super().items())

    def __eq__(self, other) -> bool:
        self._note(list(self.keys()))
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        self._note(list(self.keys()))
        return dict, (dict(super().items()),)


class InitialValues(dict):
    """The compiler's table of initial values, logging reads of a watched object's attributes and properties."""

    def __init__(self, data: dict, log: set, watch: frozenset[str]) -> None:
        super().__init__(data)
        self._log, self._watch = log, watch

    def _note(self, key) -> None:
        if isinstance(key, tuple) and len(key) == 3 and key[0] in VALUE_KINDS and key[1] in self._watch \
                and sys._getframe(2).f_code not in _TABLE_OWN:
            self._log.add((key[1], key[0], key[2]))

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        """The value (logged)."""
        self._note(key)
        return super().get(key, default)


class ProbeCompiler(Compiler):
    """A compiler that creates every stage-0 variable on first use and logs the watched values it uses (a subclass
    per probe carries ``watch``, ``log`` and ``built``)."""

    watch: frozenset[str] = frozenset()
    log: set = set()
    built: list = []

    def __init__(self, *args, **kw) -> None:
        type(self).built.append(self)
        super().__init__(*args, **kw)

    late = property(lambda self: _Forget(), lambda self, value: None)

    def __setattr__(self, name: str, value) -> None:
        if name == "initial":
            value = InitialValues(value, type(self).log, type(self).watch)
        object.__setattr__(self, name, value)

    def _named_objects(self) -> set[str]:
        """Nothing is created ahead: a key gets a variable when something reads or sets it."""
        return set()

    def _initial_var(self, key: tuple, probe: bool = False):
        """Stage 0's variable (or, sealed, constant) for ``key``; a watched value is logged as read."""
        if not probe and key in self.domains and len(key) == 3 and key[0] in VALUE_KINDS and key[1] in self.watch:
            type(self).log.add((key[1], key[0], key[2]))
        return super()._initial_var(key, probe)


class ProbeCheck(ScenarioCheck):
    """A scenario check whose builds are probes."""


def probe(loaded: LoadedScenario, watch: frozenset[str], options=None, why: bool = False
          ) -> tuple[ScenarioResult, set[Read], bool]:
    """Check ``loaded`` as a probe: its result, the watched objects' values it read, and whether they are all it read
    (False when a victory proof or claim reads the scenario by other means, or the check raised)."""
    log: set[Read] = set()
    compiler = type("Probe", (ProbeCompiler,), {"watch": watch, "log": log, "built": []})
    sc = loaded.scenario
    for o in sc.objects:
        if o.id in watch:  # validated already; the placed object's own dicts, replaced without re-validating
            o.__dict__["attributes"] = ObjectValues(o.attributes, log, o.id, "attr")
            o.__dict__["properties"] = ObjectValues(o.properties, log, o.id, "prop")
    check = type("Probing", (ProbeCheck,), {"compiler": compiler})(
        sc, loaded.path, loaded.expect_lines, options, why, loaded.claim_lines)
    res = check.run()
    complete = not sc.claims and not any(c.proofs for c in compiler.built)
    return res, log, complete


def values_of(card: Any, reads: set[tuple[str, str]]) -> tuple:
    """A card definition's values at ``(kind, name)`` reads, in sorted order (None where it has none)."""
    out = []
    for kind, name in sorted(reads):
        table = card.attributes if kind == "attr" else card.properties
        out.append(table.get(name))
    return tuple(out)
