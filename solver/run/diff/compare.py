"""What a diff compares of one scenario's (or combination's) two records: every verdict, and which of them flipped.

A record's verdicts are its status, its outcomes (how many, whether unique, none: a contradiction), each
expectation's verdict and whether it passed, each action's status, each claim's verdict, and for a sweep's
combination its result (passing, contradiction, ambiguity, broken, unknown, error). A flip is one of them that
differs between the two records (or is in one only), shown with what was expected, the old and the new verdict and
the rules deciding each (``decided_by``: the but-for rules of the verdict, ``solver.check.checker``; the whole core
when no rule of it decides alone).
"""
from __future__ import annotations

from typing import Any

Record = dict[str, Any]


def _outcomes(rec: Record) -> str:
    outs = rec.get("outcomes") or []
    if rec.get("status") in ("error", "unknown") and not outs:
        return rec["status"]
    more = "" if rec.get("outcomes_complete", True) else "+"
    if not outs:
        return "none (contradiction)"
    return f"{len(outs)}{more} ({'unique' if rec.get('unique') else 'not unique'})"


def verdicts(rec: Record) -> dict[str, dict]:
    """Every verdict of a record, by a key stable across versions: what it is about, its verdict, its rules."""
    out: dict[str, dict] = {"status": {"what": "status", "verdict": rec.get("status"), "passed": None,
                                       "decided_by": [], "detail": rec.get("error") or ""}}
    if "result" in rec:
        out["result"] = {"what": "combination", "verdict": rec["result"], "passed": rec["result"] == "pass",
                         "decided_by": list((rec.get("why") or {}).get("core") or []), "detail": ""}
    out["outcomes"] = {"what": "outcomes", "verdict": _outcomes(rec), "passed": None,
                       "decided_by": list(rec.get("contradiction") or []), "detail": ""}
    for e in rec.get("expectations") or []:
        out[f"expect[{e.get('index')}]"] = {
            "what": e.get("description") or "", "line": e.get("line"), "expected": e.get("expected"),
            "verdict": e.get("verdict"), "passed": e.get("passed"), "decided_by": list(e.get("decided_by") or e.get("rules") or []),
            "facts": list(e.get("facts") or []), "detail": e.get("message") or ""}
    for a in rec.get("actions") or []:
        out[f"action:{a.get('id')}"] = {"what": f"action {a.get('id')}",
                                        "verdict": " or ".join(a.get("statuses") or []) or "-", "passed": None,
                                        "decided_by": list(a.get("decided_by") or a.get("rules") or []),
                                        "detail": ""}
    for i, c in enumerate(rec.get("claims") or []):
        out[f"claim[{i}]"] = {"what": f"claim {c.get('kind')} {c.get('player')}", "line": c.get("line"),
                              "expected": c.get("expected"), "verdict": c.get("verdict"), "passed": c.get("passed"),
                              "decided_by": [], "detail": ""}
    return out


def _same(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.get("verdict"), a.get("passed")) == (b.get("verdict"), b.get("passed"))


def flips(old: Record, new: Record) -> list[dict]:
    """Every verdict that differs between the old and the new record, in the order of the new one's verdicts."""
    a, b = verdicts(old), verdicts(new)
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        if _same(a.get(key), b.get(key)):
            continue
        ref = b.get(key) or a.get(key)
        out.append({"key": key, "what": ref.get("what"), "line": ref.get("line"), "expected": ref.get("expected"),
                    "old": _side(a.get(key)), "new": _side(b.get(key))})
    return out


def _side(v: dict | None) -> dict | None:
    if v is None:
        return None
    return {"verdict": v.get("verdict"), "passed": v.get("passed"), "decided_by": list(v.get("decided_by") or []),
            "detail": v.get("detail") or ""}


def with_rules(flip: dict, old: Record, new: Record) -> dict:
    """A flip with the deciding rules read again from records checked with explanations (``why``)."""
    a, b = verdicts(old).get(flip["key"]), verdicts(new).get(flip["key"])
    out = dict(flip)
    for side, v in (("old", a), ("new", b)):
        if out[side] is not None and v is not None and _same(v, out[side]):
            out[side] = {**out[side], "decided_by": list(v.get("decided_by") or [])}
    return out
