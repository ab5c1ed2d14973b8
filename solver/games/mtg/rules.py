"""Magic: The Gathering rule ids and their one-line texts: 800.4a-800.4n (seed 000) and the rules they lean on."""

RULES = {
    "mtg.800.4": "A player who leaves a multiplayer game (loses, concedes ...) is no longer in the game.",
    "mtg.800.4a.owned": "800.4a: when a player leaves, all objects they own leave the game.",
    "mtg.800.4a.control_ends": "800.4a: any effects that give the leaving player control of objects or players end.",
    "mtg.800.4a.stack_ceases": "800.4a: then, objects on the stack not represented by cards that the player "
                               "controls cease to exist.",
    "mtg.800.4a.exile": "800.4a: then, any objects the player still controls are exiled. Not a state-based action.",
    "mtg.800.4a.priority": "800.4a: if the player had priority, it passes to the next player in turn order still in the game.",
    "mtg.800.4b.control": "800.4b: an object that would come under the control of a player who left does not.",
    "mtg.800.4b.token": "800.4b: a token that would be created under the control of a player who left is not created.",
    "mtg.800.4b.enter": "800.4b: an object that would enter the battlefield or the stack under the control of a player "
                        "who left remains in its zone.",
    "mtg.800.4b.player": "800.4b: a player who would be controlled by a player who left is not.",
    "mtg.800.4c": "800.4c: when a control effect ends, no other effect gives control to a player in the game and the "
                  "default controller left, the object is exiled at once (not a state-based action).",
    "mtg.800.4d": "800.4d: an object that would be created in a zone owned by a player who left is not created.",
    "mtg.800.4d.trigger": "800.4d: a triggered ability controlled by a player who left is not put on the stack.",
    "mtg.800.4e": "800.4e: combat damage that would be assigned to a player who left is not assigned.",
    "mtg.800.4f": "800.4f: an object requiring a player who left to choose: its controller chooses another player "
                  "(another opponent if the choice was an opponent's, if possible).",
    "mtg.800.4g": "800.4g: a rule requiring a player who left to choose: the next player in turn order chooses.",
    "mtg.800.4h": "800.4h: information about a player who left is the last known information from while they were "
                  "in the game.",
    "mtg.800.4h.current": "800.4h: information about a player in the game is their current information.",
    "mtg.800.4h.actions": "800.4h: an effect that looks for actions players took finds those of a player who left.",
    "mtg.800.4i": "800.4i: a player leaving during their own turn: the turn continues with no active player.",
    "mtg.800.4i.priority": "800.4i: when the active player would receive priority and there is none, the next player "
                           "in turn order still in the game receives it.",
    "mtg.800.4j": "800.4j: a turn a player who left would have begun does not begin.",
    "mtg.800.4k": "800.4k: effects lasting until a leaver's next turn last until that turn would have begun; they "
                  "neither end at once nor last forever.",
    "mtg.800.4m": "800.4m: objects a player who left owns in the ante zone do not leave the game.",
    "mtg.800.4n": "800.4n: Planechase: if the planar controller would leave, the next player in turn order becomes "
                  "the planar controller first.",
    "mtg.110.2": "A permanent put onto the battlefield is controlled by the player under whose control it was put "
                 "there (its default controller), without any control effect.",
    "mtg.111.2": "A token is created under the control of the player who creates it, who owns it.",
    "mtg.603.2": "A triggered ability of an object that is not on the battlefield does not trigger.",
    "mtg.603.3": "A triggered ability is put on the stack under the control of its controller.",
    "mtg.608.2b": "An ability whose target is illegal when it would resolve does not resolve.",
    "mtg.510.2": "Combat damage assigned to a player is subtracted from their life total.",
    "mtg.117.3b": "The active player receives priority after a spell or ability resolves.",
    "mtg.500.begin_turn": "A player's turn begins: they become the active player and receive priority.",
    "mtg.choice": "A player required to make a choice and still in the game makes it.",
    "mtg.count": "An effect that counts actions adds up the counters of players in the game.",
    "mtg.return": "A returned card enters the battlefield under its owner's control.",
    "mtg.704.5m": "State-based action: an Aura attached to an object no longer on the battlefield goes to its "
                  "owner's graveyard.",
    "mtg.704.5d": "State-based action: a token in a zone other than the battlefield ceases to exist.",
}

#: rule-id aliases (alias prefix -> canonical prefix)
ALIASES: dict[str, str] = {}
