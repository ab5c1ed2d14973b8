"""Batch runs: spawned workers with a watchdog, Dask, time limits, the journal behind --resume, the Python API."""
from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from models.scenario import Scenario
from solver.run import api, batch
from solver.run.batch import RunOptions, ScenarioTimeout, check_job, collect, deadline, in_order
from solver.run.formats import FORMATS

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


#: the wall-clock safety limit of the pool run: short, so the hanging scenario costs little, yet far above what a
#: well-behaved one takes on a loaded machine (answers never depend on it: they depend on the work budget)
SAFETY = 8.0


@pytest.fixture(scope="module")
def pool_records(library) -> list[dict]:
    """One spawned-pool run over the misbehaving library (2 workers, chunks of 3, a short watchdog), in order."""
    pool = batch.LocalPool(collect([library]), RunOptions(safety=SAFETY), 2, misbehaving, chunk=3, grace=1.0)
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
    """Crash twice -> error; past the safety limit -> unknown (killed by the watchdog); crash once -> retried,
    passes."""
    assert pool_results[name] == status


def test_pool_explains_crash_and_hang(pool_records):
    """The error and unknown records say what happened."""
    by = {Path(r["path"]).name: r for r in pool_records}
    assert "died twice" in by["crash.yaml"]["error"]
    assert f"unknown (wall-clock safety limit): stopped after {SAFETY:g} s" in by["hang.yaml"]["error"]


def strip_timing(recs) -> list[dict]:
    """Records without their timing."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in recs]


def test_inline_and_pool_give_identical_records(pool_records, library):
    """The same records in-process as in 2 spawned workers (timing aside) for the well-behaved scenarios."""
    jobs = [j for j in collect([library]) if Path(j.path).name[0] in "ab"]
    inline = strip_timing(in_order(batch.run_inline(jobs, RunOptions())))
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
    one = strip_timing(in_order(batch.run_inline(jobs, RunOptions())))
    two = strip_timing(in_order(batch.run_local(jobs, RunOptions(), 2)))
    assert one == two and {r["status"] for r in one} == {"pass"}


# -- issue 17: the filesystem as a hostile user sets it up --------------------------------------------
def within(seconds: float, fn, *args):
    """Run fn in a thread; its result, or a failure if it is still running after ``seconds`` (a hang guard)."""
    out: list = []
    t = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    t.start()
    t.join(seconds)
    assert out, f"still running after {seconds} s (hung)"
    return out[0]


@pytest.fixture
def odd_folder(tmp_path) -> Path:
    """A scenario folder with good files and one of every oddity: links that loop or dangle, a fifo, a socket."""
    d = tmp_path / "lib"
    (d / "sub").mkdir(parents=True)
    write(d, "a-good.yaml", PASS.format(n=1))
    (d / "loop1.yaml").symlink_to("loop2.yaml")
    (d / "loop2.yaml").symlink_to("loop1.yaml")
    (d / "dangling.yaml").symlink_to("nowhere.yaml")
    os.mkfifo(d / "pipe.yaml")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(d / "sock.yaml"))
    sock.close()
    (d / "sub" / "up").symlink_to("..")  # a folder link back to a folder that contains it
    write(d / "sub", "deep.yaml", PASS.format(n=2))
    return d


FS_CASES = {
    "a-good.yaml": ("pass", None),
    "dangling.yaml": ("error", "dangling symbolic link"),
    "loop1.yaml": ("error", "symbolic link loop"),
    "loop2.yaml": ("error", "symbolic link loop"),
    "pipe.yaml": ("error", "is a named pipe"),
    "sock.yaml": ("error", "is a socket"),
    "deep.yaml": ("pass", None),
    "up": ("error", "leads back to a folder that contains it"),
}


def test_every_folder_entry_is_reported(odd_folder):
    """Nothing skipped silently: each oddity is an error result with its reason, beside the good files."""
    recs = within(60, lambda: list(in_order(batch.run_inline(collect([odd_folder]), RunOptions()))))
    got = {Path(r["path"]).name: (r["status"], r["error"]) for r in recs}
    assert sorted(got) == sorted(FS_CASES)
    for name, (status, fragment) in FS_CASES.items():
        assert got[name][0] == status, got[name]
        assert fragment is None or fragment in got[name][1]


def test_unreadable_subfolder_is_reported(odd_folder, monkeypatch):
    """A folder that cannot be listed is an error entry (simulated: the tests may run as root)."""
    real = os.scandir

    def scandir(path):
        if Path(path).name == "sub":
            raise PermissionError(13, "Permission denied")
        return real(path)
    monkeypatch.setattr(os, "scandir", scandir)
    recs = {Path(j.path).name: j.read_error for j in collect([odd_folder])}
    assert "sub" in recs and "cannot list folder: permission denied" in recs["sub"]
    assert "deep.yaml" not in recs


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_unreadable_subfolder_for_real(odd_folder):
    """The same with real permissions."""
    (odd_folder / "sub").chmod(0)
    try:
        recs = {Path(j.path).name: j.read_error for j in collect([odd_folder])}
    finally:
        (odd_folder / "sub").chmod(0o755)
    assert "permission denied" in recs["sub"]


def test_check_run_exits_2_and_counts_every_entry(odd_folder, capsys):
    """`arbiter check FOLDER`: exit 2 (entries refused), and the total counts every entry (not only the readable
    one)."""
    code = within(60, lambda: batch.CheckRun(paths=[odd_folder], progress=False).execute())
    out = capsys.readouterr().out
    assert code == 2 and out.rstrip().endswith(f"2 passed, 0 failed, 6 errors, 0 unknown, {len(FS_CASES)} total")


def test_a_named_pipe_given_as_a_path_is_refused_without_reading(tmp_path):
    """A fifo named on the command line: refused from its status (opening it to read would block forever)."""
    os.mkfifo(tmp_path / "pipe.yaml")
    jobs = within(10, collect, [tmp_path / "pipe.yaml"])
    assert "is a named pipe" in jobs[0].read_error and "refused without reading" in jobs[0].read_error


NON_UTF8 = os.fsdecode(b"bad\xff\xfename.yaml")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_not_utf8_is_escaped_in_every_format(tmp_path, fmt):
    """Kept as given (bytes), shown with visible escapes; every output parses (the odd file fails, so exit 1)."""
    import json
    import xml.etree.ElementTree as ET

    write(tmp_path, NON_UTF8, FAIL.format(n=1))
    write(tmp_path, "good.yaml", PASS.format(n=2))
    out = tmp_path / f"report.{fmt}"
    assert batch.CheckRun(paths=[tmp_path], format=fmt, output=out, progress=False).execute() == 1
    body = out.read_bytes().decode("utf-8")  # strict: the report is valid UTF-8
    assert "bad\\xff\\xfename.yaml" in body.replace("\\\\", "\\")
    if fmt == "json":
        assert [r["status"] for r in json.loads(body)["scenarios"]] == ["fail", "pass"]
    elif fmt == "jsonl":
        assert [json.loads(x)["status"] for x in body.splitlines()] == ["fail", "pass"]
    elif fmt == "junit":
        assert ET.fromstring(body).find("testsuite").get("tests") == "2"


def test_resume_works_on_a_file_name_that_is_not_utf8(tmp_path, monkeypatch):
    """--resume reuses the result of the oddly named file: nothing is checked again."""
    lib = tmp_path / "lib"
    lib.mkdir()
    write(lib, NON_UTF8, PASS.format(n=1))
    out = tmp_path / "r.jsonl"
    assert batch.CheckRun(paths=[lib], format="jsonl", output=out, progress=False).execute() == 0
    first = out.read_text(encoding="utf-8")

    def never(jobs, *args, **kwargs):
        assert not jobs, "re-checked a scenario --resume should have kept"
        return iter(())
    monkeypatch.setattr(batch, "run", never)
    assert batch.CheckRun(paths=[lib], format="jsonl", output=out, resume=True, progress=False).execute() == 0
    assert out.read_text(encoding="utf-8") == first


# -- issue 17: workers that die while starting ---------------------------------------------------------
class KilledAtStart(batch.LocalPool):
    """A pool that kills some of the workers it spawns the moment they start (still importing): ``plan[k]`` says
    whether spawn number k is killed (spawns past the plan live)."""

    plan: list[bool] = []

    def _spawn(self):
        w = super()._spawn()
        if self.plan and self.plan.pop(0):
            w.proc.kill()
        return w


def test_a_worker_killed_while_starting_charges_no_scenario(tmp_path):
    """The issue's case: a scenario crashes its worker once (retried: fair), then the replacement is killed while it
    starts. That death is nobody's: the scenario is retried again and passes, not 'died twice'."""
    write(tmp_path, "a0-pass.yaml", PASS.format(n=0))
    write(tmp_path, "flaky.yaml", PASS.format(n=1))
    KilledAtStart.plan = [False, True]  # the first worker lives; its replacement is killed as it starts
    recs = list(in_order(KilledAtStart(collect([tmp_path]), RunOptions(), 1, misbehaving, chunk=1).run()))
    assert (tmp_path / "flaky.yaml.crashed").exists()
    assert [r["status"] for r in recs] == ["pass", "pass"], [r.get("error") for r in recs]


def test_workers_that_never_start_stop_the_run(library):
    """Bounded: workers that keep dying before they check anything end the run with ClusterError."""
    KilledAtStart.plan = [True] * 100
    jobs = [j for j in collect([library]) if Path(j.path).name.startswith("a")]
    with pytest.raises(batch.ClusterError, match="keep dying before they check anything"):
        list(KilledAtStart(jobs, RunOptions(), 1, check_job, chunk=4).run())


# -- issue 17: a cluster with no live worker -----------------------------------------------------------
def test_a_scheduler_with_no_worker_is_an_error_in_bounded_time(tmp_path):
    """In-process scheduler with no workers: ClusterError naming the scheduler after the limit, not a hang."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as lc, \
            distributed.Client(lc, set_as_default=False) as client:
        jobs = collect([write(tmp_path, "a.yaml", PASS.format(n=1))])

        def run():
            try:
                list(batch.run_dask(jobs, RunOptions(), client, no_worker_timeout=1.0))
            except batch.ClusterError as exc:
                return str(exc)
            return "no error"
        message = within(30, run)
    assert "no live worker" in message and lc.scheduler_address in message and "no worker joined" in message


def sleepy(job: dict, opts: RunOptions) -> dict:
    """check_job after a short pause (so the test can take the worker away mid-run)."""
    time.sleep(0.3)
    return check_job(job, opts)


def test_losing_the_last_worker_mid_run_is_the_same_error(tmp_path):
    """The only worker leaves after the first result: ClusterError within the limit, not a wait forever."""
    distributed = pytest.importorskip("distributed")
    jobs = collect([write(tmp_path, f"s{n}.yaml", PASS.format(n=n)) for n in range(6)])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as lc, \
            distributed.Client(lc, set_as_default=False) as client:
        def run():
            got = []
            try:
                for pair in batch.run_dask(jobs, RunOptions(), client, sleepy, chunk=1, no_worker_timeout=1.0):
                    got.append(pair)
                    if len(got) == 1:
                        lc.scale(0)
            except batch.ClusterError as exc:
                return len(got), str(exc)
            return len(got), "no error"
        done, message = within(60, run)
    assert 1 <= done < len(jobs) and "no live worker" in message and "last worker left" in message
