"""Errors by kind, never by Python exception type.

What goes wrong while a scenario is checked is one of three kinds, each with its exit code (``solver.run.exits``):

- ``ScenarioError``: bad input. The scenario (or a file it uses) is wrong; the message says where
  (``events[2] (move): ...``, located at file:line:col by the loader's line map). Exit 2.
- ``NotModelled``: the input is well formed, but its game's rules do not model a word or mechanic it uses; the
  message names it (``word``). Exit 2.
- anything else is an internal error: a bug in Arbiter, never shown as a mistake in the scenario. It is reported
  as ``internal error: TYPE: message`` with a line asking for a bug report (``BUG_REPORT``); the traceback only
  with ``ARBITER_DEBUG=1``. Exit 3.

A site that detects bad input raises the right class there; nothing catches ``KeyError``, ``ValueError`` or
``NotImplementedError`` to turn it into the user's error. ``MissingState`` is the one exception the encoding turns
into a ``ScenarioError`` itself: an event read a state key the scenario does not give (an attribute, a
parameter); anywhere else it is a bug like any other.

Importable on its own (no solver import).
"""
from __future__ import annotations

import os
import traceback

#: the line an internal error ends with
BUG_REPORT = ("this is a bug in Arbiter, not a mistake in the scenario: please report it with the scenario file "
              "(ARBITER_DEBUG=1 shows the traceback)")


class Refusal(ValueError):
    """The input is refused (exit 2): the base of ``ScenarioError`` and ``NotModelled``."""

    kind = "input"


class ScenarioError(Refusal):
    """Bad input: the scenario is inconsistent with its game (unknown zone, a cell not on the board ...)."""

    kind = "input"


class NotModelled(Refusal, NotImplementedError):
    """The game's rules do not model a word or mechanic the scenario uses (``word`` names it)."""

    kind = "not_modelled"

    def __init__(self, message: str, word: str | None = None) -> None:
        super().__init__(message)
        self.word = word


class UsageError(Refusal):
    """A command's options are wrong (exit 2, like refused input)."""

    kind = "usage"


class MissingState(KeyError):
    """A rule read a state key that has no variable (``key``): while an event is applied, the scenario does not give
    what the event needs (``solver.encoding.compile`` makes it a ``ScenarioError``); elsewhere, a bug."""

    def __init__(self, key) -> None:
        super().__init__(key)
        self.key = key


def kind_of(exc: BaseException) -> str:
    """'input', 'not_modelled' or 'internal'."""
    return exc.kind if isinstance(exc, Refusal) else "internal"


def debug() -> bool:
    """Whether ``ARBITER_DEBUG`` asks for tracebacks of internal errors."""
    return os.environ.get("ARBITER_DEBUG", "") not in ("", "0")


def internal_message(exc: BaseException) -> str:
    """'internal error: TYPE: message' with the bug-report line (and the traceback with ARBITER_DEBUG=1)."""
    text = f"internal error: {type(exc).__name__}: {exc}\n{BUG_REPORT}"
    if debug():
        text += "\n" + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip("\n")
    return text
