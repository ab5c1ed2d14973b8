"""Local runners: in this process, or in spawned worker processes with a watchdog, losing none.

A scenario that crashes its worker is retried once in a fresh worker; one that
runs past its wall-clock safety limit becomes ``unknown``; either way the others finish.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from solver.run.memory import limit_note
from solver.run.batch.jobs import (
    BLOBS, ClusterError, Indexed, Job, Record, RunOptions, check_job, chunk_size, error_record, indexed, needed,
    receive, timeout_record,
)

#: Extra seconds a worker gets past its safety limit (``RunOptions.safety``) before the watchdog kills it.
GRACE = 5.0
#: Exit code of a worker that ran out of memory (it is replaced; its scenario is retried once).
OUT_OF_MEMORY = 75


def run_inline(jobs: Indexed | list[Job], opts: RunOptions, fn: Callable = check_job) -> Iterator[tuple[int, Record]]:
    """Check in this process, in order."""
    for i, job in indexed(jobs).items:
        yield i, fn(job.payload(), opts)


def _worker_main(conn, fn: Callable, opts: RunOptions) -> None:
    """Worker process loop: receive a chunk, report 'start' and 'done' per scenario, then 'idle'."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    import solver.run.single  # noqa: F401 - pay the imports before the first scenario's clock starts

    try:
        while True:
            message = conn.recv()
            if message is None:
                return
            blobs, chunk = message
            receive(blobs)
            for idx, job in chunk:
                conn.send(("start", idx))
                conn.send(("done", idx, fn(job, opts)))
            conn.send(("idle",))
    except (EOFError, OSError):  # the parent is gone: nothing left to report to
        return
    except MemoryError:
        os._exit(OUT_OF_MEMORY)  # no traceback: the parent says what happened


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
    #: the digests of the card files sent to it (each is sent once)
    sent: set = field(default_factory=set)

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
    """Spawned worker processes with a watchdog: a hung worker is killed and replaced, a crash costs one retry.

    Jobs are taken from their source as workers need them: the pool holds the jobs in flight (and those to
    retry), never the whole batch.
    """

    def __init__(self, jobs: Indexed | list[Job], opts: RunOptions, workers: int, fn: Callable = check_job,
                 chunk: int | None = None, grace: float = GRACE) -> None:
        import multiprocessing

        work = indexed(jobs)
        self.ctx = multiprocessing.get_context("spawn")
        self.total, self.source, self.opts, self.fn = work.total, iter(work.items), opts, fn
        self.n = max(1, min(workers, self.total))
        self.chunk = chunk or chunk_size(self.total, self.n)
        self.limit = opts.safety + grace  # the wall-clock safety net only: answers depend on the work budget
        #: jobs given to a worker and not finished, by index; those to hand out again first
        self.inflight: dict[int, Job] = {}
        self.retry: deque[int] = deque()
        self.attempts: dict[int, int] = {}
        self.workers: list[_Worker] = []
        self.exhausted = False
        #: workers lost in a row while checking nothing (starting, or between scenarios): free, but bounded
        self.free_deaths = 0
        self.max_free_deaths = max(3, 2 * self.n)

    @property
    def pending(self) -> bool:
        """Whether jobs wait to be handed out."""
        return bool(self.retry) or not self.exhausted

    def _take(self, count: int) -> list[int]:
        """The next jobs to hand out: those to retry first, then new ones from the source."""
        out: list[int] = []
        while len(out) < count and self.retry:
            out.append(self.retry.popleft())
        while len(out) < count and not self.exhausted:
            nxt = next(self.source, None)
            if nxt is None:
                self.exhausted = True
                break
            self.inflight[nxt[0]] = nxt[1]
            out.append(nxt[0])
        return out

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
        take = self._take(self.chunk)
        if not take:
            return
        w.todo.extend(take)
        w.ready = False
        chunk = [(i, self.inflight[i].payload()) for i in take]
        blobs = {d: BLOBS[d] for d in needed(p for _, p in chunk) - w.sent}
        try:
            w.conn.send((blobs, chunk))
            w.sent |= set(blobs)
        except (OSError, ValueError):
            pass  # it died; the loop sees it and re-queues the chunk

    def _requeue(self, w: _Worker) -> None:
        self.retry.extendleft(reversed([i for i in w.todo if i != w.current]))
        w.todo.clear()

    def _finished(self, i: int, rec: Record) -> tuple[int, Record]:
        """A job is done: it leaves the jobs in flight."""
        self.inflight.pop(i, None)
        self.attempts.pop(i, None)
        return i, rec

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
        w.proc.join(1.0)  # its pipe may close before it is reaped: its exit code says why it died
        if cur is None:
            self.free_deaths += 1
            if self.free_deaths >= self.max_free_deaths:
                raise ClusterError(f"worker processes keep dying before they check anything ({self.free_deaths} "
                                   f"in a row, last: {why}); try --jobs 1")
        else:
            self.attempts[cur] = self.attempts.get(cur, 0) + 1
            if self.attempts[cur] >= 2:
                job = self.inflight[cur]
                what = (f"ran out of memory twice{limit_note()}" if w.proc.exitcode == OUT_OF_MEMORY else
                        f"died twice ({why}{limit_note()})")
                out.append(self._finished(cur, error_record(job.payload(), f"{job.path}: the worker checking it "
                                                                           f"{what}")))
            else:
                self.retry.appendleft(cur)
        self._requeue(w)
        self._assign(self._replace(w))
        return out

    def _hung(self, w: _Worker) -> list[tuple[int, Record]]:
        """A scenario ran past its safety limit: it becomes unknown; the worker is replaced and the chunk goes on."""
        cur = w.current
        out = [self._finished(cur, timeout_record(self.inflight[cur].payload(), self.opts.safety))]
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
                    out.append(self._finished(msg[1], msg[2]))
                    if msg[1] in w.todo:
                        w.todo.remove(msg[1])
                    w.current = None
                elif msg[0] == "idle":
                    w.ready = True
                    self._assign(w)
        except (EOFError, OSError):
            w.proc.join(1.0)
            return out + self._lost(w, f"exit code {w.proc.exitcode}")
        return out

    def run(self) -> Iterator[tuple[int, Record]]:
        """Yield (index, record) as each scenario finishes."""
        from multiprocessing.connection import wait

        if not self.total:
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


def run_local(jobs: Indexed | list[Job], opts: RunOptions, workers: int, fn: Callable = check_job,
              chunk: int | None = None) -> Iterator[tuple[int, Record]]:
    """Check in ``workers`` spawned processes (one CP-SAT worker each)."""
    return LocalPool(jobs, opts, workers, fn, chunk).run()
