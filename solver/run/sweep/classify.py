"""What one combination of a sweep came to: passing, contradiction, ambiguity, expectation broken, unknown or error.

It is read off the checker's result (a record), in this order:

- ``error``: the combination could not be checked (a card that cannot be placed there, a located error);
- ``unknown``: a time limit was hit (never a pass);
- ``contradiction``: no legal outcome, the rules cannot all be satisfied: the core of rules and facts;
- ``ambiguity``: the template asks for one outcome (``unique: true`` or ``outcomes: 1``) and there are
  several: two outcomes and where they differ;
- ``broken``: an expectation (or claim) did not get its verdict: each with the rules behind its verdict
  (the core) or the outcomes that show it;
- ``pass``.
"""
from __future__ import annotations

from typing import Any

#: every result, in the order reports list them
RESULTS = ("contradiction", "ambiguity", "broken", "unknown", "error", "pass")
#: one character per result, for the matrix
SYMBOLS = {"pass": ".", "contradiction": "C", "ambiguity": "A", "broken": "B", "unknown": "?", "error": "E"}
#: what each result is called in reports
LABELS = {"pass": "passing", "contradiction": "contradiction", "ambiguity": "ambiguity",
          "broken": "expectation broken", "unknown": "unknown", "error": "error"}

Record = dict[str, Any]


def classify(rec: Record, asks_one: bool) -> tuple[str, dict]:
    """(result, why) of one combination's check record; ``asks_one``: the template expects a unique outcome."""
    status = rec.get("status")
    outcomes = rec.get("outcomes") or []
    if status == "error":
        return "error", {"message": rec.get("error") or "error"}
    if status == "unknown":
        return "unknown", {"message": rec.get("error") or _unknown_message(rec)}
    if not outcomes and rec.get("outcomes_complete", True):
        return "contradiction", {"core": list(rec.get("contradiction") or [])}
    if asks_one and len(outcomes) > 1:
        return "ambiguity", _two_outcomes(outcomes)
    broken = [_expectation(e) for e in rec.get("expectations") or [] if not e.get("passed")]
    claims = [_claim(c) for c in rec.get("claims") or [] if not c.get("passed")]
    if broken or claims or status == "fail":
        return "broken", {"expectations": broken, "claims": claims}
    return "pass", {}


def _unknown_message(rec: Record) -> str:
    """Which verdicts the work budget (or the wall-clock safety limit) left open."""
    open_ = [e.get("description", "") for e in rec.get("expectations") or [] if e.get("verdict") == "unknown"]
    return "the work budget ran out" + (f": no verdict for {', '.join(open_[:3])}" if open_ else "")


def _two_outcomes(outcomes: list[dict]) -> dict:
    """Two outcomes that differ, with the keys where they differ (``key: first | second``)."""
    a, b = outcomes[0], outcomes[1]
    sa, sb = a.get("state") or {}, b.get("state") or {}
    differ = [f"{k}: {sa.get(k, '-')} | {sb.get(k, '-')}" for k in sorted(set(sa) | set(sb)) if sa.get(k) != sb.get(k)]
    return {"outcomes": [list(a.get("changes") or []), list(b.get("changes") or [])], "differ": differ,
            "count": len(outcomes)}


def _expectation(e: dict) -> dict:
    """A broken expectation: where, what, the verdict against the expected one, and the rules behind it."""
    return {"line": e.get("line"), "description": e.get("description"), "expected": e.get("expected"),
            "verdict": e.get("verdict"), "rules": list(e.get("rules") or []), "facts": list(e.get("facts") or []),
            "message": e.get("message") or ""}


def _claim(c: dict) -> dict:
    """A claim that did not get its verdict, with its counterexample or certificate."""
    return {"line": c.get("line"), "kind": c.get("kind"), "player": c.get("player"), "expected": c.get("expected"),
            "verdict": c.get("verdict"), "lines": list(c.get("counterexample") or c.get("certificate") or [])}


def summary(results: list[str]) -> dict[str, int]:
    """How many combinations came to each result (every result named, zeros included), and the total."""
    out = {r: results.count(r) for r in RESULTS}
    out["total"] = len(results)
    return out


def explain(result: str, why: dict) -> list[str]:
    """The lines a text report shows under a combination that does not pass."""
    if result == "contradiction":
        return ["no legal outcome: the rules cannot all be satisfied; core: " + (", ".join(why["core"]) or "-")]
    if result == "ambiguity":
        out = [f"{why['count']} outcomes where the template asks for one; two of them differ in:"]
        out += [f"  {d}" for d in why["differ"][:8]]
        return out
    if result == "broken":
        out = []
        for e in why["expectations"]:
            out.append(f"line {e['line']}: {e['description']}: expected {e['expected']}, got {e['verdict']}")
            if e["rules"] or e["facts"]:
                out.append(f"  rules: {', '.join(e['rules']) or '-'}; facts: {', '.join(e['facts']) or '-'}")
            if e["message"]:
                out.append(f"  {e['message']}")
        for c in why["claims"]:
            out.append(f"line {c['line']}: claim {c['kind']} {c['player']}: expected {c['expected']}, got "
                       f"{c['verdict']}")
            out += [f"  {x}" for x in c["lines"][:6]]
        return out
    if result in ("unknown", "error"):
        return [why["message"]]
    return []
