"""Combat positions for the victory analysis: creatures, strikes by die tier, protections, dice, the board.

The analysis is generic: a position is read from any scenario whose creatures
carry combat data, and the dice (sides, which values give which strike tier)
are ruleset data that the scenario's ``options`` may override.

The combat model: a round is one turn of each side, the scenario's active player's
side first. In a turn every living creature of the side may attack one living enemy
creature it can reach; each attack rolls one die for the attacker's strike and one for
the defender's strike back (with ``counterstrike``); the attacks of a turn resolve
together; a creature at 0 life is destroyed; at the end of the round living creatures
heal their ``regen``. A side wins (Berserk 602.1, clean victory) when the other side
has no creature left and it still has one. Creatures count for the player who controls
them in the analysed state (control effects and taken control included).

Reach. A flying creature is attacked only by flying or ranged creatures. Without a
board every creature is within reach of every other. On a board (the scenario's
cells and their adjacency) a flying creature stands on no cell and strikes anywhere;
a creature that does not fly strikes a creature on a cell next to its own or next to
a free cell it can reach by moving up to its ``move`` cells over free cells (a cell
where a living creature stands is in the way; a creature destroyed frees its cell);
a ranged creature also shoots any creature within ``range`` cells. The abstraction
that remains: creatures keep their cells through the analysed rounds (a creature
that moves to strike is counted back on its cell), and closing cards and other card
abilities are outside the model.

Creature data: the game's combat reading (``Game(combat=...)``, for Berserk
``solver.games.berserk.combat``) reads a creature of the scenario as a unit, and
states what one attack deals and who may attack whom (``Combat``).

Options (scenario ``options``, defaults from the ruleset's ``combat`` data):
``dice_sides`` (6), ``tier_weak`` ("1-2"), ``tier_medium`` ("3-4"), ``tier_strong``
("5-6"; ``none`` for an empty tier), ``counterstrike`` (true: an attacked creature strikes back), ``victory_horizon``
(3: rounds searched for bounded refutations and proofs).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from solver.errors import ScenarioError
from solver.registry import combat_for

TIERS = ("weak", "medium", "strong")
DEFAULT_COMBAT = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6",
                  "counterstrike": True, "victory_horizon": 3}


class CombatError(ScenarioError):
    """A scenario's combat data cannot be analysed (missing life, bad tier table ...): bad input."""


@dataclass(frozen=True)
class Dice:
    """A die: its sides and the strike tier (0 weak, 1 medium, 2 strong) of every value."""

    sides: int
    tier_of: tuple[int, ...]

    def values(self) -> range:
        """Every die value, 1 .. sides."""
        return range(1, self.sides + 1)

    def tier(self, v: int) -> int:
        """The tier index of die value ``v``."""
        return self.tier_of[v - 1]

    def representatives(self) -> tuple[int, ...]:
        """One die value per tier that some value gives (the smallest), in tier order."""
        reps = {}
        for v in self.values():
            reps.setdefault(self.tier(v), v)
        return tuple(reps[t] for t in sorted(reps))


@dataclass(frozen=True)
class Board:
    """The board's cells, their adjacency and the distance between any two (over every cell)."""

    cells: tuple[str, ...]
    adjacent: tuple[tuple[str, ...], ...]
    distances: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, cells, neighbours: dict) -> Board:
        """A board from its cells and adjacency (``models.scenario.Board.neighbours``), with every distance."""
        cells = tuple(cells)
        index = {c: i for i, c in enumerate(cells)}
        adj = tuple(tuple(sorted(d for d in neighbours.get(c, ()) if d in index)) for c in cells)
        far = len(cells) + 1
        rows = []
        for c in cells:
            dist = {c: 0}
            todo = deque([c])
            while todo:
                x = todo.popleft()
                for y in adj[index[x]]:
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        todo.append(y)
            rows.append(tuple(dist.get(d, far) for d in cells))
        return cls(cells, adj, tuple(rows))

    def next_to(self, cell: str) -> tuple[str, ...]:
        """The cells adjacent to ``cell``."""
        return self.adjacent[self.cells.index(cell)]

    def distance(self, a: str, b: str) -> int:
        """Steps from ``a`` to ``b`` over adjacent cells (more than the number of cells: unreachable)."""
        return self.distances[self.cells.index(a)][self.cells.index(b)]


class Combat(Protocol):
    """A game's reading of combat, which the analysis applies (``solver.games.berserk.combat.BerserkCombat``).

    Units are the game's (any frozen dataclass with ``id``, ``side``, ``life``, ``max_life``, ``regen`` and, on a
    board, ``cell`` and ``steps``); the reading says the rest. Its explicit rules (``damage``, ``reaches``,
    ``on_board_reach``, ``strike``) serve the explicit searches; its ``*_clause`` methods state the same rules in a
    ``solver.victory.encode.CombatModel``, each under its rule id.
    """

    #: every rule id of the reading
    rules: tuple[str, ...]

    def unit(self, o, side: int, state: dict[str, str], board: Board | None):
        """A creature of the scenario as a unit (None: no life left)."""

    def damage(self, a, t, dice: Dice, v: int) -> int:
        """Damage of ``a``'s strike at die value ``v`` against ``t``."""


@dataclass(frozen=True)
class Position:
    """Creatures of both sides, the dice and the turn order of a round."""

    #: the units of both sides, as the game's combat reading reads them
    units: tuple
    dice: Dice
    players: tuple[str, str]
    #: the game's combat reading (``Combat``)
    combat: Combat
    first: int = 0
    counterstrike: bool = True
    names: dict = field(default_factory=dict, compare=False, hash=False)
    #: rule ids switched off in every CP-SAT model of this position (rule coverage)
    rules_off: frozenset = field(default=frozenset(), compare=False, hash=False)
    #: the board the creatures stand on (None: no board, everyone within reach)
    board: Board | None = None

    def side(self, s: int) -> tuple:
        """Units of side ``s``."""
        return tuple(u for u in self.units if u.side == s)


# -- reading a position from a scenario ----------------------------------------------------
def parse_range(text: str, sides: int, name: str) -> list[int]:
    """Die values of a tier given as '1-2', '3', '5-6', '1,3' or 'none' (an empty tier)."""
    out: list[int] = []
    if str(text).strip().lower() == "none":
        return out
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise CombatError(f"option {name}: '{text}' is not a die range like 1-2") from None
        if not 1 <= a <= b <= sides:
            raise CombatError(f"option {name}: '{text}' is outside the die's values 1-{sides}")
        out += list(range(a, b + 1))
    return out


def dice_from(options: dict) -> Dice:
    """The die and its tier table from combat options; every value must belong to exactly one tier."""
    sides = int(options["dice_sides"])
    if not 1 <= sides <= 100:
        raise CombatError(f"option dice_sides: {sides} is not between 1 and 100")
    tier_of: dict[int, int] = {}
    for t, name in enumerate(TIERS):
        for v in parse_range(options[f"tier_{name}"], sides, f"tier_{name}"):
            if v in tier_of:
                raise CombatError(f"option tier_{name}: die value {v} is already in tier {TIERS[tier_of[v]]}")
            tier_of[v] = t
    missing = [v for v in range(1, sides + 1) if v not in tier_of]
    if missing:
        raise CombatError(f"die values {', '.join(map(str, missing))} belong to no strike tier")
    return Dice(sides, tuple(tier_of[v] for v in range(1, sides + 1)))


def combat_options(scenario, ruleset) -> dict:
    """Ruleset combat data overridden by the scenario's options."""
    out = dict(DEFAULT_COMBAT)
    out.update(getattr(ruleset, "combat", {}) or {})
    out.update({k: v for k, v in scenario.options.items() if k in DEFAULT_COMBAT})
    return out


def position_from(scenario, ruleset, player: str, state: dict[str, str] | None = None) -> Position:
    """The combat position of ``player`` against the other players, in a state of the scenario.

    ``state`` maps state names to values ("zone.c", "controller.c", "cell.c", "attr.c.life", "ability.c.flying",
    "prop.c.strike"): an outcome's final state, or the state the rules allow at a victory check; what it does not
    name is read from the initial state. Creatures count for the player who controls them (control effects
    included); on a board they stand on their cells.
    """
    state = state or {}
    players = [p.id for p in scenario.players]
    if player not in players:
        raise CombatError(f"claim player '{player}' is not a player of the scenario")
    opponents = [p for p in players if p != player]
    if not opponents:
        raise CombatError("a victory claim needs an opponent")
    opts = combat_options(scenario, ruleset)
    combat = combat_for(ruleset.game)
    if combat is None:
        raise CombatError(f"the {ruleset.game} rules define no combat for a victory analysis")
    board = Board.of(scenario.board.all_cells(), scenario.board.neighbours()) if scenario.board else None
    play = tuple(ruleset.play_zones)
    units = []
    for o in scenario.objects:
        if "creature" not in o.types:
            continue
        zone = state.get(f"zone.{o.id}", o.zone)
        ctrl = state.get(f"controller.{o.id}", state.get(f"ctrl.{o.id}", o.controller or o.owner))
        if zone not in play or ctrl in (None, "none"):
            continue
        unit = combat.unit(o, 0 if ctrl == player else 1, state, board)
        if unit is not None:
            units.append(unit)
    active = scenario.turn.active_player
    first = 1 if active in opponents else 0
    return Position(tuple(units), dice_from(opts), (player, ", ".join(opponents)), combat, first,
                    bool(opts["counterstrike"]), {o.id: (o.name or o.id) for o in scenario.objects}, board=board)
