"""Soak: compare the checker with the independent reference on many random scenarios.

Run it as ``python -m solver.bench.soak --game berserk --count 10000`` (or wire
``soak_command`` into the CLI as ``arbiter soak``). It prints how many scenarios
were compared and how many disagreed; each disagreeing scenario is written as YAML
to ``--keep DIR`` so it can be replayed with ``arbiter explain``. Exit 0 when
nothing disagreed, 1 otherwise.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from solver.reference import Unsupported
from solver.registry import names
from solver.reference.brute import TooLarge
from solver.reference.generate import random_doc


@dataclass
class SoakReport:
    """Counts of one soak run."""

    game: str
    compared: int = 0
    disagreed: int = 0
    skipped: int = 0
    solver_outcomes: int = 0
    verdicts: int = 0
    no_outcome: int = 0
    several_outcomes: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    uses: dict[str, int] = field(default_factory=dict)  # mechanic -> compared scenarios using it

    def mechanics_line(self) -> str:
        """How many compared scenarios used each mechanic (most used first, then by name)."""
        ranked = sorted(self.uses.items(), key=lambda kv: (-kv[1], kv[0]))
        return f"{self.game} mechanics: " + ", ".join(f"{k} {v}" for k, v in ranked)

    def line(self) -> str:
        """The one-line summary."""
        return (f"{self.game}: compared {self.compared}, disagreed {self.disagreed}, skipped {self.skipped} "
                f"({self.solver_outcomes} outcomes: {self.no_outcome} scenarios with none, {self.several_outcomes} "
                f"with several; {self.verdicts} verdicts; {self.seconds:.1f} s)")


def mechanics(doc: dict) -> set[str]:
    """The mechanics a scenario document uses: its event types, instruction and action kinds, storm copies, flags,
    abilities, ability-changing effects and the zones its objects start in (beyond the battlefield)."""
    out: set[str] = set()
    for ev in doc.get("events", []):
        out.add(f"event:{ev.get('type')}")
        if ev.get("kind"):
            out.add(f"action:{ev['kind']}")
        for part in ev.get("instructions") or []:
            out.add(f"instruction:{part.get('kind')}" + (f"/each {part['each']}" if part.get("each") else ""))
            if (part.get("params") or {}).get("per"):
                out.add(f"per:{part['params']['per']}")
        if ev.get("storm"):
            out.add("storm copy")
        if ev.get("tapped"):
            out.add("enters tapped")
    for o in doc.get("objects", []):
        for flag, on in (o.get("flags") or {}).items():
            out.add(f"flag:{flag}" + ("" if on else " off"))
        for ab in o.get("abilities") or []:
            out.add(f"ability:{ab}")
        for attr in o.get("attributes") or {}:
            if attr == "library_position":
                out.add("attribute:library_position")
        if o.get("zone") not in (None, "battlefield"):
            out.add(f"zone:{o['zone']}")
    for e in doc.get("effects", []):
        if e.get("ability"):
            out.add(f"effect:{e.get('kind')} {e['ability']}")
    return out


def soak(game: str, count: int, seed: int = 0, keep: Path | None = None, verbose: bool = False) -> SoakReport:
    """Generate ``count`` random scenarios of ``game`` from ``seed`` and compare checker and reference on each."""
    from models.scenario import Scenario
    from solver.check.differential import differential

    rep = SoakReport(game)
    t0 = time.perf_counter()
    for i in range(count):
        doc = random_doc(random.Random(f"{seed}:{game}:{i}"), game, i)
        sc = Scenario.model_validate(doc)
        try:
            cmp = differential(sc)
        except (Unsupported, TooLarge) as exc:
            rep.skipped += 1
            if verbose:
                print(f"skip {sc.id}: {exc}", file=sys.stderr)
            continue
        if cmp.skipped and "checker error" in cmp.skipped:
            cmp.agree = False
            cmp.problems.append(cmp.skipped)
        elif cmp.skipped:
            rep.skipped += 1
            continue
        rep.compared += 1
        for m in mechanics(doc):
            rep.uses[m] = rep.uses.get(m, 0) + 1
        rep.solver_outcomes += cmp.solver_outcomes
        rep.verdicts += cmp.verdicts
        rep.no_outcome += cmp.solver_outcomes == 0
        rep.several_outcomes += cmp.solver_outcomes > 1
        if not cmp.agree:
            rep.disagreed += 1
            rep.failures.append(f"{sc.id}: " + "; ".join(cmp.problems))
            if keep:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{sc.id}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        if verbose and (i + 1) % 500 == 0:
            print(f"  {i + 1}/{count}: {rep.disagreed} disagreed", file=sys.stderr)
    rep.seconds = time.perf_counter() - t0
    return rep


def soak_command(games: list[str], count: int, seed: int = 0, keep: Path | None = None,
                 verbose: bool = False) -> int:
    """Run the soak for each game, print the figures and the first disagreements; the exit code."""
    bad = 0
    for game in games:
        rep = soak(game, count, seed, keep, verbose)
        print(rep.line())
        print(rep.mechanics_line())
        for f in rep.failures[:10]:
            print(f"  DISAGREE {f}")
        bad += rep.disagreed
    return 0 if bad == 0 else 1


def main(argv: list[str] | None = None) -> int:
    """``python -m solver.bench.soak``: parse arguments and run."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.soak", description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=names(), help="ruleset (repeatable; default: all covered)")
    ap.add_argument("--count", type=int, default=1000, help="random scenarios per ruleset")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", type=Path, default=None, help="write disagreeing scenarios to this folder")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    return soak_command(args.game or list(names()), args.count, args.seed, args.keep, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
