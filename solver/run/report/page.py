"""The HTML of a report: one self-contained page (inline CSS and SVG, no script, no external asset), readable printed.

A scenario's section shows its status, the boards before and after (``svg.py``), the verdicts with the
rules behind each and their texts, the contradiction's core, the actions, the victory proofs and claims (how each
was decided; a refuted one as its line of play; an unknown one labelled unknown, with the work it used), and the
step trace. Outcomes a spent budget left unknown are labelled unknown, never "no legal outcome".
"""
from __future__ import annotations

from html import escape
from typing import Any

from solver.check import rulebook

CSS = """
:root{--ink:#1c1917;--soft:#78716c;--line:#d6d3d1}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:var(--ink);background:#fff}
header{padding:14px 24px;background:#1c1917;color:#fafaf9}
header h1{margin:0 0 4px;font-size:20px}
main{padding:6px 24px 30px}
nav ol{columns:2;margin:8px 0 0}
section{border-top:2px solid var(--line);margin-top:18px;padding-top:6px}
h2{font-size:17px;margin:6px 0}
h3{font-size:14px;margin:12px 0 4px;color:#44403c}
.badge{display:inline-block;padding:1px 8px;border-radius:9px;color:#fff;font-size:12px;font-weight:600;
 vertical-align:2px;margin-right:6px}
.pass{background:#15803d}.fail{background:#b91c1c}.error{background:#57534e}.unknown{background:#71717a}
.r-pass{background:#bbf7d0}.r-contradiction{background:#f87171}.r-ambiguity{background:#fbbf24}
.r-broken{background:#fb923c}.r-unknown{background:#d4d4d8}.r-error{background:#a8a29e}
.boards{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:6px;break-inside:avoid}
figcaption{font-weight:600;color:#44403c;margin-bottom:4px}
svg text{font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
svg .name{font-size:12px;font-weight:600;fill:#1c1917}svg .whose{font-size:11px;fill:#44403c}
svg .label{font-size:11px;fill:#78716c}svg .numbers{font-size:10.5px;fill:#1c1917}svg .panel{font-size:12px;font-weight:600}
table{border-collapse:collapse;margin:4px 0}
th,td{border:1px solid var(--line);padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f5f5f4}
td.ok{color:#15803d;font-weight:600}td.bad{color:#b91c1c;font-weight:600}
.rules dt{font-family:ui-monospace,monospace;font-weight:600}.rules dd{margin:0 0 4px 18px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}
ol.trace>li{margin-bottom:4px}ol.trace ul{margin:2px 0;padding-left:18px}
ol.play{background:#fff7ed;border-left:3px solid #fb923c;padding:6px 10px 6px 30px}
pre{white-space:pre-wrap;background:#f5f5f4;padding:6px;border-radius:4px}
table.heat{border-collapse:collapse}table.heat td,table.heat th{border:1px solid #fff;padding:0;text-align:center}
table.heat td{width:24px;height:24px}table.heat td a{display:block;width:100%;height:100%;line-height:24px;
 color:#1c1917;text-decoration:none;font-weight:600;font-size:12px}
table.heat th.row{text-align:right;padding-right:6px;font-weight:500}
table.heat th.col{writing-mode:vertical-rl;transform:rotate(180deg);padding:4px 0;font-weight:500;height:110px}
.legend span{display:inline-block;padding:1px 8px;margin-right:6px;border-radius:4px}
.muted{color:var(--soft)}
@media print{
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 header{background:none;color:#000;border-bottom:2px solid #000;padding:4px 0}
 main{padding:0}nav{display:none}a{color:inherit;text-decoration:none}
 section{break-before:auto;break-inside:auto}figure,table,ol.play{break-inside:avoid}
 h2,h3{break-after:avoid}
}
"""


def page(title: str, summary: str, body: str) -> str:
    """The whole document."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)}</title><style>{CSS}</style></head>\n<body><header><h1>{escape(title)}</h1>'
            f'<div>{summary}</div></header>\n<main>{body}</main></body></html>\n')


def badge(status: str) -> str:
    """A coloured status label."""
    return f'<span class="badge {escape(status)}">{escape(status.upper())}</span>'


def _rule_id(item: str) -> str | None:
    """The rule id of a core item ('rule berserk.524.2' or a bare id); None for a fact."""
    if item.startswith("fact "):
        return None
    return item[len("rule "):] if item.startswith("rule ") else item


def rule_texts(game: str | None, ids: list[str]) -> str:
    """The texts of the rules named, as a definition list."""
    known = rulebook.rules(game) if game else {}
    items = "".join(f"<dt>{escape(r)}</dt><dd>{escape(known.get(rulebook.canonical(game, r), '') if game else '')}</dd>"
                    for r in sorted(set(ids)))
    return f'<dl class="rules">{items}</dl>' if items else ""


def _cited(rec: dict) -> list[str]:
    """Every rule id behind a verdict, an action or the contradiction."""
    out = [r for e in rec.get("expectations") or [] for r in e.get("rules") or []]
    out += [r for a in rec.get("actions") or [] for r in a.get("rules") or []]
    out += [r for r in map(_rule_id, rec.get("contradiction") or []) if r]
    return out


def verdicts(rec: dict) -> str:
    """The expectations: what was expected, the verdict, and the rules and facts behind it."""
    rows = []
    for e in rec.get("expectations") or []:
        ok = "ok" if e.get("passed") else "bad"
        why = _split_rules(e)
        facts = ", ".join(e.get("facts") or [])
        note = " ".join(x for x in (e.get("message") or "", f"(no core: {e['no_core']})" if e.get("no_core") else "")
                        if x)
        rows.append(f'<tr><td>{e.get("line") or ""}</td><td>{escape(e.get("description") or "")}</td>'
                    f'<td>{escape(str(e.get("expected")))}</td><td class="{ok}">{escape(str(e.get("verdict")))}</td>'
                    f'<td class="mono">{why}{"<br>facts: " + escape(facts) if facts else ""}</td>'
                    f'<td>{escape(note)}</td></tr>')
    if not rows:
        return ""
    return ('<h3>Verdicts</h3><table class="verdicts"><tr><th>line</th><th>expectation</th><th>expected</th>'
            '<th>verdict</th><th>rules behind it (decided by / also needed)</th><th>note</th></tr>' + "".join(rows) + "</table>")


def _split_rules(e: dict) -> str:
    """A verdict's core as HTML: the deciding rules (but-for), then the rest of the core, labelled."""
    if not e.get("rules"):
        return ""
    decided = ", ".join(e.get("decided_by") or []) or "-"
    also = ", ".join(e.get("also_needed") or []) or "-"
    return (f'<span class="muted">decided by</span> {escape(decided)}<br>'
            f'<span class="muted">also needed</span> {escape(also)}')


def actions(rec: dict) -> str:
    """What became of each declared action, and the rules that decided it."""
    items = [f'<li><code>{escape(a["id"])}</code>: {escape(", ".join(a.get("statuses") or []) or "-")}'
             + (f' <span class="muted">because</span> <code>{escape(", ".join(a["rules"]))}</code>'
                if a.get("rules") else "") + "</li>" for a in rec.get("actions") or []]
    return "<h3>Actions</h3><ul>" + "".join(items) + "</ul>" if items else ""


def trace(outcome: dict) -> str:
    """An outcome's step trace: per event, the rules that fired on which objects, and precedence."""
    steps = outcome.get("steps") or []
    if not steps:
        return ""
    items = []
    for st in steps:
        head = "initial state" if st["event"] == 0 else f'after event {st["event"]} ({st["label"]})'
        lines = [escape(f) for f in st.get("fired") or []] + [f"precedence: {escape(p)}" for p in
                                                                  st.get("precedence") or []]
        body = "<ul>" + "".join(f'<li class="mono">{x}</li>' for x in lines) + "</ul>" if lines else \
            ("" if st["event"] == 0 else ' <span class="muted">no rule changed anything</span>')
        items.append(f"<li><strong>{escape(head)}</strong>{body}</li>")
    return f'<h3>Step trace (outcome {outcome.get("index", 0)})</h3><ol class="trace">' + "".join(items) + "</ol>"


def _decided_by(item: dict) -> str:
    """How a proof or a claim was decided (its proof, its refutation, or why it is unknown and the work used)."""
    how = item.get("decided_by") or ""
    if not how:
        return ""
    label = {"proved": "proved by", "refuted": "refuted by", "unknown": "unknown", "mixed": "per position"}.get(
        item.get("verdict"), "decided by")
    return f'<p class="decided"><span class="muted">{escape(label)}:</span> {escape(how)}</p>'


def proofs(rec: dict) -> str:
    """The victory proofs the rules read (a decisive advantage asked at a victory check): the verdict with how it
    was decided, the certificate, or a refutation's line of play; an unknown proof is labelled unknown, with the
    work it used (never drawn as a contradiction)."""
    out = []
    for p in rec.get("proofs") or []:
        verdict = p.get("verdict") or "unknown"
        cls = {"proved": "pass", "refuted": "fail"}.get(verdict, "unknown")
        out.append(f'<div class="proof"><p>{badge(cls) if cls == "unknown" else ""}<strong>{escape(p["kind"])}'
                   f'</strong> of <code>{escape(p["player"])}</code> at event {p.get("event")}: '
                   f'<span class="verdict-{escape(verdict)}">{escape(verdict)}</span> '
                   f'<span class="muted">({p.get("positions", 0)} position(s); fact <code>{escape(p["fact"])}</code>)'
                   f'</span></p>')
        out.append(_decided_by(p))
        if p.get("message"):
            out.append(f'<p class="muted">{escape(p["message"])}</p>')
        if p.get("counterexample"):
            out.append(f'<div class="muted">{"refuted: a line of play" if verdict == "refuted" else "why not"}</div>'
                       '<ol class="play">' + "".join(f"<li>{escape(x)}</li>" for x in p["counterexample"]) + "</ol>")
        if p.get("certificate"):
            out.append('<div class="muted">certificate</div><ul>'
                       + "".join(f'<li class="mono">{escape(x)}</li>' for x in p["certificate"]) + "</ul>")
        out.append("</div>")
    return "<h3>Victory proofs</h3>" + "".join(out) if out else ""


def claims(rec: dict) -> str:
    """Victory claims; a refuted one shows its counterexample as a line of play."""
    out = []
    for c in rec.get("claims") or []:
        ok = "ok" if c.get("passed") else "bad"
        out.append(f'<p><strong>{escape(c["kind"])}</strong> for <code>{escape(c["player"])}</code>: '
                   f'<span class="{ok}">{escape(c["verdict"])}</span> (expected {escape(c["expected"])})</p>')
        out.append(_decided_by(c))
        if c.get("message") and not c.get("passed"):
            out.append(f'<p class="muted">{escape(c["message"])}</p>')
        if c.get("counterexample"):
            out.append('<div class="muted">refuted: a line of play</div><ol class="play">'
                       + "".join(f"<li>{escape(x)}</li>" for x in c["counterexample"]) + "</ol>")
        if c.get("certificate"):
            out.append('<div class="muted">certificate</div><ul>'
                       + "".join(f'<li class="mono">{escape(x)}</li>' for x in c["certificate"]) + "</ul>")
    return "<h3>Claims</h3>" + "".join(out) if out else ""


def outcomes_line(rec: dict) -> str:
    """How many outcomes, and whether the rules decide one."""
    outs = rec.get("outcomes") or []
    if rec.get("status") == "error":
        return ""
    if not outs and rec.get("status") == "unknown":
        why = rec.get("error") or "the work budget ran out before the outcomes were found"
        return (f'<p class="outcomes-unknown">{badge("unknown")}<strong>Outcomes unknown</strong>: {escape(why)}. '
                f'This is no contradiction: the search stopped before it found an outcome.</p>')
    if not outs:
        return "<p><strong>No legal outcome</strong>: the rules cannot all be satisfied.</p>"
    more = "" if rec.get("outcomes_complete", True) else "+"
    return f"<p>{len(outs)}{more} outcome(s){' (unique)' if rec.get('unique') else ''}.</p>"


def contradiction(rec: dict) -> str:
    """The core of rules and facts behind a contradiction."""
    core = rec.get("contradiction") or []
    if not core:
        return ""
    return '<h3>Contradiction: minimal core</h3><p class="mono">' + escape(", ".join(core)) + "</p>"


def open_orders(rec: dict) -> str:
    """Effects of cards that entered together whose order is open: why, and that every order is an outcome."""
    notes = rec.get("open_orders") or []
    if not notes:
        return ""
    return "<h3>Open orders</h3><ul>" + "".join(f'<li class="mono">{escape(n)}</li>' for n in notes) + "</ul>"


def scenario_section(anchor: str, rec: dict, boards_html: str, heading: str | None = None, extra: str = "") -> str:
    """One scenario (or combination): everything the report shows about it."""
    title = heading or escape(rec.get("path") or "")
    sub = f' <span class="muted">[{escape(rec["id"])}]</span>' if rec.get("id") else ""
    parts = [f'<section id="{escape(anchor)}"><h2>{badge(rec.get("status", "error"))}{title}{sub}</h2>']
    if rec.get("title"):
        parts.append(f"<p>{escape(rec['title'])}</p>")
    parts.append(extra)
    if rec.get("error"):
        parts.append(f"<pre>{escape(rec['error'])}</pre>")
    parts.append(outcomes_line(rec))
    if boards_html:
        parts.append(f'<div class="boards">{boards_html}</div>')
    parts += [contradiction(rec), open_orders(rec), verdicts(rec), actions(rec), proofs(rec), claims(rec)]
    cited = _cited(rec)
    if cited:
        parts.append("<h3>The rules named</h3>" + rule_texts(rec.get("game"), cited))
    for o in (rec.get("outcomes") or [])[:1]:
        parts.append(trace(o))
    parts.append("</section>")
    return "\n".join(p for p in parts if p)


def figure(caption: str, svg: str) -> str:
    """A board with its caption."""
    return f"<figure><figcaption>{escape(caption)}</figcaption>{svg}</figure>"


def summary_counts(counts: dict[str, Any]) -> str:
    """'3 pass, 1 fail ...' as badges."""
    return " ".join(f"{badge(k)}{v}" for k, v in counts.items() if v)
