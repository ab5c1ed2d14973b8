"""Batch jobs: what a worker receives (scenario data), what it does with one, and what it sends back.

Workers receive scenario *data* (a path and its YAML bytes, or a scenario as a
plain dict), build their own models and send results back as plain dicts
(``ScenarioResult.model_dump(mode="json")`` plus the content ``hash``).
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import math
import signal
import threading
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.cards import CardSource, find_sources, is_card_file, may_use_cards, uses_cards
from models.loader import scan
from models.results import ScenarioResult, ScenarioStatus
from models.yamlsafe import LoadError, LoadErrors, display_name, link_problem, load_yaml_text, read_bytes
from solver.engine.budget import DEFAULT_BUDGET, SAFETY_SECONDS, SAFETY_WORDS
from solver.run.single import check_scenario_data, check_text, error_result, internal_error

#: Most scenarios sent to a worker in one task.
MAX_CHUNK = 32

Record = dict[str, Any]


class ClusterError(RuntimeError):
    """The workers cannot be used: Dask not installed or not reachable, or local workers die as they start."""


class ScenarioTimeout(BaseException):
    """Raised inside a check that ran past its wall-clock safety limit (a BaseException so no ``except Exception``
    eats it)."""


@dataclass(frozen=True)
class RunOptions:
    """What every worker needs to check a scenario: plain, picklable settings."""

    #: the work budget per scenario, in work units (``--timeout``; ``solver.engine.budget``): what decides ``unknown``
    timeout: float = DEFAULT_BUDGET
    max_outcomes: int = 32
    why: bool = False
    #: the path before the speed work (``SolverOptions.baseline``), for side-by-side benchmarks
    baseline: bool = False
    #: wall-clock seconds per scenario: the outer safety net only (``--safety-limit``), far above any budget
    safety: float = SAFETY_SECONDS

    def solver_options(self):
        """The engine's settings for one solve."""
        from solver.engine.settings import SolverOptions

        make = SolverOptions.baseline if self.baseline else SolverOptions
        return make(budget=self.timeout, safety=self.safety, max_outcomes=self.max_outcomes)


#: card file bytes by content digest, in this process: a job refers to its card files by digest, and a worker gets
#: each file's bytes once (``LocalPool``, ``run_dask``), however many of its jobs use it
BLOBS: dict[str, bytes] = {}
#: the digest of a bytes object already hashed (by identity: the card reader hands out one object per file)
_DIGESTS: dict[int, tuple[bytes, str]] = {}


def blob(raw: bytes) -> str:
    """The content digest of a card file's bytes, kept in ``BLOBS`` (each object hashed once)."""
    known = _DIGESTS.get(id(raw))
    if known is not None and known[0] is raw:
        return known[1]
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    BLOBS.setdefault(digest, raw)
    if len(_DIGESTS) > 4096:
        _DIGESTS.clear()
    _DIGESTS[id(raw)] = (raw, digest)
    return digest


def needed(payloads: Iterable[dict]) -> set[str]:
    """The digests of the card files these shipped jobs refer to."""
    return {d for p in payloads for _, d in (p.get("cards") or ())}


def receive(blobs: dict[str, bytes]) -> None:
    """Keep card files sent to this worker."""
    BLOBS.update(blobs)


def shipped_cards(refs: list | None) -> list[CardSource] | None:
    """The card files of a shipped job: its (name, digest) references with their bytes."""
    if refs is None:
        return None
    missing = [name for name, d in refs if d not in BLOBS]
    if missing:
        raise LookupError(f"card files not shipped to this worker: {', '.join(missing)}")
    return [(name, BLOBS[d]) for name, d in refs]


@dataclass(frozen=True)
class Job:
    """One scenario to check: where it came from and its content (YAML bytes or a scenario dict), with the card files
    its ``card:`` references use (None: it names no card) and the located problems met finding them."""

    path: str
    hash: str
    text: bytes | None = None
    data: dict | None = None
    read_error: str | None = None
    cards: list[CardSource] | None = None
    card_errors: tuple[tuple, ...] = ()
    #: a card file found among the scenarios (a top-level ``cards:``): left out of a check, with a note
    card_file: bool = False

    def payload(self) -> dict:
        """The plain dict shipped to a worker (card files by digest: see ``BLOBS``)."""
        refs = None if self.cards is None else [(name, blob(raw)) for name, raw in self.cards]
        return {"path": self.path, "hash": self.hash, "text": self.text, "data": self.data,
                "read_error": self.read_error, "cards": refs, "card_errors": list(self.card_errors)}


def content_hash(data: bytes, cards: list[CardSource] | None = None) -> str:
    """The hash that identifies a scenario's content for ``--resume`` (with the card files it uses: a changed card
    changes it)."""
    h = hashlib.sha256(data)
    for name, raw in cards or ():
        h.update(b"\0" + name.encode("utf-8", "surrogateescape") + b"\0" + raw)
    return "sha256:" + h.hexdigest()


@dataclass
class Indexed:
    """Jobs with their indices in the whole batch: how many, and the (index, job) pairs in order (read once, lazily:
    a part of a batch, or a sweep's combinations, never all held at once)."""

    total: int
    items: Iterable[tuple[int, Job]]

    def __len__(self) -> int:
        return self.total


def indexed(jobs: "Indexed | list[Job]") -> Indexed:
    """Jobs as (index, job) pairs (a list: its own indices)."""
    return jobs if isinstance(jobs, Indexed) else Indexed(len(jobs), enumerate(jobs))


def card_sources(path: str | Path, name: str, text: bytes,
                 extra: list[Path] = ()) -> tuple[list[CardSource] | None, list[LoadError]]:
    """The card files a scenario uses, read now to ship with it, resolved from the scenario's real ``path`` (``name``:
    how messages name it), and the located problems met finding them (shipped too: a worker never looks for cards
    itself). (None, []) when it names no card, or its YAML does not parse (the worker reports that)."""
    if not may_use_cards(text):
        return None, []
    try:
        data, linemap = load_yaml_text(text, name)
    except (LoadError, LoadErrors):
        return None, []
    if not uses_cards(data):
        return None, []
    return find_sources(data, linemap, name, Path(path), extra)


def file_job(path: str | Path, cards: list[Path] = (), name: str | None = None) -> Job:
    """A job for one scenario file (its bytes and its card files read now, so workers need no shared file system).

    The job is named by the path as reports show it (undecodable bytes escaped), or ``name``; its card
    library is found from its real path either way. Only a regular file is read (a pipe or device is
    refused from its status). ``cards``: card libraries given for every scenario (``--cards``). A card
    file (``is_card_file``) is a job marked ``card_file``.
    """
    name = name if name is not None else display_name(path)
    try:
        text = read_bytes(path, name)
    except LoadError as exc:
        return problem_job(name, str(exc))
    if is_card_file(text):
        return Job(name, content_hash(text), text=text, card_file=True)
    sources, errors = card_sources(path, name, text, cards)
    return Job(name, content_hash(text, sources), text=text, cards=sources,
               card_errors=tuple((e.file, e.line, e.col, e.message) for e in errors))


def entry_job(path: Path, cards: list[Path] = (), name: str | None = None) -> Job:
    """The job of one entry ``arbiter check`` finds (a link that cannot be followed: its problem), as ``collect``
    makes it; ``name``: how reports name it."""
    shown = name if name is not None else display_name(path)
    problem = link_problem(path)
    return problem_job(shown, f"{shown}: {problem}") if problem else file_job(path, cards, shown)


def problem_job(name: str, message: str) -> Job:
    """A job for an entry that cannot be read: it is reported as an error, never skipped."""
    return Job(name, content_hash(message.encode("utf-8", "backslashreplace")), read_error=message)


def scenario_job(sc: Any, name: str) -> Job:
    """A job for an in-memory scenario object."""
    data = sc.model_dump(mode="json", exclude_unset=True)
    return Job(name, content_hash(json.dumps(data, sort_keys=True).encode()), data=data)


def collect(paths: Iterable[str | Path], cards: list[Path] = (), skipped: list[str] | None = None) -> list[Job]:
    """Jobs for every scenario entry under the given files and folders, sorted by path (problems included);
    ``cards``: card libraries for every scenario (``--cards``). Card files are left out (their names appended to
    ``skipped``, for the note saying so)."""
    jobs = [problem_job(e.name, f"{e.name}: {e.problem}") if e.problem else file_job(e.path, cards)
            for e in scan(list(paths))]
    if skipped is not None:
        skipped += sorted(j.path for j in jobs if j.card_file)
    return sorted((j for j in jobs if not j.card_file), key=lambda j: j.path)


# -- the wall-clock safety net around one check ----------------------------------------------------
@contextmanager
def deadline(seconds: float | None):
    """Raise ScenarioTimeout in this thread once ``seconds`` have passed (SIGALRM on the main thread): the outer
    safety net of a check (``RunOptions.safety``), never what its answer depends on."""
    if not seconds or seconds <= 0:
        yield
        return
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def _alarm(signum, frame):
            raise ScenarioTimeout()
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        return
    tid = threading.get_ident()
    timer = threading.Timer(seconds, lambda: ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(tid), ctypes.py_object(ScenarioTimeout)))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


# -- the work one worker does ------------------------------------------------------------------
def error_record(job: dict, message: str, status: str = "error") -> Record:
    """A result record for a scenario that could not be checked."""
    res = ScenarioResult(path=job["path"], status=ScenarioStatus(status), error=message)
    return {**res.model_dump(mode="json"), "hash": job["hash"]}


def timeout_record(job: dict, seconds: float) -> Record:
    """The record of a scenario stopped by the wall-clock safety limit: unknown, never a pass."""
    return error_record(job, f"{job['path']}: {SAFETY_WORDS}: stopped after {seconds:g} s", "unknown")


def _check(job: dict, opts: RunOptions):
    if job.get("read_error"):
        return error_result(job["path"], job["read_error"])
    if job.get("data") is not None:
        return check_scenario_data(job["data"], job["path"], opts.solver_options(), opts.why)
    errors = [LoadError(*e) for e in job.get("card_errors") or ()]
    return check_text(job["text"], job["path"], opts.solver_options(), opts.why, shipped_cards(job.get("cards")),
                      card_errors=errors)


def check_job(job: dict, opts: RunOptions) -> Record:
    """Check one shipped scenario and return its record; never raises (safety limit -> unknown)."""
    return guarded(job, opts, _check)


def guarded(job: dict, opts: RunOptions, check: Callable[[dict, RunOptions], ScenarioResult]) -> Record:
    """Run ``check`` on one shipped job under its wall-clock safety limit and return its record; never raises (safety
    limit -> unknown, anything else -> an internal error)."""
    try:
        with deadline(opts.safety):
            res = check(job, opts)
    except ScenarioTimeout:
        return timeout_record(job, opts.safety)
    except MemoryError:
        raise  # the run's problem: a worker process exits (and the scenario is retried), this process stops cleanly
    except Exception as exc:  # noqa: BLE001 - one bad scenario never takes a batch down: reported as a bug
        res = internal_error(job["path"], exc)
    return {**res.model_dump(mode="json"), "hash": job["hash"]}


def check_chunk(chunk: list[dict], opts: RunOptions, fn: Callable[[dict, RunOptions], Record] = check_job,
                blobs: dict[str, bytes] | None = None) -> list[Record]:
    """Check a chunk of shipped scenarios (one task on a cluster worker; ``blobs``: the card files they use)."""
    receive(blobs or {})
    return [fn(job, opts) for job in chunk]


def chunk_size(n: int, workers: int) -> int:
    """Scenarios per task: about eight tasks per worker, so each pays for its messages but the tail stays short."""
    return max(1, min(MAX_CHUNK, math.ceil(n / max(1, workers * 8))))
