"""The results journal behind ``--output`` and ``--resume``: records kept as they arrive, reused by content hash."""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from solver.run.batch.jobs import Job, Record
from solver.run.formats import jsonl_line


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
        and rec.get("status") in ("pass", "fail", "error", "unknown")


def reusable(jobs: list[Job], previous: dict[str, Record]) -> dict[int, Record]:
    """Previous records whose scenario content is unchanged (same hash), by job index."""
    return {i: previous[j.path] for i, j in enumerate(jobs)
            if j.path in previous and previous[j.path].get("hash") == j.hash}


def chain(kept, new, journal, records: dict[int, Record], advance) -> Iterator[tuple[int, Record]]:
    """Reused records, then new ones; each new one is written to the journal (and flushed) as it arrives."""
    for i, rec in kept:
        yield i, rec
    for i, rec in new:
        if journal:
            journal.write(jsonl_line(rec))
            journal.flush()
        records[i] = rec
        advance(rec)
        yield i, rec


def atomic_write(path: Path, text: str) -> None:
    """Replace a file's content in one step (a crash leaves the old or the new file, never half)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
