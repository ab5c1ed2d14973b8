"""The faster paths change no answer: slicing, cores only when asked, the core shrink by blocks, lean solver settings.

Each switch of ``SolverOptions`` is compared with its baseline (``SolverOptions.baseline``) on a sample of the
library and on random scenarios of every game: the same outcome sets, verdicts, passes, messages, action statuses
and, where both compute them, the same cores (``solver.bench.paths``). The full comparison, the library and 2,000
generated plus 2,000 random scenarios, is ``python -m solver.bench.paths``; the whole library here runs under
``-m soak``. Nothing here is timed: the figures are ``arbiter bench``'s.
"""
from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from models.loader import load_scenario
from models.scenario import Scenario
from solver.bench.generate import generate
from solver.bench.paths import answers, compare, cores
from solver.check.checker import ScenarioCheck
from solver.encoding.compile import Compiler
from solver.engine.settings import SolverOptions
from solver.engine.solve import Engine
from solver.reference.generate import random_doc
from solver.registry import names, ruleset_for
from tests.helpers import run, scenario

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))
#: every tenth library scenario runs by default (every game has some); the whole library under -m soak
SAMPLE = [pytest.param(p, marks=() if i % 10 == 0 else pytest.mark.soak, id=f"{p.parent.name}/{p.name}")
          for i, p in enumerate(LIBRARY)]
FAST = SolverOptions()
BASE = SolverOptions.baseline()
#: one switch at a time, the others as by default
SWITCHES = {"slicing": replace(FAST, slicing=False), "lazy_cores": replace(FAST, lazy_cores=False),
            "block_deletion": replace(FAST, block_deletion=False), "lean_search": replace(FAST, lean_search=False),
            "all": BASE}


def random_scenarios(count: int, seed: int) -> list[tuple[str, Scenario]]:
    """Random small scenarios of every game, ``count`` each."""
    rng = random.Random(seed)
    return [(f"{g}-{i}", Scenario.model_validate(random_doc(rng, g, i))) for g in names() for i in range(count)]


RANDOM = random_scenarios(4, 15)


# -- answers ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", SAMPLE)
def test_library_answers_do_not_depend_on_the_fast_paths(path: Path) -> None:
    """Each switch off (and all of them): the same outcomes, verdicts, passes and statuses."""
    sc = load_scenario(path).scenario
    fast = answers(sc, FAST)
    for switch, opts in SWITCHES.items():
        assert answers(sc, opts) == fast, switch


@pytest.mark.parametrize("name, sc", RANDOM, ids=[n for n, _ in RANDOM])
def test_random_answers_do_not_depend_on_the_fast_paths(name: str, sc: Scenario) -> None:
    """The same on random scenarios of every game, plain and with every core computed."""
    for why in (False, True):
        assert answers(sc, BASE, why) == answers(sc, FAST, why), why


@pytest.mark.parametrize("path", SAMPLE)
def test_shown_cores_do_not_depend_on_slicing_or_the_shrink(path: Path) -> None:
    """With every core computed: slicing and the shrink by blocks show the same rules and facts as the baseline
    model and deletion (core searches run with the same lean settings on every path, so the solver's cores are the same)."""
    sc = load_scenario(path).scenario
    assert cores(sc, FAST) == cores(sc, replace(FAST, slicing=False, block_deletion=False))


#: found by ``python -m solver.bench.paths``: the elimination rules read a unit and a planet no event or expectation
#: names; created when first read, they came late in the model and the solver's core named another fact of them
READ_NOT_NAMED = {
    "id": "ti4-read-not-named", "game": "ti4", "players": [{"id": "alice"}, {"id": "bob"}, {"id": "carol"}],
    "options": {"players_at_start": 6},
    "objects": [{"id": "o0", "zone": "box", "types": ["ground_force", "mech"], "owner": "alice"},
                {"id": "o1", "zone": "box", "types": ["unit", "structure"], "owner": "carol"},
                {"id": "o2", "zone": "board", "types": ["planet"], "controller": "carol"},
                {"id": "o3", "zone": "board", "types": ["home_system"], "owner": "bob"},
                {"id": "o4", "zone": "board", "types": ["planet"], "controller": "alice"},
                {"id": "obj2", "zone": "play_area", "types": ["public_objective"], "controller": "alice"}],
    "effects": [{"id": "e0", "timestamp": 1, "kind": "remove", "ability": "production", "targets": ["o0"],
                 "duration": "permanent"},
                {"id": "e1", "timestamp": 2, "kind": "remove", "ability": "production", "source": "o3",
                 "targets": {"types": ["unit"], "controlled_by": "source_controller"}, "duration": "permanent"}],
    "events": [{"type": "planet_control", "planet": "o4", "player": "carol"},
               {"type": "move", "object": "o0", "zone": "box"},
               {"type": "declare", "id": "a2", "actor": "bob", "kind": "score_objective", "source": "obj2",
                "targets": ["o3"]},
               {"type": "check_elimination"}],
    "expect": [{"player": "bob", "status": "in_game"}, {"object": "o3", "zone_owner": "alice"}, {"player": "alice", "status": "eliminated"},
               {"unique": True}]}


def test_objects_read_but_not_named_are_built_in_the_usual_order() -> None:
    """The model is built again with them first: the cores are those of the unsliced model."""
    sc = Scenario.model_validate(READ_NOT_NAMED)
    check = ScenarioCheck(sc)
    assert check._build()[0].late == {"o1", "o2"}
    assert check._build(frozenset({"o1", "o2"}))[0].late == set()
    assert cores(sc, FAST) == cores(sc, replace(FAST, slicing=False))


@pytest.mark.parametrize("cores_", [False, True])
def test_generated_scenarios_agree_on_both_paths(tmp_path, cores_: bool) -> None:
    """A few generated Berserk scenarios, with and without the expectations that need cores: no disagreement."""
    for path in generate(tmp_path, 3, 12, seed=4, cores=cores_):
        assert compare(load_scenario(path).scenario) == [], path.name


def test_the_full_comparison_runs_and_counts(capsys) -> None:
    """``python -m solver.bench.paths`` on a small sample: it prints what it compared and exits 0."""
    from solver.bench.paths import main

    assert main(["--generated", "2", "--random", "5", "--library", "no-such-folder"]) == 0
    assert "compared 7 scenarios on both paths: 0 disagreements" in capsys.readouterr().out


# -- cores only when asked ----------------------------------------------------------------------------------------
UNIQUE = scenario("core", objects=[{"id": "card", "owner": "alice", "zone": "play"}],
                  events=[{"type": "move", "object": "card", "zone": "graveyard"}],
                  expect=[{"object": "card", "zone": "graveyard"}, {"object": "card", "zone": "play",
                                                                     "verdict": "impossible"}, {"unique": True}])


def test_a_passing_scenario_without_because_costs_only_its_outcome_solves() -> None:
    """One solve finds the outcome, one proves it unique; no core (an eager check computes one for 'impossible')."""
    lazy, eager = run(UNIQUE), run(UNIQUE, lazy_cores=False)
    assert lazy.status.value == eager.status.value == "pass"
    assert lazy.solves == 2 and eager.solves > 2
    assert not lazy.expectations[1].rules and "not computed" in lazy.expectations[1].no_core
    assert "core.move" in eager.expectations[1].rules


@pytest.mark.parametrize("because, passes", [("core.move", True), ("core.control", False)])
def test_a_because_is_settled_without_a_core_only_when_it_holds(because: str, passes: bool) -> None:
    """A rule every explanation needs passes with one solve; a rule no core holds still fails, with its core."""
    doc = {**UNIQUE, "expect": [{"object": "card", "zone": "play", "verdict": "impossible", "because": [because]}]}
    res = run(doc)
    (e,) = res.expectations
    assert e.passed is passes and res.status.value == ("pass" if passes else "fail")
    assert bool(e.rules) is not passes  # a failure names the rules behind the verdict
    assert run(doc, lazy_cores=False).expectations[0].passed is passes


def test_why_computes_every_core() -> None:
    """With why (check --why, explain) every decided verdict shows its rules, as before."""
    res = run(UNIQUE, why=True)
    assert res.expectations[0].rules and res.expectations[1].rules


CONTRADICTION = scenario(objects=[{"id": "card", "owner": "alice", "zone": "play", "types": ["creature"]},
                                 {"id": "lord", "owner": "bob", "zone": "play", "types": ["creature"]}],
                        effects=[{"id": "steal", "source": "lord", "timestamp": 1, "kind": "control", "player": "bob",
                                  "targets": ["card"], "duration": "static"}],
                        events=[{"type": "end_effect", "effect": "steal"}])  # a static effect ended in play


@pytest.mark.parametrize("expect, why, core", [
    ({"object": "card", "zone": "play"}, False, True),  # fails (no outcome): the failure shows the core
    ({"object": "card", "zone": "play", "verdict": "impossible"}, False, False),  # passes: no core asked for
    ({"object": "card", "zone": "play", "verdict": "impossible"}, True, True),  # with why
])
def test_a_contradiction_shows_its_core_when_asked(expect, why, core) -> None:
    """No legal outcome: the core is computed for a failing scenario and with why, not for one that passes."""
    res = run({**CONTRADICTION, "expect": [expect]}, why=why)
    assert not res.outcomes and res.status.value == ("pass" if expect.get("verdict") else "fail")
    assert bool(res.contradiction) is core
    assert bool(run({**CONTRADICTION, "expect": [expect]}, lazy_cores=False).contradiction)


# -- slicing ------------------------------------------------------------------------------------------------------
def _model(k: int, slicing: bool, tmp: Path) -> tuple[int, Scenario]:
    sc = load_scenario(generate(tmp, 1, k, seed=5)[0]).scenario
    comp = Compiler(sc, ruleset_for(sc.game), slicing=slicing)
    comp.compile_events()
    return len(comp.rm.model.proto.variables), sc


def test_slicing_leaves_untouched_objects_out_of_the_model(tmp_path) -> None:
    """A 300-object scenario where three creatures act: the sliced model is a small fraction of the full one, and
    its size does not grow with the objects nobody touches."""
    full, _ = _model(300, False, tmp_path / "a")
    sliced, _ = _model(300, True, tmp_path / "b")
    small, _ = _model(30, True, tmp_path / "c")
    assert sliced * 10 < full
    assert sliced < 2 * small


def test_untouched_objects_keep_their_initial_values_in_every_outcome(tmp_path) -> None:
    """The outcome still lists every object's keys, with its scenario values, and the answers are the baseline's."""
    sc = load_scenario(generate(tmp_path, 1, 50, seed=6)[0]).scenario
    res = ScenarioCheck(sc).run()
    state = res.outcomes[0].state
    assert all(state[f"zone.{o.id}"] == o.zone for o in sc.objects)
    assert all(state[f"attr.{o.id}.tokens"] in ("0", "1") for o in sc.objects)
    assert answers(sc, FAST) == answers(sc, replace(FAST, slicing=False))


def test_a_key_first_read_after_solving_is_its_constant_not_a_new_fact(tmp_path) -> None:
    """Once an engine solves the model, reading an untouched key gives its initial value, with no new assumption."""
    sc = load_scenario(generate(tmp_path, 1, 20, seed=7)[0]).scenario
    comp = Compiler(sc, ruleset_for(sc.game))
    comp.compile_events()
    untouched = next(o for o in sc.objects if comp.stage.vars.peek(("zone", o.id)) is None)
    engine = Engine(comp.rm)
    before = dict(comp.rm.facts)
    zone = comp.stage["zone", untouched.id]
    assert zone.is_(untouched.zone) is comp.rm.true and zone.is_("graveyard") is comp.rm.false
    assert comp.rm.facts == before and len(engine.named) == len(comp.rm.assumptions())


# -- start-up -----------------------------------------------------------------------------------------------------
def _imports_ortools(*args: str) -> bool:
    code = ("import sys\nfrom solver.cli import main\nsys.argv = ['arbiter'] + sys.argv[1:]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('ORTOOLS' if any(m == 'ortools' or m.startswith('ortools.') for m in sys.modules) else 'NONE')")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=False)
    return out.stdout.strip().splitlines()[-1] == "ORTOOLS"


@pytest.mark.parametrize("args", [["--help"], ["schema"], ["schema", "--game", "berserk"], ["rules", "mtg"],
                                  ["rules", "berserk", "--where", "scenarios"], ["check", "--help"]])
def test_commands_that_do_not_solve_do_not_import_ortools(args) -> None:
    """Help, the schema and the rule reference start without the solver."""
    assert not _imports_ortools(*args)


def test_check_does_import_ortools() -> None:
    """The probe above can fail: a command that solves imports it."""
    assert _imports_ortools("check", str(ROOT / "scenarios" / "berserk" / "524.2-archmage-joker.yaml"))


def test_baseline_switches_every_fast_path_off() -> None:
    """The benchmark's 'before' is the old path on every count."""
    b = SolverOptions.baseline(budget=3.0)
    assert (b.slicing, b.lazy_cores, b.block_deletion, b.lean_search, b.budget) == (False, False, False, False, 3.0)
    assert (FAST.slicing, FAST.lazy_cores, FAST.block_deletion, FAST.lean_search) == (True, True, True, True)


# -- OR-Tools without pandas ------------------------------------------------------------------------------------
def _run_python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_cp_model_is_imported_without_pandas_and_sys_modules_is_restored() -> None:
    """Solving works without pandas loaded; nothing named pandas stays in ``sys.modules``; a later
    ``import pandas`` gets the real library."""
    words = _run_python("import sys\nbefore = set(sys.modules)\nimport solver.encoding.cp as cp\n"
                        "print('pandas' in sys.modules, any(m.startswith('pandas') for m in sys.modules))\n"
                        "m = cp.cp_model.CpModel(); x = m.new_bool_var('x'); m.add_bool_or([x])\n"
                        "print(cp.cp_model.CpSolver().solve(m) == cp.cp_model.OPTIMAL)\n"
                        "import pandas\nprint(hasattr(pandas, 'DataFrame'))")
    assert words == ["False", "False", "True", "True"]


def test_cp_model_pandas_helpers_work_with_the_real_pandas() -> None:
    """A user of OR-Tools' pandas helpers in the same process gets exactly what an ordinary import gives: the
    helpers take real ``pd.Index`` and ``pd.Series`` and return real Series, whether pandas is imported before
    or after (and ``cp_model.pd`` is the real module once used)."""
    code = ("import solver.encoding.cp as cp\nimport pandas as pd\ncm = cp.cp_model\n"
            "m = cm.CpModel(); idx = pd.Index(range(3))\n"
            "xs = m.new_bool_var_series(name='x', index=idx)\n"
            "ys = m.new_int_var_series(name='y', index=idx, lower_bounds=pd.Series([0, 1, 2], index=idx),"
            " upper_bounds=5)\n"
            "m.add(sum(ys) >= 7); m.add_bool_or(list(xs))\n"
            "s = cm.CpSolver(); print(s.solve(m) == cm.OPTIMAL)\n"
            "v = s.values(ys); print(isinstance(v, pd.Series), int(v.sum()) >= 7, cm.pd is pd)\n"
            "print(isinstance(s.boolean_values(xs), pd.Series))")
    assert _run_python(code) == ["True", "True", "True", "True", "True"]


def test_cp_model_falls_back_to_the_ordinary_import() -> None:
    """An OR-Tools that needs more of pandas at import: imported again with the real pandas, nothing lost."""
    words = _run_python(
        "import sys\n"
        "class Refuse:\n"
        "    done = False\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'ortools.sat.python.cp_model' and not Refuse.done and 'pandas' in sys.modules:\n"
        "            Refuse.done = True\n"
        "            raise ImportError('needs pandas.DataFrame')\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import solver.encoding.cp as cp\n"
        "print(Refuse.done, hasattr(cp.cp_model.pd, 'DataFrame'))")
    assert words == ["True", "True"]
