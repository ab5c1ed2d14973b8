"""The sweep benchmark: a 40-card Berserk pool at k = 2 (780 pairs) placed into ``examples/sweep/duel.yaml``.

``python -m solver.bench.sweep`` runs the sweep with ``--jobs 1`` and ``--jobs 2`` and prints the wall
time of each, the pairs per second and the results (which must be the same for both). The pool is
``examples/sweep/bench/pool40.yaml``, written by ``--write`` from the deterministic list below (plain
creatures, symbiotes, elves, heroes, flyers, and cards whose text permits, prohibits, takes control,
sets an alignment or grants an ability). Nothing is asserted; the figures go to the README.
"""
from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATE = ROOT / "examples" / "sweep" / "duel.yaml"
POOL = ROOT / "examples" / "sweep" / "bench" / "pool40.yaml"

#: (id, types, attributes, abilities, effects): what each of the 40 cards is
_KINDS = {
    "plain": (["creature"], {}, []),
    "symbiote": (["creature", "symbiote"], {}, []),
    "elf": (["creature", "elf"], {}, []),
    "elf_symbiote": (["creature", "elf", "symbiote"], {}, []),
    "hero": (["creature", "hero"], {}, []),
    "flyer": (["creature", "symbiote"], {}, ["flying"]),
    "hoarder": (["creature", "symbiote"], {"tokens": 0}, ["accumulate_tokens"]),
}
_EFFECTS = {
    "tutor": [{"id": "lesson", "kind": "permit", "action": "accumulate_tokens",
               "targets": {"types": ["creature"], "controlled_by": "source_opponent"}}],
    "stone": [{"id": "stone", "kind": "prohibit", "action": "accumulate_tokens", "targets": "self"}],
    "charm": [{"id": "charm", "kind": "control", "player": "controller", "targets": {"types": ["elf"]}}],
    "dusk": [{"id": "dusk", "kind": "set", "attribute": "alignment", "value": "dark", "targets": {"types": ["hero"]}}],
    "gift": [{"id": "gift", "kind": "grant", "ability": "accumulate_tokens",
              "targets": {"types": ["creature"], "controlled_by": "source_controller"}}],
    "curse": [{"id": "curse", "kind": "remove", "ability": "accumulate_tokens",
               "targets": {"types": ["creature"], "controlled_by": "source_opponent"}}],
}
#: the pool, in its order: kind, and the text it grants (if any)
_POOL = (["plain"] * 6 + ["symbiote"] * 8 + ["elf", "elf_symbiote", "elf_symbiote"] + ["hero"] * 3 + ["flyer"] * 3
         + ["hoarder"] * 3)
_TEXTS = ["tutor", "tutor", "stone", "stone", "charm", "charm", "dusk", "dusk", "gift", "gift", "curse", "curse",
          "tutor", "stone"]


def pool_document() -> dict:
    """The 40 cards, as a card file (deterministic: the same every time)."""
    cards = []
    for n, kind in enumerate(_POOL):
        types, attributes, abilities = _KINDS[kind]
        cards.append({"id": f"{kind}_{n + 1:02d}", "types": list(types),
                      "attributes": {"life": 1 + n % 5, **attributes}, "properties": {"strike": f"{1 + n % 3}-"
                                                                                     f"{2 + n % 3}-{3 + n % 3}"},
                      **({"abilities": list(abilities)} if abilities else {})})
    for n, text in enumerate(_TEXTS):
        cards.append({"id": f"{text}_{n + 1:02d}", "types": ["creature", "symbiote"] if n % 2 else ["creature"],
                      "attributes": {"life": 2 + n % 3}, "properties": {"strike": "1-2-3"},
                      "effects": [dict(e) for e in _EFFECTS[text]]})
    order = sorted(range(len(cards)), key=lambda i: (i * 17) % len(cards))  # interleave the kinds, deterministically
    return {"game": "berserk", "cards": [cards[i] for i in order]}


#: the 200-card pool's plain kinds: (types, attributes beyond life, abilities), how many of each
_KINDS200 = {
    "plain": (["creature"], {}, [], 34),
    "symbiote": (["creature", "symbiote"], {}, [], 26),
    "elf": (["creature", "elf"], {}, [], 10),
    "elf_symbiote": (["creature", "elf", "symbiote"], {}, [], 8),
    "hero": (["creature", "hero"], {}, [], 14),
    "flyer": (["creature", "symbiote"], {}, ["flying"], 14),
    "hoarder": (["creature", "symbiote"], {"tokens": 0}, ["accumulate_tokens"], 12),
    "guard": (["creature"], {"protection_nonmagical": 2}, [], 16),
    "archer": (["creature"], {"range": 2}, ["ranged"], 12),
    "mage": (["creature", "symbiote"], {"protection_magical": 2}, ["magical_attack"], 14),
}
#: the 200-card pool's interacting texts (a fifth of the pool: 40 cards), five of each
_EFFECTS200 = {**_EFFECTS,
               "ward": [{"id": "ward", "kind": "prohibit", "action": "accumulate_tokens",
                         "targets": {"types": ["creature"], "controlled_by": "source_opponent"}}],
               "mentor": [{"id": "mentor", "kind": "permit", "action": "accumulate_tokens",
                           "targets": {"types": ["creature"], "controlled_by": "source_controller"}}]}
POOL200 = ROOT / "examples" / "sweep" / "bench" / "pool200.yaml"
#: the k = 3 template: the duel with a bystander of Alice's (leaving it out gives examples/sweep/duel.yaml)
TRIO = ROOT / "examples" / "sweep" / "bench" / "trio.yaml"


def pool200_document() -> dict:
    """The 200 cards, as a card file (deterministic): 160 plain cards of ten kinds whose numbers (life, strike,
    protection, range) vary card by card, and 40 whose text permits, prohibits, takes control, sets an alignment or
    grants or removes an ability."""
    cards = []
    n = 0
    for kind, (types, extra, abilities, count) in _KINDS200.items():
        for j in range(count):
            attributes = {"life": 1 + (n * 7) % 6}
            attributes.update({a: v + (n + j) % 3 if a != "tokens" else v for a, v in extra.items()})
            s = (n * 5) % 4
            cards.append({"id": f"{kind}_{j + 1:02d}", "types": list(types), "attributes": attributes,
                          "properties": {"strike": f"{1 + s}-{2 + s}-{3 + s}"},
                          **({"abilities": list(abilities)} if abilities else {})})
            n += 1
    for t, text in enumerate(_EFFECTS200):
        for j in range(5):
            cards.append({"id": f"{text}_{j + 1:02d}", "types": ["creature", "symbiote"] if j % 2 else ["creature"],
                          "attributes": {"life": 1 + (n * 7) % 6},
                          "properties": {"strike": f"{1 + (n % 3)}-{2 + (n % 3)}-{3 + (n % 3)}"},
                          "effects": [dict(e) for e in _EFFECTS200[text]]})
            n += 1
    order = sorted(range(len(cards)), key=lambda i: (i * 17) % len(cards))  # interleave the kinds, deterministically
    return {"game": "berserk", "cards": [cards[i] for i in order]}


def write_pool(path: Path = POOL, doc: dict | None = None, what: str = "40 Berserk cards") -> Path:
    """Write a pool file (YAML, one card per line): the 40-card pool unless ``doc`` is given."""
    import yaml

    doc = doc or pool_document()
    lines = [f"# The sweep benchmark's pool: {what} (written by python -m solver.bench.sweep --write).",
             "game: berserk", "cards:"]
    for card in doc["cards"]:
        flow = yaml.safe_dump(card, default_flow_style=True, width=10_000, allow_unicode=True, sort_keys=False)
        lines.append("  - " + flow.strip())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the spawned workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_once(jobs: int, timeout: float = 60.0) -> tuple[float, float, dict[str, int], list[dict]]:
    """One sweep of the pool: wall seconds, CPU seconds (workers included), the counts by result, the records."""
    from solver.run.sweep import SweepRun, prepare
    from solver.run.sweep.classify import summary

    start, cpu = time.perf_counter(), _cpu()
    run = SweepRun(paths=[], sweep=prepare(TEMPLATE, [POOL]), format="jsonl", quiet=True, jobs=jobs,
                   timeout=timeout, progress=False)
    run.execute()
    wall = time.perf_counter() - start
    return wall, _cpu() - cpu, summary([r["result"] for r in run.records]), run.records


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark: wall time with --jobs 1 and --jobs 2, pairs per second, the results."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.sweep", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="(re)write the pool file first")
    ap.add_argument("--jobs", default="1,2", help="comma-separated worker counts to time, each 1 or more (default 1,2)")
    args = ap.parse_args(argv)
    if args.write or not POOL.exists():
        write_pool()
    print(f"sweep benchmark: {POOL.relative_to(ROOT)} into {TEMPLATE.relative_to(ROOT)}, k = 2; "
          f"{os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.1f}")
    first = None
    for n in (int(x) for x in args.jobs.split(",")):
        wall, cpu, counts, records = run_once(n)
        pairs = counts["total"]
        same = "" if first is None else ("  same results" if [r["result"] for r in records] == first else
                                         "  RESULTS DIFFER")
        first = first or [r["result"] for r in records]
        print(f"--jobs {n}: {pairs} pairs in {wall:.1f} s wall = {pairs / wall:.1f} pairs/s; {cpu:.1f} s CPU "
              f"= {1000 * cpu / pairs:.0f} ms CPU/pair  "
              f"({', '.join(f'{v} {k}' for k, v in counts.items() if k != 'total' and v)}){same}")
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
