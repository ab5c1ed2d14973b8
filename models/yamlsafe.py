"""Safe YAML loading with source positions and one-line, located error messages."""

from __future__ import annotations

import codecs
import errno
import gc
import math
import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import pydantic
import yaml
from yaml.events import (
    AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent,
)
from yaml.parser import Parser
from yaml.reader import Reader, ReaderError
from yaml.scanner import Scanner

MAX_NODES = 200_000  # nodes constructed, counting every alias expansion
MAX_DEPTH = 64  # nested sequences/mappings
MAX_BYTES = 2_000_000  # size of the encoded input

KeyPath = tuple[str | int, ...]  # mapping keys and sequence indices from the root
ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

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
_IDENTIFIER_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


class LoadError(Exception):
    """An input problem reported as one line: file:line:col: message."""

    def __init__(self, file: str, line: int | None, col: int | None, message: str) -> None:
        super().__init__(file, line, col, message)
        self.file = file
        self.line = line
        self.col = col
        self.message = " ".join(message.splitlines())

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.file}: {self.message}"
        if self.col is None:
            return f"{self.file}:{self.line}: {self.message}"
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class LoadErrors(Exception):
    """Several LoadErrors reported together, sorted by source position."""

    def __init__(self, errors: Sequence[LoadError]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
        super().__init__(self.errors)

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class LineMap:
    """Maps key/index paths in loaded data to 1-based (line, col) source positions.

    A value that reuses an anchor (``*name``) is located where the alias is used; ``alias_of``
    names the anchor for messages, and paths into the aliased value are followed to the anchor's nodes.
    """

    def __init__(self, positions: dict[KeyPath, Any] | None = None,
                 aliases: dict[KeyPath, tuple[str, KeyPath]] | None = None) -> None:
        self._positions = positions if positions is not None else {}
        self._aliases = aliases if aliases is not None else {}

    def __contains__(self, path: Sequence[str | int]) -> bool:
        """Return whether path names a node that exists in the source (through aliases too)."""
        path = tuple(path)
        if path in self._positions:
            return True
        hit = self._alias_prefix(path)
        if hit is None:
            return False
        end, (_, anchor_path) = hit
        return anchor_path + path[end:] in self

    def locate(self, path: Sequence[str | int]) -> tuple[int, int]:
        """Return the position of the deepest existing prefix of path ((1, 1) for none).

        Inside an aliased value that is the alias, where the value is used.
        """
        path = tuple(path)
        for end in range(len(path), 0, -1):
            position = self._positions.get(path[:end])
            if position is not None:
                return _line_col(position)
        return (1, 1)

    def positions(self) -> dict[KeyPath, tuple[int, int]]:
        """Every recorded path with its (line, col): one per value in the source (an alias's value: the alias)."""
        return {path: _line_col(position) for path, position in self._positions.items()}

    def alias_of(self, path: Sequence[str | int]) -> tuple[str, tuple[int, int]] | None:
        """(anchor name, anchor position) when path lies inside a value reused through an alias, else None."""
        hit = self._alias_prefix(tuple(path))
        if hit is None:
            return None
        name, anchor_path = hit[1]
        return name, _line_col(self._positions.get(anchor_path, (1, 1)))

    def _alias_prefix(self, path: KeyPath) -> tuple[int, tuple[str, KeyPath]] | None:
        """The shortest prefix of path that is an alias use: (its length, (anchor, anchor path))."""
        if not self._aliases:
            return None
        for end in range(1, len(path) + 1):
            hit = self._aliases.get(path[:end])
            if hit is not None:
                return end, hit
        return None


def _line_col(position: Any) -> tuple[int, int]:
    """1-based (line, col) of a stored position: a (line, col) pair, or a parser mark (0-based)."""
    if isinstance(position, tuple):
        return position
    return (position.line + 1, position.column + 1)


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


def _error_at(file: str, mark: Any, message: str) -> LoadError:
    if mark is None:
        return LoadError(file, None, None, message)
    return LoadError(file, mark.line + 1, mark.column + 1, message)


# -- parsers: libyaml's C parser where available, PyYAML's pure-Python one otherwise -------------
class _PureParser(Reader, Scanner, Parser):
    """PyYAML's pure-Python reader, scanner and parser: YAML events, no node or object construction."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)


#: libyaml's C parser (the same events and marks, about ten times faster), or None where PyYAML lacks it
CParser: Any = getattr(yaml, "CParser", None) if getattr(yaml, "__with_libyaml__", False) else None
if CParser is None:
    try:
        from yaml._yaml import CParser  # the class PyYAML builds its C loaders on
    except ImportError:  # pragma: no cover - PyYAML built without libyaml
        CParser = None


def parser_name() -> str:
    """Which YAML parser loads files here: 'libyaml' (C) or 'pure' (Python fallback)."""
    return "libyaml" if CParser is not None else "pure"


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


class _Builder:
    """Turns a stream of YAML parse events into plain data, recording every value's position.

    Guards while it reads: nesting depth, node count with every alias expansion counted
    (alias bombs), standard tags only, and YAML 1.2 core scalars. One flat loop over the
    events (no recursion, one parser call per event): this is the hot path of loading.
    """

    def __init__(self, parser: Any, file: str) -> None:
        self.parser = parser
        self.file = file
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
            raise LoadError(self.file, None, None, "file is empty")
        p.get_event()  # DOCUMENT-START
        root = p.peek_event()
        if type(root) is ScalarEvent and root.tag is None and root.implicit[0] and root.value == "" \
                and root.anchor is None:
            raise LoadError(self.file, None, None, "file is empty")
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

    def _too_many(self, event: Any) -> LoadError:
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

    def _error(self, event: Any, message: str) -> LoadError:
        return _error_at(self.file, event.start_mark, message)


def _byte_size(data: str | bytes) -> int:
    return len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)


def _decode(data: str | bytes, file: str) -> str:
    if _byte_size(data) > MAX_BYTES:
        raise LoadError(file, None, None, f"file is larger than {MAX_BYTES} bytes")
    if isinstance(data, str):
        return data
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = start + exc.start
        line = data.count(b"\n", 0, offset) + 1
        raise LoadError(file, line, None, f"file is not valid UTF-8 (byte offset {offset})") from None


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, file: str) -> LoadError:
    message = exc.problem or exc.context or "invalid YAML"
    if exc.problem and exc.context:
        where = f" at line {exc.context_mark.line + 1}" if exc.context_mark else ""
        message = f"{message} ({exc.context}{where})"
    mark = exc.problem_mark or exc.context_mark
    content = text.rstrip("\r\n ")
    last = content[content.rfind("\n") + 1:]
    end = (content.count("\n"), len(last))
    if mark is not None and (mark.line, mark.column) > end:  # past the last text (end of file): point just after it
        return LoadError(file, end[0] + 1, end[1] + 1, message)
    return _error_at(file, mark, message)


def _reader_error(exc: ReaderError, text: str, file: str, byte_offsets: bool) -> LoadError:
    """A located error for a character YAML refuses (libyaml counts its position in UTF-8 bytes)."""
    position = exc.position
    if byte_offsets:
        position = len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "replace"))
    line = text.count("\n", 0, position) + 1
    col = position - (text.rfind("\n", 0, position) + 1) + 1
    character = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or "\0")
    return LoadError(file, line, col, f"unacceptable character #x{character:04x}: {exc.reason}")


def _load(data: str | bytes, file: str) -> tuple[dict[str, Any], LineMap]:
    text = _decode(data, file)
    try:
        return _parse(text, file, CParser is not None)
    except _TooDeepForLibyaml:  # libyaml stops at its own depth (1000), past ours: the pure parser locates ours
        return _parse(text, file, False)


class _TooDeepForLibyaml(Exception):
    """libyaml refused nesting beyond its own limit before our depth guard saw the events."""


def _parse(text: str, file: str, libyaml: bool) -> tuple[dict[str, Any], LineMap]:
    parser = None
    collecting = gc.isenabled()
    gc.disable()  # the tree holds no cycles: the collector's passes over it would only cost time (a third)
    try:
        parser = CParser(text) if libyaml else _PureParser(text)
        builder = _Builder(parser, file)
        data = builder.document()
    except yaml.MarkedYAMLError as exc:
        if libyaml and "maximum nesting depth" in (exc.problem or ""):
            raise _TooDeepForLibyaml() from None
        raise _syntax_error(exc, text, file) from None
    except ReaderError as exc:
        raise _reader_error(exc, text, file, libyaml) from None
    finally:
        if collecting:
            gc.enable()
        if parser is not None:
            parser.dispose()
    return data, LineMap(builder.positions, builder.aliases)


def _guarded(file: str, load: Callable[[], tuple[dict[str, Any], LineMap]]) -> tuple[dict[str, Any], LineMap]:
    try:
        return load()
    except LoadError:
        raise
    except RecursionError:
        raise LoadError(file, None, None, "cannot load YAML: nested too deeply") from None
    except Exception as exc:  # never leak a traceback for any input
        raise LoadError(file, None, None, f"cannot load YAML: {type(exc).__name__}: {exc}") from None


def display_name(path: str | bytes | os.PathLike) -> str:
    """A file name as every report shows it: bytes that are not UTF-8 become visible escapes (b'\\xff' -> '\\xff')."""
    raw = os.fsencode(path)
    return raw.decode("utf-8", "backslashreplace")


#: what a special file is called in the message refusing it
_SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"))


def special_kind(mode: int) -> str | None:
    """'a named pipe', 'a socket', ... for a special file's st_mode; None for a regular file or folder."""
    return next((name for test, name in _SPECIAL if test(mode)), None)


def read_bytes(path: str | bytes | os.PathLike, file: str) -> bytes:
    """The bytes of a scenario file, at most MAX_BYTES + 1 (a larger file is refused by the loader).

    Only a regular file is opened: a named pipe, socket or device is refused from its status alone,
    so reading never blocks on it.
    """
    try:
        kind = special_kind(os.stat(path).st_mode)
        if kind is not None:
            raise LoadError(file, None, None, f"is {kind}, not a scenario file; refused without reading it")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with open(fd, "rb") as handle:
            kind = special_kind(os.fstat(handle.fileno()).st_mode)  # replaced since the first look
            if kind is not None:
                raise LoadError(file, None, None, f"is {kind}, not a scenario file; refused without reading it")
            return handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise LoadError(file, None, None, "no such file" if not os.path.islink(path)
                        else "dangling symbolic link (its target does not exist)") from None
    except IsADirectoryError:
        raise LoadError(file, None, None, "is a directory") from None
    except PermissionError:
        raise LoadError(file, None, None, "permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LoadError(file, None, None, "symbolic link loop (too many levels of symbolic links)") from None
        raise LoadError(file, None, None, f"cannot read file: {exc.strerror or exc}") from None


def load_yaml_text(text: str | bytes, file: str = "<string>") -> tuple[dict[str, Any], LineMap]:
    """Safely parse one YAML mapping document; return (data, LineMap) or raise LoadError."""
    return _guarded(file, lambda: _load(text, file))


def load_yaml_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], LineMap]:
    """Read and safely parse a YAML file; return (data, LineMap) or raise LoadError."""
    file = display_name(path)
    return _guarded(file, lambda: _load(read_bytes(path, file), file))


def _format_path(path: KeyPath) -> str:
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER_RE.match(part):
            text += f".{part}" if text else part
        else:
            text += f"[{part!r}]"
    return text


def _data_path(loc: tuple[str | int, ...], linemap: LineMap, keep_last: bool) -> KeyPath:
    """Drop loc parts that do not index into the data (union tags, '[key]' markers)."""
    path: KeyPath = ()
    for position, part in enumerate(loc):
        is_last = position == len(loc) - 1
        if path + (part,) in linemap or (keep_last and is_last):
            path += (part,)
    return path


def _discriminator_field(ctx: dict[str, Any]) -> str | None:
    name = str(ctx.get("discriminator", ""))
    if len(name) > 2 and name[0] == name[-1] == "'":
        return name[1:-1]
    return None


def _describe(error: Any, linemap: LineMap) -> tuple[KeyPath, KeyPath, str]:
    """Return (path to locate, path to display, message) for one pydantic error."""
    kind = error["type"]
    path = _data_path(tuple(error["loc"]), linemap, keep_last=kind == "missing")
    if kind == "missing":
        return path, path[:-1], f"missing required field '{path[-1]}'"
    if kind == "extra_forbidden":
        return path, path[:-1], f"unknown field '{path[-1]}'"
    if kind == "bool_type":
        return path, path, f"must be true or false, not {error.get('input')!r}"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        field = _discriminator_field(error.get("ctx", {}))
        if field is not None:
            return _describe_union_tag(error, path, field)
    return path, path, error["msg"]


def _describe_union_tag(error: Any, path: KeyPath, field: str) -> tuple[KeyPath, KeyPath, str]:
    if error["type"] == "union_tag_not_found":
        return path, path, f"missing required field '{field}'"
    ctx = error["ctx"]
    message = f"unknown value {ctx['tag']!r}; allowed values: {ctx['expected_tags']}"
    return path + (field,), path + (field,), message


def format_validation_error(
    exc: pydantic.ValidationError, linemap: LineMap, file: str
) -> list[LoadError]:
    """Convert each pydantic error into a LoadError located in the YAML source."""
    errors = []
    for error in exc.errors():
        locate_path, display_path, message = _describe(error, linemap)
        line, col = linemap.locate(locate_path)
        prefix = _format_path(display_path)
        message = (f"{prefix}: {message}" if prefix else message) + alias_note(linemap, locate_path)
        errors.append(LoadError(file, line, col, message))
    return errors


def alias_note(linemap: LineMap, path: Sequence[str | int]) -> str:
    """' (value of alias *a; anchor &a at line L:C)' when path lies in a value reused through an alias, else ''."""
    via = linemap.alias_of(path)
    if via is None:
        return ""
    name, (line, col) = via
    return f" (value of alias *{name}; anchor &{name} at line {line}:{col})"


def validate(model_cls: type[ModelT], data: Any, linemap: LineMap, file: str) -> ModelT:
    """Validate data with a pydantic model, raising LoadErrors located in the YAML source."""
    try:
        return model_cls.model_validate(data)
    except pydantic.ValidationError as exc:
        raise LoadErrors(format_validation_error(exc, linemap, file)) from None
