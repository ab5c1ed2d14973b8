"""Compile a scenario and its game's rules into one CP-SAT model.

Stage 0 is the scenario's state, each value fixed under a *fact* literal.
Each event is handed to the game's ruleset, which adds one or more stages
through transitions (rules set variables, inertia keeps the rest).

With ``slicing`` (the default) stage 0's variables are created on first use, so
a key that nothing reads or sets has no variable at any stage and keeps its
initial value (``initial_text``); without it, every key is a variable of stage 0.
"""
from __future__ import annotations

from models.effects import Effect
from models.scenario import Scenario
from solver.encoding.context import ObjInfo, ProofRequest
from solver.encoding.cp import Lit, RuleModel
from solver.encoding.expectations import Expectations
from solver.encoding.stages import Stages
from solver.encoding.state import NONE, Stage, Transition
from solver.encoding.world import ATTR_RANGE, TURN_KEYS, World, named
from solver.errors import ScenarioError

__all__ = ["ATTR_RANGE", "TURN_KEYS", "Compiler", "ObjInfo", "ProofRequest", "ScenarioError", "named"]


class Compiler(World, Stages, Expectations):
    """Builds the model: domains, stage 0 facts, event stages, expectation literals (``RuleContext`` for the rules).

    Its parts by job: the static world, domains and stage 0 (``world``), stages and events (``stages``),
    expectation literals (``expectations``)."""

    def __init__(self, scenario: Scenario, ruleset, slicing: bool = True, read: frozenset[str] = frozenset()) -> None:
        self.sc = scenario
        self.rs = ruleset
        self.rm = RuleModel()
        #: cone of influence: stage 0 creates a variable (and its fact) only for a key something reads or sets
        self.slicing = slicing
        #: objects known to be read though the scenario does not name them: created first, like the named ones
        self.read = read
        #: objects the scenario does not name whose keys something read (created when first read, out of order)
        self.late: set[str] = set()
        self._creating = False
        self.players = [p.id for p in scenario.players]
        self.cells = scenario.board.all_cells() if scenario.board else []
        self.adjacency = scenario.board.neighbours() if scenario.board else {}
        self.zones = tuple(dict.fromkeys(list(ruleset.zones) + list(scenario.zones) + [NONE]))
        self.objects: dict[str, ObjInfo] = {}
        self.effects: dict[str, Effect] = {}
        self._order: dict[str, tuple[int, int, int]] = {}
        #: effect id -> when it began: 0 for the initial state's, 1 + the index of the event that begins it
        self.began: dict[str, int] = {}
        #: objects with an identity per zone visit (``("since", obj)``): sources of static effects and objects an
        #: effect names (``identity_objects``)
        self.identity: tuple[str, ...] = ()
        self._on: dict[tuple, list[Effect]] = {}
        self.domains: dict[tuple, object] = {}
        self.initial: dict[tuple, object] = {}
        #: keys whose stage-0 value the game's rules define (a value the scenario does not give), not a fact;
        #: ``initial`` holds what they make it, for display only
        self.derived0: set[tuple] = set()
        self.stages: list[Stage] = []
        #: every transition in order (its clauses and frames: what the step trace reads)
        self.transitions: list[Transition] = []
        self.boundaries: list[int] = []
        self.actions: list[str] = []
        #: effects that a later begin_effect event starts (inactive until then, even if static)
        self.pending: set[str] = set()
        #: (event index, literal, message): what an event needs in every outcome; an outcome without it is a
        #: located error (the checker reads them)
        self.preconditions: list[tuple[int, Lit, str]] = []
        #: facts the rules read that an outside proof settles before solving (``solver.check.proofs``)
        self.proofs: list[ProofRequest] = []
        self.event_index = 0
        #: cache of effect times and their comparisons (kept with the variables they compare)
        self._times: dict[tuple, object] = {}
        #: variable index -> value of the model constants the identity rules read (the first visit: 0)
        self._known: dict[int, int] = {}
        #: effect id -> its rank in an open order (static abilities of cards that entered together), and its group
        self._ranks: dict[str, tuple[object, tuple[str, ...]]] = {}
        self._collect()
        self._open_orders()
        self._build_domains()
        self.stages.append(self._stage0())
        self.boundaries.append(0)
