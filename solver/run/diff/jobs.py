"""What a worker receives for one side of a diff, and what it does with it.

A scenario job carries the scenario's bytes, the card files of its side (the old or the new version of its
library) and the side's ruleset change (``rules_off``, ``ruleset_options``); a combination job is the fast sweep's
(``solver.run.sweep.fast``) with the same settings. The job's name starts with its side (``old|``, ``new|``), so
both sides of one scenario keep their own records in the journal (``--resume``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from models.cards import CardSource
from models.yamlsafe import LoadError, LoadErrors, load_yaml_text
from solver.run.batch.jobs import Job, Record, RunOptions, content_hash, guarded, shipped_cards
from solver.run.single import check_loaded, check_text, error_result
from solver.run.sweep.fast import fast_job, job_options, with_ruleset_options
from solver.load import load_checked_data

SIDES = ("old", "new")


@dataclass(frozen=True)
class DiffJob(Job):
    """One scenario on one side: ``file`` is its path as reports show it, ``extra`` the side's settings."""

    file: str = ""
    extra: tuple[tuple[str, Any], ...] = ()

    def payload(self) -> dict:
        """The plain dict shipped to a worker."""
        return {**super().payload(), "file": self.file, **dict(self.extra)}


def scenario_job(side: str, file: str, text: bytes, cards: list[CardSource] | None, settings: dict) -> DiffJob:
    """The job of one scenario on one side (its hash covers the bytes, the side's card files and settings)."""
    extra = tuple(sorted(settings.items()))
    digest = content_hash(text + b"\0" + json.dumps(extra).encode("utf-8"), cards)
    return DiffJob(f"{side}|{file}", digest, text=text, cards=cards, file=file, extra=extra)


def _check_scenario(job: dict, opts: RunOptions):
    """Check one scenario with its side's card files and ruleset options."""
    file = job["file"]
    if job.get("read_error"):
        return error_result(file, job["read_error"])
    cards = shipped_cards(job.get("cards"))  # by digest (solver.run.batch.jobs.BLOBS)
    if not job.get("ruleset_options"):
        return check_text(job["text"], file, opts.solver_options(), opts.why, cards)
    try:
        data, linemap = load_yaml_text(job["text"], file)
        loaded = load_checked_data(with_ruleset_options(data, job["ruleset_options"]), linemap, file, cards)
    except (LoadError, LoadErrors) as exc:
        return error_result(file, str(exc))
    return check_loaded(loaded, opts.solver_options(), opts.why)


def diff_job(job: dict, opts: RunOptions) -> Record:
    """Check one job of a diff (a scenario, or a combination of a template); never raises."""
    if job.get("template"):
        return fast_job(job, opts)
    rec = guarded(job, job_options(job, opts), _check_scenario)
    rec["path"] = job["path"]
    return rec
