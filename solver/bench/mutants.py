"""The but-for test of ``because`` against its mutants: every supporting rule put in place of a deciding one must fail.

``python -m solver.bench.mutants [PATHS ...]`` (default: ``scenarios/``) checks every library scenario with ``why``;
for every expectation with a passing ``because``, each rule id of the same game that is in that expectation's core
but does not decide it (``also_needed``, minus the ``because`` ids, the sections above or below them, and ids that
head a section: as a ``because`` they name all of it) is a mutant: the scenario with that id
as the whole ``because`` must fail that expectation. Prints the count of mutants and of those caught, and each one
that passed; exit 1 if any passed (or a scenario could not be checked).
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from models.loader import find_scenarios, load_scenario
from solver.check import rulebook
from solver.run.single import check_scenario


@dataclass
class Tally:
    """Mutants tried and caught, and the ones that passed (path, expectation index, rule id)."""

    mutants: int = 0
    caught: int = 0
    #: core rules that turned out to decide the same verdict at an earlier stage (not mutants)
    earlier: int = 0
    escaped: list[tuple[str, int, str]] | None = None


def mutants(path: str) -> list[tuple[int, str]]:
    """(expectation index, supporting rule id) of every mutant of one scenario's passing ``because`` lines."""
    loaded = load_scenario(path)
    sc = loaded.scenario
    res = check_scenario(sc, name=path, why=True)
    known = rulebook.rules(sc.game)
    out = []
    for e in res.expectations:
        because = loaded.scenario.expect[e.index].because
        if e.passed and because:
            out += [(e.index, r) for r in e.also_needed
                    if not any(rulebook.covers(sc.game, b, r) or rulebook.covers(sc.game, r, b) for b in because)
                    and not any(k.startswith(r + ".") for k in known)]  # a section: as a because, all its rules
    return out


def caught(path: str, index: int, rule: str) -> bool | None:
    """Does the scenario with ``because: [rule]`` on expectation ``index`` fail that expectation? None: it passes
    because the rule decides the same verdict at an earlier stage (``because_at``): no supporting rule after all."""
    loaded = load_scenario(path)
    sc = loaded.scenario
    expect = list(sc.expect)
    expect[index] = expect[index].model_copy(update={"because": [rule]})
    res = check_scenario(sc.model_copy(update={"expect": expect}), name=path)
    e = res.expectations[index]
    if e.passed and rule in e.because_at:
        return None
    return not e.passed


def run(paths: list[str]) -> Tally:
    """Every mutant of the scenarios under ``paths``."""
    tally = Tally(escaped=[])
    for path in find_scenarios(paths):
        for index, rule in mutants(str(path)):
            verdict = caught(str(path), index, rule)
            if verdict is None:
                tally.earlier += 1
                continue
            tally.mutants += 1
            if verdict:
                tally.caught += 1
            else:
                tally.escaped.append((str(path), index, rule))
    return tally


def main(argv: list[str] | None = None) -> int:
    """Command line: the tally, and each mutant that passed."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.mutants", description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=["scenarios"])
    args = ap.parse_args(argv)
    tally = run(args.paths)
    for path, index, rule in tally.escaped:
        print(f"ESCAPED {path} expect[{index}] because: [{rule}]")
    print(f"{tally.mutants} mutants, {tally.caught} caught ({tally.earlier} core rules that decide the same verdict "
          f"at an earlier stage left out)")
    return 0 if tally.caught == tally.mutants else 1


if __name__ == "__main__":
    sys.exit(main())
