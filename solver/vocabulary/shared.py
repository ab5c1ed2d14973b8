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
    Word("extra_zones", "`zones`: zones beyond the game's own (no game reads any)"),
    Word("phase", "`turn.phase` (no rule reads the phase)"),
    Word("turn_order_next", "`turn.turn_order_next` (no rule reads it)"),
)
#: where each feature's fields sit in a scenario ('*' for any list item)
FEATURE_PATHS: dict[str, tuple[tuple[str, ...], ...]] = {
    "board": (("board",), ("objects", "*", "cell"), ("events", "*", "cell"), ("effects", "*", "targets", "cell"),
              ("events", "*", "effect", "targets", "cell"), ("expect", "*", "cell")),
    "teams": (("players", "*", "team"),),
    "focus": (("turn", "focus"), ("turn", "showdown"), ("expect", "*", "turn", "focus"),
              ("expect", "*", "turn", "showdown")),
    "claims": (("claims",),),
    "extra_zones": (("zones",),),
    "phase": (("turn", "phase"),),
    "turn_order_next": (("turn", "turn_order_next"),),
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

