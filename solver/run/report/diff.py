"""The HTML view of a diff (``arbiter diff --report``, ``arbiter report --diff``): one self-contained page.

It names the two versions and the ruleset change, shows every changed card with the unified diff of its definition
(removed lines red, added green; a wording-only change marked "no behavioural change"), then every scenario or
combination whose verdicts changed: a table of each flipped verdict (what was expected, old and new verdict, the
rules deciding each, their texts) and the changed card lines behind it.
"""
from __future__ import annotations

from html import escape

from solver.run.diff.formats import KINDS, ruleset_lines
from solver.run.report.page import page, rule_texts

_LINE = {"+": "background:#dcfce7", "-": "background:#fee2e2", "@": "color:#78716c"}


def diff_lines(lines: list[str]) -> str:
    """A unified diff as a block, each line coloured by what it is."""
    rows = "".join(f'<span style="display:block;{_LINE.get(line[:1], "") if line[:3] not in ("+++", "---") else ""}">'
                   f"{escape(line) or '&nbsp;'}</span>" for line in lines)
    return f'<pre class="mono">{rows}</pre>' if rows else ""


def _side(v: dict | None) -> tuple[str, str]:
    if v is None:
        return "-", ""
    passed = "" if v.get("passed") is None else (" (passed)" if v["passed"] else " (failed)")
    detail = f" {v['detail']}" if v.get("detail") and v.get("verdict") in ("error", "unknown") else ""
    return f"{v.get('verdict')}{passed}{detail}", ", ".join(v.get("decided_by") or [])


def _game_of(entry: dict, cards: dict) -> str | None:
    for cid in entry.get("changes") or []:
        if cid in cards:
            return cards[cid].get("game")
    return None


def diff_report(doc: dict) -> str:
    """The page of a diff document (``solver.run.diff``)."""
    s = doc["summary"]
    cards = {c["card"]: c for c in doc["cards"]}
    parts = [f"<section><h2>What was compared</h2><p>old: <code>{escape(doc['old'])}</code>, new: "
             f"<code>{escape(doc['new'])}</code></p>"]
    rs = ruleset_lines(doc)
    if rs:
        parts.append("<p>ruleset change: " + "; ".join(escape(x) for x in rs) + "</p>")
    what = [f"{s['scenarios']} scenario(s)"] + [f"the combinations of <code>{escape(t)}</code>" for t in s["templates"]]
    parts.append(f"<p>re-decided under both versions: {', '.join(what)}"
                 + (f" ({s['combinations']} combinations)" if s["templates"] else "") + "</p></section>")
    if doc["cards"]:
        items = []
        for c in doc["cards"]:
            fields = f" ({escape(', '.join(c['fields']))})" if c["fields"] else ""
            items.append(f'<h3 id="card-{escape(c["card"])}"><code>{escape(c["card"])}</code> '
                         f'<span class="muted">{escape(c["new"] or c["old"] or "")}</span>: '
                         f"{escape(KINDS[c['kind']])}{fields}</h3>" + diff_lines(c["diff"]))
        parts.append("<section><h2>Cards changed</h2>" + "".join(items) + "</section>")
    nav = "".join(f'<li><a href="#f-{i}">{escape(e["name"])}</a> ({len(e["flips"])})</li>'
                  for i, e in enumerate(doc["flips"]))
    if nav:
        parts.append(f"<nav><h3>Flipped</h3><ol>{nav}</ol></nav>")
    for i, e in enumerate(doc["flips"]):
        rows, cited = [], []
        for f in e["flips"]:
            old, old_rules = _side(f["old"])
            new, new_rules = _side(f["new"])
            cited += [r for side in (f["old"], f["new"]) if side for r in side.get("decided_by") or []]
            rows.append(f"<tr><td>{f.get('line') or ''}</td><td>{escape(str(f.get('what') or f['key']))}</td>"
                        f"<td>{escape(str(f.get('expected') or ''))}</td><td>{escape(old)}</td>"
                        f'<td class="mono">{escape(old_rules)}</td><td>{escape(new)}</td>'
                        f'<td class="mono">{escape(new_rules)}</td></tr>')
        changed = "".join(f'<h3>changed card <a href="#card-{escape(cid)}"><code>{escape(cid)}</code></a></h3>'
                          + diff_lines([x for x in cards[cid]["diff"] if x[:1] in "+-" and x[:3] not in ("+++", "---")])
                          for cid in e.get("changes") or [] if cid in cards)
        ruleset = "".join(f"<p>ruleset: {escape(x)}</p>" for x in rs)
        kind = "combination" if e["kind"] == "combination" else "scenario"
        parts.append(f'<section id="f-{i}"><h2><span class="badge fail">FLIPPED</span>{escape(kind)} '
                     f'<code>{escape(e["name"])}</code></h2>'
                     '<table><tr><th>line</th><th>verdict about</th><th>expected</th><th>old</th>'
                     '<th>decided by (old)</th><th>new</th><th>decided by (new)</th></tr>'
                     + "".join(rows) + "</table>" + changed + ruleset
                     + rule_texts(_game_of(e, cards) or _rule_game(cited), cited) + "</section>")
    summary = (f"{s['flips']} verdict(s) flipped in {s['flipped_scenarios']} scenario(s) and "
               f"{s['flipped_combinations']} combination(s)" if s["flips"] else
               "no verdict flipped" + (": no behavioural change" if s["wording_only"] else ""))
    return page("Arbiter diff", escape(summary), "".join(parts))


def _rule_game(rules: list[str]) -> str | None:
    """The game whose rule ids these are (by their prefix), for their texts."""
    from solver.registry import names

    for r in rules:
        head = r.split(".", 1)[0]
        if head in names():
            return head
    return None


def render_file(source, output, usage) -> int:
    """``arbiter report --diff FILE``: the HTML view of a saved diff; the exit code (1 when something flipped)."""
    import json
    import sys

    from solver.errors import UsageError

    try:
        doc = json.loads(source.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or not isinstance(doc.get("summary"), dict) or "flips" not in doc:
            raise UsageError("not the JSON of arbiter diff -f json")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        usage(f"--diff {source}: {exc}")
    output.write_text(diff_report(doc), encoding="utf-8")
    print(f"wrote {output}", file=sys.stderr)
    return 1 if doc["summary"].get("flips") else 0
