"""How a sweep is reported: a text summary, JSON, JSONL (one line per combination), and for pairs the matrix.

Every combination's record is the checker's result (``ScenarioResult`` as JSON, with its content
``hash``) plus ``cards``, ``result`` and ``why`` (``solver/run/sweep/classify.py``). Timing is left out
unless asked for, so a report is the same bytes whatever ``--jobs`` is.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from solver.run.format_table import names
from solver.run.formats import jsonl_line, visible as safe
from solver.run.sweep.classify import LABELS, RESULTS, SYMBOLS, classify, explain

FORMATS = names("sweep")
#: a slot left empty in a sub-combination (the fast sweep's minimal cause)
ABSENT = "-"
Record = dict[str, Any]


@dataclass(frozen=True)
class SweepInfo:
    """What was swept: the template, the pool (card ids in order), the slots and whether every order was placed."""

    template: str
    pool: tuple[str, ...]
    k: int
    ordered: bool
    asks_one: bool


def decorate(rec: Record, info: SweepInfo, timings: bool = False) -> Record:
    """A combination's record with its result and why (and without timing unless ``timings``)."""
    result, why = classify(rec, info.asks_one)
    out = {k: v for k, v in rec.items() if timings or k != "seconds"}
    out["result"], out["why"] = result, why
    return out


def jsonl_item(rec: Record) -> str:
    """One combination as one JSON line."""
    return jsonl_line(rec)


def jsonl_chunks(info: SweepInfo, records: Iterable[Record], tally: Tally) -> Iterator[str]:
    """The JSONL report: one line per combination, in order."""
    return (jsonl_item(rec) for rec in records)


class Tally:
    """What a sweep's report needs besides its records, added up as they come: the counts by result and, for pairs,
    the matrix cells (so the records themselves can stream to a file)."""

    def __init__(self, info: SweepInfo) -> None:
        self.info = info
        self.counts = {r: 0 for r in RESULTS}
        self.total = 0
        self.index = {c: i for i, c in enumerate(info.pool)}
        self.cells: list[list[str | None]] | None = [[None] * len(info.pool) for _ in info.pool] if info.k == 2 \
            else None

    @classmethod
    def of(cls, info: SweepInfo, records: Iterable[Record]) -> "Tally":
        """The tally of records given at once."""
        t = cls(info)
        for rec in records:
            t.add(rec)
        return t

    def add(self, rec: Record) -> None:
        """One decorated record."""
        self.counts[rec["result"]] += 1
        self.total += 1
        if self.cells is not None:
            a, b = (self.index[c] for c in rec["cards"])
            self.cells[a][b] = rec["result"]
            if not self.info.ordered:
                self.cells[b][a] = rec["result"]

    def summary(self) -> dict[str, int]:
        """The counts, as ``classify.summary`` gives them."""
        return {**self.counts, "total": self.total}

    def passed(self) -> bool:
        """Whether every combination passed."""
        return self.counts["pass"] == self.total


def matrix(info: SweepInfo, records: list[Record]) -> list[list[str | None]]:
    """For pairs: rows and columns are the pool's cards; a cell holds the result of the pair (None: not placed, the
    diagonal). Unordered: a pair's result fills both of its cells; ordered: row = slot $1, column = slot $2."""
    return Tally.of(info, records).cells or []


def _how(info: SweepInfo) -> str:
    return "every order placed" if info.ordered else "each subset once, its cards in pool order"


def text(info: SweepInfo, records: list[Record]) -> str:
    """The text report: what was swept, each combination that does not pass with why, the matrix, the counts."""
    return "".join(text_chunks(info, records, Tally.of(info, records)))


def text_chunks(info: SweepInfo, records: Iterable[Record], tally: Tally) -> Iterator[str]:
    """The text report, a line at a time, from records read once (``tally``: their counts and matrix)."""
    counts = tally.summary()
    lines = _text_lines(info, records, tally, counts)
    yield next(lines)
    for line in lines:
        yield "\n" + line


def _text_lines(info: SweepInfo, records: Iterable[Record], tally: Tally, counts: dict) -> Iterator[str]:
    yield (f"sweep {safe(info.template)}: {len(info.pool)} cards, {info.k} per combination, "
           f"{counts['total']} combinations ({_how(info)})")
    yield ""
    for rec in records:
        if rec["result"] == "pass":
            continue
        yield f"{LABELS[rec['result']].upper():20} {safe(' + '.join(rec['cards']))}"
        yield from (f"    {safe(line)}" for line in explain(rec["result"], rec["why"]))
        if rec.get("cause"):  # the fast sweep's minimal cause (solver.run.sweep.cause)
            yield f"    cause: {safe(cause_line(rec['cause'], info.k))}"
    if info.k == 2:
        yield ""
        yield from matrix_text(info, tally.cells)
    yield ""
    yield (", ".join(f"{counts[r]} {LABELS[r]}{'s' if r == 'error' and counts[r] != 1 else ''}" for r in RESULTS)
           + f", {counts['total']} combinations")
    yield ""


def matrix_text(info: SweepInfo, cells: list[list[str | None]]) -> list[str]:
    """The pool-by-pool matrix as text lines: one symbol per pair, the legend first."""
    width = max(len(c) for c in info.pool)
    legend = ", ".join(f"{SYMBOLS[r]} {LABELS[r]}" for r in RESULTS)
    head = "row: slot $1, column: slot $2" if info.ordered else "each pair in both of its cells"
    numbers = " ".join(f"{(i + 1) % 100:>2}" for i in range(len(info.pool)))
    out = [f"matrix ({head}; {legend}; - not placed):", f"{'':>{width + 4}} {numbers}"]
    for i, card in enumerate(info.pool):
        row = " ".join(f"{SYMBOLS[c] if c else '-':>2}" for c in cells[i])
        out.append(f"{i + 1:>3} {safe(card):<{width}} {row}")
    return out


def document(info: SweepInfo, records: list[Record]) -> dict:
    """The JSON report: what was swept, the counts, every combination and, for pairs, the matrix."""
    return _document(info, records, Tally.of(info, records))


def _document(info: SweepInfo, records: Any, tally: Tally) -> dict:
    doc: dict[str, Any] = {"template": info.template, "pool": list(info.pool), "k": info.k, "ordered": info.ordered,
                           "summary": tally.summary(), "combinations": records}
    if info.k == 2:
        doc["matrix"] = {"cards": list(info.pool), "cells": tally.cells}
    return doc


def json_text(info: SweepInfo, records: list[Record]) -> str:
    """The JSON report as text."""
    return json.dumps(document(info, records), indent=2) + "\n"  # ASCII escapes: any card name stays valid JSON


#: where the combinations go in the JSON document written piecewise
_HOLE = "\x00combinations\x00"


def json_chunks(info: SweepInfo, records: Iterable[Record], tally: Tally) -> Iterator[str]:
    """The JSON report piece by piece, the same bytes as ``json_text``, from records read once."""
    head, tail = json.dumps(_document(info, _HOLE, tally), indent=2).split(json.dumps(_HOLE), 1)
    yield head + "["
    first = True
    for rec in records:
        body = json.dumps(rec, indent=2).replace("\n", "\n    ")
        yield ("\n    " if first else ",\n    ") + body
        first = False
    yield ("]" if first else "\n  ]") + tail + "\n"


def tap_chunks(info: SweepInfo, records: Iterable[Record], tally: Tally) -> Iterator[str]:
    """The TAP report (version 13): the plan, then a test point per combination (ok when it passes), its why and its
    cause as comment lines."""
    yield f"TAP version 13\n1..{tally.total}\n"
    for i, rec in enumerate(records, 1):
        name = _tap(" + ".join(rec["cards"]))
        if rec["result"] == "pass":
            yield f"ok {i} - {name}\n"
            continue
        yield f"not ok {i} - {name} # {LABELS[rec['result']]}\n"
        yield "".join(f"# {_tap(line)}\n" for line in explain(rec["result"], rec["why"]))
        if rec.get("cause"):
            yield f"# cause: {_tap(cause_line(rec['cause'], info.k))}\n"


def _tap(text: str) -> str:
    """Text on one TAP line: visible, without a '#' that would start a directive."""
    return safe(text.replace("\n", " ")).replace("#", "\\#")


def cause_line(cause: dict, k: int) -> str:
    """One line for a report: 'genuine k-card interaction ...' or 'already: a + b (broken)'."""
    subs = ", ".join(" + ".join(c for c in p["cards"] if c != ABSENT) + f" ({p['result']})" for p in cause["sub"])
    fixed = cause.get("fixed") or []
    if fixed:
        subs += "; " + ", ".join(f"${n}" for n in fixed) + " cannot be left out (the template names its objects)"
    if cause["genuine"]:
        return f"genuine {k}-card interaction: every combination of one card fewer passes ({subs})"
    if cause["already"]:
        return "already flagged with one card fewer: " + ", ".join(
            " + ".join(c for c in p["cards"] if c != ABSENT) + f" ({p['result']})" for p in cause["already"])
    return f"cause undetermined ({subs})"
