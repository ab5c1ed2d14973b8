"""The fast sweep: every combination's record equals the exhaustive sweep's, settled from representatives whose
checks read the same values (``solver.run.sweep.fast``, ``reads``), and each flagged combination's minimal cause.

The comparison at full size (the 40-card pool at k = 2 and k = 3, 50 random 12-card pools at k = 3) is
``python -m solver.bench.sweep --compare`` (README: Fast sweeps); here the same comparison runs at a size CI
affords, on the same pools and templates.
"""
from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from solver.run.batch import RunOptions, run_inline
from solver.run.sweep import SweepRun, prepare
from solver.run.sweep.cause import causes, sub_combinations
from solver.run.sweep.fast import ABSENT, FastSweep, card_shape, fast_job, removable_slots
from solver.run.sweep.fastrun import FastSweepRun
from solver.run.sweep.formats import decorate
from solver.run.sweep.jobs import sweep_job

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "examples" / "sweep" / "duel.yaml"
TRIO = ROOT / "examples" / "sweep" / "bench" / "trio.yaml"
POOL40 = ROOT / "examples" / "sweep" / "bench" / "pool40.yaml"
POOL200 = ROOT / "examples" / "sweep" / "bench" / "pool200.yaml"
OPTS = RunOptions()


def exhaustive(sweep) -> list[dict]:
    """Every combination checked on its own (the exhaustive sweep's records, decorated)."""
    return [decorate({**sweep_job(j.payload(), OPTS), "cards": list(j.slots)}, sweep.info) for j in sweep.jobs()]


def fast(sweep) -> tuple[FastSweep, list[dict]]:
    """The fast sweep, in-process: its state and every combination's decorated record."""
    fs = FastSweep(sweep.template, sweep.pool.ids, sweep.pool.library, sweep.pool.sources, sweep.info,
                   ordered=sweep.info.ordered)
    rep_of = fs.run(lambda jobs: run_inline(jobs, OPTS, fast_job))
    return fs, list(fs.decorated(rep_of))


def comparable(rec: dict) -> dict:
    """A record without what is its job's own bookkeeping (the content hash names the job, not the answer)."""
    return {k: v for k, v in rec.items() if k not in ("hash", "seconds")}


def assert_same(sweep) -> FastSweep:
    """The fast sweep's records equal the exhaustive sweep's, combination by combination (every field)."""
    fs, got = fast(sweep)
    want = exhaustive(sweep)
    assert [r["cards"] for r in got] == [r["cards"] for r in want]
    for a, b in zip(got, want):
        assert comparable(a) == comparable(b), a["cards"]
    return fs


# -- fast equals exhaustive ---------------------------------------------------------------------------------------
def test_the_example_duel_gives_the_exhaustive_records():
    assert_same(prepare(DUEL, []))


def test_the_bench_pool_at_k2_settles_most_pairs_and_gives_the_exhaustive_records():
    fs = assert_same(prepare(DUEL, [POOL40], ["plain_01", "plain_02", "plain_03", "hero_18", "hero_19", "tutor_01",
                                              "tutor_02", "stone_03", "stone_04", "hoarder_24", "hoarder_25"]))
    assert fs.stats.settled > 0  # plain_01/02/03 differ in life and strike only: nothing here reads them


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_pools_at_k3_give_the_exhaustive_records(seed):
    """A random 7-card pool of the 200-card bench pool at k = 3 (the full run: 50 pools of 12)."""
    ids = list(prepare(TRIO, [POOL200]).pool.ids)
    pick = random.Random(seed).sample(ids, 7)
    assert_same(prepare(TRIO, [POOL200], pick))


def test_the_ordered_sweep_gives_the_exhaustive_records():
    assert_same(prepare(DUEL, [POOL40], ["plain_01", "plain_02", "tutor_01", "stone_03"], ordered=True))


# -- why it is sound: the probe logs what the check reads ------------------------------------------------------------
def _template(tmp_path: Path, expect: str, extra_object: str = "") -> Path:
    (tmp_path / "cards" / "berserk").mkdir(parents=True, exist_ok=True)
    (tmp_path / "cards" / "berserk" / "pool.yaml").write_text(textwrap.dedent("""\
        game: berserk
        cards:
          - {id: a1, types: [creature], attributes: {life: 1}, properties: {strike: 1-2-3}}
          - {id: a2, types: [creature], attributes: {life: 2}, properties: {strike: 2-3-4}}
          - {id: a3, types: [creature], attributes: {life: 2}, properties: {strike: 1-2-3}}
        """))
    t = tmp_path / "t.yaml"
    t.write_text(textwrap.dedent(f"""\
        id: t
        game: berserk
        players: [{{id: alice}}, {{id: bob}}]
        objects:
          - {{id: x, card: $1, owner: alice, zone: play}}
          {extra_object}
        expect:
          - {expect}
        """))
    return t


@pytest.mark.parametrize("expect, read, settled", [
    ("{object: x, zone: play}", set(), 2),                                   # nothing reads life or strike
    ("{object: x, attributes: {life: 2}}", {(1, "attr", "life")}, 1),        # an expectation reads life
    ("{object: x, properties: {strike: 1-2-3}}", {(1, "prop", "strike")}, 1),
])
def test_the_probe_logs_what_the_check_reads_and_settles_by_it(tmp_path, expect, read, settled):
    sweep = prepare(_template(tmp_path, expect), [])
    fs = assert_same(sweep)
    assert set(fs.reps[0].reads) == read
    assert fs.stats.settled == settled


def test_a_field_naming_cards_keeps_property_values_in_the_shape_and_its_direct_read_is_logged(tmp_path):
    """Berserk 532.8's ``not_with`` names cards by property values: validating the scenario reads every object's
    (here 2-3-4 names nothing, an error) and the rule matches them by Python, not through a state variable."""
    t = _template(tmp_path, "{object: y, zone: play}")
    t.write_text(textwrap.dedent("""\
        id: t
        game: berserk
        players: [{id: alice}, {id: bob}]
        board: {rows: 1, cols: 2}
        objects:
          - {id: x, card: $1, owner: alice, zone: play, cell: r1c2}
          - {id: y, owner: alice, zone: hand, types: [creature], properties: {not_with: 1-2-3}}
        events:
          - {type: declare, id: s, actor: alice, kind: summon, source: y, params: {cell: r1c1}}
        expect:
          - {action: s, action_status: illegal}
        """))
    fs = assert_same(prepare(t, []))
    assert fs.names_read and fs.stats.checked == 2  # a1 and a3 share their shape, values and all; a2 does not
    assert (1, "prop", "strike") in set(fs.reps[0].reads)
    assert [r["status"] for r in fast(prepare(t, []))[1]] == ["pass", "error", "pass"]


def test_a_settled_combination_shows_its_own_unread_values(tmp_path):
    sweep = prepare(_template(tmp_path, "{object: x, zone: play}"), [])
    fs, got = fast(sweep)
    assert fs.stats.checked == 1
    assert [r["outcomes"][0]["state"]["attr.x.life"] for r in got] == ["1", "2", "2"]


def test_a_representative_with_an_unknown_result_settles_nobody():
    sweep = prepare(DUEL, [POOL40], ["plain_01", "plain_02", "plain_03"])
    fs = FastSweep(sweep.template, sweep.pool.ids, sweep.pool.library, sweep.pool.sources, sweep.info)
    fs.run(lambda jobs: run_inline(jobs, RunOptions(timeout=1e-9), fast_job))
    assert fs.stats.checked == fs.stats.combinations == 3


def test_a_shape_leaves_out_wording_and_values_only():
    lib = prepare(DUEL, [POOL40]).pool.library
    assert card_shape(lib.get("plain_01").definition) == card_shape(lib.get("plain_06").definition)
    assert card_shape(lib.get("plain_01").definition) != card_shape(lib.get("symbiote_07").definition)


# -- minimal cause --------------------------------------------------------------------------------------------------
def test_removable_slots_are_those_nothing_names():
    assert removable_slots(prepare(TRIO, [POOL40]).template) == {1, 3}
    assert removable_slots(prepare(DUEL, []).template) == {1}
    assert sub_combinations((0, 1, 2), {1, 3}) == [(-1, 1, 2), (0, 1, -1)]


def test_a_triples_pair_without_the_bystander_is_the_duels_pair():
    """Leaving $3 out of the trio gives the duel: the pair's result there is the duel sweep's for the same cards."""
    pick = ["plain_01", "tutor_01", "stone_03", "hoarder_24", "elf_15", "charm_05"]
    trio = prepare(TRIO, [POOL40], pick)
    fs, records = fast(trio)
    flagged = [tuple(trio.pool.ids.index(c) for c in r["cards"]) for r in records if r["result"] != "pass"]
    found = causes(fs, flagged, lambda jobs: run_inline(jobs, OPTS, fast_job))
    duel = {tuple(r["cards"]): r["result"] for r in exhaustive(prepare(DUEL, [POOL40], pick))}
    pairs = 0
    for cause in map(found.of, flagged):
        for part in cause["sub"]:
            if part["cards"][2] == ABSENT:
                pairs += 1
                assert part["result"] == duel[tuple(part["cards"][:2])]
        assert cause["genuine"] == all(p["result"] == "pass" for p in cause["sub"])
    assert pairs


def test_the_fast_run_reports_a_cause_under_each_flagged_combination(capsys):
    run = FastSweepRun(paths=[], sweep=prepare(DUEL, []), format="text", progress=False)
    assert run.execute() == 1
    out = capsys.readouterr().out
    flagged = [r for r in run.records if r["result"] != "pass"]
    assert flagged and all("cause" in r for r in flagged)
    assert out.count("cause: ") == len(flagged)
    plain = SweepRun(paths=[], sweep=prepare(DUEL, []), format="text", quiet=True, progress=False)
    plain.execute()
    assert [comparable({k: v for k, v in r.items() if k != "cause"}) for r in run.records] == \
        [comparable(r) for r in plain.records]


# -- the batch runner: --jobs, Dask ------------------------------------------------------------------------------------
def test_fast_on_workers_and_on_dask_gives_the_same_report(tmp_path):
    """--fast with --jobs 2 and on a Dask cluster: the same bytes as in-process, and (but for the causes and the
    jobs' own hashes) the exhaustive sweep's records."""
    from typer.testing import CliRunner

    from solver.cli import app

    distributed = pytest.importorskip("distributed")
    run = CliRunner().invoke
    only = ["--pool", str(POOL40), "--only", "plain_01,plain_02,tutor_01,stone_03,charm_05,elf_15"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        for name, extra in (("inline", []), ("jobs", ["--jobs", "2"]), ("dask", ["--cluster", lc.scheduler_address])):
            r = run(app, ["sweep", str(DUEL), *only, "--fast", "-f", "json", "-o", str(tmp_path / f"{name}.json"),
                          *extra], catch_exceptions=False)
            assert r.exit_code == 1
    inline = (tmp_path / "inline.json").read_bytes()
    assert inline == (tmp_path / "jobs.json").read_bytes() == (tmp_path / "dask.json").read_bytes()
    got = [comparable({k: v for k, v in r.items() if k != "cause"}) for r in json.loads(inline)["combinations"]]
    assert got == [comparable(r) for r in exhaustive(prepare(DUEL, [POOL40], only[3].split(",")))]
