"""How a diff is reported: text for a person, JSON for machines (the HTML view: ``solver.run.report.diff``).

The report names the two versions and the ruleset change, every card that changed (wording only: "no behavioural
change"; functional: the fields, and the unified diff of its definition), then each scenario or combination whose
verdicts changed: each flipped verdict with what was expected, the old and the new verdict, the rules deciding each
(``decided_by``), and the changed card lines behind it (or the ruleset change).
"""
from __future__ import annotations

import json

from solver.run.format_table import names
from solver.run.formats import visible as safe

FORMATS = names("diff")

KINDS = {"added": "added", "removed": "removed", "wording": "wording only: no behavioural change",
         "functional": "functional"}


def side_text(v: dict | None) -> str:
    """'holds (passed), decided by r1, r2' for one side of a flip."""
    if v is None:
        return "-"
    passed = "" if v.get("passed") is None else (" (passed)" if v["passed"] else " (failed)")
    rules = ", ".join(v.get("decided_by") or [])
    detail = f": {v['detail']}" if v.get("detail") and v.get("verdict") in ("error", "unknown") else ""
    return f"{v.get('verdict')}{passed}" + (f", decided by {rules}" if rules else "") + detail


def ruleset_lines(doc: dict) -> list[str]:
    """The ruleset change, one line each (empty: none)."""
    rs = doc.get("ruleset") or {}
    out = [f"rule {r} switched off" for r in rs.get("rules_off") or []]
    out += [f"option {k} = {v}" for k, v in (rs.get("options") or {}).items()]
    return out


def text(doc: dict) -> str:
    """The text report."""
    s = doc["summary"]
    rs = ruleset_lines(doc)
    out = [f"arbiter diff: old {safe(doc['old'])}, new {safe(doc['new'])}" + (f"; ruleset: {'; '.join(rs)}" if rs
                                                                              else ""), ""]
    cards = {c["card"]: c for c in doc["cards"]}
    if doc["cards"]:
        out.append("cards changed:")
        for c in doc["cards"]:
            where = c["new"] or c["old"]
            fields = f" ({', '.join(c['fields'])})" if c["fields"] else ""
            out.append(f"  {safe(c['card'])} ({safe(where or '')}): {KINDS[c['kind']]}{fields}")
            if c["kind"] != "wording":
                out += [f"      {safe(line)}" for line in c["diff"]]
        out.append("")
    what = [f"{s['scenarios']} scenario(s)"] + [f"the combinations of {safe(t)}" for t in s["templates"]]
    out.append(f"re-decided under both versions: {', '.join(what)}"
               + (f" ({s['combinations']} combination(s) in all)" if s["templates"] else ""))
    out.append("")
    for e in doc["flips"]:
        label = "FLIPPED" if e["kind"] == "scenario" else "FLIPPED COMBINATION"
        out.append(f"{label} {safe(e['name'])}")
        for f in e["flips"]:
            head = (f"line {f['line']}: " if f.get("line") else "") + safe(str(f.get("what") or f["key"]))
            expected = f", expected {f['expected']}" if f.get("expected") else ""
            out.append(f"    {head}{expected}")
            out.append(f"      old: {safe(side_text(f['old']))}")
            out.append(f"      new: {safe(side_text(f['new']))}")
        for cid in e.get("changes") or []:
            c = cards.get(cid)
            if c is None:
                continue
            out.append(f"    changed card {safe(cid)} ({safe(c['new'] or c['old'] or '')}): {KINDS[c['kind']]}")
            out += [f"      {safe(line)}" for line in c["diff"] if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        for line in rs:
            out.append(f"    ruleset: {line}")
    if s["flips"]:
        out.append(f"{s['flips']} verdict(s) flipped in {s['flipped_scenarios']} scenario(s) and "
                   f"{s['flipped_combinations']} combination(s)")
    elif s["wording_only"]:
        out.append("no verdict flipped: no behavioural change (every changed card changed its wording only)")
    else:
        out.append("no verdict flipped")
    return "\n".join(out) + "\n"


def json_text(doc: dict) -> str:
    """The JSON report."""
    return json.dumps(doc, indent=2) + "\n"
