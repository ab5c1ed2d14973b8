"""Writing reports and journals so that nothing is cut short silently.

Python's buffered streams may take part of a large write and report it only by a short count,
which text streams drop: under a file-size limit (``ulimit -f``) or on a full disk a report would
be cut short with exit 0. Here every byte is written or an ``OutputError`` names the file:

- ``emit``: text to standard output (``install_strict_stdout`` makes ``sys.stdout`` itself strict in the
  ``arbiter`` process, so ``typer.echo`` is covered too);
- ``atomic_write``: a file replaced in one step (a temporary file beside it, renamed; removed on failure);
- ``Journal``: lines appended and flushed one by one (``--output``'s journal).
"""
from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable
from pathlib import Path

#: exit code of a run whose report cannot be written (as other input/output refusals of a run)
EXIT_OUTPUT = 2


class OutputError(Exception):
    """A report or journal cannot be written in full: the message names the file and why."""


def _name(path: str | os.PathLike) -> str:
    """A file name as messages show it (undecodable bytes escaped)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _write_all(stream, data: bytes) -> None:
    """Write every byte to a binary stream (looping over short writes); OSError when it cannot."""
    view = memoryview(data)
    while view:
        n = stream.write(view)
        if n is None:  # a non-blocking stream that could not take anything now
            continue
        if n <= 0:
            raise OSError(5, "nothing could be written")
        view = view[n:]
    stream.flush()


def emit(text: str, stream=None, what: str = "standard output") -> None:
    """Write text to standard output (or ``stream``) in full and flush it; OutputError when it is cut short."""
    stream = stream if stream is not None else sys.stdout
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is None or not isinstance(stream, io.TextIOWrapper):
            stream.write(text)
            stream.flush()
            return
        stream.flush()
        _write_all(buffer, text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    except OSError as exc:
        if stream is sys.stdout:
            _to_devnull(stream)
        raise OutputError(f"cannot write the report to {what}: {exc.strerror or exc}; what was written is cut "
                          f"short") from None


def _to_devnull(stream) -> None:
    """Point a stream that cannot be written any more at /dev/null (its last flush at exit then says nothing)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def atomic_write(path: Path, text: str | Iterable[str]) -> None:
    """Replace a file's content in one step (a crash leaves the old or the new file, never half): written to
    ``FILE.tmp`` beside it, then renamed; the temporary file is removed when writing fails (OutputError)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            for chunk in ([text] if isinstance(text, str) else text):
                _write_all(f, chunk.encode("utf-8"))
        os.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise OutputError(f"cannot write {_name(path)}: {exc.strerror or exc}") from None


class Journal:
    """A file that lines are appended to, each written in full and flushed as it comes (OutputError naming it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.file = open(path, "ab")
        except OSError as exc:
            raise OutputError(f"cannot write {_name(path)}: {exc.strerror or exc}") from None

    def write(self, line: str) -> None:
        """Append one line (or several) and flush."""
        try:
            _write_all(self.file, line.encode("utf-8"))
        except OSError as exc:
            raise OutputError(f"cannot write {_name(self.path)}: {exc.strerror or exc}") from None

    def flush(self) -> None:
        """Written already: every ``write`` flushes."""

    def close(self) -> None:
        """Close the file (what could not be flushed is an OutputError)."""
        try:
            self.file.close()
        except OSError as exc:
            raise OutputError(f"cannot write {_name(self.path)}: {exc.strerror or exc}") from None


class _FullWrites(io.RawIOBase):
    """A raw stream over a file descriptor whose ``write`` returns only once every byte is written (or raises)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        """It is written to."""
        return True

    def fileno(self) -> int:
        """Its file descriptor."""
        return self.fd

    def isatty(self) -> bool:
        """Whether it is a terminal."""
        return os.isatty(self.fd)

    def write(self, b) -> int:
        """Write every byte of ``b``; OSError when the file takes no more (full disk, file-size limit)."""
        view = memoryview(b).cast("B")
        total = len(view)
        while view:
            n = os.write(self.fd, view)
            if n <= 0:
                raise OSError(5, "nothing could be written")
            view = view[n:]
        return total


def install_strict_stdout() -> None:
    """Make ``sys.stdout`` a stream that never drops the rest of a write it could only take in part."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    out.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_FullWrites(fd)), encoding=out.encoding, errors=out.errors,
                                  line_buffering=out.line_buffering)


def flush_stdout() -> str | None:
    """Flush standard output at exit: None, or why it could not be written in full (standard output is then
    pointed at /dev/null, so the interpreter's own last flush says nothing more)."""
    try:
        sys.stdout.flush()
        return None
    except OSError as exc:
        _to_devnull(sys.stdout)
        return f"cannot write to standard output: {exc.strerror or exc}; what was written is cut short"
