"""Every word a Berserk scenario may use, with its meaning (one line each; adding a word is adding a line).

The combat words (``life``, ``strike``, protections, ``flying``, ``magical_attack``,
the dice options) are read by the victory analysis (``solver/victory/model.py``).
"""
from solver.vocabulary.shared import SHARED, features, statuses
from solver.vocabulary.words import Ability, Action, Event, Number, Switch, Text, Type, Word, Zone

_COST = Text("cost", "what pays for it: `close` (closing its source, the default) or `none`", values=("close", "none"))
_CELL = Text("cell", "the cell it enters (532.6: none for a flying creature, a terrain or an auxiliary-zone card; "
                     "naming a cell a card that counts for conservation stands on is illegal, berserk.532.6.free)",
             words="cells")
#: the elements (стихии) of Berserk cards, and neutral cards
ELEMENTS = ("mountains", "forests", "steppes", "swamps", "darkness", "neutral")
#: the retired property 'alignment' (light, dark, neutral): what its error says to write instead
ALIGNMENT = ("'alignment' is now the card's `element` (mountains, forests, steppes, swamps, darkness, neutral): "
             "alignment dark is element darkness, neutral stays neutral, and light is no element (write the "
             "card's own element)")
#: the obligatory abilities: a player who declares one in a Choice subphase carries a conservation duty over
OBLIGATORY = ("attack_obligation",)
_TIER = r"^(none|[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)$"

VOCABULARY = SHARED.extend(
    game="berserk",
    zones=(
        Zone("play", "the play zone: the battle's board", play=True),
        Zone("hand", "a player's hand", whose="owner"),
        Zone("deck", "a player's deck", whose="owner"),
        Zone("graveyard", "a player's graveyard: destroyed cards", whose="owner"),
        Zone("auxiliary", "the auxiliary zone of the player who controls the card (cards placed there name no cell)",
             whose="holder", play=True),
        Zone("stack", "declared actions waiting to resolve"),
        Zone("outside", "removed from the game"),
    ),
    types=(
        Type("creature", "a creature: it fights, and 602.1 counts the creatures each player controls in play"),
        Type("hero", "a hero (a creature class effects may select, e.g. Kanor-Vain's 'all heroes')"),
        Type("elf", "an elf (a creature class; answers to 'elf' in 'cannot be taken into a squad with elf')"),
        Type("terrain", "a terrain: it names no cell when it enters (532.6)"),
        Type("artifact", "an artifact (not a creature: it does not count for 602.1)"),
        Type("equipment", "equipment: it does not count for conservation (two cards on one cell): it never has the "
                          "duty to move, and a cell it shares obliges nobody"),
        Type("symbiote", "a symbiote: it does not count for conservation (two cards on one cell): it never has the "
                         "duty to move, and a cell it shares obliges nobody"),
    ),
    abilities=(
        Ability("accumulate_tokens", "may accumulate tokens (the action accumulate_tokens needs it or a permission)"),
        Ability("flying", "flying: names no cell when it enters (532.6); only flying or ranged creatures can attack "
                          "it; in the victory analysis it strikes anywhere on the board"),
        Ability("ranged", "ranged attack: may attack flying creatures, and on a board shoots creatures within its "
                          "`range`"),
        Ability("magical_attack", "its strikes are magical (protection_magical, not protection_nonmagical, applies)"),
        Ability("auxiliary_zone", "'placed in the auxiliary zone': enters that zone and names no cell (532.6)"),
        Ability("incarnation", "incarnation X: may incarnate once per battle; of several, only the highest X applies "
                               "(532.5.4)", param="X", lo=1),
        Ability("attack_obligation", "an obligatory attack: declared in a Choice subphase (`obligatory`), it carries "
                                     "a conservation duty over"),
    ),
    attributes=(
        Number("life", "lives left: a finishing blow reads it; in the victory analysis a creature at 0 is destroyed",
               lo=0),
        Number("max_life", "most lives a creature heals to (victory analysis; default: its life at the start)", lo=0),
        Number("regen", "lives a creature heals at the end of every round (victory analysis)", lo=0),
        Number("protection_nonmagical", "protection from non-magical attacks of strength X or more: such strikes do "
                                        "no damage", lo=0),
        Number("protection_magical", "protection from magical attacks of strength X or more", lo=0),
        Number("tokens", "tokens on the card (accumulate_tokens and give_token add one)", lo=0),
        Number("incarnation", "the X of the incarnation applied (set by the incarnate action, 532.5.4)", lo=0),
        Number("move", "movement: cells a creature may move over free cells before it strikes (victory analysis on a "
                       "board; default 1)", lo=0, hi=50),
        Number("range", "cells a ranged creature shoots over (victory analysis on a board; default 2)", lo=1, hi=50),
    ),
    properties=(
        Text("strike", "the creature's strike: weak-medium-strong damage by die tier (which die values give which "
                       "tier: the tier_* options)", pattern=r"^[0-9]+-[0-9]+-[0-9]+$", example="2-3-4"),
        Text("not_with", "'cannot be taken into a squad with [text]' (532.8): '+'-separated object ids, library "
                         "card ids (every object placed as that card), names, types or property values; a squad may "
                         "hold both (only recruiting keeps [text] out; summon, revival, incarnation and control keep "
                         "out only the card with the text)", words="names", example="elf"),
        Text("element", "the card's element (стихия; Kanor-Vain makes heroes neutral, the Blade of the Fallen "
                        "darkness)", values=ELEMENTS),
    ),
    flags=(
        Word("open", "open (untapped): closing the source pays for an action; 525.1 open/close"),
        Word("revealed", "revealed (face up): 525.1 reveal/hide"),
        Word("must_move", "conservation duty: must move in its controller's next Choice subphase, or it dies (never "
                          "on a symbiote or equipment)"),
        Word("incarnated", "has incarnated this battle (532.5.4: once per battle)"),
    ),
    permissions=(
        Word("receive_tokens", "may receive tokens: give_token checks it on its target ('cannot receive tokens')"),
    ),
    actions=(
        Action("open", "open a card (its target, else its source): illegal if it is already open (525.1)", (0, 1),
               (_COST,)),
        Action("close", "close a card: illegal if it is already closed (525.1)", (0, 1), (_COST,)),
        Action("reveal", "reveal a card: illegal if it is already revealed (525.1)", (0, 1), (_COST,)),
        Action("hide", "hide a card: illegal if it is already hidden (525.1)", (0, 1), (_COST,)),
        Action("accumulate_tokens", "the source puts a token on itself: it needs the ability or a permission, and no "
                                    "prohibition (524.2, 525.2)", (0, 0), (_COST,)),
        Action("give_token", "put a token on the target (else the source) unless it cannot receive tokens", (0, 1),
               (_COST,)),
        Action("lose_ability", "'[card] loses [text]': illegal against a card that does not have it (525.3)", (0, 1),
               (Text("ability", "the ability it loses", words="abilities", required=True), _COST)),
        Action("finishing_blow", "finishing blow X: destroys the target creature in play with X or fewer lives; "
                                 "otherwise it cannot be executed", (0, 1),
               (Number("x", "the X of the finishing blow", lo=0, required=True), _COST)),
        Action("take_control", "the actor takes control of a card in play (532.7), unless 532.8 forbids it", (0, 1)),
        Action("summon", "summon a card from the hand (532.6, 532.8)", (0, 1), (_CELL,)),
        Action("revive", "revive a card from the graveyard (532.6, 532.8)", (0, 1), (_CELL,)),
        Action("incarnate", "incarnate a card with 'incarnation X', once per battle (532.5.4, 532.6, 532.8)", (0, 1),
               (_CELL,)),
        Action("move", "the source moves to `cell`: illegal unless it stands in play on an adjacent cell and, if it "
                       "counts for conservation, no card that counts stands there; resolved, its duty to move ends",
               (0, 0), (Text("cell", "the cell it moves to", words="cells", required=True),)),
    ),
    events=(
        Event("choice_subphase", "the end of a player's Choice subphase: an obliged card that has not moved (a "
                                 "`move` action declared and resolved before) dies, or keeps the duty if another "
                                 "obligatory ability is declared (conservation)", (
            Text("player", "whose Choice subphase it is", required=True),
            Text("obligatory", "other obligatory abilities declared instead (an obligatory ability a card of the "
                               "player in play has carries the duty over; one no such card has carries nothing)",
                 values=OBLIGATORY),
            Switch("free", "the declarations are not given: every choice is explored (move to a free adjacent cell, "
                           "or die)"),
        )),
        Event("recruit", "the Recruit subphase: cards join the squad in order, unless 532.8 forbids one", (
            Text("player", "who recruits", required=True),
            Text("cards", "the cards, in order", required=True),
            Word("cells", "card -> the cell it is placed on"),
        )),
        Event("lose_control", "a player loses control of a card: the opponent gets it, unless it cannot join their "
                              "squad (532.7, 532.8)", (
            Text("player", "who loses control", required=True), Text("object", "the card", required=True))),
        Event("penalty_loss", "a player is given a penalty loss: the opponent gets a clean victory (602.1)",
              (Text("player", "the penalised player", required=True),)),
        Event("declare_redeal", "a player declares a redeal: with one card in hand, the opponent gets a clean "
                                "victory (602.1)", (Text("player", "who declares it", required=True),)),
        Event("card_victory", "a card's text saying a player won (or lost) is fulfilled (602.1)", (
            Text("source", "the card (it must be in play)", required=True),
            Text("player", "the player the text names", required=True),
            Text("result", "what the text says of them", values=("won", "lost")),
        )),
        Event("check_victory", "602.1 is checked: no creature of the opponent left in play; for the players named, a "
                               "decisive advantage that the victory analysis proves on the position here", (
            Text("decisive_advantage", "players whose decisive advantage the victory analysis decides (proved: a "
                                       "clean victory; refuted: none; unknown: the verdicts it decides are unknown)"),
            Text("judge_ruled", "players a judge has ruled to hold a decisive advantage here: a clean victory by the "
                                "ruling (the fact judge_ruled.P.eventN) where no proof of it is asked here or the "
                                "proof is unknown; against a refuting proof at the same check, a contradiction (no "
                                "outcome; the core names both facts)"),
        )),
        Event("concede", "a player concedes: the opponent gets a clean victory (602.1)",
              (Text("player", "who concedes", required=True),)),
    ),
    statuses=statuses("in_game", "won", "lost", "conceded"),
    options=(
        Number("dice_sides", "sides of the die (victory analysis; default 6)", lo=1, hi=100),
        Text("tier_weak", "die values that give a weak strike (default 1-2; 'none' for none)", pattern=_TIER,
             example="1-2"),
        Text("tier_medium", "die values that give a medium strike (default 3-4)", pattern=_TIER, example="3-4"),
        Text("tier_strong", "die values that give a strong strike (default 5-6)", pattern=_TIER, example="5-6"),
        Switch("counterstrike", "an attacked creature strikes back (default true)"),
        Number("victory_horizon", "rounds searched for bounded proofs and refutations (default 3)", lo=1, hi=20),
    ),
    features=features("board", "claims", "triggers", "elements"),
    renamed={("properties", "alignment"): ALIGNMENT},
    notes="""\
- Two players: the control (532.7) and victory (602.1) rules are for two.
- A board is `board: {rows: R, cols: C}` (cells r1c1 .. rRcC); a card in `play` stands on a `cell`.
- An action is a `declare` event: `actor` (the player), `kind`, `source` (the acting card) and, for kinds that
  take one, a `target` in `targets` (else the source is acted on). `resolve`, `start_execution` and
  `finish_execution` events carry it on; the verdict is its `action_status`.
- Only an action on the stack resolves (or starts executing): a `resolve` of an action that is not there (taken off
  by an earlier event, or illegal when declared) is a located error.
- A movement is a `declare` of kind `move` (`params: {cell: X}`), legal to an adjacent cell where no card that counts
  for conservation stands, then `resolve`d; a `choice_subphase` kills an obliged card that has not moved (symbiotes
  and equipment never have the duty, nor oblige anyone).
- Summon, revive and incarnate onto an occupied cell (our reading, `berserk.532.6.free`): 532.6 makes the cell
  part of the declaration, and 525.1 makes an action that cannot be declared under the Rules illegal. Naming a cell
  where a card that counts for conservation stands (for an entering card that counts) is such a declaration: it is
  illegal and never goes on the stack. Seed 003's conservation ("two cards that somehow end up on one cell") is
  then what no declaration names: a recruit placement, a forced move, an effect. Why: the cell is what the player
  declares, so a declaration naming a cell the card cannot take is one the Rules do not allow; reading it as legal
  would let every summon choose a cell that conservation then empties by death, a duty no text asks for. A flyer,
  a terrain or an auxiliary-zone card names no cell, so no cell blocks it; a symbiote or equipment does not count
  for conservation, so a taken cell does not block it either.
- A card's element (стихия) is the property `element`: mountains, forests, steppes, swamps, darkness, or neutral
  for a card of none (seed 003: Kanor-Vain makes a hero neutral, the Blade of the Fallen makes it darkness). It
  is a property like any other: a `set` effect changes it, and once the effects end the printed element is back,
  so "forests after the effects end" is an expectation on `element`. The old `alignment` (light, dark, neutral) is
  refused with what to write instead.
- Selectors for card texts: "your squad" is `{controlled_by: source_controller, zone: play}` (a squad is the cards
  a player controls in play); "other" is `other: true` (every object but the source); "adjacent to this one" is
  `cell: adjacent` (a cell next to the source's); "forest creatures" is `element: forests`.
- Selecting by element (`berserk.element.selector`, issue 27): an element changes under effects, so which cards
  an effect selects by element depends on what effects set. The seeds order effects only by when they were
  applied (the last applied wins), so an effect that sets the element sees the element the effects on the
  element applied before it produce (the printed one, then each in the order applied, each selecting by what
  the earlier ones made): "forest creatures become darkness" then "darkness creatures become steppes" makes a
  forest card steppes, and in the other order leaves it darkness. Any other effect ("forest creatures get +1
  life"), and a trigger, sees the card's element now: a forest hero Kanor-Vain made neutral is no forest
  creature. A control effect choosing by element while an effect on the element chooses by controller is a
  cycle no rule orders: a located error naming both.
- "Loses [text]" (525.3) takes the ability away by an effect applied when it resolves (`berserk.525.3.loses`):
  the last applied, it wins over a grant applied before it (a granted ability is lost too), and a grant applied
  after it gives the ability back.
- Control that ends (532.7): a control effect that ends (an `end_effect`, or its duration) while it is the one
  giving a player the card makes that player lose control: the opponent becomes the controller, unless the card
  cannot be taken into the opponent's squad (532.8), then the player keeps it (the card's default controller is
  then that player).
- "Cannot ..." is a `prohibit` effect, "may ..." a `permit` effect; of two conflicting effects the one applied
  last wins: in the initial state by `timestamp`, then in event order; a card's static ability counts from when
  the card last entered play or was attached, so a card that comes back (or equipment put back on) is the latest
  (berserk.conflict.anew), and an effect that listed a card does not follow it once it left play. A card placed
  from the hand needs no `timestamp`: its entry orders it.
- "Cannot move" is `{kind: prohibit, action: move}`: whether a card may move to a cell is one predicate for a
  declared move, a free Choice subphase and the victory analysis' reach (no prohibition, an adjacent cell, a cell
  no card that counts stands on). `obligatory` names an obligatory ability (`attack_obligation`); it carries the
  duty over only if a card the player controls in play has it.
- `check_victory` with `decisive_advantage: [player]` asks the victory analysis on the position there: proved, a
  clean victory; refuted, none; unknown, the verdicts that hang on it are unknown. `judge_ruled: [player]` is a
  judge's ruling (the fact `judge_ruled.P.eventN`): a fact where no proof is asked at that check or the proof is
  unknown; a ruling never overrides a proof: against a refutation at the same check it is a contradiction. The analysis and the victory claims
  (`claims`) read creatures' `life`, `strike` ("weak-medium-strong", like "2-3-4"), protections, `regen`, abilities,
  and on a board their `cell`, `move` and `range`, and the dice options.
""",
    example="""\
id: example-berserk
game: berserk
rules: [berserk.525.1.open]
players: [{id: alice}, {id: bob}]
objects:
  - {id: knight, owner: alice, zone: play, types: [creature], attributes: {life: 3}, flags: {open: true}}
events:
  - {type: declare, id: open_knight, actor: alice, kind: open, source: knight}
expect:
  - {action: open_knight, action_status: illegal, because: [berserk.525.1.open]}
  - {object: knight, flags: {open: true}}
  - {unique: true}
""",
)
