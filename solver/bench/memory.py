"""Memory benchmarks of big runs: a 16 MB card library checked by 40 scenarios, and sweeps of large pools.

``python -m solver.bench.memory library`` writes (in a temporary folder) a project with a card library of
about 16 MB (ten files of long-text cards) and 40 scenarios each placing one of its cards, runs
``arbiter check`` on it and prints the peak resident memory (``/usr/bin/time``-style maximum RSS of the
command and its workers). ``python -m solver.bench.memory sweep --cards 200 --k 2`` writes an N-card pool
(the kinds of ``solver/bench/sweep.py``, repeated) and a template with k slots, runs ``arbiter sweep``,
stops it after ``--stop`` seconds (SIGTERM, which it treats as Ctrl-C) when given, and prints the peak memory and what
the sweep printed on stderr (its estimate). Nothing is asserted; the figures go to the report.
"""
from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"

#: the third object of a k = 3 template: Alice's second card, beside her first
THIRD = "  - {id: third, card: $3, owner: alice, zone: play, cell: r1c1, timestamp: 3}\n"


def library_project(folder: Path, scenarios: int = 40, files: int = 10, cards: int = 820) -> Path:
    """A project (pyproject.toml at its top) with cards/berserk/ of ``files`` x ``cards`` long-text cards (about
    16 MB) and ``scenarios`` scenarios under scenarios/, each placing one card; the scenarios folder."""
    (folder / "pyproject.toml").write_text("[project]\nname = 'bench'\n", encoding="utf-8")
    lib = folder / "cards" / "berserk"
    lib.mkdir(parents=True)
    text = "x" * 1990
    for f in range(files):
        lines = ["game: berserk", "cards:"]
        lines += [f"  - {{id: c{f}_{n}, types: [creature], attributes: {{life: 3}}, text: \"{text}\"}}"
                  for n in range(cards)]
        (lib / f"set{f}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = folder / "scenarios"
    out.mkdir()
    for s in range(scenarios):
        (out / f"s{s:02d}.yaml").write_text(
            f"id: s{s}\ngame: berserk\nplayers: [{{id: alice}}, {{id: bob}}]\n"
            f"objects:\n  - {{id: k, card: c{s % files}_{s}, owner: alice, zone: play}}\n"
            f"expect:\n  - {{object: k, zone: play}}\n", encoding="utf-8")
    return out


def sweep_project(folder: Path, n: int, k: int) -> Path:
    """A project with an ``n``-card pool at cards/<game>/pool.yaml and a template with ``k`` slots; the template."""
    import yaml

    from solver.bench.sweep import pool_document

    (folder / "pyproject.toml").write_text("[project]\nname = 'bench'\n", encoding="utf-8")
    base = pool_document()["cards"]
    cards = []
    for i in range(n):
        card = dict(base[i % len(base)])
        card["id"] = f"{card['id']}_{i // len(base)}"
        cards.append(card)
    lib = folder / "cards" / "berserk"
    lib.mkdir(parents=True)
    lines = ["game: berserk", "cards:"] + ["  - " + yaml.safe_dump(c, default_flow_style=True, width=10_000,
                                                                   sort_keys=False).strip() for c in cards]
    (lib / "pool.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    text = TEMPLATE.read_text(encoding="utf-8")
    if k == 1:
        text = text.replace("card: $2", "types: [creature]").replace(", timestamp: 2}", "}")
    if k == 3:
        text = text.replace("events:\n", THIRD + "events:\n", 1)
    path = folder / "template.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def measure(cmd: list[str], stop: float | None = None, cwd: Path | None = None) -> tuple[int, float, float, str]:
    """Run a command (stopped with SIGTERM after ``stop`` seconds): exit code, wall seconds, peak RSS in MB of it and
    its children, and its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=cwd)
        try:
            proc.wait(timeout=stop)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)  # arbiter ends on SIGTERM as on Ctrl-C (SIGINT may be ignored in the background)
            proc.wait()
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return proc.returncode, wall, max(peak, before) / 1024, text


def arbiter() -> list[str]:
    """The arbiter command of this interpreter."""
    return [sys.executable, "-c", "from solver.cli import main; main()"]


def main(argv: list[str] | None = None) -> None:
    """Run one memory benchmark and print its figures."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.memory", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    lib = sub.add_parser("library", help="a 16 MB library and 40 scenarios")
    lib.add_argument("--jobs", type=int, default=1)
    sw = sub.add_parser("sweep", help="a sweep of an N-card pool")
    sw.add_argument("--cards", type=int, default=200)
    sw.add_argument("--k", type=int, default=2)
    sw.add_argument("--stop", type=float, default=None, help="stop it (SIGTERM) after this many seconds")
    sw.add_argument("--jobs", type=int, default=1)
    sw.add_argument("--format", default="text")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.what == "library":
            scenarios = library_project(folder)
            size = sum(f.stat().st_size for f in (folder / "cards" / "berserk").iterdir())
            code, wall, peak, err = measure(arbiter() + ["check", str(scenarios), "--jobs", str(args.jobs)])
            print(f"library of {size / 2**20:.1f} MB, 40 scenarios, --jobs {args.jobs}: exit {code}, {wall:.1f} s, "
                  f"peak RSS {peak:.0f} MB")
        else:
            template = sweep_project(folder, args.cards, args.k)
            out = folder / f"out.{args.format}"
            code, wall, peak, err = measure(arbiter() + ["sweep", str(template), "-f", args.format, "-o", str(out),
                                                         "--jobs", str(args.jobs)], stop=args.stop)
            size = out.stat().st_size if out.exists() else 0
            journal = max((p.stat().st_size for p in folder.glob("out.*")), default=0)
            print(f"sweep of {args.cards} cards, k = {args.k}, --jobs {args.jobs}"
                  f"{f', stopped after {args.stop:g} s' if args.stop else ''}: exit {code}, {wall:.1f} s, peak RSS "
                  f"{peak:.0f} MB; report {size / 2**20:.1f} MB, largest output file {journal / 2**20:.1f} MB")
        print("stderr:", err.strip()[-2000:] or "(nothing)")
        os.sync()


if __name__ == "__main__":
    main()
