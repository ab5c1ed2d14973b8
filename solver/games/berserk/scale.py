"""Berserk scenarios of any size for benchmarks, deterministically from a seed (the game's ``scale`` generator).

Each generated Berserk scenario has K creatures; some of them declare
``accumulate_tokens`` under one of three set-ups whose verdict is known from the
rules text, not from running anything:

- ``permit``: an effect permits it -> the action goes on the stack and resolves, one token;
- ``both``: one effect permits and another prohibits it, timestamps in random order ->
  prohibition wins (berserk.524.2), the declaration is illegal, no token;
- ``none``: nothing permits it -> illegal (a source may not accumulate by default), no token.

The expectations state those verdicts (``holds`` and ``impossible``) and uniqueness;
``arbiter check`` then decides them with the solver.
"""
from __future__ import annotations

import random

CASES = ("permit", "both", "none")


def berserk_scenario(index: int, objects: int, rng: random.Random, seed: int, declared: int,
                     cores: bool = False) -> dict:
    """One Berserk scenario with ``objects`` creatures and known-by-construction expectations.

    ``cores`` adds expectations whose verdicts need rule cores (``impossible``, ``because``): more solves.
    """
    players = [{"id": "alice"}, {"id": "bob"}]
    creatures = [{"id": f"c{k}", "owner": ("alice", "bob")[k % 2], "zone": "play", "types": ["creature"],
                  "attributes": {"tokens": 0}} for k in range(objects)]
    chosen = sorted(rng.sample(range(objects), max(1, min(declared, objects))))
    effects, events, expect = [], [], []
    stamp = 0
    for k in chosen:
        case = rng.choice(CASES)
        c, owner = f"c{k}", creatures[k]["owner"]
        if case in ("permit", "both"):
            stamps = [stamp + 1, stamp + 2]
            rng.shuffle(stamps)
            stamp += 2
            effects.append({"id": f"permit_{c}", "timestamp": stamps[0], "kind": "permit",
                            "action": "accumulate_tokens", "targets": [c]})
            if case == "both":
                effects.append({"id": f"prohibit_{c}", "timestamp": stamps[1], "kind": "prohibit",
                                "action": "accumulate_tokens", "targets": [c]})
        events.append({"type": "declare", "id": f"acc_{c}", "actor": owner, "kind": "accumulate_tokens", "source": c})
        expect += _expectations(case, c, cores)
        if case == "permit":
            events.append({"type": "resolve", "action": f"acc_{c}"})
    expect.append({"unique": True})
    return {"id": f"gen-berserk-k{objects}-s{seed}-{index:05d}", "game": "berserk",
            "title": f"generated: {objects} creatures, {len(chosen)} token accumulations (seed {seed})",
            "rules": ["berserk.524.2", "berserk.525.1"], "players": players, "objects": creatures,
            "effects": effects, "events": events, "expect": expect}


def _expectations(case: str, c: str, cores: bool) -> list[dict]:
    """What the rules say about one declared accumulation."""
    if case == "permit":
        out = [{"action": f"acc_{c}", "action_status": "resolved"}, {"object": c, "attributes": {"tokens": 1}}]
        return out + ([{"object": c, "attributes": {"tokens": 0}, "verdict": "impossible"}] if cores else [])
    out = [{"action": f"acc_{c}", "action_status": "illegal"}, {"object": c, "attributes": {"tokens": 0}}]
    if case == "both":
        out.append({"object": c, "allowed": {"accumulate_tokens": False}})
    if cores:
        out.append({"action": f"acc_{c}", "action_status": "on_stack", "verdict": "impossible"})
        if case == "both":
            out[0]["because"] = ["berserk.524.2"]
    return out
