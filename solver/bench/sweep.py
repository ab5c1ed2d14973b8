"""The sweep benchmark: the 40-card pool exhaustive against fast (k = 2 and 3), and the 200-card pool (k = 2 and 3).

``python -m solver.bench.sweep`` runs, each phase in a fresh process (its CPU, workers included, and its peak
memory its own):

- ``examples/sweep/bench/pool40.yaml`` through ``examples/sweep/duel.yaml`` (k = 2, 780 pairs) and through
  ``examples/sweep/bench/trio.yaml`` (the duel with a bystander: k = 3, 9,880 triples), each exhaustively (every
  combination checked on its own) and by the fast sweep (``solver.run.sweep.fast``), and whether every record is
  the same (a digest per combination of everything but its job's hash);
- ``examples/sweep/bench/pool200.yaml`` the same two ways fast only (19,900 pairs, 1,313,400 triples), with the
  minimal cause of every flagged combination (``solver.run.sweep.cause``).

For each: combinations, wall and CPU seconds, combinations per second per core (per CPU second), peak memory, the
results. ``--random N`` instead compares exhaustive and fast on N random 12-card pools of the 200 at k = 3. The
pools are written by ``--write`` from the deterministic lists below (the 40-card one: plain creatures, symbiotes,
elves, heroes, flyers, and cards whose text permits, prohibits, takes control, sets an element or grants or
removes an ability; the 200-card one: 160 plain cards of ten kinds whose numbers vary card by card, and a fifth that
interacts). Nothing is asserted; the figures go to the README.
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
    "dusk": [{"id": "dusk", "kind": "set", "attribute": "element", "value": "darkness", "targets": {"types": ["hero"]}}],
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
    protection, range) vary card by card, and 40 whose text permits, prohibits, takes control, sets an element or
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


def _peak_mb() -> float:
    """Peak resident memory of this process or of its largest finished child (MB)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return max(me.ru_maxrss, kids.ru_maxrss) / 1024


#: the phases: name -> (template, pool, how)
PHASES = {
    "pool40 k=2 exhaustive": (TEMPLATE, POOL, "exhaustive"),
    "pool40 k=2 fast": (TEMPLATE, POOL, "fast"),
    "pool40 k=3 exhaustive": (TRIO, POOL, "exhaustive"),
    "pool40 k=3 fast": (TRIO, POOL, "fast"),
    "pool200 k=2 fast": (TEMPLATE, POOL200, "fast"),
    "pool200 k=3 fast": (TRIO, POOL200, "fast"),
}


def _digest(rec: dict) -> str:
    """What a combination came to, as a digest: its whole record but its job's own hash and timing."""
    import hashlib
    import json

    body = {k: v for k, v in rec.items() if k not in ("hash", "seconds", "cause")}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def phase(template: Path, pool: Path, how: str, jobs: int, only: list[str] | None = None,
          digests: bool = True) -> dict:
    """Sweep once (exhaustive or fast) in this process: the figures, the counts and each combination's digest."""
    from collections import Counter

    from solver.run.batch import RunOptions, run
    from solver.run.sweep import SweepRun, prepare
    from solver.run.sweep.cause import FLAGGED, causes
    from solver.run.sweep.fast import FastSweep, fast_job

    start, cpu = time.perf_counter(), _cpu()
    sw = prepare(template, [pool], only)
    out: dict = {}
    if how == "exhaustive":
        r = SweepRun(paths=[], sweep=sw, format="jsonl", quiet=True, jobs=jobs, progress=False)
        r.execute()
        results = [x["result"] for x in r.records]
        out["digests"] = [_digest(x) for x in r.records] if digests else []
    else:
        opts = RunOptions()
        fs = FastSweep(sw.template, sw.pool.ids, sw.pool.library, sw.pool.sources, sw.info)
        runner = (lambda js: run(js, opts, jobs, fn=fast_job))
        rep_of = fs.run(runner)
        results = fs.results(rep_of)
        out["checked"], out["rounds"] = fs.stats.checked, fs.stats.rounds
        out["digests"] = [_digest(x) for x in fs.decorated(rep_of)] if digests else []
        swept = time.perf_counter() - start, _cpu() - cpu
        if sw.info.k >= 2:
            flagged = [c for c, res in zip(fs._combos(), results) if res in FLAGGED]
            found = causes(fs, flagged, runner)
            genuine = Counter(found.genuine(c) for c in flagged)
            out["cause"] = {"flagged": len(flagged), "genuine": genuine.get(True, 0),
                            "inherited": genuine.get(False, 0), "undetermined": genuine.get(None, 0),
                            "wall": time.perf_counter() - start - swept[0], "cpu": _cpu() - cpu - swept[1]}
    out.update(combinations=len(results), wall=time.perf_counter() - start, cpu=_cpu() - cpu, peak_mb=_peak_mb(),
               counts=dict(Counter(results)))
    return out


def _child(name: str, jobs: int) -> dict:
    """One phase in a fresh process (``--phase``): its figures as JSON on its stdout."""
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "solver.bench.sweep", "--phase", name, "--jobs", str(jobs)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"phase {name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _line(name: str, f: dict) -> str:
    counts = ", ".join(f"{v} {k}" for k, v in sorted(f["counts"].items()))
    per_core = f["combinations"] / f["cpu"] if f["cpu"] else 0
    extra = f"; {f['checked']} checked in {f['rounds']} round(s)" if "checked" in f else ""
    return (f"{name:22} {f['combinations']:>9,} combinations in {f['wall']:7.1f} s wall, {f['cpu']:7.1f} s CPU = "
            f"{per_core:8.1f} /s per core; peak {f['peak_mb']:.0f} MB{extra}  ({counts})")


def compare_random(n: int, size: int, jobs: int) -> None:
    """Exhaustive against fast on ``n`` random ``size``-card pools of the 200 at k = 3 (each in this process)."""
    import random

    from solver.run.sweep import prepare

    ids = list(prepare(TRIO, [POOL200]).pool.ids)
    total = differ = 0
    cpu = {"exhaustive": 0.0, "fast": 0.0}
    start = time.perf_counter()
    for seed in range(n):
        pick = random.Random(seed).sample(ids, size)
        got = {how: phase(TRIO, POOL200, how, 1, pick) for how in ("exhaustive", "fast")}  # in-process: small
        for how in cpu:
            cpu[how] += got[how]["cpu"]
        total += got["fast"]["combinations"]
        differ += sum(a != b for a, b in zip(got["exhaustive"]["digests"], got["fast"]["digests"]))
    print(f"{n} random {size}-card pools of {POOL200.relative_to(ROOT)} through {TRIO.relative_to(ROOT)}: "
          f"{total:,} triples; {differ} differ between exhaustive and fast; CPU exhaustive {cpu['exhaustive']:.0f} s, "
          f"fast {cpu['fast']:.0f} s; {time.perf_counter() - start:.0f} s wall")


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark (every phase, each in a fresh process), or one phase as JSON (``--phase``)."""
    import json

    ap = argparse.ArgumentParser(prog="python -m solver.bench.sweep", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="(re)write the pool files first")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for every phase (default 2)")
    ap.add_argument("--phase", choices=list(PHASES), help=argparse.SUPPRESS)
    ap.add_argument("--only", default=None, help="comma-separated phases to run (default: all)")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="instead: exhaustive against fast on N random 12-card pools of the 200 at k = 3")
    args = ap.parse_args(argv)
    if args.write or not POOL.exists() or not POOL200.exists():
        write_pool()
        write_pool(POOL200, pool200_document(), "200 Berserk cards, a fifth of them interacting")
    if args.phase:
        template, pool, how = PHASES[args.phase]
        print(json.dumps(phase(template, pool, how, args.jobs, digests=not args.phase.startswith("pool200"))))
        return
    if args.random:
        compare_random(args.random, 12, args.jobs)
        return
    names = [n.strip() for n in args.only.split(",")] if args.only else list(PHASES)
    print(f"sweep benchmark: --jobs {args.jobs}; {os.cpu_count()} cores; load average at start "
          f"{os.getloadavg()[0]:.1f}")
    done: dict[str, dict] = {}
    start = time.perf_counter()
    for name in names:
        f = done[name] = _child(name, args.jobs)
        print(_line(name, f), flush=True)
        if "cause" in f:
            c = f["cause"]
            print(f"{'':22} minimal cause of {c['flagged']:,} flagged: {c['inherited']:,} already flagged with one "
                  f"card fewer, {c['genuine']:,} genuine, {c['undetermined']:,} undetermined "
                  f"({c['wall']:.1f} s wall, {c['cpu']:.1f} s CPU)", flush=True)
        base = name.replace(" fast", " exhaustive")
        if name.endswith(" fast") and base in done:
            same = done[base]["digests"] == f["digests"]
            print(f"{'':22} same records as exhaustive: {'yes' if same else 'NO'}; "
                  f"fast/exhaustive CPU {f['cpu'] / done[base]['cpu']:.2f}", flush=True)
    wall = time.perf_counter() - start
    print(f"all phases: {wall:.0f} s wall; load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
