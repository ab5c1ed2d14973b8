"""Every word a Magic: The Gathering scenario may use (800.4: a player leaves a game of three or more; targets,
damage and life, state-based actions, 610.3 returns, turns and the range of influence).

Spells and abilities whose effect the scenario does not model (``spell``, ``ability``) take no targets: targets
would be accepted and ignored, so they are refused; the kinds that do something say what they target.
"""
from solver.vocabulary.shared import SHARED, features, statuses
from solver.vocabulary.words import Ability, Action, Declared, Event, Number, Switch, Text, Type, Word, Zone

#: the parameters of the kinds that do something
_AMOUNT = Number("amount", "how much damage or life", lo=0, required=True)
_WHOSE = Text("whose", "targets only players who are, or objects controlled by, an opponent of its controller "
                       "(opponent) or its controller (you)", values=("opponent", "you"))

_PER = Text("per", "multiplies the amount: by the opponents of its controller this resolution dealt damage "
                   "(an instruction only)", values=("opponent_dealt_damage",))
_COUNT = Number("amount", "how many cards", lo=0, hi=20, required=True)

VOCABULARY = SHARED.extend(
    game="mtg",
    zones=(
        Zone("battlefield", "the battlefield (permanents)", play=True),
        Zone("hand", "a player's hand", whose="owner"),
        Zone("library", "a player's library", whose="owner"),
        Zone("graveyard", "a player's graveyard", whose="owner"),
        Zone("exile", "exile: one zone the rules share, where each card is its owner's ('Bianca's exile': "
                      "zone_owner)", whose="owner"),
        Zone("stack", "spells and abilities waiting to resolve"),
        Zone("ante", "the ante zone: cards there stay when their owner leaves (800.4m)"),
        Zone("command", "the command zone (planes of Planechase)"),
        Zone("outside", "outside the game: objects whose owner left it (800.4a)"),
    ),
    types=(
        Type("creature", "a creature"),
        Type("artifact", "an artifact"),
        Type("enchantment", "an enchantment"),
        Type("aura", "an Aura: attached to an object; put into its owner's graveyard when that object leaves the "
                     "battlefield (704.5m)", requires=("enchantment",)),
        Type("equipment", "an Equipment: attached to a creature; unattached, staying on the battlefield, when that creature "
                          "leaves it (704.5n)", requires=("artifact",)),
        Type("land", "a land"),
        Type("planeswalker", "a planeswalker"),
        Type("instant", "an instant (a card on the stack while cast)"),
        Type("sorcery", "a sorcery (a card on the stack while cast)"),
        Type("plane", "a plane (Planechase) in the command zone: its planar controller passes first (800.4n)"),
        Type("ability", "an activated or triggered ability on the stack: not a card (800.4a: it ceases to exist)"),
    ),
    abilities=(
        Ability("attack", "the creature can attack: the base of the 'attack' permission (combat itself is not "
                          "modelled)"),
        Ability("flying", "the creature has flying (702.9; layer 6: `grant` and `remove` effects apply in timestamp "
                          "order, 613.7; blocking is not modelled)"),
        Ability("opponents_enter_tapped", "a static ability (Authority of the Consuls): creatures your opponents "
                                          "control enter the battlefield tapped (614.1d); it works while its source "
                                          "is on the battlefield and its controller in the game (611.3a, 800.4a)"),
    ),
    attributes=(
        Number("power", "a creature's power"),
        Number("toughness", "a creature's toughness: 0 or less puts it into its owner's graveyard (704.5f); damage "
                            "at least equal to it destroys it (704.5g)"),
        Number("damage", "damage marked on a creature (120.3e); removed in the cleanup (514.2) and when it leaves "
                         "the battlefield (400.7)", lo=0),
        Number("library_position", "a card in a library: its place from the top (1: the top card); the cards with one "
                                   "are the top of their owner's library in that order, those without lie below "
                                   "them in an order not known; a draw takes the top cards (121.1)", lo=1),
    ),
    flags=(
        Word("tapped", "the permanent is tapped (turned sideways; `set_flag` taps or untaps it): a permanent enters "
                       "the battlefield untapped, unless it is put onto it tapped (110.5b)"),
    ),
    permissions=(
        Word("attack", "may attack: what 'can't attack' (Pacifism) prohibits and haste-like effects permit"),
    ),
    player_attributes=(
        Number("life", "life total (20 when not given: 103.4): damage lowers it (510.2, 120.3a), life gain and loss "
                       "change it (119.3); at 0 or less the player loses (704.5a); last known information after "
                       "leaving (800.4h)", default=20),
        Number("spells_cast", "spells the player cast this turn (count_actions counts them; 0 when not given)", lo=0,
               default=0),
    ),
    actions=(
        Action("spell", "a spell whose effect the scenario does not model: it waits on the stack and resolves; with "
                        "`instructions`, it does them in order, as one resolution (608.2c)", instructions=True),
        Action("ability", "an activated or triggered ability whose effect the scenario does not model; with "
                          "`instructions`, it does them in order, as one resolution (608.2c)", instructions=True),
        Action("return_to_battlefield", "Astral Slide's delayed trigger: returns its targets (cards in exile) to the "
                                        "battlefield under their owner's control; a target gone from exile is not "
                                        "returned, and with all gone it does not resolve (608.2b)", (1, 99),
               (_WHOSE,)),
        Action("return_from_graveyard", "returns its target (a creature card in its controller's graveyard) to "
                                        "its owner's hand or onto the battlefield under their control (`to`); a "
                                        "target no longer there is not returned (608.2b)", (1, 99),
               (Text("to", "where the card goes: hand or battlefield", values=("hand", "battlefield"),
                     required=True),)),
        Action("destroy", "destroys its targets (permanents): each goes to its owner's graveyard", (1, 99), (_WHOSE,)),
        Action("exile", "exiles its targets (permanents)", (1, 99), (_WHOSE,)),
        Action("return_to_hand", "returns its targets (permanents) to their owners' hands", (1, 99), (_WHOSE,)),
        Action("exile_until_leaves", "exiles its target (a permanent) until its source leaves the battlefield; then it "
                                     "returns under its owner's control (610.3); it needs a `source`", (1, 1),
               (_WHOSE,)),
        Action("damage", "deals `amount` damage to each target: a creature on the battlefield or a player (as an "
                         "instruction, `each`: opponent, player or creature in range, 801.10)", (1, 99),
               (_AMOUNT, _WHOSE), each=("opponent", "player", "creature")),
        Action("gain_life", "each target player gains `amount` life (as an instruction, `each: you` ...; `per: "
                            "opponent_dealt_damage` multiplies it by the opponents this resolution dealt damage)",
               (1, 99), (_AMOUNT, _WHOSE, _PER), each=("you", "opponent", "player")),
        Action("lose_life", "each target player loses `amount` life (as an instruction, `each: you` ...)", (1, 99),
               (_AMOUNT, _WHOSE), each=("you", "opponent", "player")),
        Action("draw", "each target player draws `amount` cards (121.1): from the top of their library, and when its "
                       "order is not known, any cards of it (each a possible outcome); as an instruction, `each: "
                       "you` ...", (1, 99), (_COUNT, _WHOSE), each=("you", "opponent", "player")),
        Action("tap", "taps its targets (permanents: turned sideways, 701.26)", (1, 99), (_WHOSE,)),
        Action("untap", "untaps its targets (permanents, 701.26)", (1, 99), (_WHOSE,)),
        Action("extra_turn", "its target player (as an instruction, `each: you`: its controller) gets an extra turn, "
                             "added directly after the current one (500.7), as the `extra_turn` event adds one; the "
                             "next end_turn begins it, or passes over it if that player left (800.4j, 800.4k)",
               (1, 1), (), each=("you",)),
        Action("each_opponent_loses_life", "each opponent of its controller in the game (and in range: 801.10) "
                                           "loses `amount` life; it has no targets", (0, 0), (_AMOUNT,)),
    ),
    action_statuses=(
        Word("ceased", "ceased to exist while on the stack: its controller left the game (800.4a), or it is a copy "
                       "moved off the stack (707.10a)"),
    ),
    events=(
        Event("leave_game", "a player leaves the game (800.4a: owned objects leave, control effects end, stack "
                            "objects cease, the rest is exiled); in a two-player game they concede or lose and the "
                            "other player wins (104.2a); only a player in the game leaves it: one who has left, lost, "
                            "conceded or won is a located error", (
            Text("player", "who leaves", required=True),
            Text("status", "their status afterwards (default left; in a two-player game conceded or lost)",
                 values=("left", "lost", "conceded")),
        )),
        Event("create", "a player creates an object (a token by default) in a zone (800.4b, 800.4d)", (
            Text("id", "the new object's id", required=True),
            Text("controller", "who creates it, under whose control it is created", required=True),
            Text("owner", "its owner when it is created in another player's zone (default: the controller)"),
            Text("zone", "where it is created (default battlefield)", words="zones"),
            Switch("token", "it is a token (default true)"),
            Text("source", "the object whose triggered ability creates it (it must be on the battlefield)"),
            Word("name", "a display name"),
            Text("types", "its types", words="types"),
        )),
        Event("put_onto", "an effect puts an object onto the battlefield or the stack under a player's control "
                          "(800.4b: not a player who left)", (
            Text("object", "the object", required=True),
            Text("controller", "under whose control it enters (default: its owner)"),
            Text("zone", "battlefield (default) or stack", values=("battlefield", "stack")),
            Switch("tapped", "it enters the battlefield tapped (110.5b: otherwise untapped)"),
        )),
        Event("trigger", "a (delayed) triggered ability triggers and would be put on the stack (800.4d); its "
                         "controller is the source's controller when it triggered (603.3a)", (
            Text("id", "the triggered ability's id (an object on the stack)", required=True),
            Text("controller", "who controls it: computed from the source (603.3a; 603.10a with `leaves`), and if "
                               "given it must agree (else an error); required with `delayed` or without a source"),
            Text("kind", "what it does", words="actions", required=True),
            Text("source", "the object whose ability it is"),
            Switch("leaves", "a leaves-the-battlefield ability (603.10a): its controller is whoever controlled the "
                             "source when it left the battlefield; it triggers only once the source has left"),
            Switch("delayed", "a delayed triggered ability (603.7d): `controller` (required) is who controlled the "
                              "spell or ability that created it"),
            Switch("from_graveyard", "the card says the ability works from its graveyard (113.6): it triggers only "
                                     "while its source is in a graveyard, controlled by the source's owner (113.8)"),
            Word("targets", "its targets: objects and players (as many as its kind takes)"),
            Word("params", "its kind's parameters"),
            Word("instructions", "what it does, in order, as one resolution (608.2c; kind `ability`)"),
        )),
        Event("copy", "a copy of a spell or ability on the stack is put on the stack (707.10): not a card, controlled "
                      "and owned by who copies it, with the original's kind and parameters; it ceases to exist when "
                      "it leaves the stack (707.10a); `storm`: a copy by the spell's storm trigger (702.40a)", (
            Text("id", "the copy's id (an object on the stack)", required=True),
            Text("spell", "the spell or ability copied", required=True),
            Text("controller", "who copies it (required without `storm`; a storm copy's is the spell's caster)"),
            Word("targets", "the copy's targets (707.10c: new ones must be legal; default the original's)"),
            Switch("storm", "one of the spell's storm copies (702.40a): the k-th exists only if at least k other "
                            "spells were cast before it this turn (declare events of cards since the last end_turn)"),
        )),
        Event("return_from_graveyard", "a card in a graveyard returns to its owner's hand or onto the battlefield "
                                       "under their control (800.4b: not for an owner who left)", (
            Text("object", "the card", required=True),
            Text("to", "hand or battlefield", values=("hand", "battlefield"), required=True),
        )),
        Event("extra_turn", "an effect gives a player an extra turn, added directly after the current one (500.7: "
                            "the most recently created is taken first); the next end_turn begins it, or passes "
                            "over it if its player left (800.4j)", (
            Text("player", "who gets the extra turn", required=True),
        )),
        Event("damage", "a source deals damage to a player (their life total drops: 510.2, 120.3a) or a creature "
                        "(it is marked: 120.3e)", (
            Text("source", "the object dealing it", required=True),
            Text("target", "the player or creature dealt it", required=True),
            Number("amount", "the damage", lo=0, required=True),
            Switch("combat", "it is combat damage (800.4e: none is assigned to a player who left)"),
        )),
        Event("gain_life", "a player gains life (119.3)", (
            Text("player", "who gains it", required=True),
            Number("amount", "how much", lo=0, required=True),
        )),
        Event("lose_life", "a player loses life (119.3)", (
            Text("player", "who loses it", required=True),
            Number("amount", "how much", lo=0, required=True),
        )),
        Event("combat_damage", "combat damage would be assigned by a creature to a player (800.4e)", (
            Text("source", "the creature", required=True),
            Text("player", "the player", required=True),
            Number("amount", "the damage", lo=0, required=True),
        )),
        Event("choice", "an object (source) or a rule (no source) requires a player to choose (800.4f, 800.4g); the "
                        "player flag named by `id` marks who chooses", (
            Text("id", "the choice's name: the player flag set on whoever makes it", required=True),
            Text("player", "who was to choose", required=True),
            Text("source", "the object requiring the choice (none: a rule requires it)"),
            Switch("opponent", "the choice was to be made by an opponent of the source's controller"),
        )),
        Event("player_information", "an effect reads a player's attribute into the reader's attribute `into` "
                                    "(800.4h: last known information)", (
            Text("player", "whose attribute is read", required=True),
            Text("attribute", "the attribute read", words="player_attributes", required=True),
            Text("reader", "the player who reads it", required=True),
            Text("into", "the reader's attribute that receives it (a name of your choice)", required=True),
        )),
        Event("count_actions", "an effect counts an action counter of every player, those who left included "
                               "(800.4h), into the reader's `into`", (
            Text("attribute", "the per-player counter", words="player_attributes", required=True),
            Text("reader", "the player who counts", required=True),
            Text("into", "the reader's attribute that receives the count (a name of your choice)", required=True),
        )),
        Event("priority_to_active", "the active player would receive priority; with none, the next player after "
                                    "whose turn it is (800.4i)"),
    ),
    statuses=statuses("in_game", "won", "left", "lost", "conceded"),
    options=(
        Number("range_of_influence", "limited range of influence (801): players within this many seats (among "
                                     "those in the game, determined as each turn begins) can be affected and "
                                     "targeted; by default everyone is in range", lo=1, hi=15),
    ),
    declared=(
        Declared("choice", "a `choice` event's id names the player flag that marks who makes that choice",
                 category="player_flags", event="choice", field="id"),
        Declared("player_information", "`into` names the reader's attribute that receives what was read",
                 category="player_attributes", event="player_information", field="into"),
        Declared("count_actions", "`into` names the reader's attribute that receives the count",
                 category="player_attributes", event="count_actions", field="into"),
    ),
    features=features("teams", "tokens", "instructions"),
    notes="""\
- Three or more players, in turn order (the seating); `turn.active_player` is whose turn it is. A player leaves with
  a `leave_game` event (800.4a runs at once; `status: conceded` is conceding, 104.3a).
- Who wins: a player still in the game whose opponents have all left it wins at once (104.2a: `winner`, status
  `won`); between teams every player of the team left wins, even one who had lost (104.2c). Two players: the game
  is no multiplayer game (800.4 does not apply); a player concedes (104.3a) or loses (704.5a; `leave_game` with
  `status: lost`, 104.3e) and the other wins; `leave_game` for another reason is refused there.
- `end_turn` ends the turn (cleanup) and the next player in turn order still in the game begins theirs; a leaver's
  turn is passed over (800.4j) and their 'until your next turn' effects end as it would have begun (800.4k). A
  `begin_turn` written by hand must name the next seat (a leaver's too); out of order it is an error.
- `extra_turn` adds a turn for a player directly after the current one (500.7): the next `end_turn` begins the
  most recently added one still waiting (it is that player's next turn for 'until your next turn'), or passes over
  it if its player left (800.4j, 800.4k); turn order then goes on from the seat of the last natural turn. With extra
  turns, write `end_turn` (a `begin_turn` by hand is an error).
- Every event is followed by the check of 704.3: cards exiled until their exiler leaves return (610.3), then
  state-based actions (704.5a, d, f, g, m), simultaneously and repeated; in a game of three or more, a player who
  loses leaves in the same check. A life total not given is 20.
- Control-changing effects are `control` effects (`player` gets control of the `targets`).
- A permanent's `tapped` flag (given, expected or set with `set_flag`): it enters the battlefield untapped, a new
  object (110.5b), unless `put_onto` says `tapped: true`, or it is a creature entering under the control of an
  opponent of the controller of a permanent on the battlefield with `opponents_enter_tapped` (Authority of the
  Consuls, 614.1d): that ability works while its source is on the battlefield, for whoever controls it then
  (611.3a), and gives nothing once its controller left the game (800.4a); with a `control` effect over a selector
  it is refused (614.12 is not modelled). As a turn begins, its active player untaps the permanents they control
  (the untap step, 502.3); a turn that does not begin (800.4j) untaps nothing.
- Abilities (`flying`, `opponents_enter_tapped`, `attack`) are printed (`abilities`) or given and taken away by
  `grant` and `remove` effects (layer 6, 613.1f), applied in timestamp order: the latest wins (613.7); static
  abilities of permanents that entered together (one `timestamp`) are ordered by the active player (613.7m): both
  orders are outcomes.
- Spells and abilities on the stack are objects in `stack` with an `action` (a non-card ability: `card: false`,
  type `ability`), or `declare`d, or `trigger`ed. Their targets are checked when they are put on the stack (115)
  and when they resolve (608.2b); `spell` and `ability` do nothing modelled and take no targets.
- Copies (707.10): a `copy` event puts a copy of a spell or ability on the stack: not a card, controlled and owned by
  who copies it (`controller`), doing what the original does, with its own `targets` (707.10c: each new target must
  be legal, else the copy is `illegal`). A copy that leaves the stack (it resolves, does not resolve, or is moved)
  ceases to exist, never reaching a graveyard (707.10a, 704.5e); a leaver's copy ceases (800.4a).
- Storm (702.40a): after a spell with storm is `declare`d (a card), write one `copy` with `storm: true` per spell
  that may have been cast before it this turn (`declare` events with `card: true` since the last `end_turn`); the
  k-th exists only if at least k of them were cast (their declaration was legal). Its controller is the spell's
  caster (603.3a). Copies resolve before the original: a `resolve` of the spell before its copies' is an error
  (405.5). Spells cast before the scenario begins are not counted; storm after a `begin_turn` is refused.
- Returning a card from a graveyard: the kind `return_from_graveyard` (target creature card from your graveyard,
  `params: {to: hand|battlefield}`) and the event of the same name; a card its owner took out of the game with
  them (800.4a) is no longer there: no legal target, nothing returned. `trigger` with `from_graveyard: true`: the
  card says the ability works from its graveyard (113.6): it triggers only while its source is there, controlled
  by the source's owner (113.8).
- A `spell` or `ability` with `instructions` (on its `declare`, `trigger` or object `action`) does them in order as
  one resolution (608.2c): each instruction is an action kind that does one thing (`damage`, `gain_life`,
  `lose_life`, `destroy`, `exile`, `return_to_hand`, `tap`, `untap`, `draw` ...; every such kind of the list below is one) with its
  own `targets` and `params`, or with `each` instead of targets (`you`, `opponent`, `player`, `creature`: what the
  kind lists; in range only, 801.10). The check of 704.3 comes only after the last instruction. Its targets are
  those of all its instructions: it is put on the stack only with all legal (115.1), does not resolve with none
  legal (608.2b), and otherwise does all the rest, an illegal target unaffected (an untargeted instruction happens).
  `per: opponent_dealt_damage` multiplies a life gain by the opponents the earlier instructions dealt damage to.
  Divided damage is divided on casting (601.2d): one `damage` instruction per target, each with its share.
- `draw` (121.1): the player puts cards of their library (`zone: library`, their own) into their hand: the top
  ones. The order is known only as far as `library_position` says (1: the top card; the cards with a position lie
  above those without, whose order is not known): without positions any card may be drawn (each a possible
  outcome); with them, the positioned cards are drawn first, top first. Drawing more than the
  library holds (121.4, 704.5b), or a library that events change, is an error.
- A `trigger`ed ability is controlled by whoever controlled its `source` when it triggered (603.3a); with `leaves:
  true` (a leaves-the-battlefield ability), by whoever controlled the source as it left the battlefield (603.10a);
  a `delayed` one, or one with no source, by the `controller` given (603.7d). A `controller` given for a computed
  one that disagrees with the rules is an error at the event; a leaver's trigger is not put on the stack (800.4d).
- `options: {range_of_influence: N}` limits who a player's spells and abilities can target (801.4) and affect
  (801.10), and who a choice can fall to (801.5a); ranges are determined as each turn begins (801.2c). A `damage`
  event that is not combat damage comes from a spell or ability: it does not reach a player or permanent outside
  the range of its source's controller (801.10). Combat damage and life events are what happened (attacks, 801.3,
  are not modelled); `player_information` and `count_actions`
  (what an effect sees, 801.11) are refused with it.
- A `choice` event names, by its `id`, the player flag that marks who makes the choice.
""",
    example="""\
id: example-mtg
game: mtg
rules: [mtg.800.4a.owned]
players: [{id: alex}, {id: bianca}, {id: carla}]
objects:
  - {id: bears, owner: bianca, zone: battlefield, types: [creature]}
events:
  - {type: leave_game, player: bianca}
expect:
  - {player: bianca, status: left}
  - {object: bears, zone: outside, because: [mtg.800.4a.owned]}
  - {unique: true}
""",
)
