"""``arbiter report``: one self-contained HTML file, checked as HTML and rendered in a real browser.

The browser test renders a check's report and a sweep's report with headless Chromium (Debian's ``chromium``,
installed by ``.ci/run``): the screenshot is not blank and shows the heat map's colours, and the SVG boards hold
the expected numbers of cells and cards, read back from the DOM the browser built (``--dump-dom``). With
``ARBITER_WRITE_SCREENSHOT=1`` it also writes the screenshot the README shows (``docs/report.png``).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from tests.pngread import colours

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "scenarios"
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"
SCREENSHOT = ROOT / "docs" / "report.png"
runner = CliRunner()

#: scenario -> (cells, cards) of each board drawn: before, then after each outcome (at most two)
CHECKED = {
    "berserk/conservation-5-undeclared-choice.yaml": [(3, 3), (3, 3), (3, 3)],
    "mtg/800.4a-mind-control-alex-leaves.yaml": [(0, 2), (0, 2)],
    "berserk/602.1-decisive-advantage-refuted-weak-strike.yaml": [(0, 3), (0, 3)],
}


def report(tmp_path: Path, *args) -> tuple[Path, str]:
    """Run ``arbiter report`` in-process; the file written and its text."""
    out = tmp_path / "report.html"
    r = runner.invoke(app, ["report", *map(str, args), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.stdout + r.stderr
    return out, out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> tuple[Path, str]:
    """The report of three library scenarios."""
    return report(tmp_path_factory.mktemp("check"), *(LIB / rel for rel in CHECKED))


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> tuple[Path, str]:
    """The report of the example sweep."""
    return report(tmp_path_factory.mktemp("sweep"), "--template", os.path.relpath(TEMPLATE))


# -- the HTML -----------------------------------------------------------------------------------------------------------
class Boards(HTMLParser):
    """Counts, per SVG board, its cells and its cards; and the heat map's cells by result."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[dict] = []
        self.heat: list[str] = []
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "svg" and "board" in classes:
            self.boards.append({"caption": a.get("data-board"), "cells": 0, "cards": 0,
                                "says": (int(a["data-cells"]), int(a["data-cards"]))})
        elif tag == "rect" and "cell" in classes:
            self.boards[-1]["cells"] += 1
        elif tag == "g" and "card" in classes:
            self.boards[-1]["cards"] += 1
        elif tag == "td" and a.get("data-result"):
            self.heat.append(a["data-result"])
        elif tag == "a" and (a.get("href") or "").startswith("#"):
            self.links.append(a["href"][1:])


def parse(html: str) -> Boards:
    """The boards, heat map and links of a page."""
    p = Boards()
    p.feed(html)
    return p


def test_a_check_report_draws_each_scenarios_boards(checked):
    """Before and after each outcome: the board's cells (a Berserk grid) and every card, in each scenario's section."""
    found = [(b["cells"], b["cards"]) for b in parse(checked[1]).boards]
    assert found == [x for rel in sorted(CHECKED) for x in CHECKED[rel]]


def test_a_report_is_self_contained_and_prints(checked, swept):
    """No script, no external asset (only the SVG namespace names a URL), a print style sheet, anchors that exist."""
    for _, html in (checked, swept):
        assert "<script" not in html.lower() and "<link" not in html.lower() and " src=" not in html
        assert set(re.findall(r"https?://[^\"' )]+", html)) <= {"http://www.w3.org/2000/svg"}
        assert "@media print" in html
        p = parse(html)
        assert p.links and set(p.links) <= p.ids


def test_a_report_shows_cores_with_rule_texts_and_a_refuted_claim_as_a_line_of_play(checked):
    """The rules behind a verdict are named with their texts; a refuted decisive advantage is a line of play."""
    html = checked[1]
    assert "<dt>berserk.conservation</dt><dd>Two cards (not symbiotes or equipment) on one cell" in html
    play = re.search(r'<ol class="play">(.*?)</ol>', html, re.S).group(1)
    assert "plan of bob, round 1: goblin -&gt; kornevik (die 1, weak: strike 2, 2 damage)" in play
    assert '<ol class="trace">' in html and "berserk.conservation: runner must_move false -&gt; true" in html


def test_a_sweep_report_links_every_heat_map_cell_to_its_combination(swept):
    """The matrix coloured by result: each pair twice (its two cells), each linking to its combination's section."""
    p = parse(swept[1])
    assert sorted(p.heat) == sorted(["contradiction"] * 2 + ["ambiguity"] * 2 + ["broken"] * 2 + ["pass"] * 36)
    assert {f"c-{i}" for i in range(21)} <= p.ids
    assert 'class="r-contradiction" data-result="contradiction" title="enchantress + wood_elf: contradiction"' \
        in swept[1]


def test_what_a_scenario_says_is_escaped(tmp_path):
    """A title with markup is shown as text, never run."""
    src = (LIB / "berserk/524.2-archmage-joker.yaml").read_text(encoding="utf-8")
    path = tmp_path / "scenarios" / "x.yaml"
    path.parent.mkdir()
    path.write_text(src.replace('title: "524.2:', 'title: "<script>alert(1)</script> 524.2:'), encoding="utf-8")
    _, html = report(tmp_path, path, "--cards", ROOT / "cards" / "berserk")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


#: a victory check on a position whose proof a small work budget cannot settle
UNSETTLED = """id: victory-unknown
game: berserk
title: "a decisive advantage the work budget cannot settle"
players: [{id: alice}, {id: bob}]
turn: {active_player: alice}
objects:
""" + "".join(f"  - {{id: {p}{i}, owner: {who}, zone: play, types: [creature], attributes: {{life: 9}}, "
              f"properties: {{strike: \"1-2-3\"}}}}\n" for p, who in (("a", "alice"), ("b", "bob")) for i in (1, 2, 3)) + """\
events:
  - {type: check_victory, decisive_advantage: [alice]}
expect:
  - {winner: alice, verdict: impossible}
"""


def test_a_victory_unknown_is_labelled_unknown_never_a_contradiction(tmp_path):
    """With a budget too small for the proof, the proof and the outcomes are unknown: the report labels them
    unknown, with the work used, never "No legal outcome: the rules cannot all be satisfied"; with the default
    budget the proof decides and the report names how (a refutation by a line of play)."""
    path = tmp_path / "scenarios" / "u.yaml"
    path.parent.mkdir()
    path.write_text(UNSETTLED, encoding="utf-8")
    (tmp_path / "small").mkdir()
    (tmp_path / "full").mkdir()
    _, html = report(tmp_path / "small", path, "--timeout", "0.05")
    section = html[html.index("<section id="):]
    assert "Outcomes unknown" in section and "No legal outcome" not in section
    assert "cannot all be satisfied" not in section
    proof = section[section.index("<h3>Victory proofs</h3>"):]
    assert 'class="verdict-unknown">unknown<' in proof and "units spent" in proof
    _, full = report(tmp_path / "full", path)
    done = full[full.index("<h3>Victory proofs</h3>"):]
    assert "refuted by a line of play" in done and 'class="verdict-refuted"' in done
    assert "No legal outcome" not in full and "Outcomes unknown" not in full


# -- a real browser --------------------------------------------------------------------------------------------------
def chromium() -> str:
    """The headless browser (Debian's chromium); skipped where it is missing unless ARBITER_REQUIRE_BROWSER is set
    (.ci/run installs it and sets it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("ARBITER_REQUIRE_BROWSER"):
            pytest.fail("chromium is required (ARBITER_REQUIRE_BROWSER) but not installed: apt-get install chromium")
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run installs it)")
    return found


def browse(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    """Run headless Chromium on a local file (no network, no sandbox: CI runs as root)."""
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}", *args,
           page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)  # hang guard only


def test_chromium_builds_the_boards_the_report_draws(checked, swept, tmp_path):
    """The DOM Chromium builds from the report holds each board's cells and cards, and the heat map's cells."""
    dom = browse(checked[0], tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    boards = parse(dom.stdout).boards
    assert [(b["cells"], b["cards"]) for b in boards] == [x for rel in sorted(CHECKED) for x in CHECKED[rel]]
    assert all((b["cells"], b["cards"]) == b["says"] for b in boards)
    swept_dom = parse(browse(swept[0], tmp_path / "profile", "--dump-dom").stdout)
    assert len(swept_dom.heat) == 42 and swept_dom.heat.count("contradiction") == 2
    combination_boards = [(b["cells"], b["cards"]) for b in swept_dom.boards]
    assert combination_boards.count((3, 2)) == len(combination_boards) == 21 + 20 + 1  # before; after (twice for one)


def test_chromium_screenshot_of_a_sweep_report_is_not_blank(swept, tmp_path):
    """The page renders: many colours, no single one covering almost everything, and the heat map's contradiction
    and ambiguity colours on screen."""
    shot = tmp_path / "report.png"
    r = browse(swept[0], tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,1500")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    seen = colours(shot)
    total = sum(seen.values())
    assert len(seen) > 50 and seen.most_common(1)[0][1] < 0.97 * total
    assert seen[(248, 113, 113)] > 100 and seen[(251, 191, 36)] > 100  # .r-contradiction, .r-ambiguity
    if os.environ.get("ARBITER_WRITE_SCREENSHOT"):
        SCREENSHOT.write_bytes(shot.read_bytes())


def test_each_card_shows_its_numbers_on_the_boards(checked):
    """Life, strike and protection of every card, as the scenario gives them, on the board before (and after)."""
    import yaml

    _, html = checked
    rel = "berserk/602.1-decisive-advantage-refuted-weak-strike.yaml"
    sc = yaml.safe_load((LIB / rel).read_text(encoding="utf-8"))
    shown = dict(re.findall(r'data-card="([^"]+)"[^>]*data-numbers="([^"]*)"', html))
    short = {"protection_nonmagical": "prot", "protection_magical": "mprot"}
    cards = {c["id"]: c for c in yaml.safe_load((ROOT / "cards" / "berserk" / "creatures.yaml").read_text(
        encoding="utf-8"))["cards"]}
    for o in sc["objects"]:
        card = cards.get(o.get("card"), {})  # a placed card's numbers come from its definition
        numbers = {**(card.get("attributes") or {}), **(card.get("properties") or {}),
                   **(o.get("attributes") or {}), **(o.get("properties") or {})}
        assert numbers and o["id"] in shown
        for name, value in numbers.items():
            assert f"{short.get(name, name)} {value}" in shown[o["id"]].split(" · "), (o["id"], name)


def test_an_open_order_is_shown_with_its_reason(tmp_path):
    """Cards that entered together: the report says their order is open and which rule (if any) gives it."""
    path = tmp_path / "scenarios" / "together.yaml"
    path.parent.mkdir()
    path.write_text((LIB / "mtg/613.7m-entered-together-active-player-orders.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    _, html = report(tmp_path, path)
    assert "<h3>Open orders</h3>" in html and "mtg.613.7m" in html and "every order is an outcome" in html
