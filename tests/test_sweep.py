"""``arbiter sweep``: every k-subset of a pool placed into a template, one classified result per combination.

The example pool (``examples/sweep/``) has a pair that contradicts, one that is ambiguous and one that breaks an
expectation; the sweep finds each, and flipping what makes each one so turns it into a pass (and a passing pair
into a failing one). Then the machinery: combinations and symmetric duplicates, slots, the matrix, formats,
--jobs byte-identity, --resume, located errors in templates and pools, unknown under a time limit.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.run.batch import RunOptions
from solver.run.sweep import SweepRun, prepare
from solver.run.sweep.classify import classify
from solver.run.sweep.jobs import sweep_job

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "sweep"
TEMPLATE = EXAMPLE / "duel.yaml"
POOL = EXAMPLE / "cards" / "berserk" / "pool.yaml"
runner = CliRunner()


def arbiter(*args):
    """Run the CLI in-process."""
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def sweep_records(template: Path = TEMPLATE, pool: list[Path] = (), **kw) -> dict[tuple[str, ...], dict]:
    """Run a sweep in-process: combination -> its decorated record."""
    run = SweepRun(paths=[], sweep=prepare(template, list(pool), kw.pop("only", None), kw.pop("ordered", False)),
                   format="jsonl", quiet=True, **kw)
    run.execute()
    return {tuple(r["cards"]): r for r in run.records}


@pytest.fixture(scope="module")
def example() -> dict[tuple[str, ...], dict]:
    """The example sweep, run once."""
    return sweep_records()


# -- the example finds one of each ----------------------------------------------------------------------------------
def test_the_example_finds_the_contradiction_with_its_core(example):
    """Enchantress takes the Wood Elf: Bob has no creature and Alice wins by 602.1 as Bob does by the decisive
    advantage the judge ruled: no legal outcome, and the core names both ways of winning and the ruling."""
    rec = example["enchantress", "wood_elf"]
    assert rec["result"] == "contradiction"
    core = rec["why"]["core"]
    assert {"rule berserk.602.1.no_creatures", "rule berserk.602.1.decisive_advantage"} <= set(core)
    assert "fact judge_ruled.bob.event4" in core


def test_a_contradiction_shows_its_core_though_the_template_expects_nothing(tmp_path):
    """A template whose expectations all pass with no outcome: the check asks for no core (issue 15: cores only
    when asked), yet the sweep reports the contradiction as a finding, so it computes the core."""
    text = TEMPLATE.read_text(encoding="utf-8")
    path = tmp_path / "duel.yaml"
    (tmp_path / "cards").symlink_to(EXAMPLE / "cards")
    path.write_text(text[:text.index("expect:")] + "expect: []\n", encoding="utf-8")
    rec = sweep_records(path, only=["enchantress", "wood_elf"])["enchantress", "wood_elf"]
    assert rec["status"] == "pass" and rec["result"] == "contradiction"
    assert {"rule berserk.602.1.no_creatures", "rule berserk.602.1.decisive_advantage"} <= set(rec["why"]["core"])


def test_the_example_finds_the_ambiguity_with_two_differing_outcomes(example):
    """Troll and Ogre share a cell and neither is exempt from conservation: the Ogre may step left or back."""
    rec = example["troll", "ogre"]
    assert rec["result"] == "ambiguity"
    assert rec["why"]["count"] == 2 and rec["why"]["differ"] == ["cell.second: r1c3 | r1c1"]
    a, b = rec["why"]["outcomes"]
    assert a != b


def test_the_example_finds_the_broken_expectation_with_its_core(example):
    """The Tutor permits Bob's Moss Spirit to accumulate: the 'illegal' expectation is broken, because of a
    permission."""
    rec = example["tutor", "moss_spirit"]
    assert rec["result"] == "broken"
    (e,) = rec["why"]["expectations"]
    assert (e["expected"], e["verdict"], e["description"]) == ("holds", "impossible",
                                                                "Bob's card may not accumulate a token")
    assert "core.permission" in e["rules"]


def test_every_other_pair_of_the_example_passes(example):
    """21 pairs (7 cards, each pair once): the three above, and 18 passing."""
    assert len(example) == 21
    assert sorted(c for c, r in example.items() if r["result"] != "pass") == [
        ("enchantress", "wood_elf"), ("troll", "ogre"), ("tutor", "moss_spirit")]


def _pool_with(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the example (template and pool) with one change in the pool."""
    (tmp_path / "cards" / "berserk").mkdir(parents=True)
    text = POOL.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "cards" / "berserk" / "pool.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "duel.yaml").write_bytes(TEMPLATE.read_bytes())
    return tmp_path / "duel.yaml"


@pytest.mark.parametrize("pair, old, new, result", [
    # the elf is no elf: nobody takes it, Bob keeps a creature, his decisive advantage alone decides
    (("enchantress", "wood_elf"), "types: [creature, elf, symbiote]", "types: [creature, symbiote]", "pass"),
    # the Ogre is a symbiote: no conservation duty, one outcome
    (("troll", "ogre"), "types: [creature]\n    attributes: {life: 4}",
     "types: [creature, symbiote]\n    attributes: {life: 4}", "pass"),
    # the Tutor permits nothing
    (("tutor", "moss_spirit"), "kind: permit, action: accumulate_tokens", "kind: prohibit, action: accumulate_tokens",
     "pass"),
    # and the other way: a symbiote Troll made plain meets a plain Ogre... a passing pair becomes ambiguous
    (("troll", "moss_spirit"), "text: \"Symbiote.\"\n    types: [creature, symbiote]\n    attributes: {life: 1}",
     "types: [creature]\n    attributes: {life: 1}", "ambiguity"),
])
def test_flipping_what_makes_a_pair_so_flips_its_result(tmp_path, pair, old, new, result):
    """Each finding depends on the cards: change the card that causes it and the pair's result follows."""
    recs = sweep_records(_pool_with(tmp_path, old, new), only=list(pair))
    assert recs[pair]["result"] == result


@pytest.mark.parametrize("line, old, new", [
    ("{unique: true", "{unique: true", "{outcomes: 2"),
    ("{winner: bob", "{winner: bob", "{winner: alice"),
])
def test_a_wrong_template_expectation_breaks_passing_pairs(tmp_path, line, old, new):
    """The expectations hold for every passing pair; state a wrong one and those pairs are no longer passing."""
    text = TEMPLATE.read_text(encoding="utf-8")
    assert line in text
    path = tmp_path / "duel.yaml"
    (tmp_path / "cards").symlink_to(EXAMPLE / "cards")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    recs = sweep_records(path, only=["enchantress", "troll"])
    assert recs["enchantress", "troll"]["result"] == "broken"


# -- combinations -----------------------------------------------------------------------------------------------------
def test_each_subset_once_in_pool_order_or_every_order():
    """Pairs are subsets (symmetric duplicates skipped): 7 cards give 21; --ordered places both orders: 42."""
    s = prepare(TEMPLATE, [])
    assert len(s.combinations) == 21 and len(set(map(frozenset, s.combinations))) == 21
    assert all(s.pool.ids.index(a) < s.pool.ids.index(b) for a, b in s.combinations)
    assert len(prepare(TEMPLATE, [], ordered=True).combinations) == 42


@pytest.mark.parametrize("k, count", [(1, 7), (2, 21), (3, 35)])
def test_k_is_the_number_of_slots(tmp_path, k, count):
    """One, two or three slots: every k-subset of the pool."""
    (tmp_path / "cards").symlink_to(EXAMPLE / "cards")
    objects = "".join(f"  - {{id: o{n}, card: ${n}, owner: alice, zone: play, timestamp: {n}}}\n"
                      for n in range(1, k + 1))
    path = tmp_path / "t.yaml"
    path.write_text(f"id: t\ngame: berserk\nplayers: [{{id: alice}}, {{id: bob}}]\nobjects:\n{objects}"
                    "expect:\n  - {unique: true}\n", encoding="utf-8")
    s = prepare(path, [])
    assert s.info.k == k and len(s.combinations) == count


def test_the_matrix_fills_both_cells_of_a_pair_and_leaves_the_diagonal(example):
    """For pairs, the pool-by-pool matrix: a pair's result in both of its cells, nothing on the diagonal."""
    from solver.run.sweep.formats import matrix

    info = prepare(TEMPLATE, []).info
    cells = matrix(info, list(example.values()))
    ids = list(info.pool)
    i, j = ids.index("enchantress"), ids.index("wood_elf")
    assert cells[i][j] == cells[j][i] == "contradiction"
    assert all(cells[n][n] is None for n in range(len(ids)))


# -- the command -----------------------------------------------------------------------------------------------------
def test_text_report_and_exit_code():
    """Text: each combination that does not pass with why, the matrix, the counts; exit 1 (not every pair passes)."""
    r = arbiter("sweep", TEMPLATE)
    assert r.exit_code == 1
    assert "CONTRADICTION        enchantress + wood_elf" in r.stdout
    assert "matrix (each pair in both of its cells" in r.stdout
    assert r.stdout.rstrip().endswith("1 contradiction, 1 ambiguity, 1 expectation broken, 0 unknown, 0 errors, "
                                      "18 passing, 21 combinations")


def test_all_passing_exits_0():
    """A pool of pairs that all pass: exit 0."""
    r = arbiter("sweep", TEMPLATE, "--only", "enchantress,troll,moss_spirit")
    assert r.exit_code == 0, r.stdout


def test_json_and_jsonl_carry_every_combination():
    """JSON: summary, every combination with its result and why, the matrix; JSONL: one line per combination."""
    doc = json.loads(arbiter("sweep", TEMPLATE, "-f", "json").stdout)
    assert doc["summary"] == {"contradiction": 1, "ambiguity": 1, "broken": 1, "unknown": 0, "error": 0, "pass": 18,
                              "total": 21}
    assert len(doc["combinations"]) == 21 and doc["matrix"]["cards"] == doc["pool"]
    lines = arbiter("sweep", TEMPLATE, "-f", "jsonl").stdout.splitlines()
    assert [json.loads(x)["cards"] for x in lines] == [c["cards"] for c in doc["combinations"]]


def test_jobs_2_gives_the_same_bytes(tmp_path):
    """Deterministic: --jobs 2 writes the same report as --jobs 1."""
    for n in (1, 2):
        arbiter("sweep", TEMPLATE, "-f", "json", "-o", tmp_path / f"j{n}.json", "--jobs", n)
    assert (tmp_path / "j1.json").read_bytes() == (tmp_path / "j2.json").read_bytes()


def test_resume_reuses_what_is_unchanged(tmp_path, monkeypatch):
    """--resume checks only the combinations missing from the report (or whose template or cards changed)."""
    out = tmp_path / "s.jsonl"
    arbiter("sweep", TEMPLATE, "-f", "jsonl", "-o", out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:5]) + "\n")
    calls = []
    from solver.run.sweep import jobs as sweep_jobs

    real = sweep_jobs._check
    monkeypatch.setattr(sweep_jobs, "_check", lambda job, opts: calls.append(job["slots"]) or real(job, opts))
    assert arbiter("sweep", TEMPLATE, "-f", "jsonl", "-o", out, "--resume").exit_code == 1
    assert len(calls) == 16 and out.read_text().splitlines() == lines


def test_a_time_limit_gives_unknown_never_a_pass():
    """No time to solve: every combination is unknown, none passes."""
    s = prepare(TEMPLATE, [], ["troll", "ogre"])
    job = s.jobs()[0].payload()
    rec = sweep_job(job, RunOptions(timeout=1e-9))
    assert rec["status"] == "unknown" and classify(rec, True)[0] == "unknown"


# -- bad input ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("objects, message", [
    ("  - {id: a, card: $1, owner: alice, zone: play}\n  - {id: b, card: $3, owner: bob, zone: play}\n",
     "slots are numbered $1 .. $2 with none left out (found $1, $3)"),
    ("  - {id: a, card: $x, owner: alice, zone: play}\n", "objects[0].card: a slot is $1, $2 or $3, not '$x'"),
    ("  - {id: a, owner: alice, zone: play}\n", "a sweep template needs a slot"),
])
def test_a_bad_template_is_a_located_usage_error(tmp_path, objects, message):
    """Slots are $1 .. $k with none left out: anything else is refused, located, exit 2."""
    path = tmp_path / "t.yaml"
    path.write_text("id: t\ngame: berserk\nplayers: [{id: alice}, {id: bob}]\nobjects:\n" + objects,
                    encoding="utf-8")
    r = arbiter("sweep", path, "--pool", POOL)
    assert r.exit_code == 2 and message in r.stderr and "t.yaml:" in r.stderr and "Traceback" not in r.stderr


def test_a_bad_pool_is_a_located_usage_error(tmp_path):
    """A pool card with an unknown word: the card file's line and column, exit 2."""
    pool = tmp_path / "pool.yaml"
    pool.write_text(POOL.read_text(encoding="utf-8").replace("types: [creature, elf, symbiote]",
                                                             "types: [creature, elff, symbiote]"), encoding="utf-8")
    r = arbiter("sweep", TEMPLATE, "--pool", pool)
    assert r.exit_code == 2 and "pool.yaml:29:23: cards[3].types[1]: unknown object type 'elff' for berserk; did " \
                                "you mean 'elf'?" in r.stderr


def test_a_combination_that_cannot_be_placed_is_an_error_not_a_crash(tmp_path):
    """A card that needs what its slot lacks (a Blade needs something to be attached to): that combination is an
    error with its located reason; the others go on."""
    pool = tmp_path / "pool.yaml"
    pool.write_text(textwrap.dedent("""\
        game: berserk
        cards:
          - {id: a, types: [creature]}
          - {id: b, types: [creature, symbiote]}
          - id: blade
            types: [equipment]
            effects: [{id: dark, kind: set, attribute: element, value: darkness, targets: attached}]
        """), encoding="utf-8")
    recs = sweep_records(TEMPLATE, [pool])
    assert recs["a", "blade"]["result"] == "error"
    assert "applies to what the card is attached to" in recs["a", "blade"]["why"]["message"]
    assert "duel.yaml:" in recs["a", "blade"]["why"]["message"]
    assert recs["a", "b"]["result"] == "pass"


def test_unknown_only_card_is_a_usage_error():
    """--only names a card the pool does not have: exit 2, naming it."""
    r = arbiter("sweep", TEMPLATE, "--only", "troll,gnome")
    assert r.exit_code == 2 and "not in the pool: gnome" in r.stderr


def test_a_dask_cluster_gives_the_same_report(tmp_path):
    """--cluster ADDRESS: the combinations are checked on Dask workers; the report is the same bytes."""
    distributed = pytest.importorskip("distributed")
    only = ["--only", "enchantress,troll,ogre,wood_elf"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        for name, extra in (("inline", []), ("dask", ["--cluster", lc.scheduler_address])):
            arbiter("sweep", TEMPLATE, *only, "-f", "json", "-o", tmp_path / f"{name}.json", *extra)
    assert (tmp_path / "inline.json").read_bytes() == (tmp_path / "dask.json").read_bytes()
    assert json.loads((tmp_path / "dask.json").read_text())["summary"]["contradiction"] == 1


def test_checking_a_template_says_it_is_one():
    """`arbiter check` on a sweep template: its slots are named as such, located."""
    r = arbiter("check", TEMPLATE)
    assert r.exit_code == 2 and "duel.yaml:17:23: objects[0].card: '$1' is a slot of a sweep template" in r.stdout
