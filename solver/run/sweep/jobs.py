"""What a worker receives for one combination of a sweep, and what it does with it.

A job carries the template's bytes, the card files (pool and the template's own library) and the
cards of its combination, so workers need no shared file system; they parse the template and the
library once per process and fill, place, validate and check each combination. The content hash
covers all of it, so ``--resume`` re-checks a combination whose template or cards changed.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from models.cards import CardSource, load_library
from models.results import ScenarioResult, ScenarioStatus
from models.yamlsafe import LoadError, LoadErrors
from solver.run.batch.jobs import Job, Record, RunOptions, guarded, shipped_cards
from solver.run.single import check_loaded, error_result
from solver.run.sweep.template import combination_name, fill, parsed
from solver.load import check_library, load_checked_data


@dataclass(frozen=True)
class SweepJob(Job):
    """One combination: the template (its name, and bytes in ``text``) and the cards placed in its slots."""

    template: str = ""
    slots: tuple[str, ...] = ()

    def payload(self) -> dict:
        """The plain dict shipped to a worker."""
        return {**super().payload(), "template": self.template, "slots": list(self.slots)}


class SweepJobs(Sequence):
    """One job per combination, named ``template[a+b]``, made as it is read. The hash covers the template, the card
    files and the slots: the template and the card files are hashed once, each job adds its slots."""

    def __init__(self, template: str, raw: bytes, sources: Sequence[CardSource],
                 combinations: Sequence[tuple[str, ...]]) -> None:
        self.template, self.raw, self.combinations = template, raw, combinations
        self.sources = list(sources)
        self.prefix = hashlib.sha256(raw)
        for name, data in self.sources:
            self.prefix.update(b"\0" + name.encode("utf-8", "surrogateescape") + b"\0" + data)

    def __len__(self) -> int:
        return len(self.combinations)

    def __iter__(self) -> Iterator[SweepJob]:
        return (self.job(c) for c in self.combinations)

    def __getitem__(self, i: int) -> SweepJob:
        return self.job(self.combinations[i])

    def job(self, cards: tuple[str, ...]) -> SweepJob:
        """The job of one combination."""
        h = self.prefix.copy()
        h.update(b"\0" + "+".join(cards).encode("utf-8"))
        return SweepJob(combination_name(self.template, cards), "sha256:" + h.hexdigest(), text=self.raw,
                        cards=self.sources, template=self.template, slots=tuple(cards))


def sweep_jobs(template: str, raw: bytes, sources: tuple[CardSource, ...],
               combinations: Sequence[tuple[str, ...]]) -> SweepJobs:
    """One job per combination (lazily: see ``SweepJobs``)."""
    return SweepJobs(template, raw, sources, combinations)


def _check(job: dict, opts: RunOptions) -> ScenarioResult:
    """Fill the template with the job's cards, place them, validate and check the combination."""
    sources = tuple(shipped_cards(job["cards"]) or ())
    try:
        data, _, _ = parsed(job["template"], job["text"])
        library = check_library(load_library(sources, str(data.get("game"))))
        filled, linemap = fill(job["template"], job["text"], list(job["slots"]), library)
        loaded = load_checked_data(filled, linemap, job["template"], list(sources))
    except (LoadError, LoadErrors) as exc:
        return error_result(job["path"], str(exc))
    res = check_loaded(loaded, opts.solver_options(), opts.why)
    if _uncored_contradiction(res):  # a sweep reports a contradiction as a finding: with its core, asked or not
        res = check_loaded(loaded, replace(opts.solver_options(), lazy_cores=False), opts.why)
    res.path = job["path"]
    return res


def _uncored_contradiction(res: ScenarioResult) -> bool:
    """No legal outcome (all enumerated), yet no core: the check passed, so cores were not asked for."""
    return (res.status is ScenarioStatus.PASS and not res.outcomes and res.outcomes_complete
            and not res.contradiction)


def sweep_job(job: dict, opts: RunOptions) -> Record:
    """Check one combination and return its record with its cards; never raises (time limit -> unknown)."""
    return {**guarded(job, opts, _check), "cards": list(job["slots"])}
