"""Issue 21, items 1 and 2: object identity per zone visit, and one movement predicate (Berserk ``can_move``).

Object identity (every game): an object that changes zones is a new object; a static ability counts from when its
source last entered (the order of effects is a model quantity, ``Compiler.later``); an effect that lists an object
names the visit it was created for; an object outside the game has no controller. Movement (Berserk): a declared
move, a free Choice subphase and the victory analysis' reach read the same predicate; ``obligatory`` names an
obligatory ability a card of the player has. Each case is checked by the solver and compared with the solver-free
reference (``compare_result``), which reads the same concepts independently.
"""
from __future__ import annotations

import textwrap

import pytest

from models.loader import load_scenario_text
from models.scenario import Scenario
from solver.encoding.compile import Compiler
from solver.games.berserk.combat import Unit, walk
from solver.reference.differential import compare_result
from solver.registry import ruleset_for
from solver.run.api import check_scenario, check_text
from solver.victory.model import Board, Position


def _scenario(text: str) -> Scenario:
    return load_scenario_text(textwrap.dedent(text), "t.yaml").scenario


def _agree(sc: Scenario):
    """The checker's result, after checking the reference agrees with it."""
    res = check_scenario(sc)
    cmp = compare_result(sc, res)
    assert cmp.agree and not cmp.skipped, cmp.problems or cmp.skipped
    return res


def _verdicts(res) -> list[str]:
    return [e.verdict.value for e in res.expectations]


# -- object identity: the order of effects follows time as the outcome has it ----------------------------------------
BLADE = """\
id: blade
game: berserk
players: [{id: alice}, {id: bob}]
objects:
  - {id: gerd, owner: alice, zone: play, types: [creature, hero], properties: {alignment: light}}
  - {id: kanor, owner: bob, zone: play, types: [creature, hero]}
  - {id: blade, owner: alice, zone: play, types: [equipment], attached_to: gerd}
effects:
  - {id: blade_dark, source: blade, timestamp: 1, kind: set, attribute: alignment, value: dark, targets: [gerd],
     duration: static}
  - {id: kanor_neutral, source: kanor, timestamp: 2, kind: set, attribute: alignment, value: neutral,
     targets: {types: [hero]}, duration: static}
events: EVENTS
expect:
  - {object: gerd, properties: {alignment: dark}}
  - {object: gerd, properties: {alignment: neutral}}
"""


@pytest.mark.parametrize("events, dark", [
    ("[]", False),  # trivial: Kanor-Vain is the later one
    ("[{type: move, object: blade, zone: hand}, {type: move, object: blade, zone: play}]", True),  # re-attached
    ("[{type: move, object: kanor, zone: graveyard}, {type: move, object: kanor, zone: play}]", False),
    ("[{type: move, object: kanor, zone: hand}, {type: move, object: kanor, zone: play}, "
     "{type: move, object: blade, zone: hand}, {type: move, object: blade, zone: play}]", True),
    ("[{type: move, object: blade, zone: graveyard}]", False),  # gone: its effect ended
])
def test_a_static_ability_counts_from_its_sources_last_entry(events: str, dark: bool) -> None:
    """Whichever card entered (or was attached) last is the effect applied last."""
    res = _agree(_scenario(BLADE.replace("EVENTS", events)))
    assert _verdicts(res) == (["holds", "impossible"] if dark else ["impossible", "holds"])


def test_the_order_is_a_model_quantity_when_a_source_may_come_back() -> None:
    """``later`` is a literal of the model when a re-entry can change the order, a constant when it cannot."""
    sc = _scenario(BLADE.replace("EVENTS", "[{type: move, object: blade, zone: hand}, "
                                           "{type: move, object: blade, zone: play}]"))
    comp = Compiler(sc, ruleset_for("berserk"))
    comp.compile_events()
    a, b = comp.effects["blade_dark"], comp.effects["kanor_neutral"]
    assert comp.later(comp.stages[0], b, a) is comp.rm.true  # at the start: the timestamps
    final = comp.stage
    lit = comp.later(final, a, b)
    assert lit is not comp.rm.true and lit is not comp.rm.false
    assert comp.since(final, "blade") is not None and comp.since(final, "gerd") is not None


# -- object identity: an effect that named an object does not follow it --------------------------------------------
NAMED = {
    "mtg": ("players: [{id: a}, {id: b}, {id: c}]", "{id: x, owner: b, zone: battlefield, types: [creature]}",
            "graveyard", "battlefield", "outside"),
    "riftbound": ("players: [{id: a}, {id: b}]", "{id: x, owner: b, zone: base, types: [unit]}", "hand", "base",
                  "outside"),
    "ti4": ("players: [{id: a}, {id: b}, {id: c}]", "{id: x, owner: b, zone: board, types: [unit, ship]}",
            "reinforcements", "board", "purged"),
    "berserk": ("players: [{id: a}, {id: b}]", "{id: x, owner: b, zone: play, types: [creature]}", "hand", "play",
                "outside"),
}
HOLDERS = {"ti4": "\n  - {id: ga, owner: a, zone: board, types: [ground_force]}\n  - {id: gb, owner: b, zone: board, "
                  "types: [ground_force]}\n  - {id: gc, owner: c, zone: board, types: [ground_force]}"}


def _named(game: str, events: list[str], controller: str, targets: str = "[x]") -> Scenario:
    players, obj, _, _, _ = NAMED[game]
    return _scenario(f"""\
        id: named
        game: {game}
        {players}
        objects:
          - {obj}{HOLDERS.get(game, '').replace(chr(10), chr(10) + '        ')}
        effects:
          - {{id: steal, timestamp: 1, kind: control, player: a, targets: {targets}}}
        turn: {{active_player: a, priority: a}}
        events: [{', '.join(events)}]
        expect:
          - {{object: x, controller: {controller}}}
        """)


@pytest.mark.parametrize("game", sorted(NAMED))
@pytest.mark.parametrize("case", ["stays", "back", "selector_back", "gone"])
def test_an_effect_names_the_visit_it_was_created_for(game: str, case: str) -> None:
    """Stays: the effect applies; left and came back: a new object, its default controller; a selector follows
    whatever matches it; outside the game: no controller, in every game."""
    _, _, out, back, gone = NAMED[game]
    moves = [f"{{type: move, object: x, zone: {out}}}", f"{{type: move, object: x, zone: {back}}}"]
    types = "{types: [" + NAMED[game][1].split("types: [")[1].split("]")[0] + "]}"
    sc, want = {
        "stays": (_named(game, [], "a"), "holds"),
        "back": (_named(game, moves, "b"), "holds"),
        "selector_back": (_named(game, moves, "a", targets=types), "holds"),
        "gone": (_named(game, [f"{{type: move, object: x, zone: {gone}}}"], "none"), "holds"),
    }[case]
    assert _verdicts(_agree(sc)) == [want]


def test_the_thief_does_not_control_the_new_object() -> None:
    """The flipped reading of 'back' (infeasible): the control effect does not follow."""
    _, _, out, back, _ = NAMED["mtg"]
    sc = _named("mtg", [f"{{type: move, object: x, zone: {out}}}", f"{{type: move, object: x, zone: {back}}}"], "a")
    assert _verdicts(_agree(sc)) == ["impossible"]


# -- a card placed from the hand needs no timestamp -------------------------------------------------------------------
@pytest.mark.parametrize("duration, zone, ok", [
    ("static", "hand", True),  # its entry orders it
    ("static", "play", False),  # in play at the start: when was it applied?
    ("permanent", "hand", False),  # active from the start wherever its source is
])
def test_an_initial_effect_without_a_timestamp(duration: str, zone: str, ok: bool) -> None:
    """Only a static ability whose source enters later may leave its timestamp out."""
    text = textwrap.dedent(f"""\
        id: t
        game: berserk
        players: [{{id: a}}, {{id: b}}]
        objects:
          - {{id: k, owner: a, zone: {zone}, types: [creature]}}
          - {{id: h, owner: b, zone: play, types: [creature, hero], properties: {{alignment: light}}}}
        effects:
          - {{id: n, source: k, kind: set, attribute: alignment, value: neutral, targets: {{types: [hero]}},
             duration: {duration}}}
        events:
          - {{type: move, object: k, zone: play}}
        expect:
          - {{object: h, properties: {{alignment: neutral}}}}
        """)
    res = check_text(text, "t.yaml")
    if ok:
        assert res.status.value == "pass", res.error
        assert compare_result(load_scenario_text(text, "t.yaml").scenario, res).agree
    else:
        assert res.status.value == "error" and "t.yaml:" in res.error and "timestamp" in res.error


# -- one movement predicate --------------------------------------------------------------------------------------------
MOVE = """\
id: move
game: berserk
players: [{id: alice}, {id: bob}]
board: {rows: 2, cols: 3}
objects:
  - {id: runner, owner: alice, zone: play, cell: r2c2, types: [creature]}
  - {id: guard, owner: bob, zone: play, cell: r1c1, types: [creature]}
effects: EFFECTS
events: EVENTS
expect: EXPECT
"""
CHAINS = "{id: chains, timestamp: 1, kind: prohibit, action: move, targets: [runner]}"
HASTE = "{id: haste, timestamp: 2, kind: permit, action: move, targets: [runner]}"


def _move(effects: list[str], events: str, expect: str) -> Scenario:
    return _scenario(MOVE.replace("EFFECTS", f"[{', '.join(effects)}]").replace("EVENTS", events)
                     .replace("EXPECT", expect))


@pytest.mark.parametrize("effects, cell, status", [
    ([], "r1c2", "on_stack"),  # trivial: adjacent, free, nothing forbids it
    ([HASTE], "r1c2", "on_stack"),  # a permission alone
    ([CHAINS], "r1c2", "illegal"),  # cannot move (525.2)
    ([CHAINS, HASTE], "r1c2", "illegal"),  # the prohibition wins (524.2)
    ([], "r1c1", "illegal"),  # occupied
    ([], "r2c2", "illegal"),  # not adjacent (its own cell)
])
def test_a_declared_move_reads_can_move(effects: list[str], cell: str, status: str) -> None:
    """A declared move is legal exactly when ``can_move``."""
    events = f"[{{type: declare, id: m, actor: alice, kind: move, source: runner, params: {{cell: {cell}}}}}]"
    res = _agree(_move(effects, events, f"[{{action: m, action_status: {status}}}]"))
    assert _verdicts(res) == ["holds"]


@pytest.mark.parametrize("effects, outcomes", [
    ([], 3),  # trivial: dies, or moves to one of the two free adjacent cells (r1c2, r2c1)
    ([HASTE], 3),
    ([CHAINS], 1),  # it cannot move: it dies, the only outcome
    ([CHAINS, HASTE], 1),
])
def test_a_free_choice_reads_can_move(effects: list[str], outcomes: int) -> None:
    """A free Choice subphase lets an obliged card stay only on a cell ``can_move`` allows."""
    events = "[{type: move, object: runner, zone: play, cell: r1c1}, {type: choice_subphase, player: alice, free: true}]"
    res = _agree(_move(effects, events, "[{object: runner, zone: graveyard}]"))
    assert len(res.outcomes) == outcomes
    assert _verdicts(res) == ["holds" if outcomes == 1 else "possible"]


@pytest.mark.parametrize("obligatory, holder, carried", [
    (None, None, False),  # trivial: nothing declared, it dies
    ("[attack_obligation]", "runner", True),  # a card of hers has it
    ("[attack_obligation]", "guard", False),  # only the opponent's card has it
    ("[attack_obligation]", None, False),  # nobody has it
])
def test_an_obligatory_ability_carries_the_duty_only_if_a_card_has_it(obligatory, holder, carried) -> None:
    """berserk.conservation.carry: the player declares an obligatory ability a card of theirs in play has."""
    text = MOVE.replace("EFFECTS", "[]").replace("EXPECT", "[{object: runner, flags: {must_move: true}}]")
    field = f", obligatory: {obligatory}" if obligatory else ""
    text = text.replace("EVENTS", f"[{{type: move, object: runner, zone: play, cell: r1c1}}, "
                                  f"{{type: choice_subphase, player: alice{field}}}]")
    if holder:
        text = text.replace(f"{{id: {holder}, owner:", f"{{id: {holder}, abilities: [attack_obligation], owner:")
    res = _agree(_scenario(text))
    assert _verdicts(res) == ["holds" if carried else "impossible"]


def test_an_obligatory_word_that_is_no_obligatory_ability_is_a_located_error() -> None:
    """Any word used to carry the duty over (even ``flying``): refused, located, the obligatory abilities named."""
    text = MOVE.replace("EFFECTS", "[]").replace("EXPECT", "[{unique: true}]").replace(
        "EVENTS", "[{type: choice_subphase, player: alice, obligatory: [flying]}]")
    res = check_text(text, "t.yaml")
    assert res.status.value == "error"
    assert "t.yaml:" in res.error and "'flying'" in res.error and "attack_obligation" in res.error


@pytest.mark.parametrize("moves, reach", [(True, {"a1", "a2", "a3"}), (False, {"a1"})])
def test_the_victory_reach_of_a_creature_that_cannot_move(moves: bool, reach: set[str]) -> None:
    """The combat reading walks no cell for a creature an effect forbids to move."""
    board = Board.of(["a1", "a2", "a3"], {"a1": {"a2"}, "a2": {"a1", "a3"}, "a3": {"a2"}})
    u = Unit("u", 0, 3, 3, (1, 1, 1), cell="a1", move=2, moves=moves)
    pos = Position((u,), None, ("p", "q"), None, board=board)  # type: ignore[arg-type]
    assert walk(pos, u, (u,)) == reach


# -- a static ability's "you" is whoever controls its source at each moment (source_controller) -------------------
YOU = """\
id: you
game: {game}
players: [{{id: alice}}, {{id: bob}}, {{id: carol}}]
objects:
  - {{id: aura, owner: alice, zone: {play}, types: [{kind}]}}
  - {{id: beast, owner: bob, zone: {play}, types: [{beast}]}}
{extra}effects:
  - {{id: steal, kind: control, player: {player}, targets: [beast], source: aura, duration: static, timestamp: 1}}
events:
  - type: begin_effect
    effect: {{id: carol_takes, kind: control, player: carol, targets: [aura], duration: permanent}}
expect:
  - {{at: 0, object: beast, controller: alice}}
  - {{object: beast, controller: carol}}
"""


@pytest.mark.parametrize("game, play, kind, beast", [
    ("mtg", "battlefield", "enchantment", "creature"), ("berserk", "play", "creature", "creature"),
    ("riftbound", "base", "gear", "unit"), ("ti4", "play_area", "technology", "ship")])
def test_a_static_ability_gives_control_to_its_sources_controller_now(game, play, kind, beast) -> None:
    """'You control it' follows the source's controller; a player named at placement (alice) does not follow."""
    _you_follows(game, play, kind, beast)


#: TI4: every player keeps a ground force (no elimination, 75.1, takes part)
KEEP = {"ti4": "".join(f"  - {{id: {p}_inf, owner: {p}, zone: board, types: [ground_force]}}\n"
                       for p in ("alice", "bob", "carol"))}


def _you_follows(game, play, kind, beast) -> None:
    res = _agree(_scenario(YOU.format(game=game, play=play, kind=kind, beast=beast, extra=KEEP.get(game, ""), player="source_controller")))
    assert _verdicts(res) == ["holds", "holds"], res.expectations
    fixed = _agree(_scenario(YOU.format(game=game, play=play, kind=kind, beast=beast, extra=KEEP.get(game, ""), player="alice")))
    assert _verdicts(fixed) == ["holds", "impossible"], "a named player stays the receiver"


def test_a_card_effects_you_is_its_current_controller() -> None:
    """A card's static `player: controller` is placed as source_controller (Mind Control in the library)."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    res = check_text((root / "scenarios/mtg/core.control-mind-control-aura-changes-hands.yaml").read_text("utf-8"),
                     str(root / "scenarios/mtg/core.control-mind-control-aura-changes-hands.yaml"))
    assert res.status.value == "pass", [e.message for e in res.expectations if not e.passed] or res.error


@pytest.mark.parametrize("effect, message", [
    ("{id: e, kind: control, player: source_controller, targets: [beast], duration: permanent, timestamp: 1}",
     "player 'source_controller' is a static ability's 'you'"),
    ("{id: e, kind: control, player: source_controller, targets: [beast], source: aura, timestamp: 1}",
     "player 'source_controller' is a static ability's 'you'"),
])
def test_source_controller_needs_a_static_source(effect, message) -> None:
    """'source_controller' without a source, or on an effect that began (its 'you' was fixed then): refused."""
    text = YOU.format(game="mtg", play="battlefield", kind="enchantment", beast="creature", extra="", player="alice").replace(
        "  - {id: steal, kind: control, player: alice, targets: [beast], source: aura, duration: static, timestamp: 1}",
        f"  - {effect}")
    from models.yamlsafe import LoadErrors
    with pytest.raises(LoadErrors) as info:
        load_scenario_text(text, "t.yaml")
    assert message in str(info.value)


def test_two_sources_whose_you_depend_on_each_other_are_refused() -> None:
    """A's 'you control B' and B's 'you control A': each controller asks for the other: a located refusal."""
    text = YOU.format(game="mtg", play="battlefield", kind="enchantment", beast="creature", extra="", player="source_controller").replace(
        "events:", "  - {id: back, kind: control, player: source_controller, targets: [aura], source: beast, "
                   "duration: static, timestamp: 2}\nevents:")
    res = check_text(text, "t.yaml")
    assert res.status.value == "error" and "depends on itself" in (res.error or ""), res.error
