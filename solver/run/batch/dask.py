"""The Dask runner: check on a distributed cluster (an existing scheduler, or a LocalCluster started here).

A scheduler with no live worker is an error within a bounded time (``NO_WORKER_TIMEOUT``, ``--cluster-timeout``),
whether no worker ever joined or the last one died mid-run: the run never waits forever.
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

from solver.run.batch.jobs import (
    BLOBS, ClusterError, Indexed, Job, Record, RunOptions, check_chunk, check_job, chunk_size, error_record, indexed,
    needed,
)

#: Seconds a scheduler may have no live worker before the run stops with an error.
NO_WORKER_TIMEOUT = 30.0
#: Seconds between two questions to the scheduler about its workers.
POLL = 0.5
#: Tasks in flight per worker.
WINDOW = 4


class Liveness:
    """Watches a scheduler's workers: an error once it has had none for ``limit`` seconds."""

    def __init__(self, client: Any, limit: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.limit = limit
        self.clock = clock
        self.seen = clock()  # when a live worker was last seen (the start counts: a grace period to join)
        self._next = 0.0
        self.ever = False  # some worker was seen during the run

    @property
    def where(self) -> str:
        """The scheduler's address, for messages."""
        try:
            return str(self.client.scheduler.address)
        except AttributeError:
            return "the scheduler"

    def check(self) -> None:
        """Raise ClusterError when no worker has been alive for ``limit`` seconds (asks at most every POLL s)."""
        now = self.clock()
        if now < self._next:
            return
        self._next = now + POLL
        try:
            workers = len(self.client.nthreads())
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"lost the Dask scheduler at {self.where}: {exc}") from None
        if workers:
            self.seen, self.ever = now, True
            return
        if now - self.seen >= self.limit:
            what = "its last worker left" if self.ever else "no worker joined"
            raise ClusterError(f"no live worker on the Dask scheduler at {self.where} for {self.limit:g} s ({what}); "
                               f"start workers for it, or run with --jobs N instead (results so far are kept "
                               f"with --output, for --resume)")


def _chunks(work: Indexed, size: int) -> Iterator[list[tuple[int, Job]]]:
    """The (index, job) pairs of a batch, ``size`` at a time."""
    chunk: list[tuple[int, Job]] = []
    for pair in work.items:
        chunk.append(pair)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_dask(jobs: Indexed | list[Job], opts: RunOptions, cluster: Any, fn: Callable = check_job,
             chunk: int | None = None, no_worker_timeout: float = NO_WORKER_TIMEOUT) -> Iterator[tuple[int, Record]]:
    """Check on a Dask distributed cluster (an address like tcp://host:8786, or a Client).

    Tasks carry scenario data and build models on the workers. The scheduler re-runs
    the tasks of a worker that dies; a chunk that keeps killing workers becomes errors.
    With no live worker for ``no_worker_timeout`` seconds, ClusterError names the scheduler.
    At most ``WINDOW`` tasks per worker are submitted at a time: the batch is never held whole.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ClusterError("a cluster needs Dask: pip install 'arbiter[dask]'") from None
    work = indexed(jobs)
    if not work.total:
        return
    own = not isinstance(cluster, Client)
    try:
        client = Client(cluster, timeout=30, set_as_default=False) if own else cluster
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
    futures: dict = {}
    try:
        live = Liveness(client, no_worker_timeout)
        workers = max(1, len(client.nthreads()))
        size = chunk or chunk_size(work.total, workers)
        source = enumerate(_chunks(work, size))
        done = as_completed([], loop=client.loop)

        def submit(count: int) -> None:
            for k, c in itertools.islice(source, count):
                payloads = [job.payload() for _, job in c]
                blobs = {d: BLOBS[d] for d in needed(payloads)}  # one copy per task, not per scenario
                fut = client.submit(check_chunk, payloads, opts, fn, blobs, pure=False, retries=1,
                                    key=f"arbiter-chunk-{k}-{time.time_ns()}")
                futures[fut] = c
                done.add(fut)
        submit(WINDOW * workers)
        while not done.is_empty():
            if not done.has_ready():
                live.check()
                with done.thread_condition:
                    done.thread_condition.wait(timeout=POLL)
                continue
            for fut in done.next_batch(block=False):
                c = futures.pop(fut)
                yield from zip((i for i, _ in c), _records(fut, [job for _, job in c]))
                submit(1)
    finally:
        if futures:
            client.cancel(list(futures))  # an early stop (error, Ctrl-C) leaves no task behind on the cluster
        if own:
            client.close()


def _records(fut: Any, jobs: list[Job]) -> list[Record]:
    """A finished task's records; a failed task (e.g. KilledWorker) makes its scenarios errors."""
    try:
        return fut.result()
    except Exception as exc:  # noqa: BLE001 - one lost chunk never takes the batch down
        return [error_record(j.payload(), f"{j.path}: cluster task failed: {type(exc).__name__}: {exc}")
                for j in jobs]


def run_local_cluster(jobs: Indexed | list[Job], opts: RunOptions, workers: int,
                      no_worker_timeout: float = NO_WORKER_TIMEOUT,
                      fn: Callable = check_job) -> Iterator[tuple[int, Record]]:
    """Start a Dask LocalCluster (one single-threaded worker process per job), run on it, shut it down."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc, set_as_default=False) as client:
        yield from run_dask(jobs, opts, client, fn, no_worker_timeout=no_worker_timeout)
