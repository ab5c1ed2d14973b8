"""Riftbound rule ids and their one-line texts: conceding (seed 001) and the chain rules it leans on."""

RULES = {
    "riftbound.concede": "A player who concedes loses and leaves the game: their status is conceded.",
    "riftbound.concede.last_standing": "When a concession leaves a single player in the game (two players: the other one), that player wins.",
    "riftbound.concede.team": "In a team game the conceding player's whole team loses and is removed from the game.",
    "riftbound.concede.team_wins": "After a concession, a team that is the only one left wins.",
    "riftbound.concede.continue": "A free-for-all goes on with the remaining players in their kept turn order, with no new setup: "
              "the turn passes to the next player still in the game.",
    "riftbound.concede.banish": "Removal step 1: banish every permanent (unit, gear), rune and facedown card on the board that the leaver "
            "owns or controls (either relation suffices).",
    "riftbound.concede.owner_zone": "A card leaving the board goes to its owner's zone: it is its owner's again and effects giving "
                "another player control of it end.",
    "riftbound.concede.battlefield": "Removal step 2: a battlefield the leaver provided, if in use, is replaced by a battlefield the game "
                 "creates in its place.",
    "riftbound.concede.battlefield.in_place": "The replacement keeps the place: the remaining players' units and hidden cards at the battlefield stay.",
    "riftbound.concede.blank": "The created battlefield has no ability: nothing of the replaced battlefield's text carries over.",
    "riftbound.concede.effects_end": "A card's continuous effect applies exactly while the card is on the board; when the card leaves "
                 "(a replaced battlefield), its effects end at once.",
    "riftbound.concede.recompute": "Values are recomputed from the effects that still apply: base value plus active modifiers.",
    "riftbound.mighty": "A unit is mighty while its power is 5 or more.",
    "riftbound.battlefield.units_here_plus_one": "A battlefield whose text gives +1 power to the units there "
                                                 "(units_here_plus_one) adds 1 to the power of each unit at it, while "
                                                 "it is on the board with that text.",
    "riftbound.concede.remove_owned": "Removal step 3: every card the leaver owns is removed from the game; a spell "
                                      "card of theirs on the chain that another player controls leaves it too and "
                                      "never resolves (interrupted); one the leaver controls is step 4's (countered).",
    "riftbound.concede.counter": "Removal step 4: spells and abilities the leaver controls on the chain are countered, and only those "
             "(control, not ownership of their source, decides).",
    "riftbound.concede.influence": "The leaving player stops making choices and influencing the game: effects that give "
                                   "them control of a card that stays end, and a card's 'you' gives them nothing.",
    "riftbound.concede.turn": "If the leaver was the turn player, the next player in turn order still in the game continues the turn.",
    "riftbound.concede.focus": "Focus passes to the next player still in the game only if the leaver held it.",
    "riftbound.concede.priority": "Priority passes to the next player still in the game only if the leaver held it.",
    "riftbound.concede.passes.focus": "Passes already made stand: if every remaining player has passed focus, the showdown ends.",
    "riftbound.concede.passes.priority": "Passes already made stand: if every remaining player has passed priority, the last finalised "
                     "item remaining on the chain resolves.",
    "riftbound.chain.restore_priority": "After a chain item resolves, priority is restored normally: the turn player receives it and passes "
             "start over.",
    "riftbound.chain.targets": "A chain item's targets must be legal when it is played and again when it resolves.",
    "riftbound.card.kill": "Kill: the target unit on the board goes to its owner's trash.",
    "riftbound.card.counter": "Counter: the target spell or ability on the chain is countered.",
}

#: rule-id aliases (alias prefix -> canonical prefix)
ALIASES: dict[str, str] = {}
