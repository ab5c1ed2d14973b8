"""How a sweep is reported: a text summary, JSON, JSONL (one line per combination), and for pairs the matrix.

Every combination's record is the checker's result (``ScenarioResult`` as JSON, with its content
``hash``) plus ``cards``, ``result`` and ``why`` (``solver/run/sweep/classify.py``). Timing is left out
unless asked for, so a report is the same bytes whatever ``--jobs`` is.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.run.formats import jsonl_line, visible as safe
from solver.run.sweep.classify import LABELS, RESULTS, SYMBOLS, classify, explain, summary

FORMATS = ("text", "json", "jsonl")
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


def matrix(info: SweepInfo, records: list[Record]) -> list[list[str | None]]:
    """For pairs: rows and columns are the pool's cards; a cell holds the result of the pair (None: not placed, the
    diagonal). Unordered: a pair's result fills both of its cells; ordered: row = slot $1, column = slot $2."""
    index = {c: i for i, c in enumerate(info.pool)}
    cells: list[list[str | None]] = [[None] * len(info.pool) for _ in info.pool]
    for rec in records:
        a, b = rec["cards"]
        cells[index[a]][index[b]] = rec["result"]
        if not info.ordered:
            cells[index[b]][index[a]] = rec["result"]
    return cells


def _how(info: SweepInfo) -> str:
    return "every order placed" if info.ordered else "each subset once, its cards in pool order"


def text(info: SweepInfo, records: list[Record]) -> str:
    """The text report: what was swept, each combination that does not pass with why, the matrix, the counts."""
    counts = summary([r["result"] for r in records])
    out = [f"sweep {safe(info.template)}: {len(info.pool)} cards, {info.k} per combination, "
           f"{counts['total']} combinations ({_how(info)})", ""]
    for rec in records:
        if rec["result"] == "pass":
            continue
        out.append(f"{LABELS[rec['result']].upper():20} {safe(' + '.join(rec['cards']))}")
        out += [f"    {safe(line)}" for line in explain(rec["result"], rec["why"])]
        if rec.get("cause"):  # the fast sweep's minimal cause (solver.run.sweep.cause)
            out.append(f"    cause: {safe(cause_line(rec['cause'], info.k))}")
    if info.k == 2:
        out += ["", *matrix_text(info, records)]
    out += ["", ", ".join(f"{counts[r]} {LABELS[r]}{'s' if r == 'error' and counts[r] != 1 else ''}" for r in RESULTS)
            + f", {counts['total']} combinations", ""]
    return "\n".join(out)


def matrix_text(info: SweepInfo, records: list[Record]) -> list[str]:
    """The pool-by-pool matrix as text lines: one symbol per pair, the legend first."""
    cells = matrix(info, records)
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
    doc: dict[str, Any] = {"template": info.template, "pool": list(info.pool), "k": info.k, "ordered": info.ordered,
                           "summary": summary([r["result"] for r in records]), "combinations": records}
    if info.k == 2:
        doc["matrix"] = {"cards": list(info.pool), "cells": matrix(info, records)}
    return doc


def json_text(info: SweepInfo, records: list[Record]) -> str:
    """The JSON report as text."""
    return json.dumps(document(info, records), indent=2) + "\n"  # ASCII escapes: any card name stays valid JSON


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
