"""Exit codes of every ``arbiter`` command: a refusal is not a failure, and neither is a bug.

- 0 ``PASSED``: everything passed;
- 1 ``FAILED``: a verdict failed or is unknown (a claim, a sweep combination, a rule not covered, a disagreement);
- 2 ``REFUSED``: input refused (a file that cannot be read, a word or field outside the game, a mechanic its rules
  do not model) or a usage error;
- 3 ``INTERNAL``: an internal error (a bug in Arbiter: please report it);
- 130 ``INTERRUPTED``: Ctrl-C or SIGTERM.

A batch with several kinds exits with the gravest: 3 > 2 > 1 > 0 (a bug hides nothing else you could fix
first; a refused file means the run did not check what was asked; then failing verdicts). 130 overrides all.
"""
from __future__ import annotations

from collections.abc import Iterable

PASSED, FAILED, REFUSED, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 130


def record_code(record: dict) -> int:
    """The exit code one result record calls for (a check record, or a sweep record with its ``result``)."""
    status = record.get("status")
    if status == "error" or record.get("result") == "error":
        return INTERNAL if record.get("error_kind") == "internal" else REFUSED
    if status == "pass" and record.get("result", "pass") == "pass":
        return PASSED
    return FAILED


def batch_code(records: Iterable[dict]) -> int:
    """The exit code of a batch: the gravest of its records (3 > 2 > 1 > 0)."""
    return max((record_code(r) for r in records), default=PASSED)
