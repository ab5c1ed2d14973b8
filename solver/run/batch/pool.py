"""Local runners: in this process, or in spawned worker processes with a watchdog, losing none.

A scenario that crashes its worker is retried once in a fresh worker; one that
runs past its wall-clock safety limit becomes ``unknown``; either way the others finish.
"""
from __future__ import annotations

import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from solver.run.batch.jobs import (
    ClusterError, Job, Record, RunOptions, check_job, chunk_size, error_record, timeout_record,
)

#: Extra seconds a worker gets past its safety limit (``RunOptions.safety``) before the watchdog kills it.
GRACE = 5.0


def run_inline(jobs: list[Job], opts: RunOptions, fn: Callable = check_job) -> Iterator[tuple[int, Record]]:
    """Check in this process, in order."""
    for i, job in enumerate(jobs):
        yield i, fn(job.payload(), opts)


def _worker_main(conn, fn: Callable, opts: RunOptions) -> None:
    """Worker process loop: receive a chunk, report 'start' and 'done' per scenario, then 'idle'."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    import solver.run.single  # noqa: F401 - pay the imports before the first scenario's clock starts

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
        self.limit = opts.safety + grace  # the wall-clock safety net only: answers depend on the work budget
        self.pending: deque[int] = deque(range(len(jobs)))
        self.attempts: dict[int, int] = {}
        self.workers: list[_Worker] = []
        #: workers lost in a row while checking nothing (starting, or between scenarios): free, but bounded
        self.free_deaths = 0
        self.max_free_deaths = max(3, 2 * self.n)

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
        """A worker died: a scenario it had started is retried once; one that never started is charged nothing.

        A worker killed while starting (or between two scenarios) is replaced and its chunk re-queued;
        only when workers keep dying without checking anything does the run stop.
        """
        out = []
        cur = w.current
        if cur is None:
            self.free_deaths += 1
            if self.free_deaths >= self.max_free_deaths:
                raise ClusterError(f"worker processes keep dying before they check anything ({self.free_deaths} "
                                   f"in a row, last: {why}); try --jobs 1")
        else:
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
        """A scenario ran past its safety limit: it becomes unknown; the worker is replaced and the chunk goes on."""
        cur = w.current
        out = [(cur, timeout_record(self.jobs[cur].payload(), self.opts.safety))]
        self._requeue(w)
        self._assign(self._replace(w))
        return out

    def _drain(self, w: _Worker) -> list[tuple[int, Record]]:
        out = []
        try:
            while w.conn.poll():
                msg = w.conn.recv()
                if msg[0] == "start":
                    w.current, w.since = msg[1], time.monotonic()
                elif msg[0] == "done":
                    self.free_deaths = 0
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
