"""The compiler's stages and events: the derived characteristics under the game's rule ids, what a rule tells the
checker (preconditions, proof requests, begun static effects), the step that opens a transition, and the events
applied in order with their errors located.

``Stages`` is one part of ``solver.encoding.compile.Compiler``; rules see it through ``RuleContext``.
"""
from __future__ import annotations

from contextlib import contextmanager

from solver.encoding.context import ProofRequest
from solver.encoding.cp import Cat, Lit
from solver.encoding.state import Stage, Transition
from solver.errors import MissingState, NotModelled, ScenarioError


class Stages:
    """Derived characteristics, preconditions and proofs, stages and events (a part of ``Compiler``)."""

    # -- derived characteristics, under the game's rule ids -------------------------
    def controller(self, st: Stage, obj: str) -> Cat:
        """The effective controller of ``obj`` at ``st`` (the game's control and precedence rules)."""
        return self.rs.controller(self, st, obj)

    def value(self, st: Stage, obj: str, attr: str):
        """The effective numeric value of ``obj``'s ``attr`` at ``st``."""
        return self.rs.value(self, st, obj, attr)

    def prop(self, st: Stage, obj: str, name: str) -> Cat:
        """The effective categorical property of ``obj`` at ``st``."""
        return self.rs.prop(self, st, obj, name)

    def has_ability(self, st: Stage, obj: str, ability: str) -> Lit:
        """Literal: ``obj`` has ``ability`` at ``st`` after grant/remove effects."""
        return self.rs.has_ability(self, st, obj, ability)

    def allowed(self, st: Stage, obj: str, action: str, default: bool = False) -> Lit:
        """Literal: ``obj`` may perform or undergo ``action`` at ``st`` (permission against prohibition)."""
        return self.rs.allowed(self, st, obj, action, default)

    # -- what a rule tells the checker ---------------------------------------------
    def require(self, lit: Lit, message: str) -> None:
        """The current event needs ``lit`` in every outcome; an outcome without it is a located error."""
        self.preconditions.append((self.event_index, lit, message))

    def request_proof(self, request: ProofRequest) -> None:
        """A fact the rules read that an outside proof settles before solving (``solver.check.proofs``)."""
        self.proofs.append(request)

    def start_static(self, effect_id: str) -> None:
        """A begun static effect: from now on active exactly while its source is in play (``core.static``)."""
        self.pending.discard(effect_id)

    def derive_initial(self, key: tuple) -> None:
        """The stage-0 value of ``key`` is what the game's rules make it (a value the scenario does not give), not a
        fact; its ``add_key`` initial value is shown only."""
        self.derived0.add(key)

    def is_pending(self, effect_id: str) -> bool:
        """Is the effect one a later event begins, and not begun yet (inactive until then, even if static)?"""
        return effect_id in self.pending

    # -- building stages --------------------------------------------------------
    @property
    def stage(self) -> Stage:
        """The latest stage."""
        return self.stages[-1]

    @contextmanager
    def step(self, label: str):
        """Open a transition from the latest stage; on exit add inertia and make it the latest stage."""
        tr = Transition(self.rm, self.domains, self.stage, len(self.stages), label)
        yield tr
        self.rs.new_objects(self, tr)
        st = tr.finish()
        self._define_statics(st)
        self.stages.append(st)
        self.transitions.append(tr)

    def compile_events(self) -> None:
        """Apply every event in order, recording the stage after each."""
        for i, ev in enumerate(self.sc.events):
            self.event_index = i
            try:
                self.rs.apply_event(self, ev)
            except MissingState as exc:  # the event reads what the scenario does not give
                raise ScenarioError(f"events[{i}] ({ev.type}): {_explain(exc)}") from None
            except NotModelled as exc:
                raise NotModelled(f"events[{i}] ({ev.type}): {exc}", exc.word) from None
            except ScenarioError as exc:
                raise type(exc)(f"events[{i}] ({ev.type}): {exc}") from None
            self.boundaries.append(len(self.stages) - 1)


def _explain(exc: MissingState) -> str:
    """A one-line reason for an event the scenario's state cannot carry (a missing state key or parameter)."""
    arg = exc.key
    if isinstance(arg, tuple) and arg:
        kind, *rest = arg
        if any(r is None for r in rest):
            return f"the event names no object for its {kind} '{rest[-1]}' (give it a source or a target)"
        return f"{'.'.join(map(str, rest[:-1]))} has no {kind} '{rest[-1]}' (give it one in the scenario)"
    if not str(arg).startswith("no state variable"):
        return f"missing '{arg}' (a parameter or state the event needs)"
    return str(arg)
