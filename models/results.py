"""Typed results of checking scenarios: verdicts, outcomes, per-scenario and batch summaries."""
from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field


class Verdict(str, Enum):
    """The verdict an expectation gets from the solver."""

    HOLDS = "holds"
    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"


class ScenarioStatus(str, Enum):
    """Overall status of one scenario."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    UNKNOWN = "unknown"


class Step(BaseModel):
    """One event of one outcome, as ``arbiter explain`` shows it: the rules that fired on which objects, in stage
    order, and which effect won each contested characteristic there, and why."""

    event: int = Field(description="1 for the first event (0: the initial state)")
    label: str = Field(description="the event, e.g. 'leave_game alex'")
    fired: list[str] = Field(default_factory=list, description="'rule: what it did' lines, in stage order")
    precedence: list[str] = Field(default_factory=list,
                                  description="'characteristic: effect wins (why)' where the result is new or changed")


class Outcome(BaseModel):
    """One legal outcome, projected onto the observable state: ``changes`` against the initial state."""

    index: int
    changes: list[str] = Field(default_factory=list, description="'object.field: before -> after' lines")
    state: dict[str, str] = Field(default_factory=dict, description="observable key -> value at the end")
    steps: list[Step] = Field(default_factory=list, description="The step trace of this outcome, event by event "
                              "(computed with explanations: arbiter explain, check --why).")
    trace: list[dict[str, str]] = Field(default_factory=list, exclude=True,
                                        description="state after each prefix of the events: [0] the initial state, "
                                        "[i] after the first i events (for independent validation; not serialized)")


class ExpectationResult(BaseModel):
    """The verdict on one expectation, compared with what the scenario expected."""

    index: int
    line: int | None = None
    description: str
    expected: str
    verdict: Verdict
    passed: bool
    rules: list[str] = Field(default_factory=list, description="Rule ids behind the verdict (a re-checked minimal core).")
    facts: list[str] = Field(default_factory=list, description="Scenario facts in the core.")
    decided_by: list[str] = Field(default_factory=list, description="Rules of the core that decide the verdict: "
                                  "with any one of them switched off, the verdict no longer holds (but-for).")
    also_needed: list[str] = Field(default_factory=list, description="The rest of the minimal core: needed by this "
                                   "explanation, but the verdict holds without each of them.")
    no_core: str = Field(default="", description="Why a holds or impossible verdict shows no rule core.")
    because_at: dict[str, str] = Field(default_factory=dict, description="'because' rules that decide the same verdict "
                                       "at an earlier stage than the expectation's state, and that stage.")
    message: str = ""
    witness_true: int | None = Field(default=None, description="Index of an outcome where it is true.")
    witness_false: int | None = Field(default=None, description="Index of an outcome where it is false.")


class ActionResult(BaseModel):
    """What became of a declared action: legal / illegal / interrupted ..., with the rules that decided it."""

    id: str
    statuses: list[str]
    rules: list[str] = Field(default_factory=list)
    decided_by: list[str] = Field(default_factory=list, description="Rules whose removal alone gives another status.")
    also_needed: list[str] = Field(default_factory=list, description="The rest of the minimal core.")


class ClaimResult(BaseModel):
    """The verdict on a victory claim: proved, refuted or unknown, with certificate or counterexample."""

    index: int
    line: int | None = None
    kind: str
    player: str
    expected: str
    verdict: str
    passed: bool
    certificate: list[str] = Field(default_factory=list)
    counterexample: list[str] = Field(default_factory=list)
    message: str = ""
    decided_by: str = Field(default="", description="How the verdict was decided, in one line: the proof (an "
                                                    "invariant and a ranking, a strategy), the refutation (a line of "
                                                    "play, a creature never destroyed ...), or why it is unknown and "
                                                    "the work it used")


class ProofResult(BaseModel):
    """A fact a rule read that an outside proof settled (a victory analysis asked by an event): its verdict in each
    state the rules allow at that point, with the certificate or the counterexample."""

    event: int = Field(description="1-based index of the event that asked")
    kind: str
    player: str
    fact: str = Field(description="The fact literal its verdict entered the model as.")
    verdict: str = Field(description="proved, refuted or unknown (in every position); mixed when positions differ; "
                                     "none when no legal state reaches the event")
    positions: int = 0
    certificate: list[str] = Field(default_factory=list)
    counterexample: list[str] = Field(default_factory=list)
    message: str = ""
    decided_by: str = Field(default="", description="How each position's verdict was decided, in one line: the "
                                                    "proof, the refutation, or why it is unknown and the work used")
    ruling: str | None = Field(default=None, description="The fact of a judge's ruling on the same claim at the same "
                                                         "event: it decides where the proof is unknown; where the "
                                                         "proof refutes the claim the two contradict (no outcome)")


class ScenarioResult(BaseModel):
    """Everything the checker found out about one scenario."""

    path: str
    id: str | None = None
    game: str | None = None
    title: str | None = None
    status: ScenarioStatus
    error: str | None = None
    error_kind: str | None = Field(default=None, description="With status error: 'input' (the scenario or a file it "
                                   "uses is wrong), 'not_modelled' (its game's rules do not model a word or mechanic "
                                   "it uses) or 'internal' (a bug in Arbiter).")
    rules: list[str] = Field(default_factory=list, description="Rule ids the scenario cites.")
    outcomes: list[Outcome] = Field(default_factory=list)
    outcomes_complete: bool = True
    unique: bool | None = None
    contradiction: list[str] = Field(default_factory=list, description="Core of rules and facts when no outcome exists.")
    expectations: list[ExpectationResult] = Field(default_factory=list)
    actions: list[ActionResult] = Field(default_factory=list)
    claims: list[ClaimResult] = Field(default_factory=list)
    proofs: list[ProofResult] = Field(default_factory=list, description="Proofs events asked for (decisive "
                                                                         "advantage at a victory check).")
    precedence: list[str] = Field(default_factory=list, description="Which effect won each contested characteristic.")
    open_orders: list[str] = Field(default_factory=list, description="Effects of cards that entered together whose "
                                   "order no rule fixes (or a player chooses): every order is an outcome, shown as "
                                   "'order.<effect>' (0: applied first) in each outcome's state.")
    solves: int = 0
    work: float = Field(default=0.0, description="Deterministic work spent, in work units (the budget is --timeout): "
                        "the same on every machine under any load.")
    seconds: float = Field(default=0.0, description="Wall-clock seconds (timing only; left out of machine formats "
                           "unless --timings).")


class BatchSummary(BaseModel):
    """Counts over a batch of scenarios."""

    passed: int = 0
    failed: int = 0
    errors: int = 0
    unknown: int = 0
    total: int = 0

    def add(self, status: ScenarioStatus) -> None:
        """Count one scenario result."""
        self.total += 1
        field = {"pass": "passed", "fail": "failed", "error": "errors", "unknown": "unknown"}[status.value]
        setattr(self, field, getattr(self, field) + 1)
