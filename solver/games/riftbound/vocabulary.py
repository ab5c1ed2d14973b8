"""Every word a Riftbound scenario may use (conceding). Battlefields are board cells; chain items are objects in
the ``chain`` zone with an ``action``, listed bottom first."""
from solver.vocabulary.shared import SHARED, features, statuses
from solver.vocabulary.words import Ability, Action, Event, Number, Text, Type, Word, Zone

VOCABULARY = SHARED.extend(
    game="riftbound",
    zones=(
        Zone("base", "a player's base (units and gear not at a battlefield)", whose="holder", play=True),
        Zone("battlefield", "at a battlefield: the object's cell says which", play=True),
        Zone("runes", "a player's rune pool", whose="holder", play=True),
        Zone("legend", "a player's legend zone", whose="holder", play=True),
        Zone("hand", "a player's hand", whose="owner"),
        Zone("main_deck", "a player's main deck", whose="owner"),
        Zone("rune_deck", "a player's rune deck", whose="owner"),
        Zone("trash", "a player's trash: killed units, resolved and countered spells", whose="owner"),
        Zone("banishment", "a player's banishment: a banished card goes to its owner's", whose="owner"),
        Zone("chain", "spells and abilities waiting to resolve, bottom first"),
        Zone("set_aside", "set aside, out of play"),
        Zone("outside", "removed from the game (cards of a player who conceded)"),
    ),
    types=(
        Type("unit", "a unit: a permanent with power; a concession banishes it (step 1)"),
        Type("gear", "a gear: a permanent; a concession banishes it (step 1)"),
        Type("rune", "a rune; a concession banishes it (step 1)"),
        Type("battlefield", "a battlefield card on a board cell; one the leaver provided is replaced by a blank one "
                            "(step 2)"),
        Type("legend", "a legend (never banished)"),
        Type("spell", "a spell card"),
        Type("ability", "an ability on the chain (not a card)"),
    ),
    abilities=(
        Ability("units_here_plus_one", "a battlefield's text '+1 power to units here': while the battlefield is on "
                                       "the board with it, each unit at it (on its cell) has +1 power "
                                       "(riftbound.battlefield.units_here_plus_one); the ability is the effect, "
                                       "nothing to write besides it; a blank battlefield has none"),
    ),
    attributes=(
        Number("power", "a unit's power: 5 or more makes it mighty"),
    ),
    flags=(
        Word("facedown", "a facedown (hidden) card: a concession banishes it (step 1)"),
        Word("finalised", "a chain item is finalised (default true): only finalised items resolve when everyone "
                          "passed priority"),
    ),
    derived_flags=(
        Word("mighty", "power 5 or more after continuous effects (riftbound.mighty)"),
    ),
    player_attributes=(
        Number("points", "victory points: a concession sets nothing up again, players keep them"),
    ),
    player_flags=(
        Word("passed_focus", "the player has passed focus in this showdown (passes already made stand)"),
        Word("passed_priority", "the player has passed priority on the current chain (passes already made stand)"),
    ),
    actions=(
        Action("kill", "kill the target unit on the board: it goes to its owner's trash", (1, 1)),
        Action("counter", "counter the target spell or ability on the chain", (1, 1)),
    ),
    action_statuses=(
        Word("countered", "countered: removed from the chain without resolving (a counter, or its controller "
                          "conceded)"),
    ),
    events=(
        Event("concede", "a player concedes: they (and their team) leave; a free-for-all that goes on applies the "
                         "removal steps; only a player in the game concedes (one who has conceded, lost or won is a "
                         "located error)", (
            Text("player", "who concedes", required=True),
            Word("blank_battlefields", "battlefield the leaver provided -> the id (an object in zone none) of the "
                                       "blank battlefield that replaces it"),
        )),
        Event("pass_turn", "the turn passes to the next player in turn order still in the game"),
    ),
    statuses=statuses("in_game", "won", "lost", "conceded"),
    features=features("board", "teams", "focus"),
    notes="""\
- Battlefields are board cells (`board: {cells: [bf1, bf2]}`): a battlefield card and the units at it share its
  `cell`.
- Chain items are objects in zone `chain` with an `action` (`{kind, targets, source}`), listed bottom first; one
  not yet finalised has `flags: {finalised: false}`. `source` is the card whose spell or ability it is; who
  controls the item is the object's `controller` (a concession counters what the leaver controls, whoever owns
  the source).
- "The battlefield a player provided" is the battlefield card that player owns (its `owner`), wherever it is and
  whoever controls it: a concession replaces the leaver's side's battlefields in use (step 2). A battlefield's
  text is its ability (`units_here_plus_one`): it gives its effect by itself, no effect to write beside it.
- Teams: a player's `team`. Turn state: `turn: {active_player, priority, focus, showdown}`; passes already made
  are the player flags `passed_priority` and `passed_focus`.
- A concession creates a blank battlefield for each battlefield the leaver provided; to name it, give an object in
  zone `none` and map the old battlefield to it in `blank_battlefields`.
- A concession is one event of named steps, in order: `P concedes` (P the conceding player), `removal: banish`,
  `removal: replace battlefields`, `removal: remove owned cards`, `removal: counter the leaver's chain items`,
  `removal: the leaver stops influencing the game`, `removal: turn, focus and priority`, `removal: passes of
  focus`, `removal: passes of priority`. An expectation reads the state after one of them with `at` (the
  concession's event) and `step` (its name): `{at: 1, step: "removal: turn, focus and priority", turn: {priority:
  c}}` is the state where priority has passed and the chain item has not resolved yet. An unknown step name is an
  error listing the event's steps.
""",
    example="""\
id: example-riftbound
game: riftbound
rules: [riftbound.concede, riftbound.concede.last_standing]
players: [{id: ann}, {id: ben}]
events:
  - {type: concede, player: ann}
expect:
  - {player: ann, status: conceded, because: [riftbound.concede]}
  - {winner: ben, because: [riftbound.concede.last_standing]}
  - {unique: true}
""",
)
