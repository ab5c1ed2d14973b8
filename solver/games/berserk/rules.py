"""Berserk (Берсерк) rule ids and their one-line texts (seeds 002 and 003).

Ids follow the seed's numbering (``berserk.524.2``); a clause that has no number
in the seed is named by its topic (``berserk.conservation``).
"""

RULES = {
    "berserk.conflict.latest": "Two directly contradicting continuous effects on one card: the one applied last wins; "
                               "the other is ignored until the later one is removed.",
    "berserk.conflict.anew": "A card that enters play again or is attached again is a new card: its effects are "
                             "applied anew (they are the last applied), and an effect imposed on it before does not "
                             "follow it.",
    "berserk.element.selector": "An effect choosing cards by element ('forest creatures') sees, if it sets the "
                                "element itself, the element the effects on the element applied before it produce "
                                "(printed, then each in the order applied); any other effect, or a trigger, sees "
                                "the card's element now.",
    "berserk.conservation": "Two cards (not symbiotes or equipment) on one cell: the controller of the card that came "
                            "last must declare its move in their next Choice subphase, or it dies.",
    "berserk.conservation.carry": "Declaring another obligatory ability in the Choice subphase carries the duty to "
                                  "move over to the player's next Choice subphase.",
    "berserk.conservation.symbiote": "A symbiote does not count for conservation: it never takes the duty to move, "
                                     "and sharing its cell creates no duty for another card.",
    "berserk.conservation.equipment": "Equipment does not count for conservation: it never takes the duty to move, "
                                      "and sharing its cell creates no duty for another card.",
    "berserk.cell.leave": "Only a card in play stands on a cell of the board: a card that leaves play (dies, is "
                          "destroyed) leaves its cell, which stays empty.",
    "berserk.movement": "A declared movement that resolves puts the card on the named cell (and ends its duty to "
                        "move).",
    "berserk.movement.adjacent": "A card moves only from the cell it stands on to an adjacent cell of the board.",
    "berserk.movement.free": "A card that counts for conservation cannot move onto a cell where another such card "
                             "stands.",
    "berserk.524.2": "When one effect permits (or obliges) an action and another prohibits it, the prohibition wins.",
    "berserk.525.1": "An action that cannot be declared is illegal and is never put on the stack.",
    "berserk.525.1.paid": "An action that cannot be paid for is illegal: one paid by closing its source cannot be "
                          "paid while the source is closed (closing a closed card is illegal).",
    "berserk.525.1.open": "It is illegal to open a card that is already open.",
    "berserk.525.1.close": "It is illegal to close a card that is already closed.",
    "berserk.525.1.reveal": "It is illegal to reveal a card that is already revealed.",
    "berserk.525.1.hide": "It is illegal to hide a card that is already hidden.",
    "berserk.525.2": "'Cannot [text]' forbids the card an action, a choice of target, or receiving an effect.",
    "berserk.525.3": "'[card] loses [text]' is illegal to declare against a card that does not have [text].",
    "berserk.525.3.loses": "A resolved '[card] loses [text]' takes [text] away as an effect applied then: the last "
                           "applied, it wins over a grant applied before it (an ability granted by an effect is "
                           "lost too); a grant applied after it gives [text] back.",
    "berserk.526.1": "An action that became impossible is interrupted: removed from the stack before it would resolve "
                     "(525.1), without being paid for.",
    "berserk.526.1.executing": "An action that is already executing (has left the stack) cannot be interrupted.",
    "berserk.payment": "A resolving action is paid for: its source is closed (tapped).",
    "berserk.action.effect": "A resolved action has the effect its text describes.",
    "berserk.card.finishing_blow": "Finishing blow X: destroys a creature that has X or fewer lives left; "
                                   "otherwise it cannot be executed.",

    "berserk.532.5.4": "Incarnation is a named ability: with several 'incarnation X' only the one with the highest X "
                       "applies.",
    "berserk.532.5.4.once": "Each creature may use incarnation once per battle.",
    "berserk.532.6": "Declaring a summon, revival or incarnation names the cell it goes to, except for flying "
                     "creatures, terrain and cards placed in the auxiliary zone, which name none.",
    "berserk.532.6.free": "The cell a summon, revival or incarnation names is part of its declaration: naming a cell "
                          "where a card that counts for conservation stands (for a card that counts) cannot be "
                          "declared, so the action is illegal (525.1); a flyer names no cell.",
    "berserk.532.7": "Taking control of a card makes you its controller; the opponent stops controlling it.",
    "berserk.532.7.lose": "When an effect makes you lose control of a card, the opponent becomes its controller.",
    "berserk.532.7.keep": "If the card cannot be taken into the opponent's squad, you keep controlling it until "
                          "another effect changes its owner.",
    "berserk.532.8": "'Cannot be taken into a squad with [text]': a player whose squad holds [text] cannot summon, "
                     "revive, incarnate or take control of the card (nor receive it).",
    "berserk.532.8.recruit": "In the Recruit subphase a player cannot recruit the card if the squad holds [text], "
                             "nor recruit [text] if the squad holds the card.",
    "berserk.recruit": "A recruited card joins its player's squad in play.",
    "berserk.summon": "A summoned, revived or incarnated card enters play (or the auxiliary zone) under the "
                      "declarer's control, on the named cell.",
    "berserk.602.1.no_creatures": "Clean victory: no creature under the opponent's control is left in play (creatures "
                                  "taken under your control count for you).",
    "berserk.602.1.concede": "Clean victory: the opponent concedes.",
    "berserk.602.1.decisive_advantage": "Clean victory: the player has a decisive advantage (wins whatever the dice, "
                                        "and cannot lose).",
    "berserk.602.1.card_text": "Clean victory: an ability whose text says the player won or the opponent lost is "
                               "fulfilled.",
    "berserk.602.1.penalty": "Clean victory: the opponent is given a penalty loss.",
    "berserk.602.1.redeal": "Clean victory: the opponent declares a redeal with one card in hand.",
    "berserk.602.1.game_over": "A clean victory ends the game: once a player has won, lost or conceded, no later "
                               "event awards one (602.1 awards it to a player in the game, against an opponent in it).",
    "berserk.trigger": "Card text 'at the start (end) of your turn, [effect] one [selector]': at the beginning (end) "
                       "of a turn of the player who controls the card while it is in play, the effect applies to one "
                       "object in play the selector matches at that moment, chosen; if none matches, nothing "
                       "happens (card text; no seed rule).",
    "berserk.combat.tiers": "A strike is weak, medium or strong by the die value (ruleset table, scenario options "
                            "may override it).",
    "berserk.combat.strike": "An attack deals the attacker's strike of the rolled tier to the target.",
    "berserk.combat.counterstrike": "An attacked creature strikes back at its attacker with its own roll.",
    "berserk.combat.protection": "Protection from (non-)magical attacks of strength X or more: such a strike deals "
                                 "no damage.",
    "berserk.combat.reach": "A flying creature can be attacked only by flying or ranged creatures.",
    "berserk.combat.melee": "On a board, a creature that does not fly strikes a creature on a cell next to its own or "
                            "next to a free cell it can reach by moving up to its movement over free cells (cells "
                            "where a living creature stands are in the way); a flying creature strikes anywhere.",
    "berserk.combat.ranged": "On a board, a ranged creature also shoots a creature that does not fly within its range "
                             "(cells), whatever stands between.",
    "berserk.combat.attack": "Each creature attacks at most once per turn.",
    "berserk.combat.death": "A creature whose life drops to 0 or less is destroyed.",
    "berserk.combat.regen": "At the end of each round a living creature heals its regeneration, up to its maximum "
                            "life.",
}

#: rule-id aliases (alias prefix -> canonical prefix)
ALIASES: dict[str, str] = {}
