"""``arbiter report``: one self-contained HTML file for a check or a sweep.

- ``board``: the pieces before and after, and how a game's board is laid out;
- ``svg``: the boards as SVG (cells with cards; zone panels per player, with owners and controllers);
- ``page``: the page, a scenario's section (verdicts, cores with rule texts, step trace, claims) and the CSS
  (screen and print);
- here: a check's report (every scenario) and a sweep's (the heat map, each cell linking to its combination,
  then every combination).
"""
from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any

from models.results import ScenarioStatus
from models.scenario import Scenario
from solver.run.report.board import boards, layout
from solver.run.report.page import badge, figure, page, scenario_section, summary_counts
from solver.run.report.svg import board_svg

__all__ = ["boards_html", "check_report", "sweep_report"]


def boards_html(sc: Scenario | None, rec: dict) -> str:
    """The boards of a scenario (before, after each of the first two outcomes), as figures; '' without a scenario."""
    if sc is None:
        return ""
    lay = layout(sc)
    return "".join(figure(caption, board_svg(lay, pieces, statuses, caption))
                   for caption, pieces, statuses in boards(sc, rec.get("outcomes") or []))


def check_report(items: list[tuple[Scenario | None, dict]], title: str = "Arbiter report") -> str:
    """The report of a check: a list of the scenarios, then each one's section."""
    counts = Counter(rec.get("status", "error") for _, rec in items)
    nav = "".join(f'<li><a href="#s-{i}">{badge(rec.get("status", "error"))}{escape(rec.get("path", ""))}</a></li>'
                  for i, (_, rec) in enumerate(items))
    body = f"<nav><h3>Scenarios</h3><ol>{nav}</ol></nav>" + "\n".join(
        scenario_section(f"s-{i}", rec, boards_html(sc, rec)) for i, (sc, rec) in enumerate(items))
    summary = summary_counts({k: counts.get(k, 0) for k in (s.value for s in ScenarioStatus)}) + \
        f" &middot; {len(items)} scenario(s)"
    return page(title, summary, body)


# -- sweeps ------------------------------------------------------------------------------------------------------
def heatmap(info: Any, records: list[dict]) -> str:
    """The matrix of pairs coloured by result, each cell a link to its combination (other sizes: a list)."""
    from solver.run.sweep.classify import LABELS, RESULTS, SYMBOLS

    legend = '<p class="legend">' + "".join(f'<span class="r-{r}">{SYMBOLS[r]} {LABELS[r]}</span>'
                                            for r in RESULTS) + "</p>"
    if info.k != 2:
        rows = "".join(f'<tr><td class="r-{r["result"]}"><a href="#c-{i}">{SYMBOLS[r["result"]]}</a></td>'
                       f'<td>{escape(" + ".join(r["cards"]))}</td><td>{LABELS[r["result"]]}</td></tr>'
                       for i, r in enumerate(records))
        return legend + f'<table class="heat list">{rows}</table>'
    index = {c: i for i, c in enumerate(info.pool)}
    cell: dict[tuple[int, int], int] = {}
    for k, r in enumerate(records):
        a, b = (index[c] for c in r["cards"])
        cell[a, b] = k
        if not info.ordered:
            cell[b, a] = k
    head = "".join(f'<th class="col" scope="col">{escape(c)}</th>' for c in info.pool)
    rows = []
    for i, c in enumerate(info.pool):
        tds = []
        for j, d in enumerate(info.pool):
            k = cell.get((i, j))
            if k is None:
                tds.append('<td class="none"></td>')
                continue
            r = records[k]["result"]
            tds.append(f'<td class="r-{r}" data-result="{r}" title="{escape(c)} + {escape(d)}: {LABELS[r]}">'
                       f'<a href="#c-{k}">{SYMBOLS[r]}</a></td>')
        rows.append(f'<tr><th class="row" scope="row">{escape(c)}</th>{"".join(tds)}</tr>')
    how = "row: slot $1, column: slot $2" if info.ordered else "each pair in both of its cells"
    return (legend + f'<p class="muted">{how}; a cell links to its combination</p>'
            f'<table class="heat matrix"><tr><th></th>{head}</tr>{"".join(rows)}</table>')


def _combination_scenario(sweep: Any, cards: list[str]) -> Scenario | None:
    """The placed scenario of one combination (None when it cannot be placed: its record says why)."""
    from models.loader import validate_data
    from models.yamlsafe import LoadError, LoadErrors
    from solver.run.sweep.template import fill

    t = sweep.template
    data, linemap = fill(t.name, t.raw, cards, sweep.pool.library)
    try:
        return validate_data(data, linemap, t.name, list(sweep.pool.sources)).scenario
    except (LoadError, LoadErrors):
        return None


def sweep_report(sweep: Any, records: list[dict]) -> str:
    """The report of a sweep: what was swept, the heat map, the combinations that do not pass, then every
    combination's section (boards, verdicts, cores, trace), those that do not pass first."""
    from solver.run.sweep.classify import LABELS, RESULTS, summary

    info = sweep.info
    counts = summary([r["result"] for r in records])
    how = "every order placed" if info.ordered else "each subset once, its cards in pool order"
    intro = (f"<p>Template <code>{escape(info.template)}</code>: {len(info.pool)} cards, {info.k} per combination, "
             f"{counts['total']} combinations ({how}).</p>")
    bad = [(i, r) for i, r in enumerate(records) if r["result"] != "pass"]
    listing = "".join(f'<li><a href="#c-{i}"><span class="badge r-{r["result"]}" style="color:#1c1917">'
                      f'{LABELS[r["result"]]}</span>{escape(" + ".join(r["cards"]))}</a></li>' for i, r in bad)
    body = [intro, "<h2>Heat map</h2>", heatmap(info, records),
            f"<nav><h3>Not passing ({len(bad)})</h3><ol>{listing}</ol></nav>" if bad else ""]
    for i, r in sorted(enumerate(records), key=lambda ir: ir[1]["result"] == "pass"):  # what does not pass first
        extra = f'<p><span class="badge r-{r["result"]}" style="color:#1c1917">{LABELS[r["result"]]}</span></p>'
        if r.get("cause"):  # the fast sweep's minimal cause (solver.run.sweep.cause)
            from solver.run.sweep.formats import cause_line
            extra += f'<p class="cause">cause: {escape(cause_line(r["cause"], info.k))}</p>'
        body.append(scenario_section(f"c-{i}", r, boards_html(_combination_scenario(sweep, r["cards"]), r),
                                     heading=escape(" + ".join(r["cards"])), extra=extra))
    summary_html = " &middot; ".join(f"{counts[x]} {LABELS[x]}" for x in RESULTS if counts[x]) + \
        f" &middot; {counts['total']} combinations"
    return page(f"Arbiter sweep: {info.template}", summary_html, "\n".join(body))
