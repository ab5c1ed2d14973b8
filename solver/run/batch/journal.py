"""The results journal behind ``--output`` and ``--resume``: records kept as they arrive, reused by content hash and
by the options they were computed under.

A record computed under options that change results and differ from their defaults (``RunOptions``: the time
limit, ``--why``, ``--max-outcomes``, ...) says so in its ``options``; a record without them was computed under the
defaults. ``--resume`` reuses a record only when a fresh run would give the same: the same options, or only a
larger time limit for a record that was decided (not ``unknown``).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from models.results import ScenarioStatus
from solver.run.batch.jobs import Job, Record, RunOptions
from solver.run.formats import jsonl_line
from solver.run.output import atomic_write

__all__ = ["BUDGETS", "atomic_write", "chain", "compatible", "read_records", "result_options", "reusable"]

#: options that are a budget (the work budget, the wall-clock safety net): a larger one leaves every decided result
#: as it was, and may decide an unknown one
BUDGETS = ("timeout", "safety")


def result_options(opts: RunOptions) -> dict[str, Any]:
    """The options of a run that differ from their defaults (each may change results), as a record keeps them."""
    default = RunOptions()
    return {f.name: getattr(opts, f.name) for f in fields(opts) if getattr(opts, f.name) != getattr(default, f.name)}


def compatible(record: Record, now: dict[str, Any]) -> bool:
    """Whether a record computed under its ``options`` is what a run under ``now`` would give: the same options, or
    they differ only in budgets that are now at least as large and the record was decided."""
    then = record.get("options") or {}
    if then == now:
        return True
    default = RunOptions()
    differ = {k for k in set(then) | set(now) if then.get(k, getattr(default, k, None)) !=
              now.get(k, getattr(default, k, None))}
    if not differ <= set(BUDGETS) or record.get("status") == "unknown":
        return False
    return all(now.get(k, getattr(default, k)) >= then.get(k, getattr(default, k)) for k in differ)


def read_records(path: str | Path) -> dict[str, Record]:
    """Records kept in a report or journal file (jsonl lines or a json document), by scenario path.

    Lines that do not parse (a line cut short when the process was killed) are skipped.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, Record] = {}
    try:
        doc = json.loads(text)
        items = doc.get("scenarios", doc.get("combinations")) if isinstance(doc, dict) else None
        if isinstance(items, list):  # a check report (scenarios) or a sweep report (combinations)
            return {r["path"]: r for r in items if _is_record(r)}
    except ValueError:
        pass
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if _is_record(rec):
            out[rec["path"]] = rec
    return out


def _is_record(rec: Any) -> bool:
    return isinstance(rec, dict) and isinstance(rec.get("path"), str) and isinstance(rec.get("hash"), str) \
        and rec.get("status") in {s.value for s in ScenarioStatus}


def reusable(jobs: Iterable[Job], previous: dict[str, Record], now: dict[str, Any] | None = None) -> dict[int, Record]:
    """Previous records whose scenario content is unchanged (same hash) and that the options ``now`` (see
    ``result_options``; None: the defaults) would give again, by job index."""
    now = now or {}
    if not previous:
        return {}
    out = {}
    for i, j in enumerate(jobs):
        rec = previous.get(j.path)
        if rec is not None and rec.get("hash") == j.hash and compatible(rec, now):
            out[i] = rec
    return out


def stamped(rec: Record, options: dict[str, Any]) -> Record:
    """A new record with the options it was computed under (none when they are the defaults)."""
    return {**rec, "options": options} if options else rec


def chain(kept, new, journal, records: dict[int, Record] | None, advance,
          options: dict[str, Any] | None = None) -> Iterator[tuple[int, Record]]:
    """Reused records, then new ones (stamped with ``options``); each new one is written to the journal (in full, and
    flushed) as it arrives, and kept in ``records`` when given."""
    for i, rec in kept:
        yield i, rec
    for i, rec in new:
        rec = stamped(rec, options or {})
        if journal:
            journal.write(jsonl_line(rec))
        if records is not None:
            records[i] = rec
        advance(rec)
        yield i, rec
