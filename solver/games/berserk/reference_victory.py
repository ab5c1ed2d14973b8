"""The reference reading of a decisive advantage (seed 002, 602.1): the combat game searched exhaustively, no solver.

A player holds a decisive advantage when, whatever the dice and the opponent's
replies, they can force a clean victory and never lose. The combat game (README
"Victory analysis"; ``docs/games/berserk.md``) has finitely many states (the lives
of the creatures and whose turn it is: creatures keep their cells), so this is
exactly the set of states from which the player forces a win: the least fixpoint
of "won now, or (the player's turn) some declaration whose every die roll leads
there, or (the opponent's turn) every declaration and every die roll leads there".
Written apart from the victory analysis (``solver/victory/``), which proves the
same with CP-SAT; the differential compares them.
"""
from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass

from solver.reference.rules import Unsupported
from solver.reference.world import NONE, State, World, key

#: the die and its strike tiers when the scenario's options do not say (Berserk: 1-2 weak, 3-4 medium, 5-6 strong)
DICE = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6", "counterstrike": True}
TIER_NAMES = ("weak", "medium", "strong")
#: the most states the search visits before giving up
MAX_STATES = 200_000


@dataclass(frozen=True)
class Fighter:
    """A creature in play as the combat rules see it."""

    id: str
    mine: bool
    life: int
    top: int
    strikes: tuple[int, int, int]
    magical: bool
    flying: bool
    ranged: bool
    regen: int
    guard_nonmagical: int | None
    guard_magical: int | None
    cell: str | None
    move: int
    range: int
    #: nothing forbids it to move (the reference's movement predicate): else it strikes only from its own cell
    moves: bool = True


def _tiers(w: World) -> tuple[list[int], bool]:
    """The strike tiers some die value gives (0 weak, 1 medium, 2 strong), and whether an attacked creature strikes
    back."""
    opts = {**DICE, **{k: v for k, v in w.sc.options.items() if k in DICE}}
    sides, seen = int(opts["dice_sides"]), {}
    for tier, name in enumerate(TIER_NAMES):
        text = str(opts[f"tier_{name}"]).replace(" ", "")
        if text.lower() == "none":
            continue
        for part in filter(None, text.split(",")):
            lo, _, hi = part.partition("-")
            for v in range(int(lo), int(hi or lo) + 1):
                if not 1 <= v <= sides or v in seen:
                    raise Unsupported(f"die tier table: value {v} out of range or in two tiers")
                seen[v] = tier
    if len(seen) != sides:
        raise Unsupported("die tier table: some die value belongs to no tier")
    return sorted(set(seen.values())), bool(opts["counterstrike"])


class DecisiveAdvantageReading:
    """Mixin for the reference Berserk rules: the combat position in a state, and the exhaustive search."""

    def fighters(self, w: World, st: State, player: str) -> list[Fighter]:
        """The creatures in play in ``st``, each on the player's side or not."""
        data = {o.id: o for o in w.sc.objects}
        out = []
        for oid, info in w.objects.items():
            if "creature" not in info.types or info.spec is not None or oid not in data:
                continue
            if st[key("zone", oid)] not in self.play_zones:  # type: ignore[attr-defined]
                continue
            ctrl = self.controller(w, st, oid)  # type: ignore[attr-defined]
            if ctrl == NONE:
                continue
            f = self._fighter(w, st, data[oid], ctrl == player)
            if f is not None:
                out.append(f)
        return out

    def _number(self, w: World, st: State, oid: str, attr: str) -> int | None:
        """The creature's effective attribute, or None when it has none."""
        if key("attr", oid, attr) not in w.domains and not w.effects_on(oid, "set", attr) \
                and not w.effects_on(oid, "add", attr):
            return None
        return self.value(w, st, oid, attr)  # type: ignore[attr-defined]

    def _fighter(self, w: World, st: State, o, mine: bool) -> Fighter | None:
        life = self._number(w, st, o.id, "life")
        if life is None:
            raise Unsupported(f"creature {o.id} has no life")
        if life <= 0:
            return None
        text = self.prop(w, st, o.id, "strike")  # type: ignore[attr-defined]
        parts = str(text).split("-")
        if len(parts) != 3 or not all(x.isdigit() for x in parts):
            raise Unsupported(f"creature {o.id} has no strike")
        has = {ab: self.has_ability(w, st, o.id, ab) for ab in ("flying", "ranged", "magical_attack")}  # type: ignore[attr-defined]
        top = self._number(w, st, o.id, "max_life")
        cell = st.get(key("cell", o.id), NONE) if w.cells and not has["flying"] else NONE
        move, reach = self._number(w, st, o.id, "move"), self._number(w, st, o.id, "range")
        top = max(top if top is not None else int(o.attributes.get("life", life)), life)
        return Fighter(o.id, mine, life, top,
                       tuple(int(x) for x in parts), has["magical_attack"], has["flying"], has["ranged"],
                       self._number(w, st, o.id, "regen") or 0, self._number(w, st, o.id, "protection_nonmagical"),
                       self._number(w, st, o.id, "protection_magical"), None if cell == NONE else cell,
                       1 if move is None else move, 2 if reach is None else reach,
                       self.may_move(w, st, o.id))  # type: ignore[attr-defined]

    # -- the combat rules -----------------------------------------------------------------------
    @staticmethod
    def _hit(a: Fighter, t: Fighter, tier: int) -> int:
        """Damage of ``a``'s strike of ``tier`` on ``t``: none when ``t``'s protection covers it."""
        s = a.strikes[tier]
        guard = t.guard_magical if a.magical else t.guard_nonmagical
        return 0 if s <= 0 or (guard is not None and s >= guard) else s

    @staticmethod
    def _steps(w: World, start: str) -> dict[str, int]:
        """Board distance from ``start`` to every cell (over adjacent cells, nothing in the way)."""
        dist, todo = {start: 0}, deque([start])
        while todo:
            c = todo.popleft()
            for d in sorted(w.adjacency.get(c, ())):
                if d not in dist:
                    dist[d] = dist[c] + 1
                    todo.append(d)
        return dist

    def _strikes_at(self, w: World, a: Fighter, t: Fighter, standing: list[Fighter]) -> bool:
        """Can ``a`` strike ``t`` now: a flyer only by a flyer or a shooter; on a board, a flyer anywhere, a shooter
        within range, any other over free cells within its movement to a cell next to ``t`` (from its own cell only if it
        cannot move: ``may_move``)."""
        if t.flying and not (a.flying or a.ranged):
            return False
        if not w.cells or a.flying or t.flying:
            return True
        if a.cell is None or t.cell is None:
            return False
        if a.ranged and self._steps(w, a.cell).get(t.cell, len(w.cells) + 1) <= a.range:
            return True
        blocked = {f.cell for f in standing if f.id != a.id and f.cell is not None}
        seen, edge = {a.cell}, {a.cell}
        for _ in range(a.move if a.moves else 0):  # a creature that cannot move strikes from where it stands
            edge = {d for c in edge for d in w.adjacency.get(c, ()) if d not in seen and d not in blocked}
            seen |= edge
        return any(c in w.adjacency.get(t.cell, ()) for c in seen)

    def _turn(self, w: World, fs: list[Fighter], lives: tuple[int, ...], mine: bool, tiers: list[int],
              back: bool) -> list[list[tuple[int, ...]]]:
        """For every declaration of the side's turn, the lives after it under every die roll."""
        standing = [f for f, v in zip(fs, lives) if v > 0]
        own = [i for i, f in enumerate(fs) if f.mine == mine and lives[i] > 0]
        foes = [i for i, f in enumerate(fs) if f.mine != mine and lives[i] > 0]
        choices = [[None] + [j for j in foes if self._strikes_at(w, fs[i], fs[j], standing)] for i in own]
        out = []
        for picks in itertools.product(*choices):
            fights = [(i, j) for i, j in zip(own, picks) if j is not None]
            out.append(self._rolled(fs, lives, fights, tiers, back))
        return out

    def _rolled(self, fs: list[Fighter], lives: tuple[int, ...], fights: list[tuple[int, int]], tiers: list[int],
                back: bool) -> list[tuple[int, ...]]:
        """The lives after the declared fights (attacker, target) under every die roll."""
        after = set()
        for roll in itertools.product(tiers, repeat=len(fights) * (2 if back else 1)):
            new = list(lives)
            for k, (i, j) in enumerate(fights):
                new[j] -= self._hit(fs[i], fs[j], roll[k])
                if back:
                    new[i] -= self._hit(fs[j], fs[i], roll[len(fights) + k])
            after.add(tuple(max(0, v) for v in new))
        return sorted(after)

    def replay_strategy(self, w: World, st: State, player: str, strategy: dict, rounds: int) -> str | None:
        """Play a strategy of ``player`` against every die roll and every declaration of the opponent for ``rounds``
        rounds: None when every play ends in the player's clean victory, else what went wrong.

        ``strategy`` maps ((creature id, life) ... sorted by id, turn number) to the player's declaration there
        (attacker id -> target id); a position the play reaches on the player's turn that it does not name, or a
        declaration these rules do not allow (a creature that is not the player's, not alive, attacking twice, or a
        target out of its reach), fails the strategy."""
        fs = self.fighters(w, st, player)
        tiers, back = _tiers(w)
        first_mine = w.sc.turn.active_player in (None, player)
        index = {f.id: i for i, f in enumerate(fs)}
        seen: dict[tuple, str | None] = {}

        def heal(lives):
            return tuple(min(f.top, v + f.regen) if v > 0 else 0 for f, v in zip(fs, lives))

        def play(lives: tuple[int, ...], t: int) -> str | None:
            if (lives, t) in seen:
                return seen[(lives, t)]
            if len(seen) > MAX_STATES:
                raise Unsupported(f"strategy replay: more than {MAX_STATES} combat states")
            named = tuple(sorted((f.id, v) for f, v in zip(fs, lives)))
            mine_alive = any(v > 0 for f, v in zip(fs, lives) if f.mine)
            if mine_alive and not any(v > 0 for f, v in zip(fs, lives) if not f.mine):
                return None
            if t == 2 * rounds or not mine_alive:
                return f"turn {t}: {dict(named)}: no clean victory for {player} within {rounds} round(s)"
            mine = first_mine if t % 2 == 0 else not first_mine
            if mine:
                decl = strategy.get((named, t))
                if decl is None:
                    return f"turn {t}: {dict(named)}: the strategy has no declaration here"
                standing = [f for f, v in zip(fs, lives) if v > 0]
                fights = []
                for a, x in decl.items():
                    i, j = index.get(a), index.get(x)
                    if i is None or j is None or not fs[i].mine or fs[j].mine or lives[i] <= 0 or lives[j] <= 0 \
                            or not self._strikes_at(w, fs[i], fs[j], standing):
                        return f"turn {t}: {dict(named)}: {a} may not attack {x}"
                    fights.append((i, j))
                options = [self._rolled(fs, lives, fights, tiers, back)]
            else:
                options = self._turn(w, fs, lives, False, tiers, back)
            out = None
            for results in options:
                for r in results:
                    out = play(heal(r) if t % 2 == 1 else r, t + 1)
                    if out is not None:
                        break
                if out is not None:
                    break
            seen[(lives, t)] = out
            return out

        return play(tuple(f.life for f in fs), 0)

    def decisive_advantage(self, w: World, st: State, player: str) -> bool:
        """Does ``player`` force a clean victory whatever the dice and the replies (and never lose)?"""
        fs = self.fighters(w, st, player)
        tiers, back = _tiers(w)
        first_mine = w.sc.turn.active_player in (None, player)
        start = (tuple(f.life for f in fs), 0)

        def won(lives):
            return any(v > 0 for f, v in zip(fs, lives) if f.mine) and not any(v > 0 for f, v in zip(fs, lives)
                                                                              if not f.mine)

        def over(lives):
            return won(lives) or not any(v > 0 for f, v in zip(fs, lives) if f.mine)

        def heal(lives):
            return tuple(min(f.top, v + f.regen) if v > 0 else 0 for f, v in zip(fs, lives))

        graph: dict[tuple, list[list[tuple]]] = {}
        todo = deque([start])
        while todo:
            state = todo.popleft()
            if state in graph:
                continue
            lives, phase = state
            if over(lives):
                graph[state] = []
                continue
            mine = first_mine if phase == 0 else not first_mine
            options = []
            for results in self._turn(w, fs, lives, mine, tiers, back):
                nxt = [(heal(r) if phase == 1 else r, 1 - phase) for r in results]
                options.append(nxt)
                todo.extend(s for s in nxt if s not in graph)
            graph[state] = options
            if len(graph) > MAX_STATES:
                raise Unsupported(f"decisive advantage: more than {MAX_STATES} combat states")
        win = {s for s in graph if won(s[0])}
        changed = True
        while changed:
            changed = False
            for s, options in graph.items():
                if s in win or not options:
                    continue
                mine = first_mine if s[1] == 0 else not first_mine
                good = [all(n in win for n in nxt) for nxt in options]
                if any(good) if mine else all(good):
                    win.add(s)
                    changed = True
        return start in win
