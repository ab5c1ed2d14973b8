"""A rule of each game, built on a small hand-built ``RuleContext`` (solver/encoding/context.py) over a bare model.

``TinyContext`` is the whole context a rule may see, with no scenario, compiler or checker behind it: a few state
keys fixed to their initial values (constants), players, objects, and no continuous effect (the effective
controller is the ``ctrl`` key, an ability is had when its key says so). Each test builds one rule and asks the
solver, with every rule literal on, whether an outcome exists: trivial (the rule does not apply), feasible (what it
says), infeasible (the contrary).
"""
from __future__ import annotations

from contextlib import contextmanager
from types import SimpleNamespace

import pytest

from solver.encoding.context import MEMBERS, ObjInfo
from solver.encoding.cp import RuleModel, cp_model
from solver.encoding.state import NONE, LazyVars, Stage, Transition, fixed
from solver.registry import ruleset_for

LIFE = [-1_000_000, 1_000_000]
STATUS = ("in_game", "left")


class TinyContext:
    """A ``RuleContext`` over a bare model: fixed initial keys, static objects, no effects."""

    def __init__(self, keys: dict[tuple, tuple[object, object]], players=("alice", "bob"), objects=(), rs=None,
                 events=()) -> None:
        self.rm = RuleModel()
        self.domains = {k: dom for k, (dom, _) in keys.items()}
        self.initial = {k: init for k, (_, init) in keys.items()}
        self.players = list(players)
        self.objects = {o.id: o for o in objects}
        self.rs = rs
        self.sc = SimpleNamespace(events=list(events), players=[SimpleNamespace(id=p, team=None) for p in players])
        self.cells, self.adjacency, self.zones, self.actions, self.effects, self.identity = [], {}, (), [], {}, ()
        self.event_index = 0
        self.stages = [Stage(0, "initial state", LazyVars(self._initial_var))]
        self.boundaries = [0]
        self.required: list[tuple[int, object, str]] = []
        self.proofs: list = []
        self.started: set[str] = set()
        self.derived: set[tuple] = set()

    def _initial_var(self, key: tuple, probe: bool = False):
        """Stage 0's value of ``key``: a constant."""
        if key not in self.domains:
            return None
        return True if probe else fixed(self.rm, key, self.domains[key], self.initial[key])

    # the static world
    def owner_of(self, obj):
        """The owner of an object."""
        return self.objects[obj].owner if obj in self.objects else None

    def next_player(self, player):
        """The next player in turn order."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def add_key(self, key, domain, initial):
        """Declare a key."""
        self.domains.setdefault(key, domain)
        self.initial.setdefault(key, initial)

    def zone_named(self, zone):
        """Nothing starts anywhere by name here."""
        return False

    def created_at(self, obj):
        """Every object is the initial state's."""
        return 0

    # effects: none
    def candidates(self, e):
        """No effect applies to anything."""
        return []

    def effects_on(self, obj, kind, what=None):
        """No effects."""
        return []

    def effect_groups(self):
        """No effects."""
        return []

    def effect_order(self, e):
        """No effects."""
        raise AssertionError("no effects here")

    def later(self, st, a, b):
        """No effects."""
        raise AssertionError("no effects here")

    def named_visit(self, st, e, obj):
        """Every visit is the one named."""
        return self.rm.true

    def visit_since(self, st, obj, at, name="visit"):
        """No identity is read."""
        return self.rm.true

    def is_pending(self, effect_id):
        """No effect is pending."""
        return False

    # derived characteristics without effects
    def controller(self, st, obj):
        """The default controller."""
        return st["ctrl", obj]

    def value(self, st, obj, attr):
        """The attribute's own value."""
        return st["attr", obj, attr]

    def prop(self, st, obj, name):
        """The property's own value."""
        return st["prop", obj, name]

    def has_ability(self, st, obj, ability):
        """The ability's own flag (false without one)."""
        return st["ability", obj, ability] if ("ability", obj, ability) in self.domains else self.rm.false

    def allowed(self, st, obj, action, default=False):
        """No permission or prohibition: the default."""
        return self.rm.true if default else self.rm.false

    # stages, and what a rule tells the checker
    @property
    def stage(self):
        """The latest stage."""
        return self.stages[-1]

    @contextmanager
    def step(self, label):
        """A transition from the latest stage (inertia on exit)."""
        tr = Transition(self.rm, self.domains, self.stage, len(self.stages), label)
        yield tr
        self.stages.append(tr.finish())

    def require(self, lit, message):
        """Record a precondition."""
        self.required.append((self.event_index, lit, message))

    def request_proof(self, request):
        """Record a proof request."""
        self.proofs.append(request)

    def start_static(self, effect_id):
        """Record a begun static effect."""
        self.started.add(effect_id)

    def derive_initial(self, key):
        """Record a stage-0 value the rules define."""
        self.derived.add(key)


def possible(ctx: TinyContext, *lits) -> bool:
    """Is there an outcome with every rule on and ``lits`` holding?"""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 10.0
    model = ctx.rm.model
    model.clear_assumptions()
    model.add_assumptions(list(ctx.rm.rules.values()) + list(lits))
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def test_the_tiny_context_is_a_whole_rule_context() -> None:
    """The hand-built context offers every member of the protocol, so a rule that runs on it sees no more."""
    ctx = TinyContext({})
    assert not [m for m in sorted(MEMBERS) if not hasattr(ctx, m)]


# -- core: core.modify ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("delta", "after", "ok"), [(0, 5, True), (2, 7, True), (2, 5, False)])
def test_core_modify(delta: int, after: int, ok: bool) -> None:
    """core.modify: the attribute changes by the delta (0: trivially the same), never to anything else."""
    ctx = TinyContext({("attr", "rock", "size"): (LIFE, 5)})
    ruleset_for("core").on_modify(ctx, SimpleNamespace(object="rock", attribute="size", delta=delta))
    assert possible(ctx, ctx.rm.int_eq(ctx.stage["attr", "rock", "size"], after)) is ok


# -- mtg: 119.3 life changes, and a player who left is unaffected ---------------------------------------------------
@pytest.mark.parametrize(("status", "after", "ok"), [
    ("left", 20, True),  # trivial: mtg.800.4.absent keeps the life of a player who left
    ("in_game", 17, True),  # feasible: mtg.119.3
    ("in_game", 20, False),  # infeasible: the loss is not optional
])
def test_mtg_change_life(status: str, after: int, ok: bool) -> None:
    """mtg.119.3 / mtg.800.4.absent on the tiny context: alice loses 3 life unless she left the game."""
    from solver.games.mtg import life

    ctx = TinyContext({("pattr", "alice", "life"): (LIFE, 20), ("pstatus", "alice"): (STATUS, status)})
    life.change_life(ctx, "alice", -3, "mtg.119.3", "mtg.800.4.absent", "alice loses 3")
    assert possible(ctx, ctx.rm.int_eq(ctx.stage["pattr", "alice", "life"], after)) is ok
    assert {"mtg.119.3", "mtg.800.4.absent"} <= set(ctx.rm.rules)


# -- berserk: 525.1 only an action on the stack resolves --------------------------------------------------------------
def _berserk(status: str, earlier=()) -> TinyContext:
    action = ObjInfo("zap", "alice", ("action",), False, False, object(),
                     SimpleNamespace(status=status, zone="stack"))
    events = [*earlier, SimpleNamespace(type="resolve", action="zap")]
    ctx = TinyContext({("status", "zap"): (("unborn", "on_stack", "resolved", "illegal"), status)},
                      objects=[action], rs=SimpleNamespace(stack_zone="stack"), events=events)
    ctx.event_index = len(events) - 1
    return ctx


@pytest.mark.parametrize(("status", "earlier", "known", "ok"), [
    ("on_stack", [SimpleNamespace(type="resolve", action="zap")], False, False),  # trivial: the events tell
    ("on_stack", [], True, True),  # feasible: it is on the stack
    ("illegal", [SimpleNamespace(type="declare", id="zap")], True, False),  # infeasible: declared illegally
])
def test_berserk_resolve_needs_the_stack(status: str, earlier: list, known: bool, ok: bool) -> None:
    """berserk 525.1 on the tiny context: resolving needs the action on the stack, told back through ``require``."""
    from solver.games.berserk import lifecycle

    ctx = _berserk(status, earlier)
    ev = ctx.sc.events[-1]
    assert lifecycle.require_status(ctx, ev) is known
    [(index, lit, message)] = ctx.required
    assert index == ctx.event_index and "zap" in message
    assert possible(ctx, lit) is ok


# -- riftbound: a killed unit goes to its owner's trash -------------------------------------------------------------
@pytest.mark.parametrize(("fires", "zone", "ok"), [
    (False, "base", True),  # trivial: the kill does not happen, the unit stays
    (True, "trash", True),  # feasible: riftbound.card.kill
    (True, "base", False),  # infeasible: killed, it cannot stay
])
def test_riftbound_kill(fires: bool, zone: str, ok: bool) -> None:
    """riftbound.card.kill on the tiny context: the target goes to the trash and back to its owner."""
    from solver.games.riftbound.ruleset import RULESET

    unit = ObjInfo("yordle", "alice", ("unit",), True, False, None, None)
    ctx = TinyContext({("zone", "yordle"): (("base", "trash", NONE), "base"),
                       ("ctrl", "yordle"): (("alice", "bob", NONE), "bob")}, objects=[unit])
    spec = SimpleNamespace(kind="kill", targets=["yordle"])
    with ctx.step("kill") as tr:
        RULESET.actions["kill"].apply(ctx, tr, spec, ctx.rm.true if fires else ctx.rm.false)
    assert possible(ctx, ctx.stage["zone", "yordle"].is_(zone)) is ok
    if fires:
        assert not possible(ctx, ctx.stage["ctrl", "yordle"].is_("bob"))


# -- ti4: 75.1b a unit with Production on the board counts --------------------------------------------------------------
@pytest.mark.parametrize(("zone", "counts", "ok"), [
    ("box", True, False),  # trivial: off the board it never counts (a definition)
    ("board", True, True),  # feasible: ti4.75.1b
    ("board", False, False),  # infeasible: on the board with Production, it must count
])
def test_ti4_production_unit(zone: str, counts: bool, ok: bool) -> None:
    """ti4.75.1b on the tiny context: the player's unit with Production on the board counts as a Production unit."""
    from solver.games.ti4.ruleset import _production_unit

    dock = ObjInfo("dock", "alice", ("structure",), False, False, None, SimpleNamespace(abilities=["production"]))
    ctx = TinyContext({("zone", "dock"): (("board", "box", NONE), zone),
                       ("ctrl", "dock"): (("alice", "bob", NONE), "alice"),
                       ("ability", "dock", "production"): ("bool", True)}, objects=[dock])
    u = _production_unit(ctx, ctx.stage, "dock", "alice")
    assert possible(ctx, u if counts else ctx.rm.neg(u)) is ok
