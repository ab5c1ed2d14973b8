"""What a rule may see and do while the model is built: the narrow ``RuleContext``.

A game's rules (``solver/games/<game>/``, the shared ``derived`` and ``ruleset`` code) take ``ctx: RuleContext``
and touch nothing else of the compiler. It offers the model (``rm``), the static world read-only (players, cells
and adjacency, zones, objects and their owners, effects, the scenario), the state keys' domains and initial
values (declared with ``add_key``), the derived characteristics under the game's rule ids, the object identity
and effect-time accessors, the stages and the step that opens a transition, and the three ways a rule talks back
to the checker: ``require`` (an event's precondition), ``request_proof`` (a fact an outside proof settles) and
``start_static`` (a begun static effect follows its source from now on). ``Compiler``
(``solver.encoding.compile``) implements it; ``tests/test_layout.py`` fails when game code touches anything
else, and ``tests/test_rule_context.py`` runs rules on a small hand-built context.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from models.effects import Effect
from models.scenario import GameObject, Scenario
from solver.encoding.cp import Cat, Lit, RuleModel
from solver.encoding.state import Stage, Transition


@dataclass
class ObjInfo:
    """Static data of an object slot (scenario objects and objects events create)."""

    id: str
    owner: str | None
    types: tuple[str, ...]
    card: bool
    token: bool
    action: object | None
    data: GameObject | None


@dataclass
class ProofRequest:
    """A fact a rule reads that an outside proof settles (a victory analysis), per state of its stage.

    Before solving, every state the rules allow at that stage is projected on ``observe`` and ``decide`` is asked;
    its verdict enters the model as the fact literal ``name`` (``solver.check.proofs``), never as a silent assert.
    """

    name: str
    event: int
    player: str
    kind: str
    #: the literal the rule reads ("the player holds a decisive advantage here")
    claim: Lit
    #: what the proof reads: state name -> variable (Cat, integer variable or literal) at the stage
    observe: dict[str, object]
    #: (state values, solver options) -> an answer with ``verdict`` (proved/refuted/unknown), ``certificate``,
    #: ``counterexample``, ``message``
    decide: Callable[[dict[str, str], object], object]
    #: state values -> the names among them that decide the position (the others do not matter there)
    needed: Callable[[dict[str, str]], list[str]] | None = None
    #: the fact of a judge's ruling asserting the same claim at the same event (it holds the claim where the proof
    #: is unknown, and contradicts a refutation), or None
    ruling: str | None = None


class RuleContext(Protocol):
    """Everything a rule may read or call while the model is built (``Compiler`` implements it)."""

    # -- the model and the static world (read-only) -------------------------------------------------
    @property
    def rm(self) -> RuleModel:
        """The CP-SAT model with its rule, fact and definition literals."""
    @property
    def sc(self) -> Scenario:
        """The scenario (read-only: its players, turn, events, options)."""
    @property
    def rs(self) -> Any:
        """The game's ruleset (``solver.encoding.ruleset.Ruleset``: its zones, the rules it hands on to)."""
    @property
    def players(self) -> Sequence[str]:
        """Player ids in turn order."""
    @property
    def cells(self) -> Sequence[str]:
        """The board's cells (empty without a board)."""
    @property
    def adjacency(self) -> Mapping[str, object]:
        """Cell -> its neighbouring cells."""
    @property
    def zones(self) -> Sequence[str]:
        """Every zone of the game and the scenario, and ``none``."""
    @property
    def objects(self) -> Mapping[str, ObjInfo]:
        """Object id -> its static data (scenario objects, actions, objects events create)."""
    @property
    def actions(self) -> Sequence[str]:
        """Ids of the actions (on the stack at the start, or declared by an event)."""
    @property
    def effects(self) -> Mapping[str, Effect]:
        """Effect id -> effect (the initial state's and those events begin)."""
    @property
    def domains(self) -> Mapping[tuple, object]:
        """State key -> its domain (read-only: declare with ``add_key``)."""
    @property
    def initial(self) -> Mapping[tuple, object]:
        """State key -> its initial value."""
    @property
    def identity(self) -> Sequence[str]:
        """Objects with an identity per zone visit (``("since", obj)``)."""

    def owner_of(self, obj: str | None) -> str | None:
        """The owner of an object (static)."""
    def next_player(self, player: str) -> str:
        """The player after ``player`` in turn order (cyclic)."""
    def add_key(self, key: tuple, domain, initial) -> None:
        """Declare a state variable (idempotent) with its domain and initial value."""
    def zone_named(self, zone: str) -> bool:
        """Does the scenario put anything in ``zone`` itself (an object starting there, an event naming it)?"""
    def created_at(self, obj: str) -> int:
        """The index of the event that creates ``obj``; 0 for an object of the initial state."""

    # -- effects and the time they were applied ------------------------------------------------------
    def candidates(self, e: Effect) -> list[str]:
        """Objects an effect may apply to, by its static criteria (ids, types)."""
    def effects_on(self, obj: str, kind: str, what: str | None = None) -> list[Effect]:
        """Effects of ``kind`` that may apply to ``obj`` (for ``what``: attribute, action or ability)."""
    def effect_groups(self) -> list[tuple]:
        """(kind, object[, attribute/action/ability]) of every group of effects that may apply to one object."""
    def effect_order(self, e: Effect) -> tuple[int, int, int]:
        """When an effect began, in the scenario's order."""
    def later(self, st: Stage, a: Effect, b: Effect) -> Lit:
        """Literal: ``a`` was applied after ``b`` at ``st``."""
    def named_visit(self, st: Stage, e: Effect, obj: str) -> Lit:
        """Literal: ``obj``'s current visit is one ``e`` names."""
    def visit_since(self, st: Stage, obj: str, at, name: str = "visit") -> Lit:
        """Literal: ``obj``'s current zone visit began no later than ``at``."""
    def is_pending(self, effect_id: str) -> bool:
        """Is the effect one a later event begins, and not begun yet (inactive until then, even if static)?"""

    # -- derived characteristics, under the game's rule ids --------------------------------------------
    def controller(self, st: Stage, obj: str) -> Cat:
        """The effective controller of ``obj`` at ``st``."""
    def value(self, st: Stage, obj: str, attr: str):
        """The effective numeric value of ``obj``'s ``attr`` at ``st``."""
    def prop(self, st: Stage, obj: str, name: str) -> Cat:
        """The effective categorical property of ``obj`` at ``st``."""
    def has_ability(self, st: Stage, obj: str, ability: str) -> Lit:
        """Literal: ``obj`` has ``ability`` at ``st``."""
    def allowed(self, st: Stage, obj: str, action: str, default: bool = False) -> Lit:
        """Literal: ``obj`` may perform or undergo ``action`` at ``st``."""

    # -- stages, and what a rule tells the checker -----------------------------------------------------
    @property
    def stage(self) -> Stage:
        """The latest stage."""
    @property
    def stages(self) -> Sequence[Stage]:
        """Every stage so far (read-only)."""
    @property
    def boundaries(self) -> Sequence[int]:
        """The index of the stage after each event (``boundaries[0]``: the initial state's)."""
    @property
    def event_index(self) -> int:
        """The index of the event being applied."""

    def step(self, label: str) -> AbstractContextManager[Transition]:
        """Open a transition from the latest stage; on exit it becomes the latest stage."""
    def require(self, lit: Lit, message: str) -> None:
        """The current event needs ``lit`` in every outcome; an outcome without it is a located error."""
    def request_proof(self, request: ProofRequest) -> None:
        """A fact the rules read that an outside proof settles before solving (``solver.check.proofs``)."""
    def start_static(self, effect_id: str) -> None:
        """A begun static effect: from now on active exactly while its source is in play (``core.static``)."""
    def derive_initial(self, key: tuple) -> None:
        """The stage-0 value of ``key`` is what the game's rules make it (a value the scenario does not give), not a
        fact; its ``add_key`` initial value is shown only."""


#: the names a rule may touch on its context (``tests/test_layout.py`` holds game code to them)
MEMBERS = frozenset(n for n in vars(RuleContext) if not n.startswith("_"))
