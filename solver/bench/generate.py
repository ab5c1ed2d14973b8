"""Write large scenario libraries for benchmarks and soak tests, deterministically from a seed.

A game offers scenarios of any size through its registered ``scale`` generator
(``solver/games/berserk/scale.py``); this writes them to a folder.
"""
from __future__ import annotations

import random
from pathlib import Path

import yaml

from solver.errors import UsageError
from solver.registry import game as game_named, load, registry

#: default number of declared actions per scenario: the same for every size, so time per scenario shows model size
DECLARED = 3


def scalable_games() -> tuple[str, ...]:
    """Games with a scale generator."""
    return tuple(name for name, g in registry().items() if g.scale)


def generate(out: str | Path, count: int, objects: int = 10, game: str = "berserk", seed: int = 0,
             declared: int = DECLARED, cores: bool = False) -> list[Path]:
    """Write ``count`` scenarios of ``objects`` objects to folder ``out``; the same seed writes the same files."""
    if game not in scalable_games():
        raise UsageError(f"no generator for game '{game}' (choose from {', '.join(scalable_games())})")
    if count < 0 or objects < 1 or declared < 1:
        raise UsageError("count must be >= 0, objects and declared >= 1")
    make = load(game_named(game).scale)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"{game}:{objects}:{declared}:{cores}:{seed}")
    paths = []
    for i in range(count):
        doc = make(i, objects, rng, seed, declared, cores)
        p = folder / f"gen-{game}-k{objects}-s{seed}-{i:05d}.yaml"
        p.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
        paths.append(p)
    return paths
