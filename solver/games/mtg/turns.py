"""Turns computed by the rules: ``end_turn`` ends the turn and the next player in turn order still in the game
begins theirs (mtg.500.next); the turns of players who left are passed over (800.4j), and their 'until your next
turn' effects end as those turns would have begun (800.4k). An ``extra_turn`` adds a turn directly after the
current one (mtg.500.7): the next ``end_turn`` begins the most recently added one still waiting, or passes over it
if its player left (800.4j, 800.4k count it); turn order then goes on from the seat whose natural turn was last.

A scenario gives the turn order (its players, in order) and whose turn it is (``turn.active_player``). A
``begin_turn`` written by hand must name the next seat in turn order (a leaver's included: 800.4j then keeps it
from beginning); written out of order, or after an ``end_turn`` (which already began the next turn), it is an
error located at the event.
"""
from __future__ import annotations

from solver.encoding.compile import ScenarioError
from solver.encoding.context import RuleContext
from solver.encoding.state import NONE
from solver.games.mtg import influence, targets
from solver.games.mtg.players import in_game, seats_after

TURN_KEYS = (("turn", "active_player"), ("turn", "priority"), ("turn", "turn_of"))


def seat_before(sc, index: int) -> tuple[str | None, bool]:
    """Whose turn it is before event ``index`` as written (the seat; None if unknown), and whether an ``end_turn``
    came earlier (from then on the rules compute the turns). Raises ScenarioError for a turn out of order."""
    players = [p.id for p in sc.players]
    seat, computed = sc.turn.active_player, False
    for i, ev in enumerate(sc.events[:index + 1]):
        if ev.type == "begin_turn":
            if adds_extra_turns(sc):
                raise ScenarioError(f"begin_turn {ev.player} in a scenario with extra turns (500.7): write end_turn, "
                                    f"which begins the extra turn or the next in turn order by the rules")
            if computed:
                raise ScenarioError(f"begin_turn {ev.player} follows an end_turn, which already began the next "
                                    f"player's turn (the rules compute it): write end_turn for each turn, or "
                                    f"begin_turn for each seat")
            if seat is not None:
                expected = players[(players.index(seat) + 1) % len(players)]
                if ev.player != expected:
                    raise ScenarioError(
                        f"begin_turn {ev.player} is out of turn order: after {seat}'s turn comes {expected}'s (turn "
                        f"order {', '.join(players)}); write {expected}'s turn (800.4j keeps a leaver's from "
                        f"beginning) or use end_turn, which passes the turn by the rules")
            seat = ev.player
        elif ev.type == "end_turn":
            if seat is None and i == index:
                raise ScenarioError("end_turn passes the turn from the player whose turn it is: give "
                                    "turn.active_player")
            computed = True
    return seat, computed


def end_of_turn(rs, ctx: RuleContext) -> None:
    """The cleanup: 'until end of turn' effects end (core.end_of_turn), damage wears off (mtg.514.2)."""
    with ctx.step("end of turn") as tr:
        for eid, e in ctx.effects.items():
            if e.duration == "until_end_of_turn":
                tr.set(("active", eid), 0, "core.end_of_turn")
        for o in ctx.objects:
            if ("attr", o, "damage") in ctx.domains:
                tr.set(("attr", o, "damage"), 0, "mtg.514.2")


def adds_extra_turns(sc) -> bool:
    """Static: an event or an instruction (``extra_turn``, 500.7) of the scenario may add an extra turn."""
    specs = [ev for ev in sc.events] + [o.action for o in sc.objects if o.action is not None]
    return any(ev.type == "extra_turn" for ev in sc.events) or \
        any(i.kind == "extra_turn" for s in specs for i in (getattr(s, "instructions", None) or []))


def extra_turns(ctx: RuleContext) -> list[tuple[tuple, str]]:
    """(state key, player) of every extra turn the scenario's events and instructions may add (500.7), in the order
    they are added: the key is true while the turn waits to be taken. An ``extra_turn`` instruction of a resolve
    event has one key per player it may give the turn to (one of them does), after the instructions before it."""
    out = []
    for i, ev in enumerate(ctx.sc.events):
        if ev.type == "extra_turn":
            out.append((("turn", f"extra_{i}"), ev.player))
        elif ev.type == "resolve" and ev.action in ctx.objects and ctx.objects[ev.action].action is not None:
            out += [(targets.instruction_turn(i, n, p), p) for n, p in targets.extra_turn_players(ctx, ev.action)]
    return out


def seat_key(ctx: RuleContext) -> tuple:
    """The key of the seat turn order goes on from: whose turn it is, or, with extra turns (which do not move the
    seat, 500.7), whose natural turn began last."""
    return ("turn", "seat") if extra_turns(ctx) else ("turn", "turn_of")


def declare_keys(ctx: RuleContext) -> None:
    """Extra turns waiting to be taken, and the seat turn order goes on from when there are any."""
    if not extra_turns(ctx):
        return
    ctx.add_key(("turn", "seat"), tuple(ctx.players) + (NONE,), ctx.sc.turn.active_player or NONE)
    for key, _ in extra_turns(ctx):
        ctx.add_key(key, "bool", False)


def add_extra_turn(rs, ctx: RuleContext, ev) -> None:
    """500.7: the extra turn is added directly after the current one (taken before any added earlier)."""
    key = extra_turns(ctx)[[i for i, e in enumerate(ctx.sc.events) if e.type == "extra_turn"].index(ctx.event_index)][0]
    with ctx.step(f"{ev.player} gets an extra turn") as tr:
        # 500.7: "Some effects can give a player extra turns. They do this by adding the turns directly after the
        # specified turn. ... The most recently created turn will be taken first."
        tr.set(key, 1, "mtg.500.7")


def _ends_until_next_turn(ctx: RuleContext, tr, q: str, begins, skipped) -> None:
    """q's 'until your next turn' effects end as their turn begins (core.next_turn), or would have (800.4k)."""
    for eid, e in ctx.effects.items():
        if e.duration == "until_next_turn" and e.until_player == q:
            tr.set(("active", eid), 0, "core.next_turn", begins)
            tr.set(("active", eid), 0, "mtg.800.4k", skipped)


def _passed_over(ctx: RuleContext, player: str):
    """800.4j's exception: ``player`` would begin a turn but has left the game, so that turn does not begin (and the
    next one is looked for). Under 800.4j it holds exactly when the player is not in the game; with 800.4j left out
    a leaver's turn may begin (the turn rules alone would begin it)."""
    return ctx.rm.exception("mtg.800.4j", ctx.rm.neg(in_game(ctx, ctx.stage, player)),
                            f"s{ctx.stage.index}:passed_over.{player}")


def next_turn(rs, ctx: RuleContext):
    """The next turn begins: the most recently added extra turn first (mtg.500.7), then the next player in turn
    order still in the game (mtg.500.next); 800.4j: a leaver's turn, extra or not, is passed over, and 800.4k: their
    'until your next turn' effects end as it would have begun. Returns the literal 'a turn began'."""
    rm, st = ctx.rm, ctx.stage
    begun = []
    seat = seat_key(ctx)
    with ctx.step("the next turn begins") as tr:
        natural = rm.true  # no extra turn begins: every waiting one was passed over
        for key, q in reversed(extra_turns(ctx)):
            waiting = rm.all_of([natural, st[key]])
            gone = _passed_over(ctx, q)
            begins = rm.all_of([waiting, rm.neg(gone)])
            skipped = rm.all_of([waiting, gone])
            for tk in TURN_KEYS:
                tr.set(tk, q, "mtg.500.7", begins)
            tr.set(key, 0, "mtg.500.7", begins)
            # 800.4j (seed 000): "Если игрок, покинувший игру, должен был начать ход, этот ход не начинается." (if a
            # player who left would begin a turn, that turn does not begin: the extra turn is passed over)
            tr.set(key, 0, "mtg.800.4j", skipped)
            _ends_until_next_turn(ctx, tr, q, begins, skipped)
            begun.append(begins)
            natural = rm.all_of([natural, rm.neg(begins)])
        for holder in ctx.players:
            now = rm.all_of([natural, st[seat].is_(holder)])
            passed = []
            for k, q in enumerate(seats_after(ctx, holder)):
                reached = rm.all_of([now] + [_passed_over(ctx, r) for r in passed])
                gone = _passed_over(ctx, q)
                begins = rm.all_of([reached, rm.neg(gone)])
                skipped = rm.all_of([reached, gone])
                for key in TURN_KEYS + ((seat,) if seat not in TURN_KEYS else ()):
                    tr.set(key, q, "mtg.500.next" if k == 0 else "mtg.800.4j", begins)
                _ends_until_next_turn(ctx, tr, q, begins, skipped)
                begun.append(begins)
                passed.append(q)
        influence.recompute(ctx, tr, rm.any_of(begun))
    return rm.any_of(begun)


def begin_turn(rs, ctx: RuleContext, ev):
    """A turn written by hand begins if its player is in the game (800.4j); their 'until your next turn' effects
    end either way (800.4k). Returns the literal 'the turn began'."""
    seat_before(ctx.sc, ctx.event_index)
    rm, st, p = ctx.rm, ctx.stage, ev.player
    present = in_game(ctx, st, p)
    with ctx.step(f"{p}'s turn would begin") as tr:
        for eid, e in ctx.effects.items():
            if e.duration == "until_next_turn" and e.until_player == p:
                tr.set(("active", eid), 0, "core.next_turn", present)
                tr.set(("active", eid), 0, "mtg.800.4k", rm.neg(present))
        for key in TURN_KEYS:
            tr.set(key, p, "mtg.500.begin_turn", present)
            tr.keep(key, "mtg.800.4j", rm.neg(present))
        influence.recompute(ctx, tr, present)
    return present


def untap_step(ctx: RuleContext, began) -> None:
    """mtg.502.3: as a turn begins (``began``), its active player untaps the permanents they control (only objects
    whose tapped flag the scenario reads have one)."""
    keys = [k for k in ctx.domains if k[0] == "flag" and k[2] == "tapped"]
    if not keys or began is ctx.rm.false:
        return
    rm, st = ctx.rm, ctx.stage
    active = st["turn", "active_player"]
    with ctx.step("the untap step") as tr:
        for k in keys:
            ctrl = ctx.controller(st, k[1])
            mine = rm.any_of([rm.all_of([ctrl.is_(p), active.is_(p)]) for p in ctx.players])
            # 502.3: "... the active player determines which permanents they control will untap. Then they untap
            # them all simultaneously." (no permanent is kept from untapping here: all of them untap)
            tr.set(k, 0, "mtg.502.3", rm.all_of([began, st["zone", k[1]].is_("battlefield"), mine]))


def check_end_turn(ctx: RuleContext) -> None:
    """An end_turn needs a turn to end (raises ScenarioError otherwise)."""
    seat_before(ctx.sc, ctx.event_index)
