"""Same answers on both paths: the library and generated scenarios checked by the baseline and by the default path.

``python -m solver.bench.paths [--generated N] [--random N] [--seed S] [--library DIR]`` checks every scenario twice,
with ``SolverOptions.baseline()`` (every key a variable, a core for every excluded verdict and action, one deletion
per core member, CP-SAT's default settings outside core searches) and with the defaults (slicing, cores only when
asked, deletion by blocks, lean settings), and compares what must not depend on the path: outcome sets, verdicts, passes, failure
messages, action statuses, claims. With every core computed (``why``), the cores shown with slicing and deletion by
blocks are compared with those of the full model and one deletion per member. Scenarios: the library, N generated
Berserk scenarios of 10 objects (half with the expectations that need cores) and N random small scenarios of every
game (the differential tests' generator). Prints the counts and each disagreement; exit 1 if any.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from models.loader import find_scenarios, load_scenario
from models.scenario import Scenario
from solver.engine.settings import SolverOptions
from solver.run.single import check_scenario

#: what an error result says when the checker itself failed (never an agreement between the paths)
INTERNAL = "internal error"


def answers(sc: Scenario, opts: SolverOptions, why: bool = False) -> tuple:
    """What must not depend on the path taken: outcome sets, verdicts, passes, messages, statuses, claims (a scenario
    refused with a located error: its message)."""
    res = check_scenario(sc, opts, why=why)
    traces = sorted(tuple(tuple(sorted(st.items())) for st in o.trace) for o in res.outcomes)
    return (res.status.value, res.error, res.outcomes_complete, res.unique, traces,
            [(e.verdict.value, e.passed, e.because_at, e.message) for e in res.expectations],
            [(a.id, a.statuses) for a in res.actions], [(c.verdict, c.passed) for c in res.claims])


def cores(sc: Scenario, opts: SolverOptions) -> tuple:
    """Every core shown with ``why``: expectation rules and facts, action rules, the contradiction."""
    res = check_scenario(sc, opts, why=True)
    return (res.error, [(e.rules, e.facts) for e in res.expectations], [(a.id, a.rules) for a in res.actions], res.contradiction)


def compare(sc: Scenario) -> list[str]:
    """The disagreements between the paths on one scenario (empty: none)."""
    out = []
    before, after = answers(sc, SolverOptions.baseline()), answers(sc, SolverOptions())
    if any(INTERNAL in (a[1] or "") for a in (before, after)):
        out.append(f"the checker failed: {before[1] if INTERNAL in (before[1] or '') else after[1]}")
    if before != after:
        out.append("answers differ (baseline vs default)")
    if cores(sc, SolverOptions()) != cores(sc, replace(SolverOptions(), slicing=False, block_deletion=False)):
        out.append("cores differ (slicing and deletion by blocks vs the full model and one deletion per member)")
    return out


def scenarios(library: Path, generated: int, rand: int, seed: int, tmp: Path) -> list[tuple[str, Scenario]]:
    """(name, scenario) of the library, the generated Berserk scenarios and the random ones."""
    from solver.bench.generate import generate
    from solver.reference.generate import random_doc
    from solver.registry import names

    out = [(str(p), load_scenario(p).scenario) for p in find_scenarios([library])] if library.exists() else []
    half = generated // 2
    for cores_, n in ((False, generated - half), (True, half)):
        out += [(p.name, load_scenario(p).scenario) for p in generate(tmp / str(cores_), n, 10, seed=seed, cores=cores_)]
    rng, games = random.Random(seed), names()
    out += [(f"random {games[i % len(games)]} #{i}", Scenario.model_validate(random_doc(rng, games[i % len(games)], i)))
            for i in range(rand)]
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the counts."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.paths", description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=2000)
    ap.add_argument("--random", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--library", type=Path, default=Path("scenarios"))
    args = ap.parse_args(argv)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="arbiter-paths-") as tmp:
        todo = scenarios(args.library, args.generated, args.random, args.seed, Path(tmp))
        for i, (name, sc) in enumerate(todo, 1):
            for problem in compare(sc):
                bad += 1
                print(f"{name}: {problem}", flush=True)
            if i % 250 == 0:
                print(f"... {i} of {len(todo)} compared, {bad} disagreements so far", flush=True)
    print(f"compared {len(todo)} scenarios on both paths: {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
