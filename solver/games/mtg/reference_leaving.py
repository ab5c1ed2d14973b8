"""The MTG reference's reading of 800.4a (with 800.4c, 800.4h, 800.4i, 800.4k, 800.4m, 800.4n): players leave.

``leavers`` are the players who leave now, all at once (one by an event, or those a state-based check made
lose). Read from the seed text: 800.4n first (a Plane a leaver controls passes on); then the leavers' statuses
change (when an event makes them leave), the objects they own leave the game (ante stays, 800.4m; a non-card on
the stack waits for the next sentence), effects giving them control end (a static one is marked ``ended``), their
'until your next turn' effects stay (800.4k), last known information is recorded (800.4h), the turn loses its
active player if it was theirs (800.4i); then 800.4c; then the non-card stack objects of players no longer in the
game cease to exist; then what those players still control is exiled and the priority they held passes on.
"""
from __future__ import annotations

from solver.games.mtg.reference_state import CONTROLLED_ZONES, Proc, has_left, in_game, next_in_game, opponents
from solver.reference.rules import Unsupported
from solver.reference.world import NONE, State, World, key


def ceased(st: State, o: str, rule: str) -> list[tuple[str, str, str]]:
    """A stack object leaving the stack this way no longer waits to resolve."""
    k = key("status", o)
    return [(k, "ceased", rule)] if st.get(k) == "on_stack" else []


def control_objects(w: World) -> list[str]:
    """Objects some control effect may apply to."""
    return [o for o in w.objects if w.effects_on(o, "control")]


def leave(rules, w: World, p: Proc, leavers: list[str], now: list[str], status: tuple[str, str] | None = None) -> None:
    """The procedure for ``leavers``, of whom ``now`` leave at this point (the others are already out: nothing of
    theirs is left to leave; ``status``: the status to give them and its rule, when an event makes them leave; a
    state-based action gave it already otherwise)."""
    before = dict(p.st)
    if any("plane" in info.types for info in w.objects.values()):
        planar(w, p, now)
    owned_leave(rules, w, p, now, status)
    if control_objects(w):
        reverts(rules, w, before, p)
    cease(rules, w, p, leavers)
    exile(rules, w, p, leavers)


def planar(w: World, p: Proc, leavers: list[str]) -> None:
    """800.4n: the next player in turn order becomes planar controller first."""
    w.note("mtg.800.4n")
    st, out = p.st, []
    for pl in leavers:
        for o, info in w.objects.items():
            if "plane" in info.types and st[key("ctrl", o)] == pl and st[key("zone", o)] == "command":
                out.append((key("ctrl", o), next_in_game(w, st, pl), "mtg.800.4n"))
    p.substep(out)


def owned_leave(rules, w: World, p: Proc, leavers: list[str], status) -> None:
    """800.4a first sentence (with 800.4m, 800.4k, 800.4h, 800.4i)."""
    w.note("mtg.800.4a.owned", "mtg.800.4a.control_ends", "mtg.800.4i")
    st, out = p.st, []
    for pl in leavers:
        if status is not None:
            out.append((key("pstatus", pl), status[0], status[1]))
        if any(info.owner == pl for info in w.objects.values()):
            w.note("mtg.800.4m")  # the ante zone keeps what they own there
        if any(e.duration == "until_next_turn" and e.until_player == pl for e in w.effects):
            w.note("mtg.800.4k")  # their 'until your next turn' effects stay
        if any(k.startswith(f"lki.{pl}.") for k in w.domains):
            w.note("mtg.800.4h")
        for o, info in w.objects.items():
            zone = st[key("zone", o)]
            if info.owner != pl or zone in rules.gone_zones or zone == "ante":
                continue  # 800.4m: the ante zone keeps them
            if zone == "stack" and not info.card:
                continue  # not a card: the next sentence decides
            out.append((key("zone", o), "outside", "mtg.800.4a.owned"))
            if zone == "stack":
                out += ceased(st, o, "mtg.800.4a.owned")
        for e in w.effects:
            if e.kind == "control" and e.player == pl:
                k = key("ended", e.id) if e.duration == "static" else key("active", e.id)
                out.append((k, "1" if e.duration == "static" else "0", "mtg.800.4a.control_ends"))
        for k in [k for k in w.domains if k.startswith(f"lki.{pl}.")]:
            out.append((k, st["pattr." + k[len("lki."):]], "mtg.800.4h"))
        if st["turn.active_player"] == pl:
            out.append(("turn.active_player", NONE, "mtg.800.4i"))
    p.substep(out)


def static_control(w: World) -> bool:
    """Some control effect is a static ability: it ends when its source leaves the battlefield, by any event."""
    return any(e.kind == "control" and e.duration == "static" for e in w.effects)


def reverts(rules, w: World, before: State, p: Proc) -> None:
    """800.4c: control just ended, no other control effect, default controller left: exiled at once."""
    w.note("mtg.800.4c")
    st, out = p.st, []
    for o in control_objects(w):
        effects = w.effects_on(o, "control")
        ended = any(rules.applies(w, before, e, o) and st[key("active", e.id)] != "1" for e in effects)
        if not ended or any(rules.applies(w, st, e, o) for e in effects):
            continue
        if not has_left(st, st[key("ctrl", o)]):  # in the game, its winner, or nobody's
            continue
        if st[key("zone", o)] in CONTROLLED_ZONES:
            out.append((key("zone", o), "exile", "mtg.800.4c"))
            if st[key("zone", o)] == "stack":
                out += ceased(st, o, "mtg.800.4c")
    p.substep(out)


def cease(rules, w: World, p: Proc, leavers: list[str]) -> None:
    """800.4a second sentence: the non-card objects on the stack of the leavers (out of the game) cease to exist."""
    w.note("mtg.800.4a.stack_ceases")
    st, out = p.st, []
    gone = [pl for pl in leavers if not in_game(st, pl)]
    for o, info in w.objects.items():
        if not info.card and st[key("zone", o)] == "stack" and rules.controller(w, st, o) in gone:
            out.append((key("zone", o), NONE, "mtg.800.4a.stack_ceases"))
            out += ceased(st, o, "mtg.800.4a.stack_ceases")
    p.substep(out)


def exile(rules, w: World, p: Proc, leavers: list[str]) -> None:
    """800.4a third sentence: what the leavers still control is exiled; the priority they held passes."""
    w.note("mtg.800.4a.exile", "mtg.800.4a.priority")
    st, out = p.st, []
    gone = [pl for pl in leavers if not in_game(st, pl)]
    for o in w.objects:
        if st[key("zone", o)] in CONTROLLED_ZONES and rules.controller(w, st, o) in gone:
            out.append((key("zone", o), "exile", "mtg.800.4a.exile"))
            if st[key("zone", o)] == "stack":
                out += ceased(st, o, "mtg.800.4a.exile")
    if st["turn.priority"] in gone:
        out.append(("turn.priority", next_in_game(w, st, st["turn.priority"]), "mtg.800.4a.priority"))
    p.substep(out)


# -- 104.2a, 104.2c: who wins ----------------------------------------------------------------------------
def wins(rules, w: World, p: Proc) -> None:
    """104.2a: a player still in the game all of whose opponents have left it wins; 104.2c: between teams, every
    player of such a player's team wins too, even one who had lost (read from the state after the leaving)."""
    w.note("mtg.104.2a")
    st, out = p.st, []
    teams = {q.id: q.team for q in w.sc.players}
    winners = [q for q in w.players if in_game(st, q) and any(opponents(w, q, r) for r in w.players)
               and not any(opponents(w, q, r) and in_game(st, r) for r in w.players)]
    for q in winners:
        out.append((key("pstatus", q), "won", "mtg.104.2a"))
    if any(teams.values()):
        w.note("mtg.104.2c")
    for q in w.players:
        if not in_game(st, q) and teams[q] is not None and any(teams[m] == teams[q] for m in winners):
            out.append((key("pstatus", q), "won", "mtg.104.2c"))
    p.substep(out)


def leave_two_player(w: World, p: Proc, player: str, status: str) -> None:
    """A two-player game: the player concedes (104.3a) or loses (104.3e) and nothing else of 800.4 happens; any other
    way of leaving is not read here (the checker refuses it)."""
    rule = {"conceded": "mtg.104.3a", "lost": "mtg.104.3e"}.get(status)
    if rule is None:
        raise Unsupported(f"a player leaves a two-player game with status {status}")
    w.note(rule)
    if in_game(p.st, player):
        p.substep([(key("pstatus", player), status, rule)])
