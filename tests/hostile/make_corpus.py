"""Write the hostile corpus: malformed scenario files that must each give a clear, located error.

Run from the repository root: ``python tests/hostile/make_corpus.py``. It rewrites
``tests/hostile/corpus/``, ``tests/hostile/manifest.json`` and ``tests/hostile/vocabulary.json`` (the vocabulary
errors: each file's game and the words its message must contain). A line ending in the
marker ``#!`` is the line the error must point at (or the start of the list item or section
holding it); the manifest records those lines (null: any line; "file": a problem of the whole
file, reported as ``FILE:`` without a line).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
MARK = "#!"

BASE = """\
id: hostile-base
game: berserk
rules: [berserk.525.1]
players:
  - id: alice
  - id: bob
board:
  rows: 2
  cols: 2
objects:
  - id: knight
    owner: alice
    zone: play
    cell: r1c1
    types: [creature]
    attributes:
      life: 3
      tokens: 0
    flags:
      open: true
  - id: rogue
    owner: bob
    zone: play
    cell: r2c2
    types: [creature]
effects:
  - id: guard
    source: knight
    timestamp: 1
    kind: prohibit
    action: accumulate_tokens
    targets: [rogue]
    duration: static
events:
  - type: declare
    id: act
    actor: alice
    kind: close
    source: knight
  - type: resolve
    action: act
expect:
  - action: act
    action_status: resolved
"""


def sub(old: str, new: str, text: str = BASE) -> str:
    """The base with the first ``old`` replaced (``new`` carries the marker)."""
    assert old in text, old
    return text.replace(old, new, 1)


def syntax_cases() -> dict[str, str]:
    """YAML that does not parse."""
    return {
        "syntax-unclosed-flow-list": sub("    types: [creature]\n", "    types: [creature\n", ),
        "syntax-unclosed-flow-map": "id: x\ngame: berserk\nplayers: [{id: alice]\n",
        "syntax-bad-indent": sub("    owner: alice\n", "      owner: alice\n"),
        "syntax-dedent-in-map": sub("    zone: play\n", "  zone: play\n"),
        "syntax-tab-indent": sub("    owner: alice\n", "\towner: alice\n"),
        "syntax-unterminated-double-quote": sub("id: hostile-base\n", 'id: "hostile-base\n'),
        "syntax-unterminated-single-quote": sub("id: hostile-base\n", "id: 'hostile-base\n"),
        "syntax-bad-escape": sub("id: hostile-base\n", 'id: "bad \\q escape"\n'),
        "syntax-colon-in-plain": "id: a: b: c\ngame: berserk\n",
        "syntax-two-documents": BASE + "---\nid: second\n",
        "syntax-document-end-then-text": BASE + "...\nid: again\n",
        "syntax-undefined-alias": sub("    owner: alice\n", "    owner: *nobody\n"),
        "syntax-anchor-without-node": "id: &\ngame: berserk\n",
        "syntax-sequence-in-map": "id: x\n- a\n- b\n",
        "syntax-map-after-scalar": "id: x\n  game: berserk\n",
        "syntax-lone-dash": "-\n-\n- :\n",
        "syntax-question-key": "? [a, b]\n: value\n",
        "syntax-unclosed-brace-eof": "{id: x, game: berserk",
        "syntax-stray-closing": "id: x]\ngame: berserk\n",
        "syntax-directive": "%YAML 1.1\n%YAML 1.1\n---\nid: x\n",
        "syntax-bad-directive": "%FOO bar\n---\nid: x\n",
        "syntax-block-scalar-bad": "id: |x\n  text\n",
        "syntax-flow-in-block-key": "[a]: b\nid: x\n",
        "syntax-control-char": "id: x\x07y\ngame: berserk\n",
        "syntax-nul-byte": "id: x\x00\ngame: berserk\n",
        "syntax-duplicate-key-top": sub("game: berserk\n", "game: berserk\ngame: mtg  #!\n"),
        "syntax-duplicate-key-nested": sub("    zone: play\n", "    zone: play\n    zone: hand  #!\n"),
        "syntax-key-is-mapping": "{a: b}: c\nid: x\n",
        "syntax-only-colon": ":\n",
        "syntax-indented-seq-mixed": "players:\n  - id: a\n   - id: b\n",
    }


def tag_cases() -> dict[str, str]:
    """Tags: none may build a Python object, unknown tags are refused."""
    return {
        "tag-python-object-apply": "id: !!python/object/apply:os.system ['echo pwned']  #!\ngame: berserk\n",
        "tag-python-object-new": "id: !!python/object/new:builtins.dict {}  #!\n",
        "tag-python-name": "id: !!python/name:os.system  #!\n",
        "tag-python-module": "id: !!python/module:os  #!\n",
        "tag-python-tuple": "players: !!python/tuple [a, b]  #!\n",
        "tag-custom": "id: !secret value  #!\n",
        "tag-binary": "id: !!binary aGVsbG8=  #!\n",
        "tag-set": "players: !!set {a, b}  #!\n",
        "tag-omap": "players: !!omap [a: 1]  #!\n",
        "tag-timestamp": "id: !!timestamp 2001-12-14  #!\n",
        "tag-str-on-map": "players: !!str {a: 1}  #!\n",
        "tag-int-bad-value": "id: x\ngame: berserk\nplayers: [{id: a}]\nturn: {active_player: !!int abc}  #!\n",
        "tag-verbatim": "id: !<tag:example.com,2000:app/foo> x  #!\n",
        "tag-merge-key": "base: &b {id: x}\n<<: *b\n",
    }


def type_cases() -> dict[str, str]:
    """Well-formed YAML with values of the wrong type."""
    cases = {
        "type-top-level-list": "- id: x\n- game: berserk\n",
        "type-top-level-scalar": "just a string\n",
        "type-top-level-number": "42\n",
        "type-players-string": sub("players:\n  - id: alice\n  - id: bob\n", "players: alice  #!\n"),
        "type-players-empty": sub("players:\n  - id: alice\n  - id: bob\n", "players: []  #!\n"),
        "type-objects-mapping": sub("objects:\n", "objects: {a: 1}  #!\nx_objects:\n"),
        "type-types-string": sub("    types: [creature]\n", "    types: creature  #!\n"),
        "type-attributes-list": sub("    attributes:\n      life: 3\n      tokens: 0\n", "    attributes: [3]  #!\n"),
        "type-attribute-string": sub("      life: 3\n", "      life: three  #!\n"),
        "type-attribute-float": sub("      life: 3\n", "      life: 1.5  #!\n"),
        "type-attribute-inf": sub("      life: 3\n", "      life: .inf  #!\n"),
        "type-attribute-nan": sub("      life: 3\n", "      life: .nan  #!\n"),
        "type-attribute-bool": sub("      life: 3\n", "      life: true  #!\n"),
        "type-attribute-null": sub("      life: 3\n", "      life: null  #!\n"),
        "type-flag-string": sub("      open: true\n", "      open: maybe  #!\n"),
        "type-flag-number": sub("      open: true\n", "      open: 2  #!\n"),
        "type-timestamp-string": sub("    timestamp: 1\n", "    timestamp: soon  #!\n"),
        "type-timestamp-list": sub("    timestamp: 1\n", "    timestamp: [1]  #!\n"),
        "type-id-number": sub("id: hostile-base\n", "id: 12345  #!\n"),
        "type-id-list": sub("id: hostile-base\n", "id: [a]  #!\n"),
        "type-id-bad-chars": sub("id: hostile-base\n", "id: 'has spaces and ; semicolons'  #!\n"),
        "type-id-too-long": sub("id: hostile-base\n", f"id: {'x' * 65}  #!\n"),
        "type-zone-list": sub("    zone: play\n", "    zone: [play]  #!\n"),
        "type-event-not-mapping": sub("  - type: resolve\n    action: act\n", "  - resolve  #!\n"),
        "type-events-mapping": sub("events:\n", "events: {a: 1}  #!\nx_events:\n"),
        "type-event-missing-type": sub("  - type: resolve\n    action: act\n", "  - action: act  #!\n"),
        "type-event-unknown-type": sub("  - type: resolve\n", "  - type: explode  #!\n"),
        "type-event-type-number": sub("  - type: resolve\n", "  - type: 7  #!\n"),
        "type-declare-targets-string": sub("    source: knight\n  - type: resolve", "    source: knight\n    targets: rogue  #!\n  - type: resolve"),
        "type-expect-status-bogus": sub("    action_status: resolved\n", "    action_status: exploded  #!\n"),
        "type-expect-verdict-bogus": sub("    action_status: resolved\n", "    action_status: resolved\n    verdict: maybe  #!\n"),
        "type-expect-no-atoms": sub("  - action: act\n    action_status: resolved\n", "  - description: nothing  #!\n"),
        "type-expect-unique-string": sub("  - action: act\n    action_status: resolved\n", "  - unique: perhaps  #!\n"),
        "type-expect-zone-without-object": sub("  - action: act\n    action_status: resolved\n", "  - zone: play  #!\n"),
        "type-expect-status-without-action": sub("  - action: act\n    action_status: resolved\n", "  - action_status: resolved  #!\n"),
        "type-expect-unique-possible": sub("  - action: act\n    action_status: resolved\n", "  - unique: true  #!\n    verdict: possible\n"),
        "type-game-unknown": sub("game: berserk\n", "game: chess  #!\n"),
        "type-game-number": sub("game: berserk\n", "game: 5  #!\n"),
        "type-effect-kind-unknown": sub("    kind: prohibit\n", "    kind: obliterate  #!\n"),
        "type-effect-duration-unknown": sub("    duration: static\n", "    duration: forever  #!\n"),
        "type-effect-targets-number": sub("    targets: [rogue]\n", "    targets: 3  #!\n"),
        "type-board-rows-string": sub("  rows: 2\n", "  rows: two  #!\n"),
        "type-board-cells-mapping": sub("  cols: 2\n", "  cols: 2\n  cells: {a: b}  #!\n"),
        "type-rules-bad-id": sub("rules: [berserk.525.1]\n", "rules: [Not A Rule]  #!\n"),
        "type-rules-string": sub("rules: [berserk.525.1]\n", "rules: 5  #!\n"),
        "type-unknown-top-field": sub("game: berserk\n", "game: berserk\ncolour: blue  #!\n"),
        "type-unknown-object-field": sub("    zone: play\n", "    zone: play\n    colour: blue  #!\n"),
        "type-unknown-effect-field": sub("    timestamp: 1\n", "    timestamp: 1\n    colour: blue  #!\n"),
        "type-unknown-event-field": sub("    action: act\n", "    action: act\n    colour: blue  #!\n"),
        "type-missing-id": sub("id: hostile-base\n", ""),
        "type-missing-zone": sub("    owner: bob\n    zone: play\n", "    owner: bob\n"),
        "type-missing-effect-timestamp": sub("    timestamp: 1\n", ""),
        "type-effect-set-without-value": sub("    kind: prohibit\n    action: accumulate_tokens\n", "    kind: set  #!\n    attribute: life\n"),
        "type-effect-control-without-player": sub("    kind: prohibit\n    action: accumulate_tokens\n", "    kind: control  #!\n"),
        "type-effect-add-name-value": sub("    kind: prohibit\n    action: accumulate_tokens\n", "    kind: add  #!\n    attribute: life\n    value: lots\n"),
        "type-effect-static-no-source": sub("    source: knight\n    timestamp: 1\n", "    timestamp: 1  #!\n"),
        "type-effect-next-turn-no-player": sub("    duration: static\n", "    duration: until_next_turn  #!\n"),
        "type-player-status-bogus": sub("  - id: bob\n", "  - id: bob\n    status: asleep  #!\n"),
        "type-choice-free-string": sub("  - type: resolve\n    action: act\n", "  - type: choice_subphase\n    player: alice\n    free: sometimes  #!\n"),
    }
    return cases


def id_cases() -> dict[str, str]:
    """Duplicate and unknown ids, references to what does not exist."""
    return {
        "dup-player": sub("  - id: bob\n", "  - id: alice  #!\n"),
        "dup-object": sub("  - id: rogue\n", "  - id: knight  #!\n"),
        "dup-effect": BASE.replace("events:\n", "  - id: guard  #!\n    timestamp: 2\n    kind: control\n    player: bob\n    targets: [rogue]\nevents:\n"),
        "dup-declared-vs-object": sub("    id: act\n", "    id: rogue  #!\n"),
        "dup-begin-effect-id": sub("  - type: resolve\n    action: act\n", "  - type: begin_effect\n    effect: {id: guard, timestamp: 3, kind: control, player: bob, targets: [rogue]}  #!\n"),
        "unknown-owner": sub("    owner: alice\n", "    owner: zed  #!\n"),
        "unknown-controller": sub("    owner: bob\n", "    owner: bob\n    controller: zed  #!\n"),
        "unknown-cell": sub("    cell: r1c1\n", "    cell: r9c9  #!\n"),
        "cell-without-board": sub("board:\n  rows: 2\n  cols: 2\n", "").replace("    cell: r1c1\n", "    cell: r1c1  #!\n", 1),
        "unknown-attached-to": sub("    types: [creature]\n", "    types: [creature]\n    attached_to: ghost  #!\n"),
        "unknown-effect-source": sub("    source: knight\n    timestamp", "    source: ghost  #!\n    timestamp"),
        "unknown-effect-target": sub("    targets: [rogue]\n", "    targets: [ghost]  #!\n"),
        "unknown-effect-player": sub("    kind: prohibit\n    action: accumulate_tokens\n", "    kind: control\n    player: zed  #!\n"),
        "unknown-selector-player": sub("    targets: [rogue]\n", "    targets: {types: [creature], controlled_by: zed}  #!\n"),
        "unknown-until-player": sub("    duration: static\n", "    duration: until_next_turn\n    until_player: zed  #!\n"),
        "unknown-declare-actor": sub("    actor: alice\n", "    actor: zed  #!\n"),
        "unknown-declare-source": sub("    source: knight\n  - type: resolve", "    source: ghost  #!\n  - type: resolve"),
        "unknown-resolve-action": sub("    action: act\nexpect", "    action: nothing  #!\nexpect"),
        "unknown-move-object": sub("  - type: resolve\n    action: act\n", "  - type: move\n    object: ghost  #!\n    zone: hand\n"),
        "unknown-move-cell": sub("  - type: resolve\n    action: act\n", "  - type: move\n    object: rogue\n    zone: play\n    cell: r7c7  #!\n"),
        "unknown-end-effect": sub("  - type: resolve\n    action: act\n", "  - type: end_effect\n    effect: nothing  #!\n"),
        "unknown-begin-turn-player": sub("  - type: resolve\n    action: act\n", "  - type: begin_turn\n    player: zed  #!\n"),
        "unknown-choice-player": sub("  - type: resolve\n    action: act\n", "  - type: choice_subphase\n    player: zed  #!\n"),
        "unknown-choice-move-object": sub("  - type: resolve\n    action: act\n", "  - type: choice_subphase\n    player: alice\n    moves: {ghost: r1c2}  #!\n"),
        "unknown-choice-move-cell": sub("  - type: resolve\n    action: act\n", "  - type: choice_subphase\n    player: alice\n    moves: {knight: r5c5}  #!\n"),
        "unknown-expect-object": sub("  - action: act\n", "  - object: ghost  #!\n    zone: play\n  - action: act\n"),
        "unknown-expect-action": sub("  - action: act\n", "  - action: nothing  #!\n"),
        "unknown-expect-player": sub("  - action: act\n", "  - player: zed  #!\n    status: won\n  - action: act\n"),
        "unknown-expect-effect": sub("  - action: act\n", "  - effect: nothing  #!\n    effect_active: true\n  - action: act\n"),
        "unknown-expect-controller": sub("  - action: act\n", "  - object: knight\n    controller: zed  #!\n  - action: act\n"),
        "unknown-expect-cell": sub("  - action: act\n", "  - object: knight\n    cell: r8c8  #!\n  - action: act\n"),
        "unknown-expect-winner": sub("  - action: act\n", "  - winner: zed  #!\n  - action: act\n"),
        "unknown-turn-player": sub("board:\n", "turn:\n  active_player: zed  #!\nboard:\n"),
        "unknown-turn-priority": sub("board:\n", "turn:\n  priority: zed  #!\nboard:\n"),
        "unknown-rule-id": sub("rules: [berserk.525.1]\n", "rules: [berserk.999.9]  #!\n"),
        "unknown-because-rule": sub("    action_status: resolved\n", "    action_status: resolved\n    because: [berserk.nothing.here]  #!\n"),
        "unknown-rule-other-game": sub("rules: [berserk.525.1]\n", "rules: [mtg.800.4a]  #!\n"),
        "unknown-action-kind": sub("    kind: close\n", "    kind: teleport  #!\n"),
        "unknown-zone": sub("    zone: play\n    cell: r2c2\n", "    zone: battlefield  #!\n"),
        "unknown-move-zone": sub("  - type: resolve\n    action: act\n", "  - type: move\n    object: rogue\n    zone: limbo  #!\n"),
        "unknown-stack-status": sub("    types: [creature]\neffects", "    types: [creature]\n  - id: spell\n    zone: stack\n    status: pondering  #!\n    action: {kind: open, targets: [rogue]}\neffects"),
        "unknown-player-in-expect-status": sub("  - action: act\n", "  - player: nobody  #!\n    status: lost\n  - action: act\n"),
    }


def consistency_cases() -> dict[str, str]:
    """Parses and validates field by field, but contradicts itself or the rules."""
    return {
        "cycle-self-attach": sub("    types: [creature]\n", "    types: [creature]\n    attached_to: knight  #!\n"),
        "cycle-two": sub("    owner: alice\n", "    owner: alice\n    attached_to: rogue  #!\n").replace(
            "    owner: bob\n", "    owner: bob\n    attached_to: knight\n", 1),
        "cycle-three": BASE.replace("effects:\n", "  - id: ring\n    zone: play\n    attached_to: knight\neffects:\n").replace(
            "    owner: alice\n", "    owner: alice\n    attached_to: rogue  #!\n", 1).replace(
            "    owner: bob\n", "    owner: bob\n    attached_to: ring\n", 1),
        "at-past-last-event": sub("    action_status: resolved\n", "    action_status: resolved\n    at: 9  #!\n"),
        "at-negative": sub("    action_status: resolved\n", "    action_status: resolved\n    at: -1  #!\n"),
        "modify-unknown-attribute": sub("  - type: resolve\n    action: act\n", "  - type: modify\n    object: rogue\n    attribute: mana  #!\n    delta: 1\n"),
        "set-flag-unknown-flag": sub("  - type: resolve\n    action: act\n", "  - type: set_flag\n    object: rogue\n    flag: glowing  #!\n    value: true\n"),
        "resolve-non-action": sub("    action: act\nexpect", "    action: rogue  #!\nexpect"),
        "finishing-blow-x-name": sub("    kind: close\n    source: knight\n", "    kind: finishing_blow\n    source: knight\n    targets: [rogue]\n    params: {x: many}  #!\n"),
        "finishing-blow-no-x": sub("    kind: close\n    source: knight\n", "    kind: finishing_blow  #!\n    source: knight\n    targets: [rogue]\n"),
        "lose-ability-no-param": sub("    kind: close\n    source: knight\n", "    kind: lose_ability  #!\n    source: knight\n    targets: [rogue]\n"),
        "choice-move-without-board": sub("board:\n  rows: 2\n  cols: 2\n", "").replace("    cell: r1c1\n", "").replace(
            "    cell: r2c2\n", "").replace("  - type: resolve\n    action: act\n",
                                         "  - type: choice_subphase\n    player: alice\n    moves: {knight: r1c2}  #!\n"),
        "declare-no-source-no-target": sub("    kind: close\n    source: knight\n", "    kind: close  #!\n"),
        "control-selector-recursion": sub("    kind: prohibit\n    action: accumulate_tokens\n    targets: [rogue]\n",
                                          "    kind: control  #!\n    player: bob\n    targets: {types: [creature], controlled_by: source_controller}\n"),
        "expect-flag-on-missing-object-flag": sub("  - action: act\n", "  - object: rogue\n    properties: {element: 5}  #!\n  - action: act\n"),
        "event-on-game-of-other-rules": sub("  - type: resolve\n    action: act\n", "  - type: leave_game  #!\n    player: bob\n"),
        "static-effect-on-missing-zone-source": sub("    zone: play\n    cell: r1c1\n", "    zone: nowhere  #!\n"),
    }


def number_cases() -> dict[str, str]:
    """Negative, enormous and out-of-range numbers, and the size limits."""
    out = {}
    bad = {"neg": "-1", "big": "1000001", "huge": "1" + "0" * 30, "giant": "9" * 5000}
    for name, v in bad.items():
        out[f"num-timestamp-{name}"] = sub("    timestamp: 1\n", f"    timestamp: {v}  #!\n")
        out[f"num-life-{name}"] = sub("      life: 3\n", f"      life: {v if name != 'neg' else '-1000001'}  #!\n")
        out[f"num-rows-{name}"] = sub("  rows: 2\n", f"  rows: {v if name != 'neg' else '0'}  #!\n")
        out[f"num-delta-{name}"] = sub("  - type: resolve\n    action: act\n",
                                       f"  - type: modify\n    object: knight\n    attribute: life\n    delta: {v if name != 'neg' else '-1000001'}  #!\n")
    out["num-hex-huge"] = sub("      life: 3\n", "      life: 0xFFFFFFFFFFFFFFFFFFFFFF  #!\n")
    out["num-cols-51"] = sub("  cols: 2\n", "  cols: 51  #!\n")
    out["num-outcomes-65"] = sub("  - action: act\n", "  - outcomes: 65  #!\n  - action: act\n")
    out["num-within-0"] = sub("expect:\n", "claims:\n  - kind: forced_win\n    player: alice\n    within: 0  #!\nexpect:\n")
    out["limit-players-17"] = sub("players:\n  - id: alice\n  - id: bob\n",
                                  "players:\n" + "".join(f"  - id: p{i}\n" for i in range(17)) + "  - id: alice\n")
    out["limit-events-201"] = sub("events:\n", "events:\n" + "  - type: end_turn\n" * 201)
    out["limit-objects-5001"] = sub("objects:\n", "objects:\n" + "".join(
        f"  - {{id: x{i}, zone: hand}}\n" for i in range(5001)))
    out["limit-effects-2001"] = sub("effects:\n", "effects:\n" + "".join(
        f"  - {{id: f{i}, timestamp: 1, kind: grant, ability: flying, targets: [rogue]}}\n" for i in range(2001)))
    out["limit-expect-501"] = sub("expect:\n", "expect:\n" + "  - {unique: true}\n" * 501)
    out["limit-claims-51"] = sub("expect:\n", "claims:\n" + "  - {kind: decisive_advantage, player: alice}\n" * 51 + "expect:\n")
    out["limit-cells-2601"] = sub("  rows: 2\n  cols: 2\n", "  rows: 50\n  cols: 50\n  cells: [" + ", ".join(
        f"x{i}" for i in range(101)) + "]\n")
    out["limit-string-too-long"] = sub("id: hostile-base\n", "id: hostile-base\ntitle: " + "x" * 600 + "  #!\n")
    return out


def nesting_cases() -> dict[str, str]:
    """Deep nesting, alias bombs and recursive aliases."""
    lol = "\n".join([f'lol1: &lol1 [{", ".join(["lol"] * 10)}]']
                    + [f"lol{n}: &lol{n} [{', '.join([f'*lol{n - 1}'] * 10)}]" for n in range(2, 10)]) + "\n"
    return {
        "deep-flow-list-100": "id: x\nplayers: " + "[" * 100 + "]" * 100 + "\n",
        "deep-flow-list-10000": "id: x\nplayers: " + "[" * 10000 + "]" * 10000 + "\n",
        "deep-flow-map-200": "id: x\nplayers: " + "{a: " * 200 + "1" + "}" * 200 + "\n",
        "deep-block-map-100": "id: x\n" + "".join("  " * i + f"k{i}:\n" for i in range(100)) + "  " * 100 + "v: 1\n",
        "deep-block-list-80": "players:\n" + "".join("  " * i + "-\n" for i in range(1, 80)) + "  " * 80 + "- x\n",
        "deep-in-attributes": sub("      life: 3\n", "      life: " + "[" * 70 + "]" * 70 + "\n"),
        "bomb-billion-laughs": lol + "id: x\n",
        "bomb-laughs-in-field": "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                                "id: x\ngame: berserk\nplayers: *f\n",
        "alias-recursive-list": "a: &a [1, *a]\n",
        "alias-recursive-map": "a: &a {b: *a}\n",
        "alias-as-key": "a: &k key\n*k : value\nid: x\n",
        "alias-small-legit-then-bad": sub("players:\n  - id: alice\n  - id: bob\n",
                                          "players:\n  - &p {id: alice}\n  - *p  #!\n"),
    }


def time_and_input_cases() -> dict[str, str]:
    """Issue 17: events ahead of time, ties, loose Booleans, errors inside aliases, characters no output may carry."""
    declare = "  - type: declare\n    id: act\n    actor: alice\n    kind: close\n    source: knight\n"
    resolve = "  - type: resolve\n    action: act\n"
    rival = ("  - id: rival\n    source: rogue\n    timestamp: 1\n    kind: set\n    attribute: element\n"
             "    value: darkness  #!\n    targets: [knight]\n")
    mine = "    kind: set\n    attribute: element\n    value: forests\n    targets: [knight]\n    duration: static\n"
    return {
        "time-resolve-before-declare": sub(declare + resolve, "  - type: resolve  #!\n    action: act\n" + declare),
        "time-end-effect-before-begin": sub(resolve, "  - type: end_effect  #!\n    effect: later\n  - type: begin_effect\n"
                                                     "    effect: {id: later, kind: grant, ability: flying, targets: [rogue]}\n"),
        "time-declare-source-created-later": sub(declare + resolve, "  - type: declare  #!\n    id: first\n    actor: alice\n"
                                                 "    kind: close\n    source: act\n" + declare),
        "time-expect-zone-before-created": sub("expect:\n", "expect:\n  - object: act  #!\n    zone: stack\n    at: 0\n"),
        "time-expect-attached-before-created": sub("expect:\n", "expect:\n  - object: knight  #!\n    attached_to: act\n"
                                                                "    at: 0\n"),
        "time-begun-effect-lower-timestamp": sub(resolve, resolve + "  - type: begin_effect  #!\n    effect: {id: late, "
                                                 "timestamp: 0, kind: grant, ability: flying, targets: [rogue]}\n"),
        "time-initial-effect-no-timestamp": sub("    timestamp: 1\n    kind: prohibit\n", "    kind: prohibit\n").replace(
            "  - id: guard\n", "  - id: guard  #!\n", 1),
        "tie-two-sets-same-timestamp": sub("    kind: prohibit\n    action: accumulate_tokens\n    targets: [rogue]\n"
                                           "    duration: static\n", mine + rival),
        "tie-grant-remove-same-timestamp": sub("events:\n", "  - id: strip\n    timestamp: 1\n    kind: remove\n"
                                                "    ability: flying\n    targets: {types: [creature]}\n  - id: gift  #!\n"
                                                "    timestamp: 1\n    kind: grant\n    ability: flying\n"
                                                "    targets: [rogue]\nevents:\n"),
        "bool-yes-flag": sub("      open: true\n", "      open: yes  #!\n"),
        "bool-quoted-on-unique": sub("  - action: act\n", "  - unique: 'on'  #!\n  - action: act\n"),
        "bool-number-showdown": sub("board:\n", "turn:\n  showdown: 1  #!\nboard:\n"),
        "bool-string-token": sub("    types: [creature]\neffects", "    types: [creature]\n    token: 'false'  #!\neffects"),
        "number-string-rows": sub("  rows: 2\n", "  rows: '2'  #!\n"),
        "alias-error-at-use": sub("expect:\n  - action: act\n", "expect:\n  - &ok\n    action: act\n").replace(
            "    action_status: resolved\n", "    action_status: resolved\n  - *ok\n  - object: knight\n"
            "    flags: *ok  #!\n"),
        "output-control-char-key": sub("game: berserk\n", 'game: berserk\n"\\x01\\e[31mred\\e[0m": 1  #!\n'),
        "output-nonchar-key": sub("game: berserk\n", 'game: berserk\n"bad\\uFFFE\\x1b]0;title\\x07": 1  #!\n'),
        "output-bidi-key": sub("game: berserk\n", 'game: berserk\n"evil\\u202Etxt.yaml": 1  #!\n'),
    }


def encoding_cases() -> dict[str, bytes]:
    """Bytes that are not UTF-8, or are empty."""
    return {
        "enc-latin1": "id: caf\xe9\ngame: berserk\n".encode("latin-1"),
        "enc-utf16-bom": BASE.encode("utf-16"),
        "enc-utf16le-nobom": BASE.encode("utf-16-le"),
        "enc-bad-continuation": b"id: x\xc3\x28\ngame: berserk\n",
        "enc-overlong": b"id: \xc0\xaf\ngame: berserk\n",
        "enc-surrogate-cesu": b"id: \xed\xa0\x80\n",
        "enc-truncated-multibyte": b"id: x\ngame: berserk\ntitle: \xe2\x82",
        "enc-bom-then-latin1": b"\xef\xbb\xbfid: \xff\xfe\n",
        "enc-binary-garbage": bytes(range(256)) * 4,
        "empty-zero-bytes": b"",
        "empty-whitespace": b"   \n\n\t\n",
        "empty-comments": b"# nothing here\n# at all\n",
        "empty-document-marker": b"---\n",
        "empty-null-document": b"~\n",
        "empty-document-end": b"...\n",
        "empty-bom-only": b"\xef\xbb\xbf",
    }


#: a small valid scenario of each game, the base of its vocabulary errors
GAME_BASES = {
    "berserk": """\
id: vocab-berserk
game: berserk
options: {dice_sides: 6}
players: [{id: alice}, {id: bob}]
objects:
  - {id: knight, owner: alice, zone: play, types: [creature], abilities: [flying], attributes: {life: 3}}
  - {id: rogue, owner: bob, zone: hand, types: [creature]}
events:
  - {type: concede, player: bob}
expect:
  - {player: bob, status: conceded}
""",
    "mtg": """\
id: vocab-mtg
game: mtg
options: {}
players: [{id: alex}, {id: bianca}, {id: carla}]
objects:
  - {id: bears, owner: bianca, zone: battlefield, types: [creature]}
  - {id: shock, owner: alex, zone: hand, types: [instant]}
events:
  - {type: declare, id: cast, actor: alex, kind: spell, source: shock}
  - {type: leave_game, player: bianca}
expect:
  - {object: bears, zone: outside}
""",
    "riftbound": """\
id: vocab-riftbound
game: riftbound
options: {}
players: [{id: ann}, {id: ben}, {id: cy}]
objects:
  - {id: ben_unit, owner: ben, zone: base, types: [unit], attributes: {power: 3}}
events:
  - {type: concede, player: ben}
expect:
  - {object: ben_unit, zone: banishment}
""",
    "ti4": """\
id: vocab-ti4
game: ti4
options: {players_at_start: 3}
players: [{id: alice}, {id: bob}, {id: carol}]
objects:
  - {id: dock, owner: alice, zone: board, types: [structure, space_dock], abilities: [production]}
  - {id: inf, owner: bob, zone: board, types: [ground_force, infantry]}
  - {id: mecatol, zone: board, controller: carol, types: [planet]}
events:
  - {type: planet_control, planet: mecatol, player: bob}
expect:
  - {player: carol, status: eliminated}
""",
}
#: vocabulary error file -> (game, the words its message must contain); ``vocabulary.json`` records them
VOCAB: dict[str, tuple[str, str]] = {}


def vocab(game: str, name: str, old: str, new: str, message: str) -> tuple[str, str]:
    """A vocabulary error of ``game``: its base with ``old`` replaced by ``new`` (which carries the marker)."""
    VOCAB[f"vocab-{game}-{name}.yaml"] = (game, message)
    return f"vocab-{game}-{name}", sub(old, new, GAME_BASES[game])


def vocabulary_cases() -> dict[str, str]:
    """Words outside a game's vocabulary and fields its rules never read: misspelt, wrong case, plural, unknown
    option, unknown field, a field the game does not model (and the TI4 typos of issue 11)."""
    k, b = "  - {id: knight, owner: alice, zone: play, types: [creature], abilities: [flying], attributes: {life: 3}}\n", \
        "  - {id: bears, owner: bianca, zone: battlefield, types: [creature]}\n"
    u, t = "  - {id: ben_unit, owner: ben, zone: base, types: [unit], attributes: {power: 3}}\n", \
        "  - {id: dock, owner: alice, zone: board, types: [structure, space_dock], abilities: [production]}\n"
    cases = [
        vocab("berserk", "misspelt", k, k.replace("zone: play", "zone: plya").rstrip() + "  #!\n",
              "unknown zone 'plya' for berserk; did you mean 'play'?"),
        vocab("berserk", "case", k, k.replace("[flying]", "[Flying]").rstrip() + "  #!\n",
              "unknown ability 'Flying' for berserk; did you mean 'flying'?"),
        vocab("berserk", "plural", k, k.replace("[creature]", "[creatures]").rstrip() + "  #!\n",
              "unknown object type 'creatures' for berserk; did you mean 'creature'?"),
        vocab("berserk", "unknown-option", "options: {dice_sides: 6}\n", "options: {dice_side: 6}  #!\n",
              "unknown option 'dice_side' for berserk; did you mean 'dice_sides'?"),
        vocab("berserk", "unknown-field", "  - {type: concede, player: bob}\n",
              "  - {type: concede, player: bob, reason: tired}  #!\n", "unknown field 'reason' of a 'concede' event for berserk: no berserk rule reads it"),
        vocab("berserk", "unmodelled-field", "  - {type: concede, player: bob}\n",
              "  - {type: concede, player: bob, blank_battlefields: {knight: rogue}}  #!\n",
              "unknown field 'blank_battlefields' of a 'concede' event for berserk: no berserk rule reads it"),
        vocab("berserk", "strike-format", k, k.replace("attributes: {life: 3}", "attributes: {life: 3}, "
                                                       "properties: {strike: '3 4 5'}").rstrip() + "  #!\n",
              "property 'strike' is written like '2-3-4', not '3 4 5'"),
        vocab("mtg", "misspelt", b, b.replace("[creature]", "[creture]").rstrip() + "  #!\n",
              "unknown object type 'creture' for mtg; did you mean 'creature'?"),
        vocab("mtg", "case", b, b.replace("battlefield", "Battlefield").rstrip() + "  #!\n",
              "unknown zone 'Battlefield' for mtg; did you mean 'battlefield'?"),
        vocab("mtg", "plural", "  - {object: bears, zone: outside}\n",
              "  - {object: bears, zone: graveyards}  #!\n",
              "unknown zone 'graveyards' for mtg; did you mean 'graveyard'?"),
        vocab("mtg", "unknown-option", "options: {}\n", "options: {starting_life: 40}  #!\n",
              "unknown option 'starting_life' for mtg"),
        vocab("mtg", "unknown-field", "  - {type: leave_game, player: bianca}\n",
              "  - {type: leave_game, player: bianca, reason: quit}  #!\n", "unknown field 'reason' of a 'leave_game' event for mtg: no mtg rule reads it"),
        vocab("mtg", "unmodelled-targets", "kind: spell, source: shock}\n",
              "kind: spell, source: shock, targets: [bears]}  #!\n",
              "action kind 'spell' takes no targets: no mtg rule reads them"),
        vocab("riftbound", "misspelt", "  - {object: ben_unit, zone: banishment}\n",
              "  - {object: ben_unit, zone: banishmnet}  #!\n",
              "unknown zone 'banishmnet' for riftbound; did you mean 'banishment'?"),
        vocab("riftbound", "case", u, u.replace("[unit]", "[Unit]").rstrip() + "  #!\n",
              "unknown object type 'Unit' for riftbound; did you mean 'unit'?"),
        vocab("riftbound", "plural", u, u.replace("[unit]", "[units]").rstrip() + "  #!\n",
              "unknown object type 'units' for riftbound; did you mean 'unit'?"),
        vocab("riftbound", "unknown-option", "options: {}\n", "options: {points_to_win: 8}  #!\n",
              "unknown option 'points_to_win' for riftbound"),
        vocab("riftbound", "unknown-field", "  - {type: concede, player: ben}\n",
              "  - {type: concede, player: ben, team: red}  #!\n", "unknown field 'team' of a 'concede' event for riftbound: no riftbound rule reads it"),
        vocab("riftbound", "unmodelled-claims", "expect:\n",
              "claims:\n  - {kind: decisive_advantage, player: ann}  #!\nexpect:\n",
              "'claims' is not read by any riftbound rule"),
        vocab("ti4", "production-case", t, t.replace("[production]", "[Production]").rstrip() + "  #!\n",
              "unknown ability 'Production' for ti4; did you mean 'production'?"),
        vocab("ti4", "production-number", t, t.replace("[production]", '["Production 7"]').rstrip() + "  #!\n",
              "unknown ability 'Production' for ti4 (in 'Production 7'); did you mean 'production'?"),
        vocab("ti4", "production-number-lower", t, t.replace("[production]", '["production 7"]').rstrip() + "  #!\n",
              "ability 'production' takes no number"),
        vocab("ti4", "case", "[ground_force, infantry]}\n", "[Infantry]}  #!\n",
              "unknown object type 'Infantry' for ti4; did you mean 'infantry'?"),
        vocab("ti4", "plural", "[ground_force, infantry]}\n", "[ground_forces]}  #!\n",
              "unknown object type 'ground_forces' for ti4; did you mean 'ground_force'?"),
        vocab("ti4", "misspelt", "types: [planet]}\n", "types: [plant]}  #!\n",
              "unknown object type 'plant' for ti4; did you mean 'planet'"),
        vocab("ti4", "unknown-option", "options: {players_at_start: 3}\n", "options: {player_at_start: 3}  #!\n",
              "unknown option 'player_at_start' for ti4; did you mean 'players_at_start'?"),
        vocab("ti4", "unknown-field", "  - {type: planet_control, planet: mecatol, player: bob}\n",
              "  - {type: planet_control, planet: mecatol, player: bob, from: carol}  #!\n", "unknown field 'from' of a 'planet_control' event for ti4: no ti4 rule reads it"),
        vocab("ti4", "unmodelled-cell", t, t.replace("zone: board,", "zone: board, cell: r1c1,").rstrip() + "  #!\n",
              "'cell' is not read by any ti4 rule"),
        vocab("ti4", "missing-required-type", t, t.replace("[structure, space_dock]", "[space_dock]").rstrip()
              + "  #!\n", "type 'space_dock' is a structure: list 'structure' too"),
    ]
    return dict(cases)


#: a scenario placing a card of the repository's library (the corpus lies in tests/hostile/corpus/: its project is
#: the repository, marked by its pyproject.toml)
CARD_BASE = """\
id: hostile-cards
game: berserk
cards: [../../../cards/berserk]
players: [{id: alice}, {id: bob}]
objects:
  - {id: k, card: kornevik, owner: alice, zone: play}
"""
#: what no error may show: a line of /etc/passwd, of the manifest (a file inside the project that is no card file)
SECRETS = ("root:x:0:0", "root:*:", '"alias-as-key.yaml"')


def card_cases() -> dict[str, str]:
    """``cards:`` entries that would read files outside the project, or files that are no card files, or are not
    paths; slots and card references a check refuses. None may show a byte of a file it refuses."""
    lib = "cards: [../../../cards/berserk]\n"
    obj = "  - {id: k, card: kornevik, owner: alice, zone: play}\n"
    def cards(value: str) -> str:
        return sub(lib, f"cards: {value}  #!\n", CARD_BASE)
    return {
        "cards-absolute-etc-passwd": cards("[/etc/passwd]"),
        "cards-absolute-etc-shadow": cards("[/etc/shadow]"),
        "cards-root-folder": cards("[/]"),
        "cards-home-tilde": cards("[~/.ssh/id_rsa]"),
        "cards-dotdot-out-of-project": cards("[../../../../../../../../../../etc]"),
        "cards-dotdot-passwd": cards('["../../../../../../../../../../etc/passwd"]'),
        "cards-dotdot-other-project": cards("[../../../../other-project/cards/berserk]"),
        "cards-proc-self-environ": cards("[/proc/self/environ]"),
        "cards-dev-zero": cards("[/dev/zero]"),
        "cards-not-a-list": cards("../../../cards/berserk"),
        "cards-number-item": cards("[5]"),
        "cards-empty-string-item": cards('[""]'),
        "cards-null-item": cards("[~]"),
        "cards-mapping-item": cards("[{path: ../../../cards/berserk}]"),
        "cards-missing-folder": cards("[../../../cards/nowhere]"),
        "cards-not-a-card-file": sub(obj, "  - {id: k, card: kornevik, owner: alice, zone: play}  #!\n",
                                     sub(lib, "cards: [../manifest.json]\n", CARD_BASE)),
        "cards-scenario-as-library": sub(obj, "  - {id: k, card: kornevik, owner: alice, zone: play}  #!\n",
                                         sub(lib, "cards: [type-missing-id.yaml]\n", CARD_BASE)),
        "cards-multi-game-root-of-other-games": sub(obj, "  - {id: k, card: kornevik, owner: alice, zone: play}  #!\n",
                                                    sub("game: berserk\n", "game: ti4\n",
                                                        sub(lib, "cards: [../../../cards]\n", CARD_BASE))),
        "cards-unknown-card": sub(obj, "  - {id: k, card: kornevk, owner: alice, zone: play}  #!\n", CARD_BASE),
        "cards-slot-in-a-check": sub(obj, "  - {id: k, card: $4, owner: alice, zone: play}  #!\n", CARD_BASE),
        "cards-bidi-in-path": cards('["../\\u202eevil\\x1b]0;title\\x07"]'),
    }


def all_cases() -> dict[str, str | bytes]:
    """Every hostile file by name (without extension)."""
    out: dict[str, str | bytes] = {}
    for part in (syntax_cases, tag_cases, type_cases, id_cases, consistency_cases, number_cases, nesting_cases,
                 time_and_input_cases, encoding_cases, vocabulary_cases, card_cases):
        for name, text in part().items():
            assert name not in out, name
            out[name] = text
    return out


def expected_lines(text: str | bytes) -> list[int] | None:
    """Lines an error may point at: the marked line and the start of the list item or section holding it."""
    if isinstance(text, bytes):
        return None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.rstrip().endswith(MARK):
            continue
        out = [i + 1]
        indent = len(line) - len(line.lstrip(" -"))
        for j in range(i, -1, -1):
            above = lines[j]
            lead = len(above) - len(above.lstrip(" "))
            if above.lstrip().startswith("- ") and lead < indent or lead == 0:
                out.append(j + 1)
                break
        return sorted(set(out))
    return None


def main() -> None:
    """Rewrite the corpus folder and its manifest."""
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    CORPUS.mkdir(parents=True)
    manifest: dict[str, object] = {}
    for name, text in sorted(all_cases().items()):
        path = CORPUS / f"{name}.yaml"
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        path.write_bytes(data)
        file_level = name.startswith(("enc-", "empty-"))
        manifest[path.name] = "file" if file_level else expected_lines(text)
    for name in ("dir-named-like-scenario.yaml", "dir-named-like-scenario.yml"):
        (CORPUS / name).mkdir()
        (CORPUS / name / "README").write_text("A folder named like a scenario: must be reported, never skipped.\n")
        manifest[name] = "file"
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    words = {name: {"game": g, "message": m} for name, (g, m) in sorted(VOCAB.items())}
    (HERE / "vocabulary.json").write_text(json.dumps(words, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(manifest)} hostile files to {CORPUS}")


if __name__ == "__main__":
    main()
