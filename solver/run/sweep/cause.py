"""The minimal cause of a flagged combination: which of its sub-combinations (one card fewer) is already flagged.

A sub-combination leaves one slot of the template empty: its objects are left out (``fast.fill_partial``), which
the template allows for a slot whose objects nothing else names (``fast.removable_slots``); for the k = 3 bench
template (``examples/sweep/bench/trio.yaml``) leaving out the bystander gives the duel itself. A flagged triple
(contradiction, ambiguity, broken) whose pairs are all passing is a *genuine three-card interaction*; one with a
flagged pair inherits it (the pair is named with its result). Sub-combinations are checked by the fast sweep like
any combination.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from solver.run.batch.jobs import Record
from solver.run.sweep.fast import Combo, FastSweep, removable_slots
from solver.run.sweep.formats import decorate

#: the results that are findings (a cause is looked for)
FLAGGED = ("contradiction", "ambiguity", "broken")


def sub_combinations(combo: Combo, removable: set[int]) -> list[Combo]:
    """The combination with one removable, filled slot left empty, each such slot in turn (none for a single card)."""
    if sum(1 for c in combo if c >= 0) < 2:
        return []
    return [tuple(-1 if i == n - 1 else c for i, c in enumerate(combo))
            for n in sorted(removable) if combo[n - 1] >= 0]


class Causes:
    """The minimal causes of a sweep's flagged combinations, read off the results of their sub-combinations (kept
    per sub-combination only: a cause is made when asked for, so a million flagged triples cost no memory)."""

    def __init__(self, fs: FastSweep, removable: set[int], result_of: dict[Combo, str]) -> None:
        self.fs, self.removable, self.result_of = fs, removable, result_of

    def of(self, combo: Combo) -> dict | None:
        """The cause of one flagged combination: its sub-combinations with their results, those already flagged, and
        whether it is a genuine interaction of all its cards (every sub-combination passes); None without any."""
        parts = [{"cards": list(self.fs.cards(s)), "result": self.result_of[s]}
                 for s in sub_combinations(combo, self.removable)]
        if not parts:
            return None
        return {"sub": parts, "already": [p for p in parts if p["result"] in FLAGGED],
                "genuine": all(p["result"] == "pass" for p in parts),
                "fixed": sorted(n for n in range(1, len(combo) + 1) if n not in self.removable)}

    def genuine(self, combo: Combo) -> bool | None:
        """Whether every sub-combination passes (None: no sub-combination can be formed)."""
        subs = sub_combinations(combo, self.removable)
        return all(self.result_of[s] == "pass" for s in subs) if subs else None


def causes(fs: FastSweep, flagged: list[Combo], runner: Callable[[list], Iterator[tuple[int, Record]]],
           extra: dict | None = None) -> Causes:
    """Check the sub-combinations of the flagged combinations (the fast sweep); their causes."""
    removable = removable_slots(fs.template)
    subs = sorted({s for c in flagged for s in sub_combinations(c, removable)})
    result_of: dict[Combo, str] = {}
    if subs:
        sub = FastSweep(fs.template, fs.ids, fs.library, fs.sources, fs.info, combos=lambda: iter(subs),
                        prefix=fs.prefix + "sub|", extra=dict(fs.extra) | (extra or {}))
        rep_of = sub.run(runner)
        results = [decorate(r.record, fs.info)["result"] for r in sub.reps]
        result_of = {s: results[rep_of[i]] for i, s in enumerate(subs)}
    return Causes(fs, removable, result_of)
