"""Closed world: every word a scenario uses is known to its game, and every field it gives is read by a rule.

The check reads the scenario as parsed YAML (so it runs even when pydantic refused
something else in the file) against the game's vocabulary (``solver/games/<game>/
vocabulary.py``). Each problem is a (key path, message) pair: the message names the
word, where it appeared and the nearest known words ("unknown ability 'Production'
for ti4; did you mean 'production'?"). The loader (``solver/load.py``) joins them with
the pydantic and reference errors of the file, located at file:line:col, sorted by line and capped.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache
from typing import Any

from models.cards import CardLibrary
from models.yamlsafe import LineMap, LoadError
from solver.check import rulebook
from solver.registry import names, vocabulary_for
from solver.vocabulary.shared import FEATURE_PATHS, FEATURES
from solver.vocabulary.words import CATEGORIES, Ability, Action, Number, Switch, Text, Vocabulary, Word

KeyPath = tuple[str | int, ...]
Problem = tuple[KeyPath, str]
#: fields every event has besides those its type declares
EVENT_COMMON = ("type", "note")


# -- nearest words ------------------------------------------------------------------------------------
#: letters of other scripts that look like a Latin letter (what a word written with one was meant to say)
LOOK_ALIKES = dict(zip("\u0430\u0432\u0435\u0456\u0458\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443"
                       "\u0445\u0455\u0501\u04cf\u03b1\u03b5\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7",
                       "abeijkmhopctyxsdlaeikvoptux"))


def invisible(ch: str) -> bool:
    """A character that shows nothing, or shows as blank space other than the plain space: a control, format
    (zero-width) or separator character."""
    cat = unicodedata.category(ch)
    return cat[0] == "C" or cat in ("Zl", "Zp") or (cat == "Zs" and ch != " ")


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def shown(value: str) -> str:
    """``value`` quoted as written, with what a reader could not tell apart escaped: invisible characters
    ('produ\\u200bction'), and in a word of Latin letters every other character (a Cyrillic 'о': 'pr\\u043eduction')."""
    latin = any(_latin(c) for c in value)
    out = "".join(_escaped(c) if invisible(c) or (latin and not c.isascii()) else c for c in value)
    return f"'{out}'"


def _escaped(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


#: names of the control characters a YAML string can hold (unicodedata names none)
CONTROL_NAMES = {"\t": "CHARACTER TABULATION", "\n": "LINE FEED", "\r": "CARRIAGE RETURN"}


def defects(value: str) -> str:
    """What makes ``value`` not exactly a word, in words: spaces at either end, invisible characters, letters of
    another script among Latin ones ('' when there is none of them)."""
    out = []
    if value[:1].isspace():
        out.append("a leading space")
    if value[-1:].isspace():
        out.append("a trailing space")
    latin = any(_latin(c) for c in value)
    for c in dict.fromkeys(value):
        name = CONTROL_NAMES.get(c) or unicodedata.name(c, "a control character")
        if invisible(c):
            out.append(f"U+{ord(c):04X} {name}, which is invisible")
        elif latin and not c.isascii() and not invisible(c):
            out.append(f"U+{ord(c):04X} {name}, which is not a Latin letter")
    return f" ({'; '.join(out)})" if out else ""


def said(value: str) -> str:
    """``value`` as a message shows it: ``shown`` and its ``defects``."""
    return shown(value) + defects(value)


def _plain(word: str) -> str:
    """What ``word`` was presumably meant to say: compatibility forms folded (NFKC), invisible characters dropped,
    look-alike letters read as the Latin ones, spaces at the ends dropped, lower case."""
    folded = unicodedata.normalize("NFKC", word)
    return "".join(LOOK_ALIKES.get(c, c) for c in folded.lower() if not invisible(c)).strip()


def _singular(word: str) -> str:
    for end, repl in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) > len(end) + 2:
            return word[: -len(end)] + repl
    return word


def nearest(word: str, known: list[str] | tuple[str, ...], n: int = 3) -> list[str]:
    """The known words closest to ``word``: the same word in another case or number, with spaces at its ends, an
    invisible character or a look-alike letter first, then by spelling."""
    lower = {k.lower(): k for k in known}
    w = _plain(word)
    same = [lower[f] for f in (w, w.replace(" ", "_").replace("-", "_"), _singular(w), w + "s") if f in lower]
    if same:
        return list(dict.fromkeys(same))
    return [lower[m] for m in difflib.get_close_matches(w, list(lower), n=n, cutoff=0.6)]


def hint(word: str, known: list[str] | tuple[str, ...]) -> str:
    """'; did you mean 'x'?' with the nearest known words, else the known words (at most 12)."""
    near = nearest(word, known)
    if near:
        return "; did you mean " + " or ".join(f"'{x}'" for x in near) + "?"
    if not known:
        return " (there is none)"
    shown_ = ", ".join(known[:12]) + (f" ... ({len(known) - 12} more)" if len(known) > 12 else "")
    return f" (known: {shown_})"


def dotted(path: KeyPath) -> str:
    """A key path as written in messages: ``objects[2].abilities[0]``."""
    out = ""
    for p in path:
        if isinstance(p, str) and not re.fullmatch(r"[A-Za-z0-9_\-]+", p):
            out += f"[{shown(p)}]"
        else:
            out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


# -- the check ----------------------------------------------------------------------------------------------
class _Check:
    """One scenario's data against one vocabulary; collects problems."""

    def __init__(self, data: dict, vocab: Vocabulary, cards: frozenset[str] = frozenset()) -> None:
        self.d, self.v, self.game = data, vocab, vocab.game
        #: in a card file: the library's card ids and names, which a card's '[text]' may name
        self.cards = cards
        self.out: list[Problem] = []
        self.declared = self._declared()

    # -- helpers ------------------------------------------------------------------
    def problem(self, path: KeyPath, message: str) -> None:
        """Record a problem at ``path``."""
        self.out.append((path, f"{dotted(path)}: {message}" if path else message))

    def known(self, category: str) -> tuple[str, ...]:
        """The words of a category, with names the scenario declares and, for permissions, every action kind and
        ability (an ability is where a permission starts)."""
        out = self.v.names(category) + tuple(sorted(self.declared.get(category, ())))
        if category == "permissions":
            out += self.v.names("actions") + self.v.names("abilities")
        return tuple(dict.fromkeys(out))

    def word(self, path: KeyPath, category: str, value: Any, what: str = "") -> bool:
        """Is ``value`` a word of ``category``? Records the problem if not (non-strings are pydantic's)."""
        if not isinstance(value, str):
            return False
        known = self.known(category)
        if value in known:
            return True
        instead = self.v.renamed.get((category, value))
        tail = f": {instead}" if instead else hint(value, known)
        self.problem(path, f"unknown {CATEGORIES[category][0]} {said(value)} for {self.game}{what}{tail}")
        return False

    def _declared(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for dec in self.v.declared:
            for ev in _items(self.d.get("events")):
                if ev.get("type") == dec.event and isinstance(ev.get(dec.field), str):
                    out.setdefault(dec.category, set()).add(ev[dec.field])
        return out

    def cells(self) -> set[str]:
        """The board's cells, as the raw data gives them."""
        board = self.d.get("board") if isinstance(self.d.get("board"), dict) else {}
        cells = {c for c in board.get("cells") or [] if isinstance(c, str)}
        rows, cols = board.get("rows"), board.get("cols")
        if isinstance(rows, int) and isinstance(cols, int) and 0 < rows <= 50 and 0 < cols <= 50:
            cells |= {f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)}
        return cells

    def card_names(self) -> set[str]:
        """What a card answers to in '[text]': object ids and names, types and property values (the game's and the
        scenario's)."""
        out: set[str] = set(self.v.names("types")) | {v for p in self.v.properties for v in p.values} | self.cards
        for o in _items(self.d.get("objects")):
            out |= {x for x in (o.get("id"), o.get("name")) if isinstance(x, str)}
            props = o.get("properties") if isinstance(o.get("properties"), dict) else {}
            out |= {v for k, v in props.items() if isinstance(v, str) and k != "not_with"}
        return out

    # -- values --------------------------------------------------------------------
    def value(self, path: KeyPath, spec: Word, value: Any, owner: str) -> None:
        """A value against its declaration: a number's range, a switch, a text's values, pattern or words."""
        if isinstance(spec, Number):
            if isinstance(value, int) and not isinstance(value, bool) and not spec.lo <= value <= spec.hi:
                self.problem(path, f"{owner} '{spec.name}' is between {spec.lo} and {spec.hi}, not {value}")
            elif isinstance(value, str):
                self.problem(path, f"{owner} '{spec.name}' is a whole number, not {said(value)}")
            return
        if isinstance(spec, Switch) or not isinstance(spec, Text):
            return
        for i, v in enumerate(value) if isinstance(value, list) else [(None, value)]:
            where = path + (i,) if i is not None else path
            self._text(where, spec, v, owner)

    def _text(self, path: KeyPath, spec: Text, value: Any, owner: str) -> None:
        if isinstance(value, int) and not isinstance(value, bool) and (spec.values or spec.pattern):
            value = str(value)
        if not isinstance(value, str):
            return
        if spec.values and value not in spec.values:
            self.problem(path, f"unknown value {said(value)} of {owner} '{spec.name}'{hint(value, spec.values)}")
        elif spec.pattern and not re.fullmatch(spec.pattern, value):
            self.problem(path, f"{owner} '{spec.name}' is written like '{spec.example}', not {said(value)}")
        elif spec.words == "cells":
            cells = sorted(self.cells())
            if value not in cells:
                self.problem(path, f"unknown cell {said(value)} for {owner} '{spec.name}'{hint(value, cells)}")
        elif spec.words == "names":
            names_ = sorted(self.card_names())
            for part in (p.strip() for p in value.split("+")):
                if part not in names_:
                    self.problem(path, f"{said(part)} in {owner} '{spec.name}' is no card id, name, type or property "
                                       f"value of this scenario{hint(part, names_)}")
        elif spec.words == "abilities":
            self.ability(path, value)
        elif spec.words:
            self.word(path, spec.words, value)

    def ability(self, path: KeyPath, value: Any) -> None:
        """An ability, written exactly: its name, and with its number when it takes one ("incarnation 3", one space,
        ASCII digits); anything else (spaces at the ends or two inside, another case, a look-alike or invisible
        character) is no ability of the game."""
        if not isinstance(value, str):
            return
        name, sep, arg = value.partition(" ")
        spec = self.v.word("abilities", name)
        number = re.fullmatch(r"[0-9]+", arg) is not None
        if not isinstance(spec, Ability) or (sep and not number and not spec.param):
            unknown = value if spec is not None or value in self.v.names("abilities") or not number else name
            self.word(path, "abilities", unknown, f" (in {shown(value)})" if unknown != value else "")
            return
        if spec.param and not (number and spec.lo <= int(arg) <= spec.hi):
            self.problem(path, f"ability '{name}' is written with a number: '{name} {spec.param}' ({spec.param} from "
                               f"{spec.lo} to {spec.hi}, one space before it), not {said(value)}")
        elif sep and not spec.param:
            self.problem(path, f"ability '{name}' takes no number: no {self.game} rule reads one; write '{name}'")

    def types(self, path: KeyPath, types: Any) -> None:
        """Object types, each known, each with the types it requires."""
        given = types if isinstance(types, list) else []
        listed = [t for t in given if isinstance(t, str)]
        for i, t in enumerate(given):
            if self.word(path + (i,), "types", t):
                missing = [r for r in self.v.word("types", t).requires if r not in listed]  # type: ignore[union-attr]
                if missing:
                    self.problem(path + (i,), f"type '{t}' is a {missing[0]}: list '{missing[0]}' too (the {self.game} "
                                              f"rules read '{missing[0]}')")

    def action_spec(self, path: KeyPath, spec: dict, whole: bool = True) -> None:
        """An action (declared, triggered or on an object): its kind, how many targets, its parameters. Not
        ``whole`` (an action a card grants): the scenario gives its targets and may give required parameters."""
        kind = spec.get("kind")
        if not self.word(path + ("kind",), "actions", kind):
            return
        a: Action = self.v.action(kind)  # type: ignore[assignment]
        if whole:
            self.targets(path, spec, a)
        params = spec.get("params") if isinstance(spec.get("params"), dict) else {}
        allowed = {p.name: p for p in a.params}
        for name, value in params.items():
            if name not in allowed:
                self.problem(path + ("params", name), f"parameter {said(name)} is not read by action kind '{kind}' of "
                                                      f"{self.game}{hint(name, list(allowed))}")
            else:
                self.value(path + ("params", name), allowed[name], value, f"parameter of '{kind}'")
        for p in a.params if whole else ():
            if getattr(p, "required", False) and p.name not in params:
                self.problem(path, f"action kind '{kind}' needs the parameter '{p.name}' ({p.meaning})")
        self.instructions(path, spec, a)

    def instructions(self, path: KeyPath, spec: dict, a: Action) -> None:
        """An action's instructions (what it does in order, as one resolution): only a kind that reads them takes
        them; each is an action kind of its own, with its targets, parameters and what it affects untargeted."""
        given = spec.get("instructions")
        if given is None:
            return
        if not a.instructions:
            self.problem(path + ("instructions",), f"action kind '{a.name}' takes no instructions: no {self.game} rule "
                                                   f"reads them (refused, not ignored)")
            return
        for j, ins in _indexed(given):
            at = path + ("instructions", j)
            kind = ins.get("kind")
            inner = self.v.action(kind) if isinstance(kind, str) else None
            if inner is not None and inner.instructions:
                self.problem(at + ("kind",), f"an instruction cannot be '{kind}' (a list of instructions)")
                continue
            each = ins.get("each")
            if inner is not None and each is not None:
                if each not in inner.each:
                    self.problem(at + ("each",), f"instruction '{kind}' affects no {said(str(each))} untargeted"
                                                 f"{' (it reads: ' + ', '.join(inner.each) + ')' if inner.each else ''}")
                    continue
                if ins.get("targets"):
                    self.problem(at + ("targets",), f"instruction '{kind}' with `each` takes no targets")
                    continue
                self.action_spec(at, {k: v for k, v in ins.items() if k not in ("each", "targets")}, whole=False)
                params = ins.get("params") if isinstance(ins.get("params"), dict) else {}
                for p in inner.params:
                    if getattr(p, "required", False) and p.name not in params:
                        self.problem(at, f"instruction '{kind}' needs the parameter '{p.name}' ({p.meaning})")
                continue
            self.action_spec(at, ins)

    def targets(self, path: KeyPath, spec: dict, a: Action) -> None:
        """How many targets an action has, against what its kind takes."""
        kind, targets = a.name, spec.get("targets")
        if isinstance(targets, list):
            lo, hi = a.targets
            if len(targets) > hi:
                self.problem(path + ("targets",), f"action kind '{kind}' takes no targets: no {self.game} rule reads "
                                                  f"them (refused, not ignored)" if hi == 0 else
                             f"action kind '{kind}' takes at most {hi} target(s), not {len(targets)}")
            elif len(targets) < lo:
                self.problem(path + ("targets",) if "targets" in spec else path,
                             f"action kind '{kind}' needs at least {lo} target(s)")
        elif a.targets[0]:
            self.problem(path, f"action kind '{kind}' needs at least {a.targets[0]} target(s)")

    def card(self, path: KeyPath, c: dict) -> None:
        """A card definition (``models/cards.py``): what it gives an object, the effects and action kinds it grants."""
        self.obj(path, {k: v for k, v in c.items() if k != "action"})
        if isinstance(c.get("action"), dict):
            self.action_spec(path + ("action",), c["action"], whole=False)
        for j, e in _indexed(c.get("effects")):
            self.effect(path + ("effects", j), e)
        for j, a in _indexed(c.get("actions")):
            self.action_spec(path + ("actions", j), a, whole=False)

    # -- sections -----------------------------------------------------------------
    def run(self) -> list[Problem]:
        """Every problem of the scenario."""
        self.features()
        self.options()
        for i, p in _indexed(self.d.get("players")):
            self.player(("players", i), p)
        for i, o in _indexed(self.d.get("objects")):
            self.obj(("objects", i), o)
        for i, e in _indexed(self.d.get("effects")):
            self.effect(("effects", i), e)
        for i, ev in _indexed(self.d.get("events")):
            self.event(("events", i), ev)
        for i, ex in _indexed(self.d.get("expect")):
            self.expectation(("expect", i), ex)
        self.rule_ids()
        return list(dict.fromkeys(self.out))

    def rule_ids(self) -> None:
        """Every rule id the scenario cites (``rules``, each expectation's ``because``) is a rule of its game."""
        cited = [(("rules", i), r) for i, r in _indexed_any(self.d.get("rules"))]
        for i, ex in _indexed(self.d.get("expect")):
            cited += [(("expect", i, "because", j), r) for j, r in _indexed_any(ex.get("because"))]
        for path, rid in cited:
            if not isinstance(rid, str):
                continue
            try:
                rulebook.lookup(self.game, rid)
            except rulebook.UnknownRule as exc:
                self.problem(path, f"{exc}{hint(rid, sorted(rulebook.rules(self.game)))}")

    def features(self) -> None:
        """Fields only some games read: refused where the game does not read them."""
        mine = set(self.v.names("features"))
        for f in FEATURES:
            if f.name in mine:
                continue
            for pattern in FEATURE_PATHS[f.name]:
                for path, _ in _find(self.d, pattern):
                    self.problem(path, f"'{pattern[-1]}' is not read by any {self.game} rule ({f.meaning}): remove it")

    def options(self) -> None:
        """Option keys and values."""
        opts = self.d.get("options")
        for name, value in opts.items() if isinstance(opts, dict) else ():
            if self.word(("options", name), "options", name):
                self.value(("options", name), self.v.word("options", name), value, "option")  # type: ignore[arg-type]

    def player(self, path: KeyPath, p: dict) -> None:
        """A player's status, attributes and flags."""
        if "status" in p:
            self.word(path + ("status",), "statuses", p["status"])
        self.keyed(path + ("attributes",), p.get("attributes"), "player_attributes")
        self.keyed(path + ("flags",), p.get("flags"), "player_flags")

    def keyed(self, path: KeyPath, mapping: Any, category: str, values: bool = True) -> None:
        """The keys of a mapping are words of ``category`` (and numbers within their range)."""
        for k, v in mapping.items() if isinstance(mapping, dict) else ():
            if self.word(path + (k,), category, k) and values:
                self.value(path + (k,), self.v.word(category, k) or Word(k, ""), v, CATEGORIES[category][0])

    def obj(self, path: KeyPath, o: dict) -> None:
        """An object: zone, types, attributes, properties, abilities, flags, action and its status."""
        if "zone" in o:
            self.word(path + ("zone",), "zones", o["zone"])
        self.types(path + ("types",), o.get("types"))
        self.keyed(path + ("attributes",), o.get("attributes"), "attributes")
        self.keyed(path + ("properties",), o.get("properties"), "properties")
        for i, ab in _indexed_any(o.get("abilities")):
            self.ability(path + ("abilities", i), ab)
        self.flags(path + ("flags",), o.get("flags"), expectation=False)
        if isinstance(o.get("action"), dict):
            self.action_spec(path + ("action",), o["action"])
        if "status" in o:
            self.word(path + ("status",), "action_statuses", o["status"])
        for j, t in _indexed(o.get("triggers")):
            self.trigger(path + ("triggers", j), t)

    def trigger(self, path: KeyPath, t: dict) -> None:
        """A trigger: the attribute it adds to (an attribute of the game; its value is a change, any whole number), its
        selector's types and zone."""
        if isinstance(t.get("attribute"), str):
            self.word(path + ("attribute",), "attributes", t["attribute"])
        sel = t.get("targets")
        if isinstance(sel, dict):
            self.types(path + ("targets", "types"), sel.get("types"))
            if "zone" in sel:
                self.word(path + ("targets", "zone"), "zones", sel["zone"])
            self.selector_element(path + ("targets", "element"), sel)

    def selector_element(self, path: KeyPath, sel: dict) -> None:
        """A selector's element is one of the values of the game's property ``element`` (the feature ``elements``
        refuses it in a game without one)."""
        prop = self.v.word("properties", "element")
        if "element" in sel and prop is not None:
            self.value(path, prop, sel["element"], "property")

    def flags(self, path: KeyPath, flags: Any, expectation: bool) -> None:
        """Object flags: stored ones anywhere, computed ones in expectations only."""
        derived = self.v.names("derived_flags")
        for k in flags if isinstance(flags, dict) else ():
            if k in derived and not expectation:
                meaning = self.v.word("derived_flags", k).meaning  # type: ignore[union-attr]
                self.problem(path + (k,), f"flag '{k}' is computed by the {self.game} rules ({meaning}): it cannot "
                                          f"be given, only expected")
            elif k not in derived:
                self.word(path + (k,), "flags", k)

    def effect(self, path: KeyPath, e: Any) -> None:
        """An effect: what it sets, permits, grants; its selector's types and zone."""
        if not isinstance(e, dict):
            return
        kind = e.get("kind")
        if kind in ("set", "add") and isinstance(e.get("attribute"), str):
            self.effect_value(path, e["attribute"], e.get("value"))
        elif kind in ("permit", "prohibit") and "action" in e:
            self.word(path + ("action",), "permissions", e["action"])
        elif kind in ("grant", "remove") and "ability" in e:
            self.ability(path + ("ability",), e["ability"])
        sel = e.get("targets")
        if isinstance(sel, dict):
            self.types(path + ("targets", "types"), sel.get("types"))
            if "zone" in sel:
                self.word(path + ("targets", "zone"), "zones", sel["zone"])
            self.selector_element(path + ("targets", "element"), sel)

    def effect_value(self, path: KeyPath, name: str, value: Any) -> None:
        """A set/add effect's attribute (a number) or property (a text)."""
        attr, prop = self.v.word("attributes", name), self.v.word("properties", name)
        if attr is not None and not isinstance(value, str):
            self.value(path + ("value",), attr, value, "attribute")
        elif prop is not None and not isinstance(value, int):
            self.value(path + ("value",), prop, value, "property")
        elif attr is not None or prop is not None:
            self.problem(path + ("value",), f"{'attribute' if attr else 'property'} '{name}' takes "
                                            f"{'a whole number' if attr else 'a text'}, not {value!r}")
        else:
            known = self.v.names("attributes") + self.v.names("properties")
            instead = self.v.renamed.get(("properties", name))
            self.problem(path + ("attribute",), f"unknown attribute or property {said(name)} for {self.game}"
                                                f"{f': {instead}' if instead else hint(name, known)}")

    def event(self, path: KeyPath, ev: dict) -> None:
        """An event: its type, the fields its rules read, the words in them."""
        t = ev.get("type")
        if not isinstance(t, str):
            return
        spec = self.v.event(t)
        if spec is None:
            self.word(path + ("type",), "events", t)
            return
        fields = {f.name: f for f in spec.fields}
        for name, value in ev.items():
            if name in EVENT_COMMON:
                continue
            if name not in fields:
                self.problem(path + (name,), f"unknown field {said(name)} of a '{t}' event for {self.game}: no "
                                             f"{self.game} rule reads it{hint(name, list(fields))}")
            else:
                self.value(path + (name,), fields[name], value, f"field of '{t}'")
        if t in ("declare", "trigger"):
            self.action_spec(path, ev)
        if t == "begin_effect":
            self.effect(path + ("effect",), ev.get("effect"))

    def expectation(self, path: KeyPath, ex: dict) -> None:
        """An expectation's words: zone and its owner, attributes, properties, flags, abilities, permissions,
        statuses."""
        if "zone" in ex:
            self.word(path + ("zone",), "zones", ex["zone"])
        if "zone_owner" in ex:
            self.zone_owner(path, ex)
        self.keyed(path + ("attributes",), ex.get("attributes"), "attributes", values=False)
        self.keyed(path + ("properties",), ex.get("properties"), "properties")
        self.flags(path + ("flags",), ex.get("flags"), expectation=True)
        abilities = ex.get("abilities")
        for k in abilities if isinstance(abilities, dict) else ():
            self.ability(path + ("abilities", k), k)
        self.keyed(path + ("allowed",), ex.get("allowed"), "permissions", values=False)
        if "status" in ex:
            self.word(path + ("status",), "statuses", ex["status"])
        if "winner" in ex and "won" not in self.v.names("statuses"):
            self.problem(path + ("winner",), f"'winner' is read by no {self.game} rule: no {self.game} rule makes a "
                                             f"player win (its player statuses: {', '.join(self.v.names('statuses'))})"
                                             f": remove it")
        if "action_status" in ex:
            self.word(path + ("action_status",), "action_statuses", ex["action_status"])
        self.keyed(path + ("player_attributes",), ex.get("player_attributes"), "player_attributes", values=False)
        self.keyed(path + ("player_flags",), ex.get("player_flags"), "player_flags", values=False)

    def zone_owner(self, path: KeyPath, ex: dict) -> None:
        """``zone_owner`` needs a zone each player has one of."""
        zone = ex.get("zone")
        mine = [z.name for z in self.v.player_zones()]
        if not mine:
            self.problem(path + ("zone_owner",), f"no zone of {self.game} belongs to a player: zone_owner cannot apply")
        elif isinstance(zone, str) and self.v.zone(zone) is not None and zone not in mine:
            self.problem(path + ("zone_owner",), f"zone '{zone}' of {self.game} belongs to no player (each player has "
                                                 f"one of: {', '.join(mine)})")


def _items(value: Any) -> list[dict]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


def _indexed(value: Any):
    return [(i, x) for i, x in enumerate(value) if isinstance(x, dict)] if isinstance(value, list) else []


def _indexed_any(value: Any):
    return list(enumerate(value)) if isinstance(value, list) else []


def _find(node: Any, pattern: tuple[str, ...], path: KeyPath = ()):
    """(path, value) of every node matching ``pattern`` ('*' = any list item) that is present and not null."""
    if not pattern:
        if node is not None:
            yield path, node
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        for i, item in _indexed_any(node):
            yield from _find(item, rest, path + (i,))
    elif isinstance(node, dict) and head in node:
        yield from _find(node[head], rest, path + (head,))


# -- entry points ---------------------------------------------------------------------------------------------
def problems(data: Any) -> list[Problem]:
    """Every closed-world problem of a scenario given as parsed data (none for an unknown game: pydantic says so)."""
    if not isinstance(data, dict) or data.get("game") not in names():
        return []
    return _Check(data, vocabulary_for(data["game"])).run()


def located(found: list[Problem], linemap: LineMap | None, file: str) -> list[LoadError]:
    """Problems as located errors (line and column from the line map; none without one)."""
    out = []
    for path, message in found:
        line, col = linemap.locate(path) if linemap is not None else (None, None)
        out.append(LoadError(file, line, col, message))
    return out


def card_problems(data: Any, library: frozenset[str] = frozenset()) -> list[Problem]:
    """Every closed-world problem of a card file given as parsed data (its cards' words against its game's; a
    '[text]' may name a card of the file or of ``library`` by id or name)."""
    if not isinstance(data, dict) or data.get("game") not in names():
        return []
    own = {x for c in _items(data.get("cards")) for x in (c.get("id"), c.get("name")) if isinstance(x, str)}
    chk = _Check({}, vocabulary_for(data["game"]), frozenset(own) | library)
    for i, c in _indexed(data.get("cards")):
        chk.card(("cards", i), c)
    return list(dict.fromkeys(chk.out))


@lru_cache(maxsize=32)
def library_errors(library: CardLibrary) -> tuple[LoadError, ...]:
    """The closed-world errors of every card file of a library, located in the card files."""
    known = frozenset(x for c in library.cards.values() for x in (c.definition.id, c.definition.name) if x)
    return tuple(e for f in library.files for e in located(card_problems(f.data, known), f.linemap, f.name))
