"""Magic: The Gathering rule ids and their one-line texts: 800.4a-800.4n (seed 000) and the rules a multiplayer game
tests them through (targets, damage and life, state-based actions, 610.3 returns, turns, range of influence)."""

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
    "mtg.613.7m": "613.7m: if two or more objects would receive a timestamp simultaneously (entering a zone or "
                  "becoming attached at the same time), the active player determines their relative timestamp order.",
    "mtg.613.1f": "613.1f: layer 6: ability-adding and ability-removing effects apply: an object has an ability it "
                  "has printed or an effect grants it, unless an effect removes it.",
    "mtg.613.7": "613.7: within a layer, effects apply in timestamp order: of effects that grant and remove one "
                 "ability, the one with the latest timestamp wins (a static ability's: when its source entered).",
    "mtg.614.1d": "614.1d: 'creatures your opponents control enter the battlefield tapped' (a static ability of a "
                  "permanent on the battlefield): a creature entering under the control of an opponent of the "
                  "permanent's controller enters tapped; it stops when its source leaves the battlefield or its "
                  "controller leaves the game (611.3a, 800.4a).",
    "mtg.502.3": "502.3: as a player's turn begins (the untap step), they untap all permanents they control.",
    "mtg.110.5b": "110.5b: permanents enter the battlefield untapped, unflipped, face up and phased in unless a "
                  "spell or ability says otherwise.",
    "mtg.110.5b.tapped": "A spell or ability that puts a permanent onto the battlefield tapped: it enters tapped.",
    "mtg.110.2": "A permanent put onto the battlefield is controlled by the player under whose control it was put "
                 "there (its default controller), without any control effect.",
    "mtg.111.2": "A token is created under the control of the player who creates it, who owns it.",
    "mtg.603.2": "A triggered ability of an object that is not on the battlefield does not trigger.",
    "mtg.603.3": "A triggered ability is put on the stack under the control of its controller.",
    "mtg.603.3d": "A triggered ability whose choices cannot be made legally as it is put on the stack (a target it "
                  "names is not a legal target then, 115.1) is simply removed from the stack: it never waits to "
                  "resolve (status illegal).",
    "mtg.603.3a": "603.3a: a triggered ability is controlled by the player who controlled its source when it "
                  "triggered, unless it is a delayed triggered ability.",
    "mtg.603.3a.none": "A triggered ability whose source gives it no controller does not trigger: the source is "
                       "outside the game (108.4a), or, for a leaves-the-battlefield ability, has not left the "
                       "battlefield.",
    "mtg.603.10a": "603.10a: leaves-the-battlefield abilities look back in time: such an ability is controlled by the "
                   "player who controlled its source immediately before it left the battlefield.",
    "mtg.603.7d": "603.7d: a delayed triggered ability is controlled by the player who controlled the spell or "
                  "ability that created it (the scenario gives that player).",
    "mtg.608.2b": "A spell or ability whose targets are all illegal when it would resolve does not resolve: it leaves "
                  "the stack without effect.",
    "mtg.608.2b.partial": "A spell or ability with some legal targets resolves, but does not affect its illegal ones.",
    "mtg.608.2c": "A spell or ability follows its instructions in the order written, as one resolution: no "
                  "state-based action is checked between them (704.3: only once it has resolved).",
    "mtg.701.26": "To tap a permanent is to turn it sideways; to untap it is to return it upright.",
    "mtg.121.1": "A player who draws a card puts the top card of their library into their hand (the order of the "
                 "library not known: any card of it).",
    "mtg.115.1": "A spell or ability with targets is put on the stack only if every target it names is legal then.",
    "mtg.115.2": "A target must be what the spell or ability targets: an object in the zone it targets (a permanent "
                 "on the battlefield, a card in exile), of the type it names, or a player; one that changed zone or "
                 "left the game is no longer legal (608.2b).",
    "mtg.115.restriction": "A target restricted to an opponent (or to its controller) must be that player, or an "
                           "object that player controls.",
    "mtg.800.4.target": "A player who left the game is not a legal target.",
    "mtg.800.4.absent": "A player who left the game is dealt no damage and neither gains nor loses life.",
    "mtg.104.3a": "A player may concede at any time: they leave the game at once (not a state-based action).",
    "mtg.104.3e": "An effect may state that a player loses the game: they lose it (in a two-player game the game is "
                  "over; in a game of three or more they leave it: 800.4a).",
    "mtg.104.2a": "A player still in the game wins the game when all their opponents have left it (conceded, lost or "
                  "left); this happens immediately. In a two-player game: when the other player concedes or loses.",
    "mtg.104.2c": "In a game between teams, a team with a player still in the game wins when all other teams have "
                  "left it: each player on it wins, even one who had lost.",
    "mtg.destroy": "Destroy: a permanent is put from the battlefield into its owner's graveyard.",
    "mtg.exile": "Exile: the object is put into exile.",
    "mtg.return_to_hand": "Return to hand: a permanent is put into its owner's hand.",
    "mtg.610.3": "An object exiled until its exiler leaves the battlefield returns to the battlefield immediately "
                 "after the exiler leaves (no state-based action in between); one no longer in exile does not.",
    "mtg.610.3a": "If the exiler already left the battlefield when the object would be exiled until it leaves, the "
                  "object does not move.",
    "mtg.610.3c": "An object returned to the battlefield this way returns under its owner's control.",
    "mtg.120.3a": "Damage dealt to a player (other than combat damage) makes that player lose that much life.",
    "mtg.120.3e": "Damage dealt to a creature on the battlefield is marked on it.",
    "mtg.119.3": "An effect that makes a player gain or lose life changes their life total by that much.",
    "mtg.704.5a": "State-based action: a player with 0 or less life loses the game (in a game of three or more they "
                  "then leave it: 800.4a, in the same check).",
    "mtg.704.5f": "State-based action: a creature with toughness 0 or less is put into its owner's graveyard.",
    "mtg.704.5g": "State-based action: a creature with toughness above 0 and damage marked on it at least equal to "
                  "its toughness is destroyed (put into its owner's graveyard).",
    "mtg.400.7": "An object that changes zones becomes a new object with no memory of its previous existence: the "
                 "damage marked on it is gone, a spell or ability that targeted it no longer does, even if it comes "
                 "back (608.2b), and an effect that named it (a control effect) does not follow it.",
    "mtg.108.4a": "An object outside the game has no controller (108.4a: only an object on the battlefield or the "
                  "stack has one; what is modelled here is the object that left the game).",
    "mtg.514.2": "In the cleanup step of each turn, damage marked on permanents is removed.",
    "mtg.500.7": "500.7: an effect can give a player an extra turn: it is added directly after the current turn; of "
                 "several, the most recently created is taken first (turn order then goes on as before).",
    "mtg.500.next": "When a turn ends, the next player in turn order begins their turn: they become the active "
                    "player and receive priority.",
    "mtg.801.2c": "Range of influence (801.2): the players within N seats of a player, counted among those in the "
                  "game, are in that player's range; it is determined again as each turn begins.",
    "mtg.801.4": "Objects and players outside a player's range of influence cannot be the targets of spells or "
                 "abilities that player controls (an object is in range when its controller is).",
    "mtg.801.5a": "With a limited range of influence, a player asked to choose a player (800.4f: who makes a "
                  "choice instead of a leaver) chooses one within their range.",
    "mtg.801.10": "A spell or ability does not affect players or objects outside its controller's range of influence.",
    "mtg.510.2": "Combat damage assigned to a player is subtracted from their life total.",
    "mtg.117.3b": "The active player receives priority after a spell or ability resolves.",
    "mtg.500.begin_turn": "A player's turn begins: they become the active player and receive priority.",
    "mtg.choice": "A player required to make a choice and still in the game makes it.",
    "mtg.count": "An effect that counts actions adds up the counters of players in the game.",
    "mtg.return": "A returned card enters the battlefield under its owner's control.",
    "mtg.704.5m": "State-based action: an Aura attached to an object no longer on the battlefield goes to its "
                  "owner's graveyard.",
    "mtg.704.5d": "State-based action: a token in a zone other than the battlefield ceases to exist.",
    "mtg.704.5n": "State-based action: an Equipment attached to an object no longer on the battlefield becomes "
                  "unattached; it stays on the battlefield.",
    "mtg.707.10": "707.10: to copy a spell or ability is to put a copy of it on the stack (only of one on the "
                  "stack): not a card, controlled and owned by the player who put it there, with the original's "
                  "characteristics and choices (kind, parameters, targets).",
    "mtg.707.10c": "707.10c: an effect that copies a spell may let its controller choose new targets for the copy: "
                   "each new target must be legal (else the copy is not put on the stack with it).",
    "mtg.707.10a": "707.10a/704.5e: a copy of a spell in a zone other than the stack ceases to exist: it leaves the "
                   "stack (resolving or not) into no zone, never into a graveyard.",
    "mtg.800.4d.copy": "800.4d-like: a copy that would be put on the stack under the control of a player who left "
                       "is not put on the stack.",
    "mtg.702.40a": "702.40a: storm: when a spell with storm is cast, it is copied once for each other spell cast "
                   "before it this turn (each copy may have new targets); copies resolve before the original.",
    "mtg.return_from_graveyard": "An effect returns a card from a graveyard: to its owner's hand, or onto the "
                                 "battlefield under its owner's control.",
    "mtg.return_from_graveyard.absent": "A card an effect would return from a graveyard that is no longer there "
                                        "stays where it is (400.7: it is a new object).",
    "mtg.return_from_graveyard.yours": "'Target card from your graveyard': the target must be a card in the "
                                       "graveyard of the spell's or ability's controller (a card they own).",
    "mtg.113.6": "113.6: an ability that the card says works from a graveyard functions only while its source is "
                 "there: it triggers only then.",
    "mtg.113.8": "113.8: a triggered ability whose source had no controller (a card in a graveyard) is controlled "
                 "by the source's owner.",
}

#: rule-id aliases (alias prefix -> canonical prefix)
ALIASES: dict[str, str] = {}

#: rules that only leave something to a player's choice: every choice is an outcome, so switching one off narrows
#: nothing and no scenario can fail without it (its scenario shows both outcomes)
CHOICES = ("mtg.613.7m",)
