"""Every word a Twilight Imperium 4 scenario may use (elimination, rule 75 / LRR 33).

``owner`` is the faction a component belongs to; ``controller`` is who holds it (the
hand, play area or fleet pool it sits in, the captor of a captured unit, who controls a
planet). Types select the rules; any other owned component is a faction component (75.2).
Production is an ability without a number: no rule reads a Production value.
"""
from solver.vocabulary.shared import SHARED, statuses
from solver.vocabulary.words import Ability, Action, Event, Number, Text, Type, Word, Zone

_FACTION = "a faction component: goes to the box when its player is eliminated (75.2)"

VOCABULARY = SHARED.extend(
    game="ti4",
    zones=(
        Zone("board", "the game board: systems, planets and units on it", play=True),
        Zone("reinforcements", "a player's reinforcements (units and tokens off the board)", whose="owner"),
        Zone("play_area", "the play area of the player who holds the card (scored objectives, notes in play)",
             whose="holder", play=True),
        Zone("hand", "the hand of the player who holds the card", whose="holder"),
        Zone("captured", "on the captor's faction sheet: the captor holds the unit, its owner still owns it",
             whose="holder"),
        Zone("fleet_pool", "the fleet pool of the player who holds the command token", whose="holder"),
        Zone("stack", "actions waiting to resolve"),
        Zone("box", "back in the game box: out of the game"),
        Zone("agenda_discard", "the agenda discard pile (75.3)"),
        Zone("action_discard", "the action card discard pile (75.5)"),
        Zone("common_area", "the common play area: unpicked strategy cards (75.6)"),
        Zone("secret_deck", "the secret objective deck (75.7)"),
        Zone("cultural_discard", "the cultural exploration discard pile (comment 6)"),
        Zone("hazardous_discard", "the hazardous exploration discard pile (comment 6)"),
        Zone("industrial_discard", "the industrial exploration discard pile (comment 6)"),
        Zone("frontier_discard", "the frontier exploration discard pile (comment 6)"),
        Zone("purged", "purged: removed from the game (relics, comment 6)"),
    ),
    types=(
        Type("unit", "a unit (counts for 75.1b with Production; captured units follow 75.11 and comment 7)"),
        Type("ground_force", "a ground force: one on the board prevents elimination (75.1a)"),
        Type("infantry", "an infantry (a ground force)"),
        Type("mech", "a mech (a ground force)"),
        Type("ship", "a ship (a unit)"),
        Type("structure", "a structure (a unit)"),
        Type("flagship", "a flagship", requires=("ship",)),
        Type("carrier", "a carrier", requires=("ship",)),
        Type("cruiser", "a cruiser", requires=("ship",)),
        Type("destroyer", "a destroyer", requires=("ship",)),
        Type("dreadnought", "a dreadnought", requires=("ship",)),
        Type("fighter", "a fighter", requires=("ship",)),
        Type("war_sun", "a war sun", requires=("ship",)),
        Type("space_dock", "a space dock", requires=("structure",)),
        Type("pds", "a PDS", requires=("structure",)),
        Type("planet", "a planet: controlling one prevents elimination (75.1c)"),
        Type("system", "a system tile"),
        Type("home_system", "a home system: it stays on the board as a home system (comment 5)"),
        Type("speaker_token", "the speaker token: passes to the left when its holder is eliminated (75.8)"),
        Type("strategy_card", "a strategy card: returns to the common play area (75.6)"),
        Type("agenda", "an agenda card (law): discarded (75.3)"),
        Type("action_card", "an action card: discarded (75.5)"),
        Type("secret_objective", "a secret objective: shuffled into the secret objective deck (75.7)"),
        Type("public_objective", "a public objective (the source of score_objective)"),
        Type("relic", "a relic: purged (comment 6)"),
        Type("relic_fragment", "a relic fragment: to the discard pile of its `trait` (comment 6)"),
        Type("promissory_note", "a promissory note: returns to its owner (75.4) or goes to the box (75.4a)"),
        Type("command_token", "a command token (75.10e, 75.10f)"),
        Type("commander", "a commander leader (75.10f: an unlocked one stays with a Mahact token)"),
        Type("leader", "a leader: " + _FACTION),
        Type("agent", "an agent leader: " + _FACTION),
        Type("hero", "a hero leader: " + _FACTION),
        Type("technology", "a technology card: " + _FACTION),
        Type("faction_technology", "a faction technology: " + _FACTION),
        Type("assimilation_token", "a Nekro assimilation token: the faction technology it is attached to stays "
                                   "(75.10a)"),
        Type("wormhole_token", "a Creuss wormhole token: stays on the board (75.10b)"),
        Type("zero_token", "a Naalu '0' token: stays with another holder until the end of the status phase "
                           "(75.10c)"),
        Type("attachment_token", "an attachment token (75.10d: stays while attached to a planet)"),
        Type("promissory_attachment", "a promissory note attached to a planet (75.10d)"),
        Type("control_token", "a control token: " + _FACTION),
        Type("faction_sheet", "a faction sheet: " + _FACTION),
        Type("command_sheet", "a command sheet: " + _FACTION),
    ),
    abilities=(
        Ability("production", "Production: a unit with it on the board prevents elimination (75.1b)"),
        Ability("produce_infantry", "places infantry without Production (the Arborec flagship): does not prevent "
                                    "elimination (comment 4)"),
        Ability("bombardment", "Bombardment: not Production (comment 4: it does not prevent elimination)"),
        Ability("sustain_damage", "Sustain Damage: not Production (comment 4)"),
        Ability("space_cannon", "Space Cannon: not Production (comment 4)"),
        Ability("anti_fighter_barrage", "Anti-Fighter Barrage: not Production (comment 4)"),
        Ability("planetary_shield", "Planetary Shield: not Production (comment 4)"),
    ),
    properties=(
        Text("trait", "a relic fragment's trait: it goes to that trait's discard pile (comment 6)",
             values=("cultural", "hazardous", "industrial", "frontier")),
    ),
    flags=(
        Word("unlocked", "a commander is unlocked (75.10f)"),
        Word("exhausted", "a card is exhausted (75.6 returns strategy cards exhausted or readied alike)"),
        Word("scored", "a secret objective is scored (75.7 shuffles it back scored or not)"),
    ),
    player_attributes=(
        Number("strategy_cards", "strategy cards the player picks each round: one with five or more players at "
                                 "the start, else two (75.9)", lo=0, hi=8),
    ),
    actions=(
        Action("score_objective", "score the objective (the source) about other players' home systems (the "
                                  "targets; comment 5a)", (0, 99)),
    ),
    events=(
        Event("planet_control", "a player gains control of a planet; without `player` it becomes uncontrolled", (
            Text("planet", "the planet", required=True), Text("player", "its new controller"))),
        Event("capture", "a player captures a unit: it goes onto the captor's faction sheet, still owned by its "
                         "owner", (Text("object", "the unit", required=True),
                                   Text("player", "the captor", required=True))),
        Event("return_captured", "the captor returns a captured unit (to its owner's reinforcements, or to the box; "
                                 "comment 7)", (Text("object", "the unit", required=True),)),
        Event("end_status_phase", "the status phase ends (an eliminated Naalu player's '0' token leaves; 75.10c)"),
        Event("check_elimination", "nothing else happens: the elimination check that follows every event runs"),
    ),
    statuses=statuses("in_game", "eliminated"),
    options=(
        Number("players_at_start", "players at the start of the game (75.9; default: the listed players)", lo=1,
               hi=8),
    ),
    notes="""\
- `owner` is the faction a component belongs to; `controller` is who holds it (the hand, play area or fleet pool
  it sits in, the captor of a captured unit, who controls a planet).
- Seating order is the order of `players`; "the player on the left" is the next one still in the game.
- After every event the elimination check (75.1) runs, then the components of an eliminated player go where
  75.2-75.11 send them. Any owned component of no other listed type is a faction component (75.2).
- A unit kind (`space_dock`, `flagship` ...) is listed with its class (`structure`, `ship`); Production has no
  number (no rule reads one).
- What a 75.10 exception or comment 7 keeps in play (a command token on the Mahact player's sheet and the unlocked
  commander with it, a Naalu "0" token held by another player, a faction technology with a Nekro assimilation
  token, a captured unit) is read again at every elimination check while its owner is out of the game: when the
  exception ends (its holder eliminated in turn, the assimilation token gone with the Nekro player) it goes to the
  box (75.2). Reading of 75.10e and 75.11 for a player eliminated earlier: "return to that player's
  reinforcements" cannot be done for a player no longer in the game, whose reinforcements went to the box with
  everything of their faction (75.2: "including those in their reinforcements"); the component goes to the box,
  where those reinforcements are, and never back to a player out of the game (comment 7 says the same of captured
  units returned after their owner's elimination). Promissory notes: 75.4 returns them to their player only while
  that player is in the game; 75.4a sends an eliminated player's notes to the box whoever holds them, in any order
  of eliminations.
- Who wins is not modelled: TI4 is won by victory points, and rule 75 says nothing of a last player left, so
  `winner` (and the status `won`) is refused; an eliminated player's status is `eliminated`.
""",
    example="""\
id: example-ti4
game: ti4
rules: [ti4.75.1]
players: [{id: alice}, {id: bob}, {id: carol}]
objects:
  - {id: mecatol, zone: board, controller: bob, types: [planet]}
  - {id: alice_infantry, owner: alice, zone: board, types: [ground_force, infantry]}
  - {id: carol_dock, owner: carol, zone: board, types: [structure, space_dock], abilities: [production]}
events:
  - {type: move, object: alice_infantry, zone: reinforcements}
expect:
  - {player: alice, status: eliminated, because: [ti4.75.1]}
  - {object: alice_infantry, zone: box, because: [ti4.75.2]}
  - {unique: true}
""",
)
