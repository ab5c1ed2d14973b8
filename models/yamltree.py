"""YAML parse events to plain data: the guarded, position-recording builder behind ``models.yamlsafe``.

It reads the events of libyaml's C parser (``CParser``) or of PyYAML's pure-Python one
(``PureParser``): both give the same events and marks. While it reads it guards nesting depth,
node count with every alias expansion counted (alias bombs) and tags (standard ones only), and
resolves plain scalars by the YAML 1.2 core schema (``on``/``no``/``yes`` stay strings). Errors
are ``TreeError`` (a parser mark and a message); ``models.yamlsafe`` names the file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yaml.events import (
    AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent,
)
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.scanner import Scanner

MAX_NODES = 200_000  # nodes constructed, counting every alias expansion
MAX_DEPTH = 64  # nested sequences/mappings

KeyPath = tuple[str | int, ...]  # mapping keys and sequence indices from the root

_TAG_PREFIX = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL, _SEQ, _MAP = (
    _TAG_PREFIX + name for name in ("str", "int", "float", "bool", "null", "seq", "map")
)

_BOOL_RE = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
_NULL_RE = re.compile(r"(?:null|Null|NULL|~|)\Z")
_INT_RE = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_FLOAT_RE = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)


class TreeError(Exception):
    """A problem found while building: where (a parser mark, or None for the whole file) and what."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(mark, message)
        self.mark = mark
        self.message = message


def _resolve_plain(value: str) -> str:
    """The YAML 1.2 core tag of an untagged plain scalar (on/no/yes stay strings)."""
    first = value[:1]
    if first in _NULL_FIRST and _NULL_RE.match(value):
        return _NULL
    if first in "tTfF" and _BOOL_RE.match(value):
        return _BOOL
    if first in _NUMBER_FIRST:
        if _INT_RE.match(value):
            return _INT
        if _FLOAT_RE.match(value):
            return _FLOAT
    return _STR


_NULL_FIRST = frozenset(("n", "N", "~", ""))
_NUMBER_FIRST = frozenset("-+.0123456789")
#: first characters of a plain scalar that may be something other than a string
_PLAIN_FIRST = _NULL_FIRST | _NUMBER_FIRST | frozenset("tTfF")


def _to_bool(value: str) -> bool:
    return value.lower() == "true"


def _to_int(value: str) -> int:
    if value.startswith("0x"):
        return int(value[2:], 16)
    if value.startswith("0o"):
        return int(value[2:], 8)
    return int(value, 10)


def _to_float(value: str) -> float:
    special = value.lstrip("+-").lower()
    if special == ".inf":
        return -math.inf if value.startswith("-") else math.inf
    if special == ".nan":
        return math.nan
    return float(value)


_SCALAR_TAGS: dict[str, tuple[re.Pattern[str] | None, Callable[[str], Any]]] = {
    _STR: (None, str),
    _NULL: (_NULL_RE, lambda value: None),
    _BOOL: (_BOOL_RE, _to_bool),
    _INT: (_INT_RE, _to_int),
    _FLOAT: (_FLOAT_RE, _to_float),
}
_SCALAR, _SEQUENCE, _MAPPING = "scalar", "sequence", "mapping"
_KIND_TAGS = {_SCALAR: set(_SCALAR_TAGS), _SEQUENCE: {_SEQ}, _MAPPING: {_MAP}}


def _short_tag(tag: str) -> str:
    return tag.replace(_TAG_PREFIX, "!!", 1)


# -- parsers: libyaml's C parser where available, PyYAML's pure-Python one otherwise -------------
class PureParser(Reader, Scanner, Parser):
    """PyYAML's pure-Python reader, scanner and parser: YAML events, no node or object construction."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)


#: libyaml's C parser (the same events and marks, about ten times faster), or None where PyYAML lacks it
CParser: Any
try:
    from yaml._yaml import CParser  # the class PyYAML builds its C loaders on
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CParser = None


@dataclass
class _Anchor:
    """A value defined with ``&name``: what an alias reuses, and what reusing it costs."""

    value: Any
    key: str | None  # the raw text, when the value is a scalar (an alias may be a mapping key)
    nodes: int  # nodes in the value, counting its own alias expansions
    height: int  # nesting levels inside the value
    path: KeyPath


class _Frame:
    """A collection being read: the parent's saved state, and its own anchor, start count and height."""

    __slots__ = ("value", "is_map", "key", "path", "depth", "anchor", "start", "height", "own_path")

    def __init__(self, anchor: str | None, start: int) -> None:
        self.value: Any = None  # the parent's value, key, path and depth, restored when this one closes
        self.is_map = False
        self.key: Any = None
        self.path: KeyPath = ()
        self.depth = 0
        self.anchor = anchor
        self.start = start  # the node count when it opened
        self.height = 0  # nesting levels inside it so far
        self.own_path: KeyPath = ()


_NO_KEY = object()  # a mapping frame waiting for its next key


class TreeBuilder:
    """Turns a stream of YAML parse events into plain data, recording every value's position.

    Guards while it reads: nesting depth, node count with every alias expansion counted
    (alias bombs), standard tags only, and YAML 1.2 core scalars. One flat loop over the
    events (no recursion, one parser call per event): this is the hot path of loading.
    """

    def __init__(self, parser: Any) -> None:
        self.parser = parser
        self.positions: dict[KeyPath, Any] = {}  # path -> the parser's mark of its value
        self.aliases: dict[KeyPath, tuple[str, KeyPath]] = {}
        self._anchors: dict[str, _Anchor] = {}
        self._open: set[str] = set()
        self._count = 0

    def document(self) -> Any:
        """The single document's root mapping."""
        p = self.parser
        p.get_event()  # STREAM-START
        if p.check_event(StreamEndEvent):
            raise TreeError(None, "file is empty")
        p.get_event()  # DOCUMENT-START
        root = p.peek_event()
        if type(root) is ScalarEvent and root.tag is None and root.implicit[0] and root.value == "" \
                and root.anchor is None:
            raise TreeError(None, "file is empty")
        if type(root) is not MappingStartEvent:
            raise self._error(root, "top level must be a mapping")
        data = self._tree()
        p.get_event()  # DOCUMENT-END
        if not p.check_event(StreamEndEvent):
            raise self._error(p.peek_event(), "expected a single YAML document")
        return data

    def _tree(self) -> Any:
        """Read the root mapping and everything in it.

        The hot loop of loading: one parser call per event, the open collection's state held in
        locals (saved in a ``_Frame`` while a nested one is read), common scalars handled inline.
        """
        get = self.parser.get_event
        positions = self.positions
        plain_first = _PLAIN_FIRST
        no_key = _NO_KEY
        stack: list[_Frame] = []
        count = self._count
        # the open collection: its value, whether a mapping, the key waiting for its value, path, depth
        value_of: Any = None
        is_map = False
        key: Any = no_key
        path: KeyPath = ()
        depth = 0
        while True:
            event = get()
            kind = type(event)
            if kind is ScalarEvent:
                count += 1
                if count > MAX_NODES:
                    raise self._too_many(event)
                if is_map:
                    if key is no_key:
                        key = event.value if event.tag is None and event.anchor is None else self._key(event, kind)
                        if key in value_of:
                            raise self._error(event, f"duplicate key '{key}'")
                        continue
                    here = path + (key,)
                else:
                    here = path + (len(value_of),)
                positions[here] = event.start_mark
                value = event.value
                if event.tag is not None or event.anchor is not None:
                    value = self._scalar(event, here)
                elif event.implicit[0] and value[:1] in plain_first:
                    if value.isdigit() and value.isascii() and len(value) < 19:
                        value = int(value)  # the commonest non-string: a plain decimal number
                    else:
                        value = self._scalar(event, here)
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                frame = stack.pop()
                value = value_of
                self._count = count
                if frame.anchor is not None:
                    self._close(frame, value)
                if frame.value is None:  # the root mapping
                    return value
                value_of, is_map, key, path, depth = frame.value, frame.is_map, frame.key, frame.path, frame.depth
                stack[-1].height = max(stack[-1].height, frame.height + 1)
            elif is_map and key is no_key:  # a key that is an alias or a collection
                self._count = count
                key = self._key(event, kind)
                count = self._count
                if key in value_of:
                    raise self._error(event, f"duplicate key '{key}'")
                continue
            else:
                here = () if value_of is None else path + ((key,) if is_map else (len(value_of),))
                positions[here] = event.start_mark
                self._count = count
                if kind is not AliasEvent:  # a sequence or mapping opens: save this one's state in its frame
                    frame = self._open_frame(event, kind, depth + 1, here)
                    count = self._count
                    frame.value, frame.is_map, frame.key, frame.path, frame.depth = value_of, is_map, key, path, depth
                    stack.append(frame)
                    value_of, is_map, key = ([] if kind is SequenceStartEvent else {}), kind is MappingStartEvent, no_key
                    path, depth = here, depth + 1
                    continue
                value = self._alias(event, here, depth)
                count = self._count
            if is_map:
                value_of[key] = value
                key = no_key
            else:
                value_of.append(value)

    def _open_frame(self, event: Any, kind: type, depth: int, path: KeyPath) -> _Frame:
        self._count += 1
        if self._count > MAX_NODES:
            raise self._too_many(event)
        if depth > MAX_DEPTH:
            raise self._error(event, f"nesting is deeper than {MAX_DEPTH} levels")
        self._check_tag(event, _SEQUENCE if kind is SequenceStartEvent else _MAPPING)
        if event.anchor is not None:
            self._open.add(event.anchor)
        frame = _Frame(event.anchor, self._count)
        frame.own_path = path
        return frame

    def _close(self, frame: _Frame, value: Any) -> None:
        """An anchored collection is complete: keep it for the aliases that reuse it."""
        self._open.discard(frame.anchor)
        nodes = self._count - frame.start + 1
        self._anchors[frame.anchor] = _Anchor(value, None, nodes, frame.height + 1, frame.own_path)

    def _key(self, event: Any, kind: type) -> str:
        """A mapping key that is tagged, anchored, an alias or a collection: its raw text, or an error."""
        if kind is ScalarEvent:
            if event.tag is not None:
                self._scalar(event, ())
            if event.anchor is not None:
                self._anchors[event.anchor] = _Anchor(event.value, event.value, 1, 0, ())
            return event.value
        self._count += 1
        if self._count > MAX_NODES:
            raise self._too_many(event)
        if kind is AliasEvent:
            anchor = self._known_anchor(event)
            if anchor.key is None:
                raise self._error(event, "mapping keys must be scalars, not an alias of a collection")
            return anchor.key
        raise self._error(event, f"mapping keys must be scalars, not a "
                                 f"{_SEQUENCE if kind is SequenceStartEvent else _MAPPING}")

    def _alias(self, event: Any, path: KeyPath, depth: int) -> Any:
        anchor = self._known_anchor(event)
        self._count += anchor.nodes
        if self._count > MAX_NODES:
            raise self._too_many(event)
        if depth + anchor.height > MAX_DEPTH:
            raise self._error(event, f"nesting (through aliases) is deeper than {MAX_DEPTH} levels")
        self.aliases[path] = (event.anchor, anchor.path)
        return anchor.value

    def _known_anchor(self, event: Any) -> _Anchor:
        name = event.anchor
        if name in self._open:
            raise self._error(event, f"alias *{name} refers to a node that contains it (recursive alias)")
        anchor = self._anchors.get(name)
        if anchor is None:
            raise self._error(event, f"found undefined alias '{name}'")
        return anchor

    def _too_many(self, event: Any) -> TreeError:
        return self._error(event, f"document expands to more than {MAX_NODES} nodes (alias bomb?)")

    def _scalar(self, event: Any, path: KeyPath) -> Any:
        """A scalar's value by its tag (plain ones by YAML 1.2 core rules); an anchored one is kept for aliases."""
        tag = event.tag
        value = event.value
        if tag is None or tag == "!":
            tag = _resolve_plain(value) if event.implicit[0] else _STR
            convert = _SCALAR_TAGS[tag][1]  # resolved by its pattern already
        else:
            self._check_tag(event, _SCALAR)
            pattern, convert = _SCALAR_TAGS[tag]
            if pattern is not None and not pattern.match(value):
                raise self._error(event, f"invalid {_short_tag(tag)} value {value!r}")
        try:
            result = convert(value)
        except ValueError:  # only reachable for integers beyond Python's digit limit
            raise self._error(event, f"{_short_tag(tag)} value is too long") from None
        if event.anchor is not None:
            self._anchors[event.anchor] = _Anchor(result, value, 1, 0, path)
        return result

    def _check_tag(self, event: Any, kind: str) -> None:
        tag = event.tag
        if tag is None or tag == "!" or tag in _KIND_TAGS[kind]:
            return
        if any(tag in tags for tags in _KIND_TAGS.values()):
            raise self._error(event, f"tag '{_short_tag(tag)}' cannot be used on a {kind}")
        raise self._error(event, f"unsupported tag '{_short_tag(tag)}' (only standard YAML tags are allowed)")

    def _error(self, event: Any, message: str) -> TreeError:
        return TreeError(event.start_mark, message)
