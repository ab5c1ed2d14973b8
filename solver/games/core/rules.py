"""The core rules every game shares: frame axiom, effect precedence, the action lifecycle, core events."""

#: rule id -> one-line description, for every rule of the core.
RULES = {
    "core.inertia": "Frame axiom: nothing changes zone, controller, cell or value unless a rule says so.",
    "core.static": "A static ability's effect is active exactly while its source is in play.",
    "core.timestamp": "Of conflicting continuous effects, the one applied last wins (a static ability: since its source last "
                      "entered or was attached); when it ends the next latest applies.",
    "core.control": "The controller is the player of the latest applicable control effect, else the default controller.",
    "core.outside": "An object outside the game (in a zone where it no longer exists) has no controller.",
    "core.new_object": "An object that changes zones, or is attached anew, is a new object: an effect that named it "
                       "does not follow it, and its own static abilities apply anew (they are the latest).",
    "core.value": "A characteristic takes the value of the winning 'set' effect, else its base value.",
    "core.add": "Applicable 'add' effects add to the characteristic.",
    "core.permission": "An object may perform an action if it has the ability or an effect permits it (and none prohibits it).",
    "core.prohibition": "An effect that prohibits an action forbids it.",
    "core.prohibition_beats_permission": "When one effect permits and another prohibits an action, the prohibition wins.",
    "core.declare": "A declared action whose every requirement holds goes on the stack.",
    "core.illegal": "An action that cannot be declared is illegal and never goes on the stack.",
    "core.resolve": "A stack action whose requirements still hold resolves (or starts executing) and its cost is paid; "
                    "an action already executing completes and can no longer be interrupted.",
    "core.interrupt": "A stack action whose requirements no longer hold is removed without resolving or paying.",
    "core.move": "A move event puts the object in the named zone and cell.",
    "core.modify": "A modify event changes the attribute by its delta.",
    "core.flag": "A set_flag event sets the flag.",
    "core.effect_begins": "A begin_effect event makes the effect active.",
    "core.effect_ends": "An end_effect event makes the effect inactive.",
    "core.end_of_turn": "At end of turn, 'until end of turn' effects end.",
    "core.next_turn": "When a player's turn begins, that player's 'until your next turn' effects end.",
    "core.begin_turn": "A beginning turn makes its player the active player, who receives priority.",
}

DEFAULT_IDS = {
    "latest": "core.timestamp", "control": "core.control", "value": "core.value", "add": "core.add",
    "permission": "core.permission", "cannot": "core.prohibition",
    "prohibit_beats_permit": "core.prohibition_beats_permission", "static": "core.static",
    "declare": "core.declare", "illegal": "core.illegal", "resolve": "core.resolve", "interrupt": "core.interrupt",
}



#: rule-id aliases (alias prefix -> canonical prefix): none for the core
ALIASES: dict[str, str] = {}
