"""The Dask runner: check on a distributed cluster (an existing scheduler, or a LocalCluster started here)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from solver.run.batch.jobs import (
    ClusterError, Job, Record, RunOptions, check_chunk, check_job, chunk_size, error_record,
)


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


def run_local_cluster(jobs: list[Job], opts: RunOptions, workers: int) -> Iterator[tuple[int, Record]]:
    """Start a Dask LocalCluster (one single-threaded worker process per job), run on it, shut it down."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        yield from run_dask(jobs, opts, client)
