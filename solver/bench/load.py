"""The same report under load as on a quiet machine: ``arbiter check`` beside busy processes, byte for byte.

Run it (it is not part of the default test run; ``tests/test_determinism.py`` does it at a small scale):

    python -m solver.bench.load scenarios/ --busy 8                 # in-process
    python -m solver.bench.load scenarios/ --busy 8 --jobs 2        # two spawned workers
    python -m solver.bench.load scenarios/berserk --busy 4 --timeout 0.05   # a budget that runs out

It runs ``arbiter check PATHS --format json`` (with the given options) once on the machine as it is, then again
while ``--busy`` processes each spin ``while True: pass`` (started here, ended by their id afterwards), and
compares the two reports with every timing field (``seconds``) removed: they must be byte-identical, ``unknown``
included, since every answer depends on the work budget (``solver.engine.budget``), never on seconds. It prints
the wall time of each run, the load average, and ``identical`` or the first difference; exit 0 when identical.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

#: the timing fields of a report (left out of the comparison: they are measurements, never answers)
TIMING = ("seconds",)


def strip_timing(value):
    """A report (parsed JSON) without its timing fields, at any depth."""
    if isinstance(value, dict):
        return {k: strip_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [strip_timing(v) for v in value]
    return value


def check_report(paths: list[str], options: list[str]) -> tuple[bytes, int, float]:
    """The JSON report of ``arbiter check PATHS --format json OPTIONS`` (timing fields removed, re-serialised with
    sorted keys), its exit code and its wall time (measured, reported only)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "solver.cli", "check", *paths, "--format", "json",
                           "--no-progress", *options], capture_output=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1, 2):
        raise RuntimeError(f"arbiter check exited {proc.returncode}: {proc.stderr.decode(errors='replace')}")
    doc = strip_timing(json.loads(proc.stdout))
    return json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8"), proc.returncode, wall


def start_busy(n: int) -> list[subprocess.Popen]:
    """``n`` processes that keep a core busy (``while True: pass``)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop_busy(procs: list[subprocess.Popen]) -> None:
    """End the busy processes started by ``start_busy``, each by its own handle."""
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def first_difference(a: bytes, b: bytes) -> str:
    """Where two reports first differ, with some context."""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at byte {i}: quiet {a[max(0, i - 80):i + 80]!r} / loaded {b[max(0, i - 80):i + 80]!r}"


def compare(paths: list[str], options: list[str], busy: int) -> dict:
    """Quiet run, loaded run, and whether their reports are identical (timing aside)."""
    quiet, code_q, wall_q = check_report(paths, options)
    load_before = os.getloadavg()[0]
    procs = start_busy(busy)
    try:
        time.sleep(1.0)  # let the busy processes take the cores
        loaded, code_l, wall_l = check_report(paths, options)
        load_during = os.getloadavg()[0]
    finally:
        stop_busy(procs)
    return {"identical": quiet == loaded and code_q == code_l, "quiet_wall": wall_q, "loaded_wall": wall_l,
            "exit": (code_q, code_l), "load": (load_before, load_during), "bytes": len(quiet),
            "difference": "" if quiet == loaded else first_difference(quiet, loaded)}


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print it; exit 0 when the reports are identical."""
    ap = argparse.ArgumentParser(prog="python -m solver.bench.load", description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--busy", type=int, default=8, help="busy processes beside the loaded run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=None, help="the work budget per scenario (arbiter check)")
    args = ap.parse_args(argv)
    options = ["--jobs", str(args.jobs)] + (["--timeout", str(args.timeout)] if args.timeout is not None else [])
    r = compare(args.paths, options, args.busy)
    print(f"quiet: {r['quiet_wall']:.1f} s wall; with {args.busy} busy processes: {r['loaded_wall']:.1f} s wall "
          f"(load average {r['load'][0]:.1f} before, {r['load'][1]:.1f} during); exit codes {r['exit'][0]} / "
          f"{r['exit'][1]}; report {r['bytes']} bytes without timing: "
          + ("identical" if r["identical"] else f"DIFFERENT {r['difference']}"))
    return 0 if r["identical"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
