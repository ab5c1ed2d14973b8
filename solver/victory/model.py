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

Creature data (object ``attributes`` / ``properties`` / ``abilities``):

- ``life`` (required), ``max_life`` (default: the life at the start of the scenario)
- ``strike: "2-3-4"`` property: the strike of each die tier, weak-medium-strong (one format,
  declared in the game's vocabulary)
- ``regen``: lives healed at the end of every round (never above ``max_life``)
- ``protection_nonmagical: X``: non-magical strikes of strength X or more do no damage
- ``protection_magical: X``: magical strikes of strength X or more do no damage
- abilities ``magical_attack`` (its strikes are magical), ``flying`` (only flying or
  ``ranged`` creatures can attack it), ``ranged``
- on a board: its ``cell``, ``move`` (default 1) and, if ranged, ``range`` (default 2); a creature an effect
  forbids to move (``allowed.<id>.move`` of the analysed state, the game's movement predicate) strikes only from
  its own cell

Options (scenario ``options``, defaults from the ruleset's ``combat`` data):
``dice_sides`` (6), ``tier_weak`` ("1-2"), ``tier_medium`` ("3-4"), ``tier_strong``
("5-6"; ``none`` for an empty tier), ``counterstrike`` (true: an attacked creature strikes back), ``victory_horizon``
(3: rounds searched for bounded refutations and proofs).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from solver.errors import ScenarioError

TIERS = ("weak", "medium", "strong")
DEFAULT_COMBAT = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6",
                  "counterstrike": True, "victory_horizon": 3}
#: movement and range of a creature on a board when its data does not say
DEFAULT_MOVE, DEFAULT_RANGE = 1, 2
#: the state a position is read from, per creature: attributes, abilities and a property
COMBAT_ATTRIBUTES = ("life", "max_life", "regen", "protection_nonmagical", "protection_magical", "move", "range")
COMBAT_ABILITIES = ("flying", "ranged", "magical_attack")
COMBAT_PROPERTIES = ("strike",)


class CombatError(ScenarioError):
    """A scenario's combat data cannot be analysed (missing life, bad tier table ...): bad input."""


@dataclass(frozen=True)
class Unit:
    """A creature in the combat model; side 0 is the claimant, side 1 the opponent."""

    id: str
    side: int
    life: int
    max_life: int
    strikes: tuple[int, int, int]
    magical: bool = False
    flying: bool = False
    ranged: bool = False
    regen: int = 0
    protect_nonmagical: int | None = None
    protect_magical: int | None = None
    #: the cell it stands on (None: it flies, there is no board, or it stands on none)
    cell: str | None = None
    move: int = DEFAULT_MOVE
    range: int = DEFAULT_RANGE
    #: no effect forbids it to move (the game's movement predicate, read from the analysed state): one that cannot
    #: move strikes only from its own cell
    moves: bool = True

    @property
    def steps(self) -> int:
        """Cells it may move over before it strikes: its movement, none when it cannot move."""
        return self.move if self.moves else 0

    def protection_against(self, attacker: "Unit") -> int | None:
        """The strength from which this unit blocks the attacker's strikes (None: it does not)."""
        return self.protect_magical if attacker.magical else self.protect_nonmagical


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
    def of(cls, cells, neighbours: dict) -> "Board":
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


@dataclass(frozen=True)
class CombatRules:
    """The rule ids of the combat the analysis applies, as the game names them (its ruleset's ``combat_rules``)."""

    #: a strike is weak, medium or strong by the die value
    tiers: str
    #: an attack deals the attacker's strike of the rolled tier
    strike: str
    #: the attacked creature strikes back with its own roll
    counterstrike: str
    #: protection from (non-)magical attacks of strength X or more blocks such a strike
    protection: str
    #: a flying creature is attacked only by flying or ranged creatures
    reach: str
    #: on a board, a creature strikes what stands next to a cell it can get to over free cells within its movement
    melee: str
    #: on a board, a ranged creature shoots within its range
    ranged: str
    #: each creature attacks at most once per turn
    attack: str
    #: a creature whose life drops to 0 or less is destroyed
    death: str
    #: living creatures regenerate at the end of a round, up to their maximum
    regen: str


@dataclass(frozen=True)
class Position:
    """Creatures of both sides, the dice and the turn order of a round."""

    units: tuple[Unit, ...]
    dice: Dice
    players: tuple[str, str]
    rules: CombatRules
    first: int = 0
    counterstrike: bool = True
    names: dict = field(default_factory=dict, compare=False, hash=False)
    #: rule ids switched off in every CP-SAT model of this position (rule coverage)
    rules_off: frozenset = field(default=frozenset(), compare=False, hash=False)
    #: the board the creatures stand on (None: no board, everyone within reach)
    board: Board | None = None

    def side(self, s: int) -> tuple[Unit, ...]:
        """Units of side ``s``."""
        return tuple(u for u in self.units if u.side == s)


# -- combat rules as plain functions (used by the explicit searches; the CP-SAT encoding states the same rules)
def strike(a: Unit, dice: Dice, v: int) -> int:
    """The attacker's strike at die value ``v``."""
    return a.strikes[dice.tier(v)]


def damage(a: Unit, t: Unit, dice: Dice, v: int) -> int:
    """Damage of ``a``'s strike at die value ``v`` against ``t``: zero when ``t``'s protection blocks it."""
    s = strike(a, dice, v)
    prot = t.protection_against(a)
    return 0 if prot is not None and s >= prot else s


def reaches(a: Unit, t: Unit) -> bool:
    """Can ``a`` attack ``t`` at all: a flying creature is reached only by flying or ranged attackers."""
    return not t.flying or a.flying or a.ranged


def shoots(pos: Position, a: Unit, t: Unit) -> bool:
    """On the board, ``a`` is ranged and ``t`` (standing on a cell) is within its range."""
    return (pos.board is not None and a.ranged and a.cell is not None and t.cell is not None
            and pos.board.distance(a.cell, t.cell) <= a.range)


def walk(pos: Position, a: Unit, standing) -> set[str]:
    """The cells ``a`` can get to this turn: its own, and free cells within ``a.steps`` steps over free cells (a cell
    where a creature of ``standing`` other than ``a`` stands is in the way; none if it cannot move)."""
    if pos.board is None or a.cell is None:
        return set()
    taken = {u.cell for u in standing if u.id != a.id and u.cell is not None}
    seen, frontier = {a.cell}, [a.cell]
    for _ in range(a.steps):
        frontier = [d for c in frontier for d in pos.board.next_to(c) if d not in seen and d not in taken]
        seen.update(frontier)
    return seen


def on_board_reach(pos: Position, a: Unit, t: Unit, standing) -> bool:
    """On the board (with the creatures of ``standing`` alive): ``a`` flies, or shoots ``t``, or gets next to it over
    free cells; no board: always. (Whether a flyer may be attacked at all is ``reaches``.)"""
    if pos.board is None or a.flying or t.flying:
        return True
    if shoots(pos, a, t):
        return True
    if t.cell is None:
        return False
    near = set(pos.board.next_to(t.cell))
    return bool(walk(pos, a, standing) & near)


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


def _strikes(oid: str, text) -> tuple[int, int, int]:
    """The creature's strike per tier, from its ``strike`` property (weak-medium-strong, like 2-3-4)."""
    if text is None:
        raise CombatError(f"creature {oid}: no 'strike' property (weak-medium-strong, like 2-3-4) for the victory "
                          f"analysis")
    parts = str(text).split("-")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise CombatError(f"creature {oid}: strike '{text}' is not weak-medium-strong like 2-3-4")
    return tuple(int(p) for p in parts)  # type: ignore[return-value]


def _unit(o, side: int, state: dict[str, str], board: Board | None) -> Unit | None:
    """One creature in play as the combat model reads it (None: it has no life left)."""
    attrs = dict(o.attributes)
    for k in COMBAT_ATTRIBUTES:
        if f"attr.{o.id}.{k}" in state:
            attrs[k] = int(state[f"attr.{o.id}.{k}"])
    if "life" not in attrs:
        raise CombatError(f"creature {o.id}: no 'life' attribute for the victory analysis")
    abil = {a for a in set(o.abilities) | set(COMBAT_ABILITIES) if state.get(f"ability.{o.id}.{a}",
                                                                             "1" if a in o.abilities else "0") == "1"}
    life = max(0, int(attrs["life"]))
    if life == 0:
        return None
    flying = "flying" in abil
    cell = state.get(f"cell.{o.id}", o.cell) if board is not None and not flying else None
    return Unit(
        id=o.id, side=side, life=life,
        max_life=int(attrs.get("max_life", max(o.attributes.get("life", life), life))),
        strikes=_strikes(o.id, state.get(f"prop.{o.id}.strike", o.properties.get("strike"))),
        magical="magical_attack" in abil, flying=flying, ranged="ranged" in abil, regen=int(attrs.get("regen", 0)),
        protect_nonmagical=attrs.get("protection_nonmagical"), protect_magical=attrs.get("protection_magical"),
        cell=None if cell in (None, "none") else cell, move=int(attrs.get("move", DEFAULT_MOVE)),
        range=int(attrs.get("range", DEFAULT_RANGE)), moves=state.get(f"allowed.{o.id}.move", "1") == "1")


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
    rules = getattr(ruleset, "combat_rules", None)
    if rules is None:
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
        unit = _unit(o, 0 if ctrl == player else 1, state, board)
        if unit is not None:
            units.append(unit)
    active = scenario.turn.active_player
    first = 1 if active in opponents else 0
    return Position(tuple(units), dice_from(opts), (player, ", ".join(opponents)), rules, first,
                    bool(opts["counterstrike"]), {o.id: (o.name or o.id) for o in scenario.objects}, board=board)
