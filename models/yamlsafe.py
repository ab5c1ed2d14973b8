"""Safe YAML loading with source positions and one-line, located error messages."""

from __future__ import annotations

import codecs
import math
import os
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pydantic
import yaml
from yaml.events import AliasEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

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
    """Maps key/index paths in loaded data to 1-based (line, col) source positions."""

    def __init__(self, positions: dict[KeyPath, tuple[int, int]] | None = None) -> None:
        self._positions = positions if positions is not None else {}

    def __contains__(self, path: Sequence[str | int]) -> bool:
        """Return whether path names a node that exists in the source."""
        return tuple(path) in self._positions

    def locate(self, path: Sequence[str | int]) -> tuple[int, int]:
        """Return the position of the deepest existing prefix of path ((1, 1) for none)."""
        path = tuple(path)
        for end in range(len(path), 0, -1):
            position = self._positions.get(path[:end])
            if position is not None:
                return position
        return (1, 1)


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core resolution and limits on depth and recursive aliases."""

    yaml_implicit_resolvers: dict = {}

    def __init__(self, text: str, file: str) -> None:
        super().__init__(text)
        self.file = file
        self._depth = 0
        self._open_anchors: set[str] = set()

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            if event.anchor in self._open_anchors:
                raise _error_at(
                    self.file,
                    event.start_mark,
                    f"alias *{event.anchor} refers to a node that contains it (recursive alias)",
                )
        return super().compose_node(parent, index)

    def compose_sequence_node(self, anchor: str | None) -> Node:
        return self._compose_collection(super().compose_sequence_node, anchor)

    def compose_mapping_node(self, anchor: str | None) -> Node:
        return self._compose_collection(super().compose_mapping_node, anchor)

    def _compose_collection(self, compose: Callable[[str | None], Node], anchor: str | None) -> Node:
        if self._depth >= MAX_DEPTH:
            raise _error_at(
                self.file, self.peek_event().start_mark, f"nesting is deeper than {MAX_DEPTH} levels"
            )
        self._depth += 1
        if anchor is not None:
            self._open_anchors.add(anchor)
        try:
            return compose(anchor)
        finally:
            self._depth -= 1
            self._open_anchors.discard(anchor)


for _tag, _regexp, _first in (
    (_BOOL, _BOOL_RE, "tTfF"),
    (_NULL, _NULL_RE, ["n", "N", "~", ""]),
    (_INT, _INT_RE, "-+0123456789"),
    (_FLOAT, _FLOAT_RE, "-+.0123456789"),
):
    _Loader.add_implicit_resolver(_tag, _regexp, list(_first))


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
_KIND_TAGS = {ScalarNode: set(_SCALAR_TAGS), SequenceNode: {_SEQ}, MappingNode: {_MAP}}
_KIND_NAMES = {ScalarNode: "scalar", SequenceNode: "sequence", MappingNode: "mapping"}


def _short_tag(tag: str) -> str:
    return tag.replace(_TAG_PREFIX, "!!", 1)


def _error_at(file: str, mark: yaml.Mark | None, message: str) -> LoadError:
    if mark is None:
        return LoadError(file, None, None, message)
    return LoadError(file, mark.line + 1, mark.column + 1, message)


class _Builder:
    """Turns a composed node tree into plain data, recording every node's position."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        self._count = 0

    def build(self, node: Node, path: KeyPath = (), depth: int = 0) -> Any:
        self._visit(node)
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        if depth >= MAX_DEPTH:
            raise self._error(node, f"nesting (through aliases) is deeper than {MAX_DEPTH} levels")
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (index,), depth + 1) for index, item in enumerate(node.value)]
        return self._mapping(node, path, depth + 1)

    def _visit(self, node: Node) -> None:
        self._count += 1
        if self._count > MAX_NODES:
            raise self._error(node, f"document expands to more than {MAX_NODES} nodes (alias bomb?)")
        if node.tag not in _KIND_TAGS[type(node)]:
            raise self._error(node, self._tag_problem(node))

    def _tag_problem(self, node: Node) -> str:
        if any(node.tag in tags for tags in _KIND_TAGS.values()):
            return f"tag '{_short_tag(node.tag)}' cannot be used on a {_KIND_NAMES[type(node)]}"
        return f"unsupported tag '{_short_tag(node.tag)}' (only standard YAML tags are allowed)"

    def _scalar(self, node: ScalarNode) -> Any:
        pattern, convert = _SCALAR_TAGS[node.tag]
        if pattern is not None and not pattern.match(node.value):
            raise self._error(node, f"invalid {_short_tag(node.tag)} value {node.value!r}")
        try:
            return convert(node.value)
        except ValueError:  # only reachable for integers beyond Python's digit limit
            raise self._error(node, f"{_short_tag(node.tag)} value is too long") from None

    def _mapping(self, node: MappingNode, path: KeyPath, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key in result:
                raise self._error(key_node, f"duplicate key '{key}'")
            result[key] = self.build(value_node, path + (key,), depth)
        return result

    def _key(self, node: Node) -> str:
        if not isinstance(node, ScalarNode):
            raise self._error(node, f"mapping keys must be scalars, not a {_KIND_NAMES[type(node)]}")
        self._visit(node)
        self._scalar(node)
        return node.value

    def _error(self, node: Node, message: str) -> LoadError:
        return _error_at(self.file, node.start_mark, message)


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


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> LoadError:
    message = exc.problem or exc.context or "invalid YAML"
    if exc.problem and exc.context:
        where = f" at line {exc.context_mark.line + 1}" if exc.context_mark else ""
        message = f"{message} ({exc.context}{where})"
    return _error_at(file, exc.problem_mark or exc.context_mark, message)


def _reader_error(exc: ReaderError, text: str, file: str) -> LoadError:
    line = text.count("\n", 0, exc.position) + 1
    col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
    return LoadError(file, line, col, f"unacceptable character #x{exc.character:04x}: {exc.reason}")


def _compose(text: str, file: str) -> Node:
    loader = _Loader(text, file)
    try:
        loader.get_event()  # STREAM-START
        if loader.check_event(StreamEndEvent):
            raise LoadError(file, None, None, "file is empty")
        root = loader.compose_document()
        if not loader.check_event(StreamEndEvent):
            raise _error_at(file, loader.peek_event().start_mark, "expected a single YAML document")
        return root
    finally:
        loader.dispose()


def _is_empty_document(root: Node) -> bool:
    return isinstance(root, ScalarNode) and root.tag == _NULL and root.value == ""


def _load(data: str | bytes, file: str) -> tuple[dict[str, Any], LineMap]:
    text = _decode(data, file)
    try:
        root = _compose(text, file)
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except ReaderError as exc:
        raise _reader_error(exc, text, file) from None
    if _is_empty_document(root):
        raise LoadError(file, None, None, "file is empty")
    if not isinstance(root, MappingNode):
        raise _error_at(file, root.start_mark, "top level must be a mapping")
    builder = _Builder(file)
    return builder.build(root), LineMap(builder.positions)


def _guarded(file: str, load: Callable[[], tuple[dict[str, Any], LineMap]]) -> tuple[dict[str, Any], LineMap]:
    try:
        return load()
    except LoadError:
        raise
    except Exception as exc:  # never leak a traceback for any input
        raise LoadError(file, None, None, f"cannot load YAML: {type(exc).__name__}: {exc}") from None


def read_bytes(path: str | os.PathLike[str], file: str) -> bytes:
    """The bytes of a scenario file, at most MAX_BYTES + 1 (a larger file is refused by the loader)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise LoadError(file, None, None, "no such file") from None
    except IsADirectoryError:
        raise LoadError(file, None, None, "is a directory") from None
    except PermissionError:
        raise LoadError(file, None, None, "permission denied") from None
    except OSError as exc:
        raise LoadError(file, None, None, f"cannot read file: {exc.strerror or exc}") from None


def load_yaml_text(text: str | bytes, file: str = "<string>") -> tuple[dict[str, Any], LineMap]:
    """Safely parse one YAML mapping document; return (data, LineMap) or raise LoadError."""
    return _guarded(file, lambda: _load(text, file))


def load_yaml_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], LineMap]:
    """Read and safely parse a YAML file; return (data, LineMap) or raise LoadError."""
    file = str(path)
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
        problems = getattr(error.get("ctx", {}).get("error"), "problems", None)
        if problems:  # a validator that found several problems, each at its own key path
            errors += [LoadError(file, *linemap.locate(path), f"{_format_path(path)}: {msg}" if path else msg)
                       for path, msg in problems]
            continue
        locate_path, display_path, message = _describe(error, linemap)
        line, col = linemap.locate(locate_path)
        prefix = _format_path(display_path)
        errors.append(LoadError(file, line, col, f"{prefix}: {message}" if prefix else message))
    return errors


def validate(model_cls: type[ModelT], data: Any, linemap: LineMap, file: str) -> ModelT:
    """Validate data with a pydantic model, raising LoadErrors located in the YAML source."""
    try:
        return model_cls.model_validate(data)
    except pydantic.ValidationError as exc:
        raise LoadErrors(format_validation_error(exc, linemap, file)) from None
