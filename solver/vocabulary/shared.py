"""The words every game shares, declared once: core events and their fields, player and action statuses,
the zone ``none``, the permission ``be_targeted``, effect kinds and durations, and the scenario fields only some
games read (``FEATURES``). A game's vocabulary starts from ``SHARED`` and picks its statuses and features."""
from __future__ import annotations

from solver.vocabulary.words import Event, Number, Switch, Text, Vocabulary, Word, Zone, pick

#: every player status, one meaning each; a game lists those its rules give (``statuses("in_game", ...)``)
STATUSES = (
    Word("in_game", "still playing (the default)"),
    Word("won", "has won the game"),
    Word("lost", "has lost the game by a rule or a card (a penalty, a card's text, a teammate's concession)"),
    Word("conceded", "has conceded the game (admitted defeat); out of the game"),
    Word("eliminated", "has been eliminated by the game's elimination rule; out of the game"),
    Word("left", "has left the game for another reason (a card or effect made them leave it)"),
)

#: the action statuses of the core action lifecycle (a game may add its own, e.g. Riftbound 'countered')
ACTION_STATUSES = (
    Word("unborn", "not declared yet"),
    Word("on_stack", "declared and waiting to resolve"),
    Word("illegal", "could not be declared: it never went on the stack"),
    Word("executing", "left the stack and is executing: it can no longer be interrupted"),
    Word("resolved", "resolved (or finished executing) and had its effect"),
    Word("interrupted", "removed from the stack without resolving or being paid for: it had become impossible"),
)

#: the fields only some games read: a game lists those it reads in ``features``; the others are refused
FEATURES = (
    Word("board", "board cells: `board` (rows, cols, cells, adjacent), an object's `cell`, a `move` event's `cell`, "
                  "a selector's `cell`, an expectation's `cell`"),
    Word("teams", "a player's `team`"),
    Word("focus", "`turn.focus` and `turn.showdown`, and the same in an expectation's `turn`"),
    Word("claims", "victory `claims` (decisive advantage, forced win): the game's combat is modelled"),
    Word("tokens", "an object's `token` (a token ceases to exist outside the battlefield)"),
    Word("extra_zones", "`zones`: zones beyond the game's own (no game reads any)"),
    Word("phase", "`turn.phase` (no rule reads the phase)"),
    Word("turn_order_next", "`turn.turn_order_next` (no rule reads it)"),
    Word("triggers", "an object's `triggers` (effects at the start or end of its controller's turn)"),
    Word("elements", "a selector's `element` ('forest creatures'): the game's cards have elements"),
    Word("instructions", "a spell's or ability's `instructions` (what it does, in order, as one resolution)"),
)
#: where each feature's fields sit in a scenario ('*' for any list item)
FEATURE_PATHS: dict[str, tuple[tuple[str, ...], ...]] = {
    "board": (("board",), ("objects", "*", "cell"), ("events", "*", "cell"), ("effects", "*", "targets", "cell"),
              ("events", "*", "effect", "targets", "cell"), ("expect", "*", "cell")),
    "teams": (("players", "*", "team"),),
    "focus": (("turn", "focus"), ("turn", "showdown"), ("expect", "*", "turn", "focus"),
              ("expect", "*", "turn", "showdown")),
    "claims": (("claims",),),
    "tokens": (("objects", "*", "token"),),
    "extra_zones": (("zones",),),
    "phase": (("turn", "phase"),),
    "turn_order_next": (("turn", "turn_order_next"),),
    "triggers": (("objects", "*", "triggers"),),
    "elements": (("effects", "*", "targets", "element"), ("events", "*", "effect", "targets", "element"),
                 ("objects", "*", "triggers", "*", "targets", "element")),
    "instructions": (("objects", "*", "action", "instructions"), ("events", "*", "instructions")),
}

#: effect kinds and durations (the same in every game), for the reference docs
EFFECT_KINDS = (
    Word("set", "sets `attribute` (an attribute or a property) to `value`"),
    Word("add", "adds the whole number `value` to `attribute`"),
    Word("control", "gives `player` control of the targets"),
    Word("permit", "permits the targets `action` (a permission)"),
    Word("prohibit", "prohibits the targets `action`; a prohibition beats a permission"),
    Word("grant", "gives the targets `ability`"),
    Word("remove", "takes `ability` away from the targets"),
)
DURATIONS = (
    Word("permanent", "until an `end_effect` event ends it (the default)"),
    Word("static", "active exactly while its `source` is in play"),
    Word("until_end_of_turn", "ends at the next `end_turn`"),
    Word("until_next_turn", "ends when `until_player`'s next turn begins"),
)

CORE_EVENTS = (
    Event("declare", "a player declares an action: it goes on the stack if legal", (
        Text("id", "the id of the declared action (an object of its own)", required=True),
        Text("actor", "the declaring player", required=True),
        Text("kind", "the action kind", words="actions", required=True),
        Text("source", "the object that acts (the card whose ability it is)"),
        Word("targets", "the objects it targets (as many as its kind takes)"),
        Word("params", "the kind's parameters"),
        Word("instructions", "what it does, in order, as one resolution (only a kind that reads instructions)"),
        Switch("card", "the action is a card (it goes to the graveyard after it resolves)"),
    )),
    Event("resolve", "the action on the stack resolves; legality is checked again, an impossible one is interrupted",
          (Text("action", "the declared action", required=True),)),
    Event("start_execution", "the action leaves the stack and starts executing (legality checked a last time)",
          (Text("action", "the declared action", required=True),)),
    Event("finish_execution", "an executing action completes; it can no longer be interrupted",
          (Text("action", "the declared action", required=True),)),
    Event("end_effect", "a continuous effect ends", (Text("effect", "the effect's id", required=True),)),
    Event("begin_effect", "a new continuous effect starts (its timestamp orders it among the others)",
          (Word("effect", "the effect, written like an item of `effects`"),)),
    Event("move", "an object moves to a zone (and a cell)", (
        Text("object", "the object", required=True),
        Text("zone", "where it goes", words="zones", required=True),
        Text("cell", "the cell it goes to (games with a board)", words="cells"),
    )),
    Event("modify", "an attribute changes by a delta (damage, healing, a token)", (
        Text("object", "the object", required=True),
        Text("attribute", "the attribute", words="attributes", required=True),
        Number("delta", "how much it changes (negative to lower it)", required=True),
    )),
    Event("set_flag", "an object's flag is set", (
        Text("object", "the object", required=True),
        Text("flag", "the flag", words="flags", required=True),
        Switch("value", "its new value", required=True),
    )),
    Event("end_turn", "the current turn ends: 'until end of turn' effects end"),
    Event("begin_turn", "a player's turn begins: their 'until your next turn' effects end",
          (Text("player", "whose turn begins", required=True),)),
)

#: the shared part of every vocabulary
SHARED = Vocabulary(
    zones=(Zone("none", "does not exist (yet): an object an event creates later, or one that ceased to exist"),),
    permissions=(Word("be_targeted", "being chosen as a target (a 'cannot be targeted' effect prohibits it)"),),
    action_statuses=ACTION_STATUSES,
    events=CORE_EVENTS,
)


def statuses(*names: str) -> tuple[Word, ...]:
    """The shared player statuses a game's rules give, by name."""
    return pick(STATUSES, *names)


def features(*names: str) -> tuple[Word, ...]:
    """The shared optional fields a game's rules read, by name."""
    return pick(FEATURES, *names)


#: the fields of a scenario file, by section (the model each section is), with their meanings: the format every
#: game shares, shown in each game's reference (a field only some games read is a ``FEATURES`` entry too)
STRUCTURE: dict[str, tuple[Word, ...]] = {
    "Scenario": (
        Word("id", "the scenario's id"),
        Word("game", "the game: its vocabulary and rules apply"),
        Word("title", "a one-line title"),
        Word("description", "free text"),
        Word("source", "where the example comes from (seed file, rule)"),
        Word("rules", "rule ids the scenario exercises"),
        Word("options", "the game's options (see Options)"),
        Word("players", "the players, in turn order (see Player)"),
        Word("board", "board cells: `rows` and `cols` make cells r1c1 .. rNcM; `cells`, `adjacent` add more"),
        Word("zones", "zones beyond the game's own"),
        Word("cards", "card libraries the objects' `card:` references use: files or folders, relative to the file "
                      "(default: the nearest cards/<game>/ up its folders)"),
        Word("objects", "cards, tokens, units, components, stack items (see Object)"),
        Word("effects", "continuous effects (see Effect)"),
        Word("turn", "whose turn it is, who holds priority (see Turn)"),
        Word("events", "what happens, in order (see Events)"),
        Word("expect", "statements about the outcome, each with the verdict it should get (see Expectation)"),
        Word("claims", "victory claims: `{kind: decisive_advantage | forced_win, player, within, expect: proved | "
                       "refuted}`"),
    ),
    "Player": (
        Word("id", "the player's id"),
        Word("name", "a display name"),
        Word("team", "the player's team"),
        Word("status", "the player's status at the start (default in_game)"),
        Word("attributes", "player attributes: name -> whole number"),
        Word("flags", "player flags: name -> true/false"),
    ),
    "Board": (
        Word("rows", "grid rows (with cols: cells r1c1 .. rNcM, orthogonally adjacent)"),
        Word("cols", "grid columns"),
        Word("cells", "more cell ids"),
        Word("adjacent", "cell -> the cells next to it (symmetric)"),
    ),
    "Object": (
        Word("id", "the object's id"),
        Word("name", "a display name (a card answers to it in '[text]')"),
        Word("owner", "the owning player (none for a component of the game); ownership never changes"),
        Word("controller", "the default controller, without control effects (default: the owner)"),
        Word("zone", "where it is (a zone); `none`: it does not exist yet"),
        Word("cell", "the board cell it stands on"),
        Word("types", "its types"),
        Word("attributes", "attributes: name -> whole number"),
        Word("properties", "properties: name -> text"),
        Word("abilities", "its abilities"),
        Word("flags", "flags: name -> true/false"),
        Word("attached_to", "the object it is attached to"),
        Word("token", "it is a token"),
        Word("card", "true/false: it is a card (default true; false for an ability on the stack); a card id: it is "
                     "that card of the library, with all its definition gives (what the object restates overrides it)"),
        Word("timestamp", "for an object placed as a card: when the effects its card grants began (required when it "
                          "grants some)"),
        Word("action", "for a stack item: what it does, `{kind, targets, params}` (see Action kinds)"),
        Word("status", "for a stack item: its action status at the start (default on_stack on the stack)"),
        Word("triggers", "triggered effects: at the start or end of its controller's turn, while it is in play "
                         "(see Trigger)"),
    ),
    "Trigger": (
        Word("id", "the trigger's name (distinct among the object's)"),
        Word("at", "start_of_turn (at a `begin_turn`) or end_of_turn (at an `end_turn`)"),
        Word("whose", "controller: a turn of the player who controls the object then ('your turn')"),
        Word("kind", "add: adds `value` to `attribute` of the chosen object"),
        Word("attribute", "the attribute it changes"),
        Word("value", "the whole number it adds (not 0)"),
        Word("targets", "a selector (see Selector; cell and controlled_by relative to the object): the objects in "
                        "play it may choose among"),
        Word("choose", "one: one object it matches then, chosen (every choice is an outcome); none: nothing"),
    ),
    "ActionSpec": (
        Word("kind", "the action kind"),
        Word("targets", "the objects (or players) it targets"),
        Word("params", "the kind's parameters"),
        Word("instructions", "what it does, in order, as one resolution (a kind that reads instructions)"),
        Word("source", "for a stack (chain) item: the card whose spell or ability it is (its prohibitions, "
                       "permissions and cost apply; the item's own controller controls it)"),
    ),
    "Effect": (
        Word("id", "the effect's id"),
        Word("source", "the object whose ability it is"),
        Word("controller", "the player controlling it (default: the source's controller)"),
        Word("timestamp", "when it was applied: of conflicting effects the latest wins"),
        Word("kind", "what it does (see Effect kinds)"),
        Word("targets", "the objects it applies to: a list of ids, or a selector `{objects, types, controlled_by, "
                        "zone, cell}` (controlled_by: a player, source_controller or source_opponent; cell: a cell "
                        "or source)"),
        Word("attribute", "for set/add: the attribute or property"),
        Word("value", "for set/add: the value"),
        Word("player", "for control: who gets control (a player, or source_controller: whoever controls the source "
                       "at each moment, a static ability's \"you\")"),
        Word("action", "for permit/prohibit: the action (a permission)"),
        Word("ability", "for grant/remove: the ability"),
        Word("duration", "how long it lasts (see Durations)"),
        Word("until_player", "for until_next_turn: whose next turn ends it"),
        Word("active", "it is active at the start (default true)"),
    ),
    "Selector": (
        Word("objects", "only these objects"),
        Word("types", "only objects with one of these types"),
        Word("controlled_by", "only objects this player controls (source_controller, source_opponent)"),
        Word("zone", "only objects in this zone"),
        Word("cell", "only objects on this cell (source: the effect source's cell; adjacent: a cell next to it)"),
        Word("other", "true: every object but the effect's source ('all other heroes')"),
        Word("element", "only objects of this element ('forest creatures'; a game that has elements reads it, "
                        "others refuse it)"),
    ),
    "Turn": (
        Word("active_player", "whose turn it is"),
        Word("priority", "who holds priority"),
        Word("focus", "who holds focus"),
        Word("phase", "the phase"),
        Word("showdown", "a showdown is going on"),
        Word("turn_order_next", "whose turn would begin next"),
    ),
    "Expectation": (
        Word("description", "what it says, in words"),
        Word("at", "check the state after the first `at` events (0: the start; default: the end)"),
        Word("step", "with `at`: the state after this named step inside event `at` (the game's steps of an event; "
                     "an unknown name is an error listing them)"),
        Word("verdict", "holds (in every outcome, the default), possible (in some, not all), impossible (in none)"),
        Word("because", "rule ids that must be in the rules behind the verdict"),
        Word("object", "the object the object atoms are about"),
        Word("zone", "it is in this zone"),
        Word("zone_owner", "it is in a zone of this player's (an owner's graveyard, a holder's hand)"),
        Word("owner", "this player owns it"),
        Word("controller", "this player controls it (none: nobody)"),
        Word("cell", "it is on this cell (none: on no cell)"),
        Word("attached_to", "it is attached to this object (none: to nothing)"),
        Word("exists", "it exists (is in no zone where it is gone)"),
        Word("attributes", "its attributes have these values (after effects)"),
        Word("properties", "its properties have these values (after effects)"),
        Word("flags", "its flags (stored or computed) have these values"),
        Word("abilities", "ability -> it has it (after effects)"),
        Word("allowed", "permission -> it may do it (permission against prohibition)"),
        Word("action", "the declared action the action atom is about"),
        Word("action_status", "the action has this status"),
        Word("effect", "the effect the effect atom is about"),
        Word("effect_active", "the effect is active"),
        Word("player", "the player the player atoms are about"),
        Word("status", "the player has this status"),
        Word("player_attributes", "the player's attributes have these values"),
        Word("player_flags", "the player's flags have these values"),
        Word("turn", "turn holders: `{active_player, priority, focus, showdown}` (none: nobody)"),
        Word("winner", "this player has won"),
        Word("unique", "the rules determine exactly one outcome"),
        Word("outcomes", "exactly this many distinct outcomes"),
    ),
}
