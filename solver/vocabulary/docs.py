"""Each game's reference, generated from its declarations: rule ids with their texts, every word with its meaning,
the events with their fields, the scenario format and a minimal example.

``arbiter rules GAME`` prints it; ``docs/games/<game>.md`` is the same text, written by
``python -m solver.vocabulary.docs`` (``tests/test_vocabulary.py`` fails when a committed
file is stale).
"""
from __future__ import annotations

import sys
from pathlib import Path

from solver.registry import game as game_named
from solver.registry import names, vocabulary_for
from solver.vocabulary.shared import DURATIONS, EFFECT_KINDS, FEATURE_PATHS, FEATURES, STRUCTURE
from solver.vocabulary.words import CATEGORIES, Ability, Number, Switch, Text, Type, Vocabulary, Word, Zone

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
#: where each section of the scenario format sits in a file ('*': any list item)
SECTION_PATHS = {"Scenario": (), "Player": ("players", "*"), "Board": ("board",), "Object": ("objects", "*"), "Trigger": ("objects", "*", "triggers"),
                 "ActionSpec": ("objects", "*", "action"), "Effect": ("effects", "*"),
                 "Selector": ("effects", "*", "targets"), "Turn": ("turn",), "Expectation": ("expect", "*")}
#: word categories in the order of the reference, with their headings
HEADINGS = {
    "zones": "Zones", "types": "Object types", "abilities": "Abilities", "attributes": "Attributes (whole numbers)",
    "properties": "Properties (texts)", "flags": "Flags", "derived_flags": "Computed flags",
    "player_attributes": "Player attributes", "player_flags": "Player flags",
    "permissions": "Permissions (what an effect may permit or prohibit)", "statuses": "Player statuses",
    "action_statuses": "Action statuses", "options": "Options",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows] + [""]


def _unread(v: Vocabulary) -> set[tuple[str, ...]]:
    """The field paths of the features the game does not read."""
    mine = set(v.names("features"))
    return {p for f in FEATURES if f.name not in mine for p in FEATURE_PATHS[f.name]}


def _value_text(w: Word) -> str:
    """How a value is written: a range, true/false, the values, a pattern's example, a category."""
    if isinstance(w, Number):
        return f"{w.lo} .. {w.hi}" + (f" (default {w.default})" if w.default is not None else "")
    if isinstance(w, Switch):
        return "true / false"
    if isinstance(w, Text):
        if w.values:
            return " / ".join(w.values)
        if w.example:
            return f"like `{w.example}`"
        if w.words:
            noun = CATEGORIES.get(w.words, (w.words.rstrip('s'),))[0]
            return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"
        return "an id"
    return "see the meaning"


def _word_rows(category: str, words: tuple[Word, ...]) -> list[tuple[str, ...]]:
    """Table rows for one category."""
    rows = []
    for w in words:
        if isinstance(w, Zone):
            whose = {"owner": "its owner's", "holder": "its holder's"}.get(w.whose or "", "shared")
            rows.append((f"`{w.name}`", whose, w.meaning))
        elif isinstance(w, Type) and w.requires:
            rows.append((f"`{w.name}`", w.meaning + " (list " + ", ".join(f"`{r}`" for r in w.requires) + " too)"))
        elif isinstance(w, Ability) and w.param:
            rows.append((f"`{w.name} {w.param}`", f"{w.param}: {w.lo} .. {w.hi}. {w.meaning}"))
        elif isinstance(w, (Number, Switch, Text)):
            rows.append((f"`{w.name}`", _value_text(w), w.meaning))
        else:
            rows.append((f"`{w.name}`", w.meaning))
    return rows


def _head(category: str, words: tuple[Word, ...]) -> tuple[str, ...]:
    if words and isinstance(words[0], Zone):
        return ("zone", "whose", "meaning")
    if words and all(isinstance(w, (Number, Switch, Text)) for w in words):
        return (CATEGORIES[category][0], "value", "meaning")
    return (CATEGORIES[category][0], "meaning")


def _words(v: Vocabulary) -> list[str]:
    out = []
    for category, heading in HEADINGS.items():
        words = v.words(category)
        out += [f"### {heading}", "", f"Used in: {CATEGORIES[category][1]}.", ""]
        if category == "permissions":
            out += ["Every action kind is a permission too, and so is every ability (a permission starts from the "
                    "ability of the same name).", ""]
        out += _table(_head(category, words), _word_rows(category, words)) if words else ["None in this game.", ""]
    if v.declared:
        out += ["### Names the scenario declares", ""]
        out += _table(("event", "field", "names a", "meaning"),
                      [(f"`{d.event}`", f"`{d.field}`", CATEGORIES[d.category][0], d.meaning) for d in v.declared])
    return out


def _actions(v: Vocabulary) -> list[str]:
    out = ["## Action kinds", "", "Used in: `declare` events (`kind`, `targets`, `params`), an object's `action`. A "
           "kind takes as many targets as it says and only its parameters: others are refused.", ""]
    if not v.actions:
        return out + ["None in this game.", ""]
    rows = []
    for a in v.actions:
        lo, hi = a.targets
        targets = "none" if hi == 0 else (f"{lo}" if lo == hi else f"{lo} .. {hi}")
        params = "; ".join(f"`{p.name}`{' (required)' if getattr(p, 'required', False) else ''}: {_value_text(p)}, "
                           f"{p.meaning}" for p in a.params) or "none"
        rows.append((f"`{a.name}`", targets, params, a.meaning))
    return out + _table(("kind", "targets", "parameters", "meaning"), rows)


def _events(v: Vocabulary, unread: set) -> list[str]:
    out = ["## Events", "", "Each item of `events` has a `type` and the fields below (and an optional `note`); a "
           "field not listed is refused.", ""]
    for e in v.events:
        fields = [f for f in e.fields if ("events", "*", f.name) not in unread]
        out += [f"### `{e.name}`", "", e.meaning[0].upper() + e.meaning[1:] + ".", ""]
        if fields:
            out += _table(("field", "value", "meaning"),
                          [(f"`{f.name}`" + (" (required)" if getattr(f, "required", False) else ""),
                            _value_text(f), f.meaning) for f in fields])
    return out


def _structure(v: Vocabulary, unread: set) -> list[str]:
    out = ["## The scenario file", "", "A scenario is one YAML mapping. Fields this game does not read are left out "
           "here and refused in a file.", ""]
    for section, fields in STRUCTURE.items():
        prefix = SECTION_PATHS[section]
        if prefix in unread:
            continue
        shown = [f for f in fields if prefix + (f.name,) not in unread]
        out += [f"### {section}", ""] + _table(("field", "meaning"), [(f"`{f.name}`", f.meaning) for f in shown])
    out += ["### Effect kinds", ""] + _table(("kind", "meaning"), [(f"`{w.name}`", w.meaning) for w in EFFECT_KINDS])
    out += ["### Durations", ""] + _table(("duration", "meaning"), [(f"`{w.name}`", w.meaning) for w in DURATIONS])
    not_read = [f for f in FEATURES if f.name not in v.names("features")]
    if not_read:
        out += ["### Not read by this game", ""] + [f"- {f.meaning}" for f in not_read] + [""]
    return out


def _rules(game: str) -> list[str]:
    own = game_named(game).rule_texts()
    out = ["## Rules", "", "Cite them in `rules:` and `because:`; `grep -rn <rule id> solver/` finds the clause.", ""]
    out += _table(("rule id", "text"), [(f"`{r}`", t) for r, t in sorted(own.items())])
    aliases = game_named(game).aliases()
    if aliases:
        out += ["Aliases: " + ", ".join(f"`{a}.x` = `{c}.x`" for a, c in sorted(aliases.items())), ""]
    if game != "core":
        core = game_named("core").rule_texts()
        out += ["### Core rules (every game)", ""] + _table(("rule id", "text"),
                                                            [(f"`{r}`", t) for r, t in sorted(core.items())])
    return out


def render(game: str) -> str:
    """The reference of one game, as Markdown."""
    v = vocabulary_for(game)
    unread = _unread(v)
    head = [f"# {game_named(game).title} (`game: {game}`)", "",
            "Generated from the game's declarations (`solver/games/" + game + "/vocabulary.py`, `rules.py`) by "
            "`python -m solver.vocabulary.docs`; `arbiter rules " + game + "` prints the same. Every word a "
            "scenario uses must be one of these: anything else is an error at file:line:col naming the nearest "
            "known words.", "",
            "## How scenarios are written", "", v.notes.rstrip("\n"), "",
            "## A minimal scenario", "", "```yaml", v.example.rstrip("\n"), "```", "",
            "Check it with `arbiter check FILE`. For editor completion, put `# yaml-language-server: "
            f"$schema=arbiter-{game}.schema.json` on the first line and write the schema with "
            f"`arbiter schema --game {game} -o arbiter-{game}.schema.json`.", "",
            "## Words", ""]
    body = head + _words(v) + _actions(v) + _events(v, unread) + _structure(v, unread) + _rules(game)
    return "\n".join(body).rstrip("\n") + "\n"


def write(folder: Path = DOCS) -> list[Path]:
    """Write ``<folder>/<game>.md`` for every game."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for g in names():
        path = folder / f"{g}.md"
        path.write_text(render(g), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS):
        print(p)
