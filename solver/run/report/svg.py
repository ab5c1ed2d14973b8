"""SVG boards: the cells of a board with the cards on them, and zone panels per player (and shared) for the rest.

Every cell is a ``rect`` of class ``cell`` (``data-cell``), every card a ``g`` of class ``card``
(``data-card``, ``data-owner``, ``data-controller``, ``data-zone``): a test counts them in the DOM a
browser built. A card is filled in its controller's colour and framed in its owner's, and says whose it
is when they differ. Plain SVG 1.1, no script, no external reference.
"""
from __future__ import annotations

from html import escape

from solver.run.report.board import Layout, Piece

#: one colour per player, in turn order (fill, frame)
COLOURS = (("#dbeafe", "#1d4ed8"), ("#fee2e2", "#b91c1c"), ("#dcfce7", "#15803d"), ("#fef3c7", "#b45309"),
           ("#ede9fe", "#6d28d9"), ("#cffafe", "#0e7490"))
NOBODY = ("#f3f4f6", "#6b7280")
CELL_W, CELL_H, CARD_W, CARD_H, GAP = 160, 76, 140, 52, 6
PANEL_W, ZONE_PAD = 168, 8


def _colour(lay: Layout, player: str | None) -> tuple[str, str]:
    if player in lay.players:
        return COLOURS[lay.players.index(player) % len(COLOURS)]
    return NOBODY


def _short(text: str, n: int = 20) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def card(lay: Layout, p: Piece, x: int, y: int) -> str:
    """One card at (x, y): its name, whose it is, and its numbers (life, strike, protection ...)."""
    fill, _ = _colour(lay, p.controller)
    _, frame = _colour(lay, p.owner)
    whose = (p.controller or "nobody") if p.controller == p.owner else \
        f"owner {p.owner or '-'} · ctl {p.controller or '-'}"
    nums = " · ".join(p.numbers)
    return (f'<g class="card" data-card="{escape(p.id)}" data-owner="{escape(p.owner or "")}" '
            f'data-controller="{escape(p.controller or "")}" data-zone="{escape(p.zone)}" '
            f'data-numbers="{escape(nums)}">'
            f'<title>{escape(p.name)} ({escape(p.id)}): {escape(p.zone)}{", " + escape(p.cell) if p.cell else ""}; '
            f'{escape(whose)}{"; " + escape(nums) if nums else ""}</title>'
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" stroke="{frame}" '
            f'stroke-width="2"/>'
            f'<text x="{x + 6}" y="{y + 16}" class="name">{escape(_short(p.name))}</text>'
            f'<text x="{x + 6}" y="{y + 31}" class="whose">{escape(_short(whose, 24))}</text>'
            + (f'<text x="{x + 6}" y="{y + 45}" class="numbers">{escape(_short(nums, 27))}</text>' if nums else "")
            + "</g>")


def _grid(lay: Layout, on_cells: list[Piece]) -> tuple[list[str], int, int]:
    """The cells (a grid, or one row of named cells) with their cards; the parts, width and height."""
    cols = lay.cols or len(lay.cells)
    named = {c: (i // cols, i % cols) for i, c in enumerate(lay.cells)}
    by_cell: dict[str, list[Piece]] = {}
    for p in on_cells:
        by_cell.setdefault(p.cell or "", []).append(p)
    tallest = max([len(v) for v in by_cell.values()] + [1])
    cell_h = max(CELL_H, 24 + tallest * (CARD_H + GAP))
    parts = []
    for c, (r, k) in named.items():
        x, y = 10 + k * (CELL_W + GAP), 10 + r * (cell_h + GAP)
        parts.append(f'<rect class="cell" data-cell="{escape(c)}" x="{x}" y="{y}" width="{CELL_W}" '
                     f'height="{cell_h}" fill="#fafaf9" stroke="#a8a29e"/>'
                     f'<text x="{x + 4}" y="{y + 13}" class="label">{escape(c)}</text>')
        for j, p in enumerate(by_cell.get(c, [])):
            parts.append(card(lay, p, x + 10, y + 20 + j * (CARD_H + GAP)))
    rows = (len(named) + cols - 1) // cols if cols else 0
    return parts, 20 + cols * (CELL_W + GAP), 20 + rows * (cell_h + GAP)


def _panels(lay: Layout, pieces: list[Piece], statuses: dict[str, str], top: int) -> tuple[list[str], int, int]:
    """A column per player (and one shared) of zone boxes holding the cards; the parts, width and height."""
    zones: dict[str | None, dict[str, list[Piece]]] = {}
    for p in pieces:
        zones.setdefault(lay.panel(p), {}).setdefault(p.zone, []).append(p)
    columns = [(p, f"{p} ({statuses.get(p, 'in_game')})") for p in lay.players] + \
        ([(None, "shared zones")] if None in zones else [])
    parts, height = [], 0
    for k, (who, title) in enumerate(columns):
        x, y = 10 + k * (PANEL_W + GAP), top
        fill, frame = _colour(lay, who)
        parts.append(f'<text x="{x}" y="{y + 14}" class="panel" fill="{frame}">{escape(title)}</text>')
        y += 22
        for zone, held in zones.get(who, {}).items():
            h = 22 + len(held) * (CARD_H + GAP) + ZONE_PAD
            parts.append(f'<rect class="zone" data-zone="{escape(zone)}" x="{x}" y="{y}" width="{PANEL_W - 6}" '
                         f'height="{h}" fill="#ffffff" stroke="{frame}" stroke-dasharray="4 3"/>'
                         f'<text x="{x + 5}" y="{y + 15}" class="label">{escape(zone)}</text>')
            for j, p in enumerate(held):
                parts.append(card(lay, p, x + 12, y + 22 + j * (CARD_H + GAP)))
            y += h + GAP
        height = max(height, y - top)
    return parts, 20 + len(columns) * (PANEL_W + GAP), height


def board_svg(lay: Layout, pieces: list[Piece], statuses: dict[str, str], caption: str) -> str:
    """One board: the cells with the cards on them, then the zone panels with every other card."""
    on_cells = [p for p in pieces if p.cell and p.cell in lay.cells]
    elsewhere = [p for p in pieces if p not in on_cells]
    grid, gw, gh = _grid(lay, on_cells) if lay.cells else ([], 0, 0)
    panels, pw, ph = _panels(lay, elsewhere, statuses, gh + 4)
    width, height = max(gw, pw), gh + 4 + ph + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" data-board="{escape(caption)}" '
            f'data-cells="{len(lay.cells)}" data-cards="{len(pieces)}" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(caption)}">'
            + "".join(grid + panels) + "</svg>")
