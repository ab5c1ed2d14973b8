"""The words of the core pseudo-game (``game: core``): the shared rules alone, over a few generic words that
exercise them (effects, control, permission, the core events)."""
from solver.vocabulary.shared import SHARED, features, statuses
from solver.vocabulary.words import Ability, Number, Text, Type, Word, Zone

VOCABULARY = SHARED.extend(
    game="core",
    zones=(
        Zone("play", "in play", play=True),
        Zone("hand", "a player's hand", whose="owner"),
        Zone("deck", "a player's deck", whose="owner"),
        Zone("graveyard", "a player's graveyard", whose="owner"),
        Zone("exile", "exile (shared)"),
        Zone("stack", "declared actions waiting to resolve"),
        Zone("outside", "outside the game"),
    ),
    types=(
        Type("creature", "a creature"),
        Type("hero", "a hero"),
        Type("symbiote", "a symbiote"),
        Type("equipment", "an equipment (it may be attached to another object)"),
        Type("aura", "an aura (it may be attached to another object)"),
    ),
    abilities=(
        Ability("accumulate_tokens", "may accumulate tokens (a permission that starts from this ability)"),
        Ability("flying", "flying"),
    ),
    attributes=(
        Number("life", "lives"),
        Number("tokens", "tokens on the object"),
        Number("power", "power"),
    ),
    properties=(
        Text("alignment", "alignment", values=("light", "dark", "neutral")),
    ),
    flags=(
        Word("open", "open (untapped)"),
        Word("revealed", "revealed (face up)"),
    ),
    permissions=(
        Word("receive_tokens", "may receive tokens"),
        Word("give_token", "may give a token"),
        Word("open", "may be opened"),
    ),
    statuses=statuses("in_game", "won", "lost", "conceded"),
    features=features("board"),
    notes="""\
- The shared rules alone (effects, control, permission, the action lifecycle, the core events), over a few
  generic words: a test bed for the mechanisms every game uses.
""",
    example="""\
id: example-core
game: core
rules: [core.move]
players: [{id: alice}]
objects:
  - {id: card, owner: alice, zone: hand}
events:
  - {type: move, object: card, zone: play}
expect:
  - {object: card, zone: play, because: [core.move]}
  - {unique: true}
""",
)
