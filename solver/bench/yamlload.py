"""YAML load time per MB: libyaml's C parser and the pure-Python fallback, on the same generated files, one run.

``python -m solver.bench.yamlload`` (or ``python solver/bench/yamlload.py`` with another checkout first on
``PYTHONPATH``, to measure that checkout's loader the same way). Prints, per file: its size, whether it loads or
is refused (and why), and the median wall time of ``load_yaml_text`` with each parser, in ms and ms per MB.
Nothing is asserted: figures go in notes and the README.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

import yaml

import models.yamlsafe as yamlsafe

REPEAT = 5


def scenario_file(objects: int, rich: bool) -> str:
    """A Berserk scenario of ``objects`` creatures in block style, as a designer would write it."""
    rng = random.Random(objects)
    doc = {"id": f"load-{objects}", "game": "berserk", "players": [{"id": "alice"}, {"id": "bob"}], "objects": []}
    for k in range(objects):
        o = {"id": f"c{k}", "name": f"Creature {k} of the northern forest", "owner": ("alice", "bob")[k % 2],
             "zone": "play", "types": ["creature"], "attributes": {"life": rng.randint(1, 9), "tokens": 0}}
        if rich:
            o.update(flags={"open": True}, abilities=["armor", "flying"], properties={"element": "forests"})
        doc["objects"].append(o)
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False, width=120)


def cases() -> list[tuple[str, str]]:
    """(label, YAML text): realistic files up to the size limit, and a node-dense one refused at the node limit."""
    return [
        ("1,000 objects", scenario_file(1000, False)),
        ("5,000 objects (the object limit)", scenario_file(5000, False)),
        ("5,000 rich objects", scenario_file(5000, True)),
        ("2 MB of long strings", "id: long\ngame: core\nplayers: [{id: a}]\ndescription: >\n"
         + "".join(f"  {'x' * 98}\n" for _ in range(19_000))),
        ("2 MB node-dense (refused: node limit)", "id: dense\nitems:\n" + "- 1\n" * 490_000),
    ]


def measure(text: str, pure: bool, repeat: int = REPEAT) -> tuple[float, str]:
    """Median seconds of one load, and what came of it."""
    saved = getattr(yamlsafe, "CParser", None)
    if pure:
        yamlsafe.CParser = None
    try:
        times, outcome = [], ""
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                yamlsafe.load_yaml_text(text, "bench.yaml")
                outcome = "loads"
            except yamlsafe.LoadError as exc:
                outcome = "refused: " + exc.message[:40]
            times.append(time.perf_counter() - start)
        return statistics.median(times), outcome
    finally:
        if pure:
            yamlsafe.CParser = saved


def main() -> None:
    """Print the table."""
    has_c = getattr(yamlsafe, "CParser", None) is not None or getattr(yaml, "__with_libyaml__", False)
    print(f"YAML load, median of {REPEAT} (models.yamlsafe from {yamlsafe.__file__})")
    if not hasattr(yamlsafe, "parser_name"):
        print("this loader has no parser choice: both columns measure its one (pure-Python) parser")
    print(f"{'file':40} {'MB':>5} {'C ms':>7} {'C ms/MB':>8} {'pure ms':>8} {'pure ms/MB':>10}  outcome")
    for label, text in cases():
        mb = len(text.encode()) / 1e6
        c = measure(text, False) if has_c else (float("nan"), "")
        pure = measure(text, True)
        print(f"{label:40} {mb:5.2f} {c[0] * 1e3:7.0f} {c[0] * 1e3 / mb:8.0f} {pure[0] * 1e3:8.0f} "
              f"{pure[0] * 1e3 / mb:10.0f}  {pure[1]}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
