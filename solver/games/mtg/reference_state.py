"""The MTG reference's reading of a procedure within one event, and of players: plain Python over a state dict.

An event whose rules are a procedure ("... then ... then ...": 800.4a, the check of 704.3) is read as a sequence
of sub-states computed here one after the other, the static effects following their sources at each; the
validator sees only the state after the whole event, so each key the procedure sets is named with the rule that
set it last.
"""
from __future__ import annotations

from models.effects import Selector
from solver.reference.rules import Step, Unsupported
from solver.reference.world import NONE, State, World, b, key

IN_GAME = "in_game"
#: a player's life total when the scenario does not give it (103.4)
STARTING_LIFE = 20
#: zones in which an object has a controller (800.4a exile, 800.4c)
CONTROLLED_ZONES = ("battlefield", "stack", "command")


#: the static ability 'creatures your opponents control enter the battlefield tapped' (614.1d)
OPPONENTS_TAPPED = "opponents_enter_tapped"


def tapping_sources(w: World) -> list[str]:
    """Objects that may have 'creatures your opponents control enter tapped' (printed or granted); with a control
    effect over a selector (who controls a creature as it enters: 614.12) it is not read: refused."""
    out = [o for o in w.objects if OPPONENTS_TAPPED in w.rules.ability_names(w, o)]
    if out and any(e.kind == "control" and isinstance(e.targets, Selector) for e in w.effects):
        raise Unsupported("opponents_enter_tapped with a control effect over a selector (614.12)")
    return out


def in_game(st: State, player: str | None) -> bool:
    """The player is still in the game."""
    return player is not None and st.get(key("pstatus", player)) == IN_GAME


def has_left(st: State, player: str | None) -> bool:
    """The player has left the game: out of it, and not its winner (a winner has not left)."""
    return player is not None and st.get(key("pstatus", player)) not in (IN_GAME, "won", None)


def next_in_game(w: World, st: State, player: str) -> str:
    """The next player after ``player`` in turn order still in the game (none when nobody else is)."""
    i = w.players.index(player)
    for k in range(1, len(w.players)):
        q = w.players[(i + k) % len(w.players)]
        if in_game(st, q):
            return q
    return NONE


def opponents(w: World, a: str, c: str) -> bool:
    """Players ``a`` and ``c`` are opponents: different players not on one team (no one is an opponent of nobody)."""
    teams = {p.id: p.team for p in w.sc.players}
    if a not in teams or c not in teams:
        return False
    return a != c and (teams[a] is None or teams[a] != teams[c])


class Proc:
    """A procedure of sub-states within one event: each sub-step reads the state before it."""

    def __init__(self, rules, w: World, prev: State, stage: int) -> None:
        self.rules, self.w, self.stage = rules, w, stage
        self.st = dict(prev)
        self.last: dict[str, tuple[str, str]] = {}  # key -> (value, rule that set it last)
        self.broken: list[tuple[str, str]] = []  # (rule, why) contradictions met within the event

    def substep(self, changes: list[tuple[str, str, str]]) -> bool:
        """Apply one sub-step's changes (key, value, rule) at once, then the static effects follow their sources.
        Returns whether any value changed."""
        seen: dict[str, tuple[str, str]] = {}
        for k, v, rule in changes:
            if k in seen and seen[k][0] != v:
                self.broken.append((rule, f"{k} set to both {seen[k][0]} and {v} ({seen[k][1]})"))
            seen[k] = (v, rule)
        changed = any(self.st.get(k) != v for k, (v, _) in seen.items())
        before = dict(self.st)
        for k, (v, rule) in seen.items():
            self.st[k] = v
            if k not in self.w.statics(self.stage):
                self.last[k] = (v, rule)
        self.renew(before, seen)
        self.departures(before)
        self.untapped(before, seen)
        for k, e in self.w.statics(self.stage).items():
            want = b(self.rules.static_on(self.w, self.st, e))
            if k in seen and seen[k][0] != want:
                self.broken.append(("core.static", f"{k} set to {seen[k][0]} while its source {e.source} makes it {want}"))
            self.st[k] = want
        return changed

    def renew(self, before: State, seen: dict) -> None:
        """400.7 at this sub-state: an object that changed zone (or attachment) in it is a new object from this event
        on (its "since" is this event's state)."""
        rule = self.rules.identity_rule()
        for o in self.w.identity:
            ks = [k for k in (key("zone", o), key("attach", o)) if k in seen]
            if not ks:
                continue
            self.w.note(rule)
            if any(before.get(k) != self.st[k] for k in ks):
                self.st[key("since", o)] = str(self.stage)
                self.last[key("since", o)] = (str(self.stage), rule)

    def departures(self, before: State) -> None:
        """603.10a at this sub-state: a source of a leaves-the-battlefield ability that left the battlefield in it
        leaves the controller it had just before ("look back in time")."""
        for k in [k for k in self.w.domains if k.startswith("left_ctrl.")]:
            src = k[len("left_ctrl."):]
            zk = key("zone", src)
            if before.get(zk) == "battlefield" and self.st.get(zk) != "battlefield":
                ctrl = self.rules.controller(self.w, before, src)
                self.st[k] = ctrl
                self.last[k] = (ctrl, "mtg.603.10a")
                self.w.note("mtg.603.10a")

    def untapped(self, before: State, seen: dict) -> None:
        """110.5b at this sub-state: a permanent that arrived on the battlefield in it is untapped, unless the
        sub-step itself said how it enters (put onto the battlefield tapped), or 614.1d: a creature entering under
        the control of an opponent of the controller of a permanent that was on the battlefield with 'creatures
        your opponents control enter the battlefield tapped' enters tapped."""
        for k in [k for k in self.w.domains if k.startswith("flag.") and k.endswith(".tapped")]:
            o = k[len("flag."):-len(".tapped")]
            zk = key("zone", o)
            self.w.note("mtg.110.5b")  # read at every sub-state: did the permanent arrive on the battlefield
            if "creature" in self.w.objects[o].types and tapping_sources(self.w):
                self.w.note("mtg.614.1d")  # and, a creature, under an opponent's 'enters tapped'
            if k not in seen and before.get(zk) != "battlefield" and self.st.get(zk) == "battlefield":
                v, rule = ("1", "mtg.614.1d") if self.opponent_taps(before, o) else ("0", "mtg.110.5b")
                self.w.note(rule)
                self.st[k] = v
                self.last[k] = (v, rule)

    def opponent_taps(self, before: State, o: str) -> bool:
        """614.1d: some permanent on the battlefield just before ``o`` (a creature) entered has 'creatures your
        opponents control enter the battlefield tapped' and is controlled by a player in the game (611.3a: the
        ability's 'you' is its controller then; 800.4a: one who left is nobody's 'you') who is an opponent of
        the player under whose control ``o`` enters."""
        w = self.w
        if "creature" not in w.objects[o].types:
            return False
        entering_ctrl = self.st.get(key("ctrl", o))
        for s in tapping_sources(w):
            if s == o or before.get(key("zone", s)) != "battlefield":
                continue
            if not self.rules.has_ability(w, before, s, OPPONENTS_TAPPED):
                continue
            you = self.rules.controller(w, before, s)
            if in_game(before, you) and opponents(w, you, entering_ctrl):
                return True
        return False

    def into(self, step: Step) -> None:
        """Every key the procedure set, with its final value and rule; contradictions as failing checks."""
        for k, (v, rule) in self.last.items():
            step.set(k, v, rule)
        for rule, why in self.broken:
            step.check(rule, lambda nxt: False, why)
