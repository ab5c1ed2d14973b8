"""Combat positions for the victory analysis: creatures, strikes by die tier, protections, dice.

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
them in the analysed outcome (control effects and taken control included). Movement,
closing cards and other card abilities are outside the model.

Creature data (object ``attributes`` / ``properties`` / ``abilities``):

- ``life`` (required), ``max_life`` (default: the life at the start of the scenario)
- ``strike: "2-3-4"`` property: the strike of each die tier, weak-medium-strong (one format,
  declared in the game's vocabulary)
- ``regen``: lives healed at the end of every round (never above ``max_life``)
- ``protection_nonmagical: X``: non-magical strikes of strength X or more do no damage
- ``protection_magical: X``: magical strikes of strength X or more do no damage
- abilities ``magical_attack`` (its strikes are magical), ``flying`` (only flying or
  ``ranged`` creatures can attack it), ``ranged``

Options (scenario ``options``, defaults from the ruleset's ``combat`` data):
``dice_sides`` (6), ``tier_weak`` ("1-2"), ``tier_medium`` ("3-4"), ``tier_strong``
("5-6"; ``none`` for an empty tier), ``counterstrike`` (true: an attacked creature strikes back), ``victory_horizon``
(3: rounds searched for bounded refutations and proofs).
"""
from __future__ import annotations

from dataclasses import dataclass, field

TIERS = ("weak", "medium", "strong")
DEFAULT_COMBAT = {"dice_sides": 6, "tier_weak": "1-2", "tier_medium": "3-4", "tier_strong": "5-6",
                  "counterstrike": True, "victory_horizon": 3}


class CombatError(ValueError):
    """A scenario's combat data cannot be analysed (missing life, bad tier table ...)."""


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
    """Can ``a`` attack ``t``: a flying creature is reached only by flying or ranged attackers."""
    return not t.flying or a.flying or a.ranged


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


def _strikes(o) -> tuple[int, int, int]:
    """The creature's strike per tier, from its ``strike`` property (weak-medium-strong, like 2-3-4)."""
    if "strike" not in o.properties:
        raise CombatError(f"creature {o.id}: no 'strike' property (weak-medium-strong, like 2-3-4) for the victory "
                          f"analysis")
    parts = str(o.properties["strike"]).split("-")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise CombatError(f"creature {o.id}: strike '{o.properties['strike']}' is not weak-medium-strong like 2-3-4")
    return tuple(int(p) for p in parts)  # type: ignore[return-value]


def position_from(scenario, ruleset, player: str, state: dict[str, str] | None = None) -> Position:
    """The combat position of ``player`` against the other players, after the scenario's events.

    ``state`` is one outcome's final state (zone, controller, life ...); without it, the initial state.
    Creatures count for the player who controls them (control effects included).
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
    play = tuple(ruleset.play_zones)
    units = []
    for o in scenario.objects:
        if "creature" not in o.types:
            continue
        zone = state.get(f"zone.{o.id}", o.zone)
        ctrl = state.get(f"controller.{o.id}", state.get(f"ctrl.{o.id}", o.controller or o.owner))
        if zone not in play or ctrl in (None, "none"):
            continue
        attrs = dict(o.attributes)
        for k in list(attrs):
            if f"attr.{o.id}.{k}" in state:
                attrs[k] = int(state[f"attr.{o.id}.{k}"])
        if "life" not in attrs:
            raise CombatError(f"creature {o.id}: no 'life' attribute for the victory analysis")
        abil = {a for a in o.abilities if state.get(f"ability.{o.id}.{a}", "1") == "1"}
        life = max(0, int(attrs["life"]))
        if life == 0:
            continue
        units.append(Unit(
            id=o.id, side=0 if ctrl == player else 1, life=life,
            max_life=int(attrs.get("max_life", max(o.attributes.get("life", life), life))),
            strikes=_strikes(o), magical="magical_attack" in abil, flying="flying" in abil,
            ranged="ranged" in abil, regen=int(attrs.get("regen", 0)),
            protect_nonmagical=attrs.get("protection_nonmagical"), protect_magical=attrs.get("protection_magical")))
    active = scenario.turn.active_player
    first = 1 if active in opponents else 0
    return Position(tuple(units), dice_from(opts), (player, ", ".join(opponents)), rules, first,
                    bool(opts["counterstrike"]), {o.id: (o.name or o.id) for o in scenario.objects})
