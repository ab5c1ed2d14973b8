"""The bounded spaces ``arbiter prove`` goes through: every initial state and event sequence of a game within a
bound, as scenario data, smallest first (fewer players, objects and events first).

Objects are listed up to renaming (their descriptions in non-decreasing order), players are not (turn order
matters). The values each game's space ranges over are listed below with the game (``SPACES``): a value not listed
is not enumerated, a stated limitation of the space (``Space.fixed`` says which, and ``prove`` prints it).
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: player ids in turn order
PLAYERS = ("alex", "bianca", "carla")


@dataclass(frozen=True)
class Bound:
    """How big the enumerated states and event sequences may be."""

    players: int = 3
    objects: int = 2
    events: int = 2
    #: rows and columns of the board (Berserk), or None
    board: tuple[int, int] | None = None

    def text(self) -> str:
        """The bound in words, as ``prove`` states it."""
        b = f", board {self.board[0]}x{self.board[1]}" if self.board else ""
        return f"players <= {self.players}, objects <= {self.objects}, events <= {self.events}{b}"


@dataclass(frozen=True)
class Space:
    """One game's space: how it enumerates, and which values it keeps fixed (the stated limitation)."""

    enumerate: Callable[[Bound], Iterator[dict]]
    fixed: str
    #: the most players a scenario of the space has (0: the bound's)
    max_players: int = 0
    #: what a state of the space is, as statements in the property language (``solver.prove.closure``): every
    #: state of the space keeps them; a state one event reaches that breaks one is outside the space
    within: tuple[dict, ...] = ()
    #: why the statements do not say exactly what a state of the space is (a state keeping them all may still be
    #: outside it): "" when they do
    inexact: str = ""
    #: what the rules read that the space's state representation leaves out (timestamps, history): "" for nothing
    omits: str = ""


def _multisets(options: list, n: int) -> Iterator[tuple]:
    """Every choice of ``n`` options up to order (non-decreasing indices)."""
    return itertools.combinations_with_replacement(options, n)


def _sequences(kinds: list, k: int) -> Iterator[tuple]:
    for n in range(k + 1):
        yield from itertools.product(kinds, repeat=n)


# -- MTG --------------------------------------------------------------------------------------------------------
MTG_ZONES = ("battlefield", "graveyard", "outside")


def _mtg(b: Bound) -> Iterator[dict]:
    n_id = 0
    for n in range(2, b.players + 1):
        ps = list(PLAYERS[:n])
        # statuses: all in the game, or (with 3 players or more) one already left
        for out in [None] + (ps if n >= 3 else []):
            here = [p for p in ps if p != out]
            for prio in here:
                players = [{"id": p, "attributes": {"life": 1}, **({"status": "left"} if p == out else {})}
                           for p in ps]
                objs = [(z, owner, ctl) for z in MTG_ZONES for owner in ps
                        for ctl in ([None] + [q for q in ps if q != owner] if z == "battlefield" else [None])]
                # a spell of the active player on the stack, "target player loses 1 life", its target any player
                objs += [("stack", here[0], q) for q in ps]
                evs = [("leave_game", p) for p in here] + [("lose_life", p) for p in here]
                for m in range(b.objects + 1):
                    for chosen in _multisets(objs, m):
                        spells = [("resolve", f"o{k + 1}") for k, o in enumerate(chosen) if o[0] == "stack"]
                        for seq in _sequences(evs + spells, b.events):
                            n_id += 1
                            yield _mtg_doc(n_id, players, chosen, seq, here[0], prio)


def _mtg_doc(i: int, players: list, objs: tuple, seq: tuple, active: str, prio: str) -> dict:
    objects, effects = [], []
    for k, (zone, owner, ctl) in enumerate(objs):
        oid = f"o{k + 1}"
        if zone == "stack":  # ctl: the target
            objects.append({"id": oid, "owner": owner, "zone": zone,
                            "action": {"kind": "lose_life", "targets": [ctl], "params": {"amount": 1}}})
            continue
        objects.append({"id": oid, "owner": owner, "zone": zone, "types": ["creature"]})
        if ctl:
            effects.append({"id": f"steal_{oid}", "timestamp": k + 1, "kind": "control", "player": ctl,
                            "targets": [oid], "duration": "permanent"})
    two = len(players) == 2  # a two-player game is left by conceding (104.3a), never by 800.4
    events = [{"type": "leave_game", "player": p, **({"status": "conceded"} if two else {})} if t == "leave_game" else
              {"type": "resolve", "action": p} if t == "resolve" else
              {"type": "lose_life", "player": p, "amount": 1} for t, p in seq]
    doc = {"id": f"mtg-prove-{i}", "game": "mtg", "players": players, "objects": objects, "events": events,
           "turn": {"active_player": active, "priority": prio}}
    if effects:
        doc["effects"] = effects
    return doc


# -- Riftbound --------------------------------------------------------------------------------------------------
RB_ZONES = ("base", "hand", "outside")


def _riftbound(b: Bound) -> Iterator[dict]:
    n_id = 0
    for n in range(2, b.players + 1):
        ps = list(PLAYERS[:n])
        for out in [None] + (ps if n >= 3 else []):
            here = [p for p in ps if p != out]
            for act in here:
                players = [{"id": p, **({"status": "lost"} if p == out else {})} for p in ps]
                objs = [(z, owner, ctl) for z in RB_ZONES for owner in ps
                        for ctl in ([None] + [q for q in ps if q != owner] if z == "base" else [None])]
                evs = [("concede", p) for p in here] + [("pass_turn", None)]
                for m in range(b.objects + 1):
                    for chosen in _multisets(objs, m):
                        for seq in _sequences(evs, b.events):
                            n_id += 1
                            yield _rb_doc(n_id, players, chosen, seq, act)


def _rb_doc(i: int, players: list, objs: tuple, seq: tuple, active: str) -> dict:
    objects = []
    for k, (zone, owner, ctl) in enumerate(objs):
        o = {"id": f"o{k + 1}", "owner": owner, "zone": zone, "types": ["unit"]}
        if ctl:
            o["controller"] = ctl
        objects.append(o)
    events = [{"type": "concede", "player": p} if t == "concede" else {"type": "pass_turn"} for t, p in seq]
    return {"id": f"riftbound-prove-{i}", "game": "riftbound", "players": players, "objects": objects,
            "events": events, "turn": {"active_player": active, "priority": active, "focus": active}}


# -- Berserk ----------------------------------------------------------------------------------------------------
BERSERK_PLAYERS = ("alice", "bob")
#: the move effects on the first card: none, a prohibition, and a prohibition with a permission in both orders
BERSERK_EFFECTS = ((), ("prohibit",), ("prohibit", "permit"), ("permit", "prohibit"))


def _cells(rows: int, cols: int) -> list[str]:
    return [f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)]


def _adjacent(a: str, b: str) -> bool:
    ra, ca = map(int, a[1:].split("c"))
    rb, cb = map(int, b[1:].split("c"))
    return abs(ra - rb) + abs(ca - cb) == 1


def _berserk(b: Bound) -> Iterator[dict]:
    rows, cols = b.board or (2, 3)
    cells = _cells(rows, cols)
    ps = list(BERSERK_PLAYERS)
    n_id = 0
    for m in range(1, b.objects + 1):
        # the first card is alice's (the players are symmetric: every event is enumerated for both)
        owners = [("alice",) + rest for rest in itertools.product(ps, repeat=m - 1)]
        for placed in itertools.permutations(cells, m):
            for own in owners:
                for effects in BERSERK_EFFECTS:
                    objs = list(zip(placed, own))
                    evs = []
                    for j, (c, o) in enumerate(objs):
                        if j == 0 and effects:
                            pass  # a card under the effects is never pushed by an outside move
                        else:
                            evs += [("move", j, c2) for c2, _ in objs if c2 != c]
                        evs += [("declare", j, c2) for c2 in cells if _adjacent(c, c2)]
                    evs += [("choice", p, None) for p in ps] + [("concede", p, None) for p in ps]
                    for seq in _sequences(evs, b.events):
                        n_id += 1
                        yield _berserk_doc(n_id, (rows, cols), objs, effects, seq)
    yield from _berserk_conflicts(b, n_id)


#: the moves of the conflict states: Kanor-Vain destroyed or revived, the Blade taken off or put back on
BERSERK_CONFLICT_MOVES = (("kanor", "graveyard"), ("kanor", "play"), ("blade", "hand"), ("blade", "play"))


def _berserk_conflicts(b: Bound, n_id: int) -> Iterator[dict]:
    """The conflict states (seeds/003, ПРИМЕР 1): a hero o1 under Kanor-Vain's "every hero is neutral" and the
    Blade of the Fallen's "the equipped hero is dark", two static effects applied in either order, each source in
    play or not; events: a source leaves play or comes back (applied anew, berserk.conflict.anew)."""
    for kanor, blade, dark_first in itertools.product(("play", "graveyard"), ("play", "hand"), (True, False)):
        for seq in _sequences(BERSERK_CONFLICT_MOVES, b.events):
            n_id += 1
            yield {"id": f"berserk-prove-{n_id}", "game": "berserk", "players": [{"id": p} for p in BERSERK_PLAYERS],
                   "objects": [{"id": "o1", "owner": "bob", "zone": "play", "types": ["creature", "hero"],
                                "properties": {"element": "forests"}},
                               {"id": "kanor", "owner": "alice", "zone": kanor, "types": ["creature"]},
                               {"id": "blade", "owner": "bob", "zone": blade, "types": ["equipment"],
                                "attached_to": "o1"}],
                   "effects": [{"id": "neutral", "source": "kanor", "kind": "set", "attribute": "element",
                                "value": "neutral", "targets": {"types": ["hero"]}, "duration": "static",
                                "timestamp": 1 if not dark_first else 2},
                               {"id": "dark", "source": "blade", "kind": "set", "attribute": "element",
                                "value": "darkness", "targets": ["o1"], "duration": "static",
                                "timestamp": 1 if dark_first else 2}],
                   "events": [{"type": "move", "object": o, "zone": z} for o, z in seq]}


def _berserk_doc(i: int, board: tuple, objs: list, effects: tuple, seq: tuple) -> dict:
    objects = [{"id": f"o{k + 1}", "owner": o, "zone": "play", "cell": c, "types": ["creature"]}
               for k, (c, o) in enumerate(objs)]
    effs = [{"id": {"prohibit": "chains", "permit": "haste"}[kind], "timestamp": t + 1, "kind": kind,
             "action": "move", "targets": ["o1"]} for t, kind in enumerate(effects)]
    events = []
    for n, (kind, a, c) in enumerate(seq):
        if kind == "move":
            events.append({"type": "move", "object": f"o{a + 1}", "zone": "play", "cell": c})
        elif kind == "declare":  # declared and resolved: one step of the bound, two events
            events.append({"type": "declare", "id": f"step{n + 1}", "actor": objs[a][1], "kind": "move",
                           "source": f"o{a + 1}", "params": {"cell": c}})
            events.append({"type": "resolve", "action": f"step{n + 1}"})
        elif kind == "choice":
            events.append({"type": "choice_subphase", "player": a, "free": True})
        else:
            events.append({"type": "concede", "player": a})
    doc = {"id": f"berserk-prove-{i}", "game": "berserk", "players": [{"id": p} for p in BERSERK_PLAYERS],
           "board": {"rows": board[0], "cols": board[1]}, "objects": objects, "events": events}
    if effs:
        doc["effects"] = effs
    return doc


# -- TI4 --------------------------------------------------------------------------------------------------------
TI4_KINDS = ("planet", "ground_force", "reinforcement", "action_card", "captured")
#: how many players the game began with: every listed one (None), or five (75.9: the others eliminated before)
TI4_BEGAN = (None, 5)


def _ti4(b: Bound) -> Iterator[dict]:
    n_id = 0
    for n in range(2, b.players + 1):
        ps = list(PLAYERS[:n])
        for speaker, began in itertools.product(ps, TI4_BEGAN):
            objs = [(k, q) for k in TI4_KINDS for q in ps]
            for m in range(b.objects + 1):
                for chosen in _multisets(objs, m):
                    ids = [f"o{j + 1}" for j in range(m)]
                    evs = [("planet_control", o, q) for o, (k, _) in zip(ids, chosen) if k == "planet" for q in ps]
                    evs += [("destroy", o, None) for o, (k, _) in zip(ids, chosen) if k == "ground_force"]
                    evs += [("check_elimination", None, None), ("end_status_phase", None, None)]
                    for seq in _sequences(evs, b.events):
                        n_id += 1
                        yield _ti4_doc(n_id, ps, speaker, chosen, seq, began)


def _ti4_doc(i: int, ps: list, speaker: str, objs: tuple, seq: tuple, began: int | None = None) -> dict:
    objects = [{"id": "speaker", "zone": "play_area", "controller": speaker, "types": ["speaker_token"]}]
    for j, (kind, q) in enumerate(objs):
        o = f"o{j + 1}"
        if kind == "planet":
            objects.append({"id": o, "zone": "board", "types": ["planet"], "controller": q})
        elif kind == "ground_force":
            objects.append({"id": o, "owner": q, "zone": "board", "types": ["ground_force"]})
        elif kind == "reinforcement":
            objects.append({"id": o, "owner": q, "zone": "reinforcements", "types": ["ground_force"]})
        elif kind == "captured":  # a ship of q's on the faction sheet of the next player (its captor)
            captor = ps[(ps.index(q) + 1) % len(ps)]
            objects.append({"id": o, "owner": q, "controller": captor, "zone": "captured", "types": ["ship"]})
        else:
            objects.append({"id": o, "owner": q, "zone": "hand", "types": ["action_card"]})
    events = []
    for kind, o, q in seq:
        if kind == "planet_control":
            events.append({"type": "planet_control", "planet": o, "player": q})
        elif kind == "destroy":
            events.append({"type": "move", "object": o, "zone": "reinforcements"})
        else:
            events.append({"type": kind})
    doc = {"id": f"ti4-prove-{i}", "game": "ti4", "players": [{"id": p} for p in ps], "objects": objects,
           "events": events}
    if began:  # the game began with more players than are listed (75.9): the others were eliminated before
        doc["options"] = {"players_at_start": began}
    return doc


def _zones_only(game: str, zones: tuple[str, ...]) -> list[dict]:
    """Statements: no object is in a zone of the game other than ``zones``."""
    from solver.registry import vocabulary_for
    return [{"id": f"zone-not-{z}", "says": f"no object is in zone {z}", "forall": {"o": "object"}, "when": [],
             "never": [{"object": "o", "zone": z}]} for z in (v.name for v in vocabulary_for(game).zones)
            if z not in zones]


_OUT = [{"not": {"player": "p", "status": "in_game"}}]
_ONE_OUT = {"id": "one-out", "says": "at most one player is out of the game", "forall": {"p": "player", "q": "player"},
            "when": _OUT, "never": [{"not": {"player": "q", "status": "in_game"}}]}
_TWO_ALL_IN = {"id": "two-all-in", "says": "with two players, both are in the game", "forall": {"p": "player"},
               "max_players": 2, "when": [], "then": [{"player": "p", "status": "in_game"}]}


def _within_mtg() -> tuple[dict, ...]:
    return (
        {"id": "life-1", "says": "every player has life 1", "forall": {"p": "player"}, "when": [],
         "then": [{"player": "p", "player_attributes": {"life": 1}}]},
        {"id": "out-is-left", "says": "a player out of the game has status left", "forall": {"p": "player"},
         "when": _OUT, "then": [{"player": "p", "status": "left"}]},
        _ONE_OUT, _TWO_ALL_IN,
        {"id": "active-in-game", "says": "the active player is in the game", "forall": {"p": "player"},
         "when": _OUT, "never": [{"turn": {"active_player": "p"}}]},
        {"id": "priority-in-game", "says": "priority is with a player in the game", "forall": {"p": "player"},
         "when": _OUT, "never": [{"turn": {"priority": "p"}}]},
        *_zones_only("mtg", MTG_ZONES + ("stack",)),
        {"id": "control-on-battlefield", "says": "an object controlled by another player than its owner is on the "
         "battlefield", "forall": {"o": "object", "p": "player"},
         "when": [{"object": "o", "controller": "p"}, {"not": {"object": "o", "owner": "p"}}],
         "then": [{"object": "o", "zone": "battlefield"}]},
    )


def _within_riftbound() -> tuple[dict, ...]:
    return (
        {"id": "out-is-lost", "says": "a player out of the game has status lost", "forall": {"p": "player"},
         "when": _OUT, "then": [{"player": "p", "status": "lost"}]},
        _ONE_OUT, _TWO_ALL_IN,
        {"id": "one-holder", "says": "turn, focus and priority are with one player", "forall": {"p": "player"},
         "when": [{"turn": {"active_player": "p"}}], "then": [{"turn": {"focus": "p", "priority": "p"}}]},
        {"id": "turn-in-game", "says": "the turn is with a player in the game", "forall": {"p": "player"},
         "when": _OUT, "never": [{"turn": {"active_player": "p"}}]},
        *_zones_only("riftbound", RB_ZONES),
        {"id": "control-in-base", "says": "a unit controlled by another player than its owner is in a base",
         "forall": {"o": "object", "p": "player"},
         "when": [{"object": "o", "controller": "p"}, {"not": {"object": "o", "owner": "p"}}],
         "then": [{"object": "o", "zone": "base"}]},
    )


def _within_ti4() -> tuple[dict, ...]:
    return (
        {"id": "all-in-game", "says": "every listed player is in the game", "forall": {"p": "player"}, "when": [],
         "then": [{"player": "p", "status": "in_game"}]},
        *_zones_only("ti4", ("board", "reinforcements", "hand", "play_area", "captured")),
    )


def _within_berserk() -> tuple[dict, ...]:
    return (
        *_zones_only("berserk", ("play",)),
        {"id": "distinct-cells", "says": "no two cards share a cell", "forall": {"o": "object", "q": "object",
                                                                                  "c": "cell"},
         "when": [{"object": "o", "cell": "c"}], "never": [{"object": "q", "cell": "c"}]},
        {"id": "in-game", "says": "both players are in the game", "forall": {"p": "player"}, "when": [],
         "then": [{"player": "p", "status": "in_game"}]},
    )


_NOT_ALL = ("the statements do not say everything the space fixes (which player is active, each card's type, "
            "which effects exist and on which card)")

SPACES: dict[str, Space] = {
    "ti4": Space(_ti4, fixed="every listed player in the game at the start, the game begun with them or with five "
                       "(players_at_start 5: the others eliminated before, 75.9); the speaker token with one of them; objects: planets "
                       "on the board (controlled), ground forces on the board or in reinforcements (owned), action cards in a hand, a ship of one player "
                       "captured by the next, no "
                       "faction of 75.10; events: a planet taken by a player, a ground force destroyed (to "
                       "reinforcements), check_elimination, end_status_phase",
                 within=_within_ti4(), inexact=_NOT_ALL),
    "berserk": Space(_berserk, max_players=2, fixed="two players (the first card alice's: the players are symmetric); creatures only (no "
                               "symbiote, no equipment), in play, on distinct cells; the first card may be under a "
                               "move prohibition (chains) and a permission (haste), in both orders, and is then never "
                               "pushed by an outside move; events: a move of a card onto another's cell, a declared "
                               "move of a card to an adjacent cell (declared and resolved: one step of the bound, two events), a free Choice subphase and a concession of either "
                               "player; and the conflict states (three cards, whatever the objects bound, no board): a hero under Kanor-Vain's "
                               "neutral and the Blade's dark, applied in either order, each source in play or not, events: a source "
                               "leaves play or comes back",
                     within=_within_berserk(), inexact=_NOT_ALL,
                     omits="which card arrived last on a cell (the history berserk.conservation reads) and when each "
                           "effect was applied (berserk.conflict.latest, conflict.anew): the space writes them only as "
                           "timestamps of its initial states"),
    "mtg": Space(_mtg, fixed="life 1 for every player; at most one player already out (status left), never with two "
                       "players; the active player is the first in the game; objects are creatures in "
                       f"{', '.join(MTG_ZONES)}, one permanent control effect at most (on the battlefield), or spells of the active player on the stack "
                       "(target player loses 1 life, any target); events: resolve of such a spell, "
                       "leave_game (status conceded with two players) and lose_life 1 of a player in the game at the start",
                 within=_within_mtg(), inexact=_NOT_ALL),
    "riftbound": Space(_riftbound, fixed="at most one player already out (status lost), never with two players; turn, "
                                   "focus and priority with one player; objects are units in "
                                   f"{', '.join(RB_ZONES)}, another controller only in a base; events: concede of a "
                                   "player in the game at the start, pass_turn",
                       within=_within_riftbound(), inexact=_NOT_ALL),
}


def space(game: str, b: Bound) -> Iterator[dict]:
    """Every scenario of the game's space within the bound, smallest first."""
    if game not in SPACES:
        raise ValueError(f"arbiter prove has no space for {game} yet (known: {', '.join(sorted(SPACES))})")
    docs = list(SPACES[game].enumerate(b))
    docs.sort(key=lambda d: (len(d["events"]), len(d["players"]), len(d.get("objects") or [])))
    return iter(docs)
