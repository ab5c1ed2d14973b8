"""Batch runs: spawned workers with a watchdog, Dask, time limits, the journal behind --resume, the Python API."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from models.scenario import Scenario
from solver.run import api, batch
from solver.run.batch import RunOptions, ScenarioTimeout, check_job, collect, deadline, in_order

PASS = """id: pass-{n}
game: core
players: [{{id: alice}}, {{id: bob}}]
objects: [{{id: c, owner: alice, zone: play}}]
events: [{{type: move, object: c, zone: graveyard}}]
expect:
  - {{object: c, zone: graveyard}}
  - {{unique: true}}
"""
FAIL = PASS.replace("id: pass-{n}", "id: fail-{n}").replace("zone: graveyard}}\n  -", "zone: hand}}\n  -")
INVALID = "id: broken\ngame: [unclosed\n"


def write(folder: Path, name: str, text: str) -> Path:
    """Write one scenario file."""
    p = folder / name
    p.write_text(text, encoding="utf-8")
    return p


def statuses(pairs) -> dict[str, str]:
    """path name -> status from (index, record) pairs or records."""
    recs = [p[1] if isinstance(p, tuple) else p for p in pairs]
    return {Path(r["path"]).name: r["status"] for r in recs}


# -- functions the workers run in tests (module level, so spawned workers can import them) --------
def misbehaving(job: dict, opts: RunOptions) -> dict:
    """check_job, except that 'crash' scenarios kill their worker, 'hang' ones hang, 'flaky' ones crash once."""
    name = Path(job["path"]).name
    if name.startswith("crash"):
        os._exit(3)
    if name.startswith("hang"):
        time.sleep(3600)
    if name.startswith("flaky"):
        marker = Path(job["path"] + ".crashed")
        if not marker.exists():
            marker.write_text("x")
            os._exit(3)
    return check_job(job, opts)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """A small library: passing, failing, invalid, crashing, hanging and flaky scenarios."""
    d = tmp_path_factory.mktemp("lib")
    for n in range(4):
        write(d, f"a{n}-pass.yaml", PASS.format(n=n))
    write(d, "b1-fail.yaml", FAIL.format(n=0))
    write(d, "b2-invalid.yaml", INVALID)
    write(d, "crash.yaml", PASS.format(n=90))
    write(d, "flaky.yaml", PASS.format(n=91))
    write(d, "hang.yaml", PASS.format(n=92))
    return d


@pytest.fixture(scope="module")
def pool_records(library) -> list[dict]:
    """One spawned-pool run over the misbehaving library (2 workers, chunks of 3, a short watchdog), in order."""
    pool = batch.LocalPool(collect([library]), RunOptions(timeout=0.5), 2, misbehaving, chunk=3, grace=0.5)
    return list(in_order(pool.run()))


@pytest.fixture(scope="module")
def pool_results(pool_records) -> dict[str, str]:
    """File name -> status of the pool run."""
    return statuses(pool_records)


def test_pool_reports_every_scenario_once(pool_records, library):
    """Nothing lost: every file has exactly one result, in path order, whatever crashed or hung."""
    assert [Path(r["path"]).name for r in pool_records] == sorted(p.name for p in library.glob("*.yaml"))


@pytest.mark.parametrize("name, status", [
    ("a0-pass.yaml", "pass"), ("a3-pass.yaml", "pass"), ("b1-fail.yaml", "fail"), ("b2-invalid.yaml", "error"),
    ("crash.yaml", "error"), ("hang.yaml", "unknown"), ("flaky.yaml", "pass"),
])
def test_pool_status_of_each_kind(pool_results, name, status):
    """Crash twice -> error; past the limit -> unknown (killed by the watchdog); crash once -> retried, passes."""
    assert pool_results[name] == status


def test_pool_explains_crash_and_hang(pool_records):
    """The error and unknown records say what happened."""
    by = {Path(r["path"]).name: r for r in pool_records}
    assert "died twice" in by["crash.yaml"]["error"]
    assert "time limit of 0.5 s reached" in by["hang.yaml"]["error"]


def strip_timing(recs) -> list[dict]:
    """Records without their timing."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in recs]


def test_inline_and_pool_give_identical_records(pool_records, library):
    """The same records in-process as in 2 spawned workers (timing aside) for the well-behaved scenarios."""
    jobs = [j for j in collect([library]) if Path(j.path).name[0] in "ab"]
    inline = strip_timing(in_order(batch.run_inline(jobs, RunOptions(timeout=0.5))))
    pooled = strip_timing(r for r in pool_records if Path(r["path"]).name[0] in "ab")
    assert inline == pooled and len(inline) == 6


@pytest.mark.parametrize("case", ["main-thread", "other-thread"])
def test_deadline_stops_a_python_hang(case):
    """deadline() interrupts pure-Python work (SIGALRM on the main thread, an async exception elsewhere)."""
    caught = []

    def body():
        try:
            with deadline(0.2):
                while True:
                    time.sleep(0.01)
        except ScenarioTimeout:
            caught.append(True)
    if case == "main-thread":
        body()
    else:
        t = threading.Thread(target=body)
        t.start()
        t.join(5)
    assert caught == [True]


def test_deadline_off_lets_work_finish():
    """No limit: the work runs to its end."""
    with deadline(None):
        time.sleep(0.01)


def test_check_job_never_raises_on_unreadable_input(tmp_path):
    """A missing file, invalid bytes: error records with the file name, no exception."""
    write(tmp_path, "bin.yaml", "").write_bytes(b"\xff\xfe\x00garbage")
    recs = [check_job(j.payload(), RunOptions()) for j in collect([tmp_path / "gone.yaml", tmp_path / "bin.yaml"])]
    assert [r["status"] for r in recs] == ["error", "error"]
    assert all(r["path"] in r["error"] for r in recs)


@pytest.mark.parametrize("arrivals, expected", [
    ([], []),
    ([(0, "a"), (1, "b")], ["a", "b"]),
    ([(2, "c"), (0, "a"), (1, "b")], ["a", "b", "c"]),
])
def test_in_order_reorders_by_index(arrivals, expected):
    """Out-of-order arrivals come out in index order."""
    assert list(in_order(iter(arrivals))) == expected


def test_in_order_yields_as_soon_as_the_prefix_is_complete():
    """Index 0 is yielded before index 2 arrives (streaming, not buffering everything)."""
    seen = []

    def arrivals():
        yield 1, "b"
        yield 0, "a"
        seen.append("asked for more")
        yield 2, "c"
    it = in_order(arrivals())
    assert [next(it), next(it)] == ["a", "b"] and seen == []


@pytest.mark.parametrize("n, workers, size", [(1, 2, 1), (16, 2, 1), (2000, 2, 32), (400, 2, 25)])
def test_chunk_size(n, workers, size):
    """About eight chunks per worker, at most MAX_CHUNK scenarios each."""
    assert batch.chunk_size(n, workers) == size


def test_reusable_keeps_only_unchanged_content(tmp_path):
    """A record is reused only when its path and content hash match."""
    a = write(tmp_path, "a.yaml", PASS.format(n=1))
    b = write(tmp_path, "b.yaml", PASS.format(n=2))
    jobs = collect([tmp_path])
    previous = {str(a): {"path": str(a), "hash": jobs[0].hash, "status": "pass"},
                str(b): {"path": str(b), "hash": "sha256:stale", "status": "pass"}}
    assert list(batch.reusable(jobs, previous)) == [0]


def test_read_records_skips_a_cut_line(tmp_path):
    """A jsonl journal whose last line was cut by a kill still yields its whole lines."""
    j = tmp_path / "r.jsonl"
    j.write_text('{"path": "a.yaml", "hash": "h", "status": "pass"}\n{"path": "b.yaml", "ha')
    assert list(batch.read_records(j)) == ["a.yaml"]


# -- the Python API ---------------------------------------------------------------------------
def test_api_iterates_typed_results_for_files_folders_and_objects(tmp_path):
    """Files and folders sorted by path, then in-memory scenarios in order, as ScenarioResult objects."""
    import yaml

    write(tmp_path, "b.yaml", PASS.format(n=2))
    write(tmp_path, "a.yaml", FAIL.format(n=1))
    sc = Scenario.model_validate(yaml.safe_load(PASS.format(n=3)))
    results = list(api.iter_results([tmp_path, sc]))
    assert [(Path(r.path).name, r.status.value) for r in results] == [
        ("a.yaml", "fail"), ("b.yaml", "pass"), ("<memory:0:pass-3>", "pass")]
    assert results[0].expectations[0].line == 7


def test_check_folder(tmp_path):
    """check_folder returns every scenario's result, sorted."""
    write(tmp_path, "x.yaml", PASS.format(n=1))
    assert [r.status.value for r in api.check_folder(tmp_path)] == ["pass"]


# -- Dask ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_client():
    """A LocalCluster of two single-threaded worker processes."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as lc, distributed.Client(lc) as client:
        yield client


@pytest.fixture(scope="module")
def dask_records(dask_client, library) -> list[dict]:
    """The well-behaved and the flaky scenarios of the library, on the cluster, in order."""
    jobs = [j for j in collect([library]) if Path(j.path).name[0] in "ab"]
    flaky = library / "dask-flaky"
    flaky.mkdir()
    jobs += collect([write(flaky, "flaky.yaml", PASS.format(n=7))])
    return list(in_order(batch.run_dask(jobs, RunOptions(), dask_client, misbehaving, chunk=2)))


def test_dask_matches_local_records(dask_records, pool_records):
    """The cluster gives the records the local run gives, in the same order."""
    assert strip_timing(dask_records[:6]) == strip_timing(r for r in pool_records if Path(r["path"]).name[0] in "ab")


def test_dask_worker_death_costs_a_retry_not_a_result(dask_records, library):
    """A worker that dies mid-batch: the scheduler re-runs its task elsewhere; the scenario still passes."""
    assert (library / "dask-flaky" / "flaky.yaml.crashed").exists()
    assert dask_records[-1]["status"] == "pass"


def test_check_run_on_a_cluster_address_matches_in_process(dask_client, library, tmp_path, capsys):
    """`arbiter check --cluster tcp://...`: the same jsonl report, byte for byte, as in-process."""
    address = dask_client.scheduler.address
    paths = sorted(p for p in library.glob("a*.yaml")) + [library / "b1-fail.yaml"]
    outs = []
    for cluster in (None, address):
        code = batch.CheckRun(paths=paths, format="jsonl", cluster=cluster, progress=False).execute()
        outs.append((code, capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0][0] == 1 and len(outs[0][1].splitlines()) == 5


@pytest.mark.soak
@pytest.mark.parametrize("objects", [10, 40])
def test_soak_generated_library_passes_and_is_identical_across_jobs(tmp_path, objects):
    """Soak (not run by default): 200 generated scenarios all pass, the same records with 1 and 2 workers."""
    from solver.bench.generate import generate

    jobs = collect(generate(tmp_path, 200, objects, seed=objects, cores=True))
    one = strip_timing(in_order(batch.run_inline(jobs, RunOptions(timeout=60))))
    two = strip_timing(in_order(batch.run_local(jobs, RunOptions(timeout=60), 2)))
    assert one == two and {r["status"] for r in one} == {"pass"}
