"""The Berserk (Берсерк) ruleset: one class, complete where it is defined.

Legality (524.2, 525.1-525.3, 526.1) and conflicting effects (seed 003) with
conservation, control and squads (532.5.4-532.8) and clean victory (602.1,
seed 002). Each concept has its module in this folder; this class assembles
them and names the Berserk rule ids of the shared mechanisms. Scenarios citing
these rules live in ``scenarios/berserk/``.
"""
from __future__ import annotations

from solver.encoding import derived
from solver.encoding.context import RuleContext
from solver.encoding.ruleset import Ruleset
from solver.games.berserk import elements, legality, movement, squads, triggers
from solver.games.berserk.conservation import Conservation
from solver.games.berserk.lifecycle import require_status
from solver.games.berserk.squads import Squads
from solver.games.berserk.victory import CleanVictory


class Berserk(Conservation, Squads, CleanVictory, Ruleset):
    """The Berserk ruleset."""

    game = "berserk"
    actions = {**legality.ACTIONS, **squads.ACTIONS, **movement.ACTIONS}
    #: a card's name is not wording here: 532.8 "cannot be taken into a squad with [text]" matches names
    #: (``squads.matches``)
    card_wording = ("text", "flavour")
    #: combat data for the victory analysis: which die values give which strike tier (scenario options override it)
    combat = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6",
              "counterstrike": True, "victory_horizon": 3}

    # -- conflicting continuous effects: the one applied last wins (berserk.conflict.latest) ----------
    def controller(self, ctx: RuleContext, st, obj):
        """The effective controller: core.control over the control effect applied last; none outside the game
        (core.outside)."""
        return derived.controller(ctx, st, obj, latest="berserk.conflict.latest", control="core.control",
                                  outside="core.outside")

    def new_objects(self, ctx: RuleContext, tr) -> None:
        """A card that re-enters play or is re-attached is a new card: its effects are applied anew, the latest
        (berserk.conflict.anew)."""
        derived.new_objects(ctx, tr, rule="berserk.conflict.anew")

    def value(self, ctx: RuleContext, st, obj, attr):
        """The effective value: the 'set' effect applied last (core.value) plus every 'add' (core.add); a card that
        cannot receive what an 'add' gives (tokens: 'cannot receive tokens') does not receive it (berserk.525.2)."""
        return derived.value(ctx, st, obj, attr, latest="berserk.conflict.latest", value="core.value", add="core.add",
                             receives=legality.receiving(ctx, st, obj, attr))

    def prop(self, ctx: RuleContext, st, obj, name):
        """The effective property: the 'set' effect applied last (core.value)."""
        return derived.prop(ctx, st, obj, name, latest="berserk.conflict.latest", value="core.value")

    def has_ability(self, ctx: RuleContext, st, obj, ability):
        """Has the ability: the grant/remove effect applied last decides (core.value)."""
        return derived.has_ability(ctx, st, obj, ability, latest="berserk.conflict.latest", value="core.value")

    def allowed(self, ctx: RuleContext, st, obj, action, default=False):
        """May act: 'cannot' forbids (berserk.525.2); prohibition beats permission (berserk.524.2). A card may move
        unless forbidden: an expectation's ``allowed: {move: ...}`` reads the predicate movement reads (issue 25)."""
        default = default or action == movement.MOVE
        return derived.allowed(ctx, st, obj, action, default, permit="core.permission", cannot="berserk.525.2",
                               prohibit_wins="berserk.524.2")

    def statics(self, ctx: RuleContext, st) -> None:
        """core.static, and at every stage: an exempt card never has the duty to move (berserk.conservation.*)."""
        super().statics(ctx, st)
        self.exempt_duties(ctx, st)

    # -- the action lifecycle: 525.1 illegal, 526.1 interrupted, 526.1 executing ----------------------
    def on_declare(self, ctx: RuleContext, ev) -> None:
        """An action that cannot be declared is illegal and never goes on the stack (berserk.525.1)."""
        self.declare(ctx, ev, legal="core.declare", illegal="berserk.525.1")

    def on_resolve(self, ctx: RuleContext, ev) -> None:
        """Only an action on the stack resolves (else a located error); one that became impossible is interrupted,
        unpaid (berserk.526.1)."""
        if require_status(ctx, ev):
            self.resolve(ctx, ev, resolves="core.resolve", interrupted="berserk.526.1")

    def on_start_execution(self, ctx: RuleContext, ev) -> None:
        """Last check before executing, of an action on the stack: an impossible one is interrupted, unpaid
        (berserk.526.1)."""
        if require_status(ctx, ev):
            self.start_execution(ctx, ev, starts="core.resolve", interrupted="berserk.526.1")

    def on_finish_execution(self, ctx: RuleContext, ev) -> None:
        """An action already executing cannot be interrupted (berserk.526.1.executing); only it can finish."""
        if require_status(ctx, ev):
            self.finish_execution(ctx, ev, completes="berserk.526.1.executing")

    def turn_triggers(self, ctx: RuleContext, tr, at: str, player) -> None:
        """Card text 'at the start (end) of your turn, ... one ...': the solver chooses the object (berserk.trigger)."""
        triggers.fire(ctx, tr, at, player)

    def selects_element(self, ctx: RuleContext, st, eff, obj, element):
        """A selector's element (berserk.element.selector): an effect on the element sees what the effects on it
        applied before produce; any other effect the element now (``elements.selects``)."""
        return elements.selects(ctx, st, eff, obj, element)

    def created_effects(self, ctx: RuleContext, index, event) -> list:
        """A resolved '[card] loses [text]' applies an effect that removes [text] (berserk.525.3.loses)."""
        return legality.loss_effects(ctx, index, event)

    # -- state variables --------------------------------------------------------------------------
    def event_keys(self, ctx: RuleContext, ev) -> list[tuple]:
        """Counters, flags and values the declared actions read and write."""
        return legality.event_keys(ctx, ev) + squads.event_keys(ctx, ev)

    def declare_keys(self, ctx: RuleContext) -> None:
        """The conservation duty flag of every card that can stand on a cell."""
        self.conservation_keys(ctx)

    def cost_keys(self, ctx: RuleContext, source: str | None) -> list[tuple]:
        """Paying closes the source: its open flag."""
        return [("flag", source, "open")] if source and ("flag", source, "open") in ctx.domains else []


RULESET = Berserk()
