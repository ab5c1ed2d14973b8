"""Safe YAML loading with source positions and one-line, located error messages.

Reading a file (regular files only, names shown with escapes), decoding, choosing the parser
(libyaml's C parser, or the pure-Python fallback), turning parser and builder errors into
``file:line:col`` messages, and locating pydantic errors. Building data from the parse events,
with the depth, node-count and tag guards, is ``models/yamltree.py``.
"""

from __future__ import annotations

import codecs
import errno
import gc
import os
import re
import stat
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pydantic
import yaml
from yaml.reader import ReaderError

from models.yamltree import MAX_DEPTH, MAX_NODES, CParser, KeyPath, PureParser, TreeBuilder, TreeError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "LineMap", "LoadError", "LoadErrors", "alias_note",
           "display_name", "format_validation_error", "link_problem", "load_yaml_file", "load_yaml_text", "parser_name",
           "read_bytes",
           "special_kind", "validate"]

MAX_BYTES = 2_000_000  # size of the encoded input

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

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

    def with_positions(self, extra: dict[KeyPath, tuple[int, int]]) -> "LineMap":
        """A copy that also locates ``extra`` paths (values placed from elsewhere, e.g. a library card)."""
        if not extra:
            return self
        return LineMap({**self._positions, **extra}, self._aliases)

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


def _error_at(file: str, mark: Any, message: str) -> LoadError:
    if mark is None:
        return LoadError(file, None, None, message)
    return LoadError(file, mark.line + 1, mark.column + 1, message)


def parser_name() -> str:
    """Which YAML parser loads files here: 'libyaml' (C) or 'pure' (Python fallback)."""
    return "libyaml" if CParser is not None else "pure"


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
        parser = CParser(text) if libyaml else PureParser(text)
        builder = TreeBuilder(parser)
        data = builder.document()
    except TreeError as exc:
        raise _error_at(file, exc.mark, exc.message) from None
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
    except MemoryError:
        raise
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


def link_problem(path: str | os.PathLike) -> str | None:
    """Why a symbolic link cannot be followed (dangling, loop), or None (not a link, or it resolves)."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except FileNotFoundError:
        return "dangling symbolic link (its target does not exist)"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop (too many levels of symbolic links)"
        return f"cannot follow symbolic link: {exc.strerror or exc}"
    return None


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
        problems = getattr(error.get("ctx", {}).get("error"), "problems", None)
        if problems:  # a validator that found several problems, each at its own key path
            errors += [LoadError(file, *linemap.locate(path), f"{_format_path(path)}: {msg}" if path else msg)
                       for path, msg in problems]
            continue
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
