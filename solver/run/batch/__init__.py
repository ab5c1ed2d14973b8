"""Batch runs: check many scenarios in-process, in spawned worker processes or on a Dask cluster, losing none.

Workers receive scenario *data* (a path and its YAML bytes, or a scenario as a
plain dict), build their own models and send results back as plain dicts
(``ScenarioResult.model_dump(mode="json")`` plus the content ``hash``). A
scenario that crashes its worker is retried once in a fresh worker; one that
runs past its time limit becomes ``unknown``; either way the others finish.
"""
from __future__ import annotations

import ctypes
import hashlib
import math
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.loader import find_scenarios

#: Extra seconds a worker gets past ``timeout`` before the watchdog kills it.
GRACE = 5.0
#: Most scenarios sent to a worker in one task.
MAX_CHUNK = 32

Record = dict[str, Any]


class ClusterError(RuntimeError):
    """The workers cannot be used: Dask not installed or not reachable, or local workers die as they start."""


class ScenarioTimeout(BaseException):
    """Raised inside a check that ran past its time limit (a BaseException so no ``except Exception`` eats it)."""


@dataclass(frozen=True)
class RunOptions:
    """What every worker needs to check a scenario: plain, picklable settings."""

    timeout: float = 10.0
    max_outcomes: int = 32
    why: bool = False

    def solver_options(self):
        """The engine's settings for one solve."""
        from solver.engine import SolverOptions

        return SolverOptions(time_limit=self.timeout, max_outcomes=self.max_outcomes)


@dataclass(frozen=True)
class Job:
    """One scenario to check: where it came from and its content (YAML bytes or a scenario dict)."""

    path: str
    hash: str
    text: bytes | None = None
    data: dict | None = None
    read_error: str | None = None

    def payload(self) -> dict:
        """The plain dict shipped to a worker."""
        return {"path": self.path, "hash": self.hash, "text": self.text, "data": self.data,
                "read_error": self.read_error}


def content_hash(data: bytes) -> str:
    """The hash that identifies a scenario's content for ``--resume``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def file_job(path: str | Path) -> Job:
    """A job for one scenario file (its bytes read now, so workers need no shared file system)."""
    from models.yamlsafe import LoadError, _read_bytes

    name = str(path)
    try:
        text = _read_bytes(path, name)
    except LoadError as exc:
        return Job(name, content_hash(str(exc).encode()), read_error=str(exc))
    return Job(name, content_hash(text), text=text)


def scenario_job(sc: Any, name: str) -> Job:
    """A job for an in-memory scenario object."""
    import json

    data = sc.model_dump(mode="json", exclude_unset=True)
    return Job(name, content_hash(json.dumps(data, sort_keys=True).encode()), data=data)


def collect(paths: Iterable[str | Path]) -> list[Job]:
    """Jobs for every scenario file under the given files and folders, sorted by path."""
    return sorted((file_job(p) for p in find_scenarios(list(paths))), key=lambda j: j.path)


# -- time limits inside one check --------------------------------------------------------------
@contextmanager
def deadline(seconds: float | None):
    """Raise ScenarioTimeout in this thread once ``seconds`` have passed (SIGALRM on the main thread)."""
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
    from models.results import ScenarioResult, ScenarioStatus

    res = ScenarioResult(path=job["path"], status=ScenarioStatus(status), error=message)
    return {**res.model_dump(mode="json"), "hash": job["hash"]}


def timeout_record(job: dict, seconds: float) -> Record:
    """The record of a scenario stopped at its time limit: unknown, never a pass."""
    return error_record(job, f"{job['path']}: time limit of {seconds:g} s reached; stopped", "unknown")


def _check(job: dict, opts: RunOptions):
    from solver.api import check_scenario_data, check_text, error_result

    if job.get("read_error"):
        return error_result(job["path"], job["read_error"])
    if job.get("data") is not None:
        return check_scenario_data(job["data"], job["path"], opts.solver_options(), opts.why)
    return check_text(job["text"], job["path"], opts.solver_options(), opts.why)


def check_job(job: dict, opts: RunOptions) -> Record:
    """Check one shipped scenario and return its record; never raises (time limit -> unknown)."""
    try:
        with deadline(opts.timeout):
            res = _check(job, opts)
    except ScenarioTimeout:
        return timeout_record(job, opts.timeout)
    except Exception as exc:  # noqa: BLE001 - one bad scenario never takes a batch down
        return error_record(job, f"{job['path']}: internal error: {type(exc).__name__}: {exc}")
    return {**res.model_dump(mode="json"), "hash": job["hash"]}


def check_chunk(chunk: list[dict], opts: RunOptions, fn: Callable[[dict, RunOptions], Record] = check_job) -> list[Record]:
    """Check a chunk of shipped scenarios (one task on a cluster worker)."""
    return [fn(job, opts) for job in chunk]


def chunk_size(n: int, workers: int) -> int:
    """Scenarios per task: about eight tasks per worker, so each pays for its messages but the tail stays short."""
    return max(1, min(MAX_CHUNK, math.ceil(n / max(1, workers * 8))))


# -- runners: each yields (index, record) as results arrive ------------------------------------
def run_inline(jobs: list[Job], opts: RunOptions, fn: Callable = check_job) -> Iterator[tuple[int, Record]]:
    """Check in this process, in order."""
    for i, job in enumerate(jobs):
        yield i, fn(job.payload(), opts)


def _worker_main(conn, fn: Callable, opts: RunOptions) -> None:
    """Worker process loop: receive a chunk, report 'start' and 'done' per scenario, then 'idle'."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    import solver.api  # noqa: F401 - pay the imports before the first scenario's clock starts

    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            for idx, job in chunk:
                conn.send(("start", idx))
                conn.send(("done", idx, fn(job, opts)))
            conn.send(("idle",))
    except (EOFError, OSError):  # the parent is gone: nothing left to report to
        return


@contextmanager
def _sigint_ignored():
    """Ignore SIGINT for the duration (a spawned child inherits the ignored disposition); main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@dataclass
class _Worker:
    """A spawned worker process and the chunk it is working through."""

    proc: Any
    conn: Any
    todo: deque = field(default_factory=deque)
    current: int | None = None
    since: float = 0.0
    ready: bool = True
    heard: bool = False

    @property
    def busy(self) -> bool:
        """Whether it holds unfinished work."""
        return bool(self.todo)

    def stop(self, kill: bool = False) -> None:
        """End the process (politely unless ``kill``)."""
        try:
            if not kill and self.proc.is_alive():
                self.conn.send(None)
                self.proc.join(1.0)
        except (OSError, ValueError, BrokenPipeError):
            pass
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(1.0)
        self.conn.close()


class LocalPool:
    """Spawned worker processes with a watchdog: a hung worker is killed and replaced, a crash costs one retry."""

    def __init__(self, jobs: list[Job], opts: RunOptions, workers: int, fn: Callable = check_job,
                 chunk: int | None = None, grace: float = GRACE) -> None:
        import multiprocessing

        self.ctx = multiprocessing.get_context("spawn")
        self.jobs, self.opts, self.fn = jobs, opts, fn
        self.n = max(1, min(workers, len(jobs)))
        self.chunk = chunk or chunk_size(len(jobs), self.n)
        self.limit = opts.timeout + grace
        self.pending: deque[int] = deque(range(len(jobs)))
        self.attempts: dict[int, int] = {}
        self.workers: list[_Worker] = []
        self.started = False  # some worker has reported back
        self.stillborn = 0  # workers that died before any worker reported back

    def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(child, self.fn, self.opts), daemon=True,
                                name="arbiter-worker")
        with _sigint_ignored():  # born ignoring Ctrl-C: the parent alone handles it and ends the workers
            proc.start()
        child.close()
        return _Worker(proc, parent)

    def _assign(self, w: _Worker) -> None:
        """Send the next chunk to a worker that has finished its last one."""
        if not (w.ready and self.pending):
            return
        take = [self.pending.popleft() for _ in range(min(self.chunk, len(self.pending)))]
        w.todo.extend(take)
        w.ready = False
        try:
            w.conn.send([(i, self.jobs[i].payload()) for i in take])
        except (OSError, ValueError):
            pass  # it died; the loop sees it and re-queues the chunk

    def _requeue(self, w: _Worker) -> None:
        self.pending.extendleft(reversed([i for i in w.todo if i != w.current]))
        w.todo.clear()

    def _replace(self, w: _Worker) -> _Worker:
        w.stop(kill=True)
        self.workers.remove(w)
        nw = self._spawn()
        self.workers.append(nw)
        return nw

    def _lost(self, w: _Worker, why: str) -> list[tuple[int, Record]]:
        """A worker died: retry its current scenario once, re-queue the rest of its chunk."""
        if not w.heard and not self.started:
            self.stillborn += 1
            if self.stillborn >= 3:
                raise ClusterError(f"worker processes die as they start ({why}); try --jobs 1")
        out = []
        cur = w.current if w.current is not None else (w.todo[0] if w.todo else None)
        w.current = cur
        if cur is not None:
            self.attempts[cur] = self.attempts.get(cur, 0) + 1
            if self.attempts[cur] >= 2:
                out.append((cur, error_record(self.jobs[cur].payload(),
                                              f"{self.jobs[cur].path}: the worker checking it died twice ({why})")))
            else:
                self.pending.appendleft(cur)
        self._requeue(w)
        self._assign(self._replace(w))
        return out

    def _hung(self, w: _Worker) -> list[tuple[int, Record]]:
        """A scenario ran past its limit: it becomes unknown; the worker is replaced and the chunk goes on."""
        cur = w.current
        out = [(cur, timeout_record(self.jobs[cur].payload(), self.opts.timeout))]
        self._requeue(w)
        self._assign(self._replace(w))
        return out

    def _drain(self, w: _Worker) -> list[tuple[int, Record]]:
        out = []
        try:
            while w.conn.poll():
                msg = w.conn.recv()
                w.heard = self.started = True
                if msg[0] == "start":
                    w.current, w.since = msg[1], time.monotonic()
                elif msg[0] == "done":
                    out.append((msg[1], msg[2]))
                    if msg[1] in w.todo:
                        w.todo.remove(msg[1])
                    w.current = None
                elif msg[0] == "idle":
                    w.ready = True
                    self._assign(w)
        except (EOFError, OSError):
            return out + self._lost(w, f"exit code {w.proc.exitcode}")
        return out

    def run(self) -> Iterator[tuple[int, Record]]:
        """Yield (index, record) as each scenario finishes."""
        from multiprocessing.connection import wait

        if not self.jobs:
            return
        try:
            self.workers = [self._spawn() for _ in range(self.n)]
            for w in self.workers:
                self._assign(w)
            while self.pending or any(w.busy for w in self.workers):
                wait([w.conn for w in self.workers] + [w.proc.sentinel for w in self.workers], timeout=0.25)
                for w in list(self.workers):
                    yield from self._drain(w)
                    if w not in self.workers:
                        continue
                    if not w.proc.is_alive():
                        if w.busy:
                            yield from self._lost(w, f"exit code {w.proc.exitcode}")
                        else:
                            self._assign(self._replace(w))
                    elif w.current is not None and time.monotonic() - w.since > self.limit:
                        yield from self._hung(w)
                for w in self.workers:
                    self._assign(w)
        finally:
            for w in self.workers:
                w.stop()


def run_local(jobs: list[Job], opts: RunOptions, workers: int, fn: Callable = check_job,
              chunk: int | None = None) -> Iterator[tuple[int, Record]]:
    """Check in ``workers`` spawned processes (one CP-SAT worker each)."""
    return LocalPool(jobs, opts, workers, fn, chunk).run()


def run_dask(jobs: list[Job], opts: RunOptions, cluster: Any, fn: Callable = check_job,
             chunk: int | None = None) -> Iterator[tuple[int, Record]]:
    """Check on a Dask distributed cluster (an address like tcp://host:8786, or a Client).

    Tasks carry scenario data and build models on the workers. The scheduler re-runs
    the tasks of a worker that dies; a chunk that keeps killing workers becomes errors.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ClusterError("a cluster needs Dask: pip install 'arbiter[dask]'") from None
    if not jobs:
        return
    own = not isinstance(cluster, Client)
    try:
        client = Client(cluster, timeout=30) if own else cluster
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = chunk or chunk_size(len(jobs), workers)
        chunks = [list(range(s, min(s + size, len(jobs)))) for s in range(0, len(jobs), size)]
        futures = {client.submit(check_chunk, [jobs[i].payload() for i in c], opts, fn, pure=False,
                                 retries=1, key=f"arbiter-chunk-{k}-{time.time_ns()}"): c
                   for k, c in enumerate(chunks)}
        for fut in as_completed(list(futures)):
            idxs = futures[fut]
            try:
                records = fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker: the chunk's scenarios become errors
                records = [error_record(jobs[i].payload(), f"{jobs[i].path}: cluster task failed: "
                                        f"{type(exc).__name__}: {exc}") for i in idxs]
            yield from zip(idxs, records)
    finally:
        if own:
            client.close()


def run(jobs: list[Job], opts: RunOptions, workers: int = 1, cluster: Any = None,
        fn: Callable = check_job) -> Iterator[tuple[int, Record]]:
    """Pick the runner: a cluster if given, spawned workers for ``workers > 1``, else in-process."""
    if cluster is not None:
        return run_dask(jobs, opts, cluster, fn)
    if workers > 1 and len(jobs) > 1:
        return run_local(jobs, opts, workers, fn)
    return run_inline(jobs, opts, fn)


def in_order(results: Iterable[tuple[int, Record]], start: int = 0) -> Iterator[Record]:
    """Re-order (index, record) pairs by index, yielding each as soon as all before it have arrived."""
    waiting: dict[int, Record] = {}
    nxt = start
    for i, rec in results:
        waiting[i] = rec
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    for i in sorted(waiting):
        yield waiting[i]


# -- the results journal behind --output and --resume ------------------------------------------
def read_records(path: str | Path) -> dict[str, Record]:
    """Records kept in a report or journal file (jsonl lines or a json document), by scenario path.

    Lines that do not parse (a line cut short when the process was killed) are skipped.
    """
    import json

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, Record] = {}
    try:
        doc = json.loads(text)
        if isinstance(doc, dict) and isinstance(doc.get("scenarios"), list):
            return {r["path"]: r for r in doc["scenarios"] if _is_record(r)}
    except ValueError:
        pass
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if _is_record(rec):
            out[rec["path"]] = rec
    return out


def _is_record(rec: Any) -> bool:
    return isinstance(rec, dict) and isinstance(rec.get("path"), str) and isinstance(rec.get("hash"), str) \
        and rec.get("status") in ("pass", "fail", "error", "unknown")


def reusable(jobs: list[Job], previous: dict[str, Record]) -> dict[int, Record]:
    """Previous records whose scenario content is unchanged (same hash), by job index."""
    return {i: previous[j.path] for i, j in enumerate(jobs)
            if j.path in previous and previous[j.path].get("hash") == j.hash}


# -- one `arbiter check` run: runner, journal, report, progress -------------------------------
@dataclass
class CheckRun:
    """``arbiter check``: run the batch, keep every result in the journal as it arrives, write the report in order."""

    paths: list[Path]
    format: str = "text"
    timeout: float = 10.0
    max_outcomes: int = 32
    why: bool = False
    jobs: int = 1
    cluster: str | None = None
    output: Path | None = None
    resume: bool = False
    timings: bool = False
    progress: bool = True

    @property
    def journal_path(self) -> Path | None:
        """Where results are appended as they finish: the jsonl report itself, or FILE.partial."""
        if self.output is None:
            return None
        return self.output if self.format == "jsonl" else self.output.with_name(self.output.name + ".partial")

    def execute(self) -> int:
        """Run and report; the exit code (0 all pass, 1 otherwise, 130 interrupted)."""
        import sys

        from solver.formats import STREAMING, formatter, summarize

        jobs = collect(self.paths)
        fmt = formatter(self.format, self.timings)
        kept = self._previous(jobs)
        todo = [i for i in range(len(jobs)) if i not in kept]
        opts = RunOptions(self.timeout, self.max_outcomes, self.why)
        journal = self._open_journal(jobs, kept)
        records: dict[int, Record] = dict(kept)
        stream = self.output is None and self.format in STREAMING
        try:
            with _progress(self.progress, len(jobs), len(kept)) as advance:
                pending = _remap(self._runner([jobs[i] for i in todo], opts), todo)
                arrivals = _chain(sorted(kept.items()), pending, journal, records, advance)
                for rec in in_order(arrivals):
                    if stream:
                        sys.stdout.write(fmt.item(rec))
                        sys.stdout.flush()
        except ClusterError as exc:
            print(f"arbiter: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            if journal:
                journal.close()
            where = f"; {len(records)} of {len(jobs)} results kept in {self.journal_path}, " \
                    f"rerun with --resume" if self.output else ""
            print(f"arbiter: interrupted{where}", file=sys.stderr)
            return 130
        ordered = [records[i] for i in range(len(jobs))]
        if journal:
            journal.close()
        if self.output is None:
            sys.stdout.write(fmt.end(ordered))
        else:
            body = "".join(fmt.item(r) for r in ordered) + fmt.end(ordered)
            _atomic_write(self.output, body)
            if self.journal_path != self.output:
                self.journal_path.unlink(missing_ok=True)
        s = summarize(ordered)
        return 0 if s.passed == s.total else 1

    def _previous(self, jobs: list[Job]) -> dict[int, Record]:
        if not (self.resume and self.output):
            return {}
        previous = read_records(self.output)
        previous.update(read_records(self.journal_path))
        return reusable(jobs, previous)

    def _open_journal(self, jobs: list[Job], kept: dict[int, Record]):
        """Start the journal afresh, with the reused records first."""
        from solver.formats import jsonl_line

        if self.journal_path is None:
            return None
        self.journal_path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.journal_path, "".join(jsonl_line(kept[i]) for i in sorted(kept)))
        return open(self.journal_path, "a", encoding="utf-8")

    def _runner(self, jobs: list[Job], opts: RunOptions) -> Iterator[tuple[int, Record]]:
        if self.cluster == "local":
            return _local_cluster_run(jobs, opts, self.jobs)
        return run(jobs, opts, self.jobs, self.cluster)


def _local_cluster_run(jobs: list[Job], opts: RunOptions, workers: int) -> Iterator[tuple[int, Record]]:
    """Start a Dask LocalCluster (one single-threaded worker process per job), run on it, shut it down."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        yield from run_dask(jobs, opts, client)


def _remap(results: Iterator[tuple[int, Record]], todo: list[int]) -> Iterator[tuple[int, Record]]:
    """Indices of a sub-batch back to the indices of the whole batch."""
    for k, rec in results:
        yield todo[k], rec


def _chain(kept, new, journal, records: dict[int, Record], advance) -> Iterator[tuple[int, Record]]:
    """Reused records, then new ones; each new one is written to the journal (and flushed) as it arrives."""
    from solver.formats import jsonl_line

    for i, rec in kept:
        yield i, rec
    for i, rec in new:
        if journal:
            journal.write(jsonl_line(rec))
            journal.flush()
        records[i] = rec
        advance(rec)
        yield i, rec


@contextmanager
def _progress(enabled: bool, total: int, done: int):
    """A rich progress bar on stderr when it is a terminal; else nothing. Yields advance(record)."""
    import sys

    if not (enabled and sys.stderr.isatty() and total):
        yield lambda rec: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[bad]}"), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("check", total=total, completed=done, bad="")
        bad = [0]

        def advance(rec: Record) -> None:
            bad[0] += rec.get("status") != "pass"
            bar.update(task, advance=1, bad=f"{bad[0]} not passing" if bad[0] else "")
        yield advance


def _atomic_write(path: Path, text: str) -> None:
    """Replace a file's content in one step (a crash leaves the old or the new file, never half)."""
    import os

    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
