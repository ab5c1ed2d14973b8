"""Twilight Imperium 4 rule ids and their one-line texts: elimination, rule 75 of the Russian reference (seed 004).

The English living rules reference numbers the same rule 33: ``ti4.33.4a`` is an
alias of ``ti4.75.4a`` (``ALIASES``).
"""

RULES = {
    "ti4.75.1": "A player is eliminated when they have no ground forces on the board, no units with Production "
                "and control no planets.",
    "ti4.75.1a": "A player with a ground force on the board is not eliminated.",
    "ti4.75.1b": "A player with a unit that has the Production ability on the board is not eliminated.",
    "ti4.75.1c": "A player who controls a planet is not eliminated.",
    "ti4.75.2": "The eliminated player's faction and colour components (units, tokens, promissory notes, "
                "technologies, sheets), including those in their reinforcements, go to the box.",
    "ti4.75.3": "The eliminated player's agenda cards (laws) are discarded.",
    "ti4.75.4": "Promissory notes of other factions and colours the eliminated player holds return to their players.",
    "ti4.75.4a": "Promissory notes of the eliminated faction or colour go to the box, even if another player holds them.",
    "ti4.75.5": "The eliminated player's action cards are discarded.",
    "ti4.75.6": "The eliminated player's strategy cards, exhausted or readied, return to the common play area.",
    "ti4.75.7": "The eliminated player's secret objectives, scored or not, are shuffled into the secret objective deck.",
    "ti4.75.8": "If the eliminated player was the speaker, the speaker token passes to the player on their left.",
    "ti4.75.9": "If the game began with 5 or more players and 4 or fewer remain, players still pick one strategy "
                "card each.",
    "ti4.75.10a": "A faction technology with a Nekro Virus assimilation token stays in play when its player is "
                  "eliminated.",
    "ti4.75.10b": "The faction wormhole tokens of an eliminated Ghosts of Creuss player stay on the board.",
    "ti4.75.10c": "An eliminated Naalu player's \"0\" token held by another player stays with them until the end of the "
                  "status phase, then leaves the game.",
    "ti4.75.10d": "An eliminated Titans of Ul player's hero or promissory note attached to a planet, and their "
                  "attachment tokens, stay until the end of the game.",
    "ti4.75.10e": "Other players' command tokens in an eliminated Mahact player's fleet pool return to their "
                  "reinforcements.",
    "ti4.75.10f": "The eliminated player's command token on the Mahact player's command sheet stays in play, and so "
                  "does their unlocked commander.",
    "ti4.75.11": "Units the eliminated player captured return to their original owners' reinforcements.",
    "ti4.75.c4": "Only the Production ability counts for 75.1: a unit that makes units otherwise (the Arborec "
                 "flagship) does not prevent elimination.",
    "ti4.75.c5": "The eliminated player's home system stays a home system for game effects.",
    "ti4.75.c5a": "Effects that refer to \"another player's home system\" include an eliminated player's home system.",
    "ti4.75.c6": "The eliminated player's relic fragments go to the matching exploration discard pile; their relics "
                 "are purged.",
    "ti4.75.c7": "Captured units of the eliminated player stay with their captor; when returned they go to the box.",
    "ti4.strategy_phase.count": "With 5 or more players each picks one strategy card; with 4 or fewer, two.",
    "ti4.75.out": "An eliminated player no longer takes part in the game: nothing comes under their control (no "
                  "planet, no captured unit).",
    "ti4.control.planet": "Gaining control of a planet makes the player its controller; losing it leaves it "
                          "uncontrolled.",
    "ti4.capture": "A captured unit is placed on the captor's faction sheet; its owner does not change.",
    "ti4.capture.return": "A returned captured unit goes to its owner's reinforcements.",
    "ti4.transport": "Ground forces and fighters aboard a ship (attached to it) are on the board with it (75.1a), "
                     "move with it, and are destroyed with it: a ship that leaves the board takes them off it, to "
                     "their owner's reinforcements; a unit that moves itself leaves the ship.",
    "ti4.objective.score": "A scored objective goes to the scorer's play area.",
}

#: rule-id aliases (alias prefix -> canonical prefix): the English reference numbers rule 75 as 33
ALIASES: dict[str, str] = {"ti4.33": "ti4.75"}
