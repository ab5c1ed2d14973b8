"""The layout shows the architecture: one registry, one folder per game, rule ids at their clauses, no cycles.

Each test guards one rule of the layout (docs/internals.md, "How it works"):
- a game registers once and every list of games derives from the registry; each game provides everything;
- every rule id of a game is written literally at a clause, in the encoding and in the reference;
- a ruleset is complete where it is defined (nothing changes it at module level afterwards);
- no import cycles; models never import the solver or ortools; the reference never imports the encoding;
- nothing is set on an object from outside and read back with ``getattr``;
- no timed assertions in the tests (speed is the benchmark's job), no wall-clock limit in their fixtures, and no
  answer reads the clock (budgets are deterministic work);
- errors by kind: bad input is raised as such where it is found, never caught by Python exception type.
"""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from models.game_events import GAMES as MODEL_GAMES
from models.scenario import Scenario
from solver.check.clauses import literals
from solver.encoding.ruleset import Ruleset
from solver.reference.rules import CoreRules
from solver.registry import combat_for, game, names, registry
from solver.vocabulary.words import Vocabulary

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "solver"
GAMES_DIR = SOLVER / "games"
#: files of a game folder that are not its encoding
NOT_ENCODING = {"__init__.py", "rules.py", "generate.py", "scale.py", "vocabulary.py"}


# -- one registry ---------------------------------------------------------------------------------------
def test_every_list_of_games_is_the_registry() -> None:
    """The registry, the models' event modules, the game folders and the scenario folders name the same games."""
    reg = set(names())
    assert reg == set(MODEL_GAMES)
    assert reg == {p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists()}
    assert reg - {"core"} == {p.name for p in (ROOT / "scenarios").iterdir() if p.is_dir()}
    assert list(names())[0] == "core"
    assert Scenario.model_fields["game"].annotation.__args__ == tuple(MODEL_GAMES)


@pytest.mark.parametrize("name", names())
def test_a_game_provides_everything(name: str) -> None:
    """Rules with texts, events, an encoding, a reference reading and a generator, all named after the game."""
    g = game(name)
    texts = g.rule_texts()
    assert texts and all(rid.startswith(f"{name}.") for rid in texts), "rule ids carry the game's name"
    assert all(isinstance(t, str) and t for t in texts.values())
    events = g.load("events")
    assert events.GAME == name and isinstance(events.EVENTS, tuple)
    ruleset = g.load("ruleset")
    assert isinstance(ruleset, Ruleset) and ruleset.game == name
    reference = g.load("reference")
    assert isinstance(reference, CoreRules) and reference.game == name
    doc = g.load("generator")(random.Random(7), 0)
    assert Scenario.model_validate(doc).game == name
    vocab = g.load("vocabulary")
    assert isinstance(vocab, Vocabulary) and vocab.game == name and vocab.example and vocab.notes
    assert set(vocab.names("actions")) == set(ruleset.actions), "and its action kinds"
    assert set(vocab.names("derived_flags")) == set(ruleset.derived_flags), "and its computed flags"
    assert all(hasattr(ruleset, f"on_{e}") for e in vocab.names("events")), "every event type it names is handled"
    assert (GAMES_DIR / name / "__init__.py").read_text(encoding="utf-8").count("Game(") == 1


def test_registry_discovery_imports_no_solver() -> None:
    """Listing the games, reading their rule texts and vocabularies, checking words and writing schemas and docs
    import neither the encoding nor ortools."""
    import subprocess
    import sys

    code = ("import sys; from solver import registry; from solver.check import rulebook; "
            "[rulebook.rules(g) for g in registry.names()]; [registry.vocabulary_for(g) for g in registry.names()]; "
            "from solver.vocabulary import check, docs, schema; "
            "bad = [m for m in sys.modules if m.startswith(('ortools', 'solver.encoding'))]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- rule ids at their clauses ---------------------------------------------------------------------------
def _literals(paths: list[Path]) -> dict[str, list[str]]:
    """String literals that are not merely bound to a constant name (``X = "id"``), with where they are (the one
    reading of "a rule id written at its clause", ``solver.check.clauses``, which ``arbiter rules --clauses`` prints)."""
    return literals(paths)


def _encoding_files(name: str) -> list[Path]:
    files = [p for p in (GAMES_DIR / name).glob("*.py") if p.name not in NOT_ENCODING and not p.name.startswith("reference")]
    return files + (sorted((SOLVER / "encoding").glob("*.py")) if name == "core" else [])


def _reference_files(name: str) -> list[Path]:
    files = sorted((GAMES_DIR / name).glob("reference*.py"))
    return files + (sorted((SOLVER / "reference").glob("*.py")) if name == "core" else [])


@pytest.mark.parametrize("name", names())
def test_every_rule_id_is_written_at_a_clause_in_the_encoding_and_the_reference(name: str) -> None:
    """``grep -rn <rule id> solver/`` lands on the clause that enforces it and on the reference's reading of it.

    A rule written only in a constant (``BANISH = "..."``) or a docstring does not count. The combat rules the
    victory analysis applies are written at their clauses in the game's combat reading (``Game(combat=...)``);
    their reference is the explicit minimax over the same positions (``solver/victory/naive.py``), which the
    analysis is tested against.
    """
    texts = game(name).rule_texts()
    reading = combat_for(name)
    combat = set(reading.rules) if reading is not None else set()
    enc, ref = _literals(_encoding_files(name)), _literals(_reference_files(name))
    missing_enc = sorted(r for r in texts if r not in enc)
    missing_ref = sorted(r for r in texts if r not in ref and r not in combat)
    assert not missing_enc, f"rules with no clause in the encoding: {missing_enc}"
    assert not missing_ref, f"rules the reference never names: {missing_ref}"


@pytest.mark.parametrize("name", names())
def test_zones_are_declared_once_in_the_vocabulary(name: str) -> None:
    """A game's zones and play zones are its vocabulary's (``Zone`` words, ``play=True``): neither its encoding nor
    its reference writes them again, and both read the same."""
    written = [f"{p.relative_to(ROOT)}:{n.lineno}" for p in _encoding_files(name) + _reference_files(name)
               for c in ast.walk(ast.parse(p.read_text(encoding="utf-8"))) if isinstance(c, ast.ClassDef)
               for n in c.body if isinstance(n, (ast.Assign, ast.AnnAssign))
               and {getattr(t, "id", "") for t in (n.targets if isinstance(n, ast.Assign) else [n.target])}
               & {"zones", "play_zones"} and (isinstance(n.value, ast.Name) or isinstance(n.value, ast.Tuple)
                                               and n.value.elts)]
    assert not written, f"zones written outside the vocabulary: {written}"
    vocab, ruleset, reference = game(name).load("vocabulary"), game(name).load("ruleset"), game(name).load("reference")
    declared = tuple(z for z in vocab.names("zones") if z != "none")
    assert ruleset.zones == reference.zones == declared
    assert ruleset.play_zones == reference.play_zones == tuple(z.name for z in vocab.zones if z.play)
    assert ruleset.play_zones and set(ruleset.play_zones) <= set(ruleset.zones)


@pytest.mark.parametrize("name", [n for n in names() if game(n).combat])
def test_combat_rules_are_written_at_their_clauses(name: str) -> None:
    """Every rule of a game's combat reading is the literal rule id of a CP-SAT clause in the reading's own module
    (``rm.enforce`` / ``rm.implies`` / ``cm.dealt``), its rules are exactly the game's ``<game>.combat.*`` ids, and
    the victory analysis names no rule id of its own."""
    import importlib

    reading = combat_for(name)
    path = Path(importlib.import_module(type(reading).__module__).__file__)
    at_clauses: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("enforce", "implies", "dealt") and node.args:
            at_clauses |= {c.value for c in ast.walk(node.args[-1] if node.func.attr == "dealt" else node.args[0])
                           if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    assert set(reading.rules) == at_clauses
    assert set(reading.rules) == {r for r in game(name).rule_texts() if r.startswith(f"{name}.combat.")}
    victory = _literals(sorted((SOLVER / "victory").glob("*.py")))
    assert not [r for r in victory if r.startswith(tuple(f"{g}." for g in names()))], "victory names no rule id"
    imports = [f"{p.name}: {n.module}" for p in sorted((SOLVER / "victory").glob("*.py"))
               for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("solver.games")]
    assert not imports, f"the victory analysis imports no game: {imports}"


def test_no_rule_role_tables() -> None:
    """Shared mechanisms take rule ids as arguments: no ``ids[...]`` role lookups anywhere in the solver."""
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in SOLVER.rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r"\bids\[\"", line)]
    assert not hits, hits


# -- complete where defined ----------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(GAMES_DIR.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES_DIR)))
def test_a_ruleset_is_complete_where_it_is_defined(path: Path) -> None:
    """No module-level statement changes a class or a table after it is defined (``X.attr = ...``,
    ``RULES.update(...)``, ``X[k] = ...``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bad += [node.lineno for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute):
            bad.append(node.lineno)
    assert not bad, f"module-level changes at lines {bad}"


# -- imports ---------------------------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imported(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it, with ``from pkg import mod`` resolved to ``pkg.mod``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names}
            # ``from pkg import mod`` imports the submodule (the package's __init__ runs first in any case)
            out |= subs if subs <= set(MODULES) else subs | {node.module}
    return out


PROJECT = sorted(p for d in ("models", "solver") for p in (ROOT / d).rglob("*.py"))
MODULES = {_module_name(p): p for p in PROJECT}


def _graph() -> dict[str, set[str]]:
    return {m: {i for i in _imported(p) if i in MODULES and i != m} for m, p in MODULES.items()}


def test_no_import_cycles() -> None:
    """No module reaches itself through imports (function-level imports included)."""
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n, stack + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles[:3]


def _reaches(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for n in graph.get(m, ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("models")))
def test_models_never_import_the_solver_or_ortools(module: str) -> None:
    """Models are pure data and validation."""
    bad = [i for i in _imported(MODULES[module]) if i.startswith(("solver", "ortools"))]
    assert not bad, bad


REFERENCE = sorted(m for m in MODULES if m.startswith("solver.reference")
                   or re.match(r"solver\.games\.\w+\.(reference\w*|generate)$", m))


def test_the_reference_folder_holds_only_the_reading() -> None:
    """Every module of ``solver/reference/`` is held to the rule below, the harness comparing it with the checker
    lives outside it (``solver/check/differential.py``)."""
    folder = {_module_name(p) for p in (SOLVER / "reference").rglob("*.py")}
    assert folder and folder <= set(REFERENCE)
    assert "solver.check.differential" in MODULES


@pytest.mark.parametrize("module", REFERENCE)
def test_the_reference_never_imports_the_encoding(module: str) -> None:
    """The reference shares no code with the encoding, directly or through another module, in any import form
    (``import solver.encoding.derived``, ``from solver.encoding import derived`` ...)."""
    graph = _graph()
    reached = _reaches(module, graph) | {i for i in _imported(MODULES[module])}
    bad = sorted(m for m in reached if m.startswith(("solver.encoding", "solver.engine", "solver.check",
                                                      "solver.victory", "solver.run", "ortools")))
    assert not bad, bad


def test_nothing_is_read_back_with_getattr_on_self() -> None:
    """No attribute is set on an object from outside and read back with ``getattr(self, "name", ...)``."""
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in PROJECT
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if 'getattr(self, "' in line]
    assert not hits, hits


# -- docstrings and tests ---------------------------------------------------------------------------------
def test_docstrings_cite_only_files_in_the_repo() -> None:
    """Every ``path/like.py`` or ``FILE.md`` a docstring or comment names exists in the repository."""
    named = re.compile(r"(?<![\w/.])((?:[\w.-]+/)+[\w.-]+\.(?:py|md|yaml|json)|[A-Z][A-Z_]+\.md)\b")
    missing = []
    for p in PROJECT:
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for ref in named.findall(line):
                if "<" in ref or "*" in ref:
                    continue
                if not any((base / ref).exists() for base in (ROOT, p.parent, SOLVER)):
                    missing.append(f"{p.relative_to(ROOT)}:{i}: {ref}")
    assert not missing, missing


#: a clock read, a measured duration, or a CPU-time read
_CLOCK = r"(\btime\.\w+\(|perf_counter|monotonic|process_time|\b(cpu|wall|elapsed|seconds|duration)\b)"
#: an assertion that compares something measured on the clock
_TIMED_ASSERT = re.compile(r"assert[^#\n]*" + _CLOCK + r"[^#\n]*(<|>)")
#: a comparison with a clock read, asserted or not (``if time.monotonic() - t0 > 5: pytest.fail(...)``)
_CLOCK_COMPARE = re.compile(r"(time\.(time|perf_counter|monotonic|process_time)\(\)[^#\n]*[<>]"
                            r"|[<>]=?[^#\n]*time\.(time|perf_counter|monotonic|process_time)\(\))")


def _test_lines():
    for p in sorted((ROOT / "tests").rglob("*.py")):
        if p.name == "test_layout.py":  # the patterns themselves
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            yield p, i, line


def test_no_timed_assertions_in_tests() -> None:
    """Tests do not assert on time, nor compare clock reads (a loaded machine makes that a coin toss); a generous
    hang guard is allowed, marked as one. A test of "a limit gives unknown" gives a work budget small enough."""
    hits = [f"{p.name}:{i}" for p, i, line in _test_lines()
            if (_TIMED_ASSERT.search(line) or _CLOCK_COMPARE.search(line)) and "hang guard" not in line]
    assert not hits, hits


@pytest.mark.parametrize("line, timed", [
    ("    assert time.perf_counter() - t0 < 3", True), ("    assert elapsed < 2.0", True),
    ("    if time.monotonic() > deadline: pytest.fail('slow')", True), ("    assert res.seconds >= 0", True),
    ("    assert wall < HANG_GUARD  # hang guard", False), ("    assert res.work <= budget", False),
    ("    t0 = time.perf_counter()", False),
])
def test_the_timed_assertion_scan_finds_them(line: str, timed: bool) -> None:
    """The scan above catches a timed assertion or clock comparison, and lets a marked hang guard through."""
    found = bool(_TIMED_ASSERT.search(line) or _CLOCK_COMPARE.search(line)) and "hang guard" not in line
    assert found is timed


def test_no_wall_clock_limit_in_test_fixtures() -> None:
    """No test sets CP-SAT's wall-clock limit or a short wall-clock safety limit (answers depend on work budgets,
    ``solver.engine.budget``); a subprocess's timeout is a generous hang guard; no scenario file (library,
    examples, test fixtures) carries a time field."""
    bad = []
    for p, i, line in _test_lines():
        if "max_time_in_seconds" in line:
            bad.append(f"{p.name}:{i}: max_time_in_seconds")
        for m in re.finditer(r"(?:safety=|--safety-limit[\"', =]+)(\d+(?:\.\d*)?(?:e-?\d+)?)", line):
            if float(m.group(1)) < 5:
                bad.append(f"{p.name}:{i}: a safety limit under 5 s ({m.group(1)})")
        for m in re.finditer(r"subprocess\.\w+\(.*timeout=(\d+(?:\.\d*)?)", line):
            if float(m.group(1)) < 30:
                bad.append(f"{p.name}:{i}: a subprocess timeout under 30 s")
    time_key = re.compile(r"^\s*-?\s*(timeout|time_limit|deadline|seconds|max_time\w*)\s*:", re.M)
    for folder in ("scenarios", "examples", "tests"):
        for p in sorted((ROOT / folder).rglob("*.y*ml")):
            if p.is_file() and time_key.search(p.read_text(encoding="utf-8", errors="replace")):
                bad.append(f"{p.relative_to(ROOT)}: a time field")
    assert not bad, bad


#: the only modules of solver/ (besides the benchmarks, solver/bench/) that read the clock, and why: never for an answer
CLOCK_READERS = {
    "engine/budget.py": "the wall-clock safety net of a scenario (a solve's wall-clock cap, the safety stop)",
    "run/batch/jobs.py": "the wall-clock safety net around one check (SIGALRM / a timer thread)",
    "run/batch/pool.py": "the watchdog that replaces a worker stuck past the safety limit",
    "run/batch/dask.py": "the liveness of a Dask scheduler's workers, and unique task keys",
    "check/checker.py": "the seconds field of a result (timing, left out of machine formats)",
    "run/sweep/__init__.py": "the estimate a sweep states before it runs (its first combinations timed; no answer "
                             "depends on it)",
}


def test_no_answer_reads_the_clock() -> None:
    """Only the listed modules read the clock or set a wall-clock limit; every solve's limit is deterministic work."""
    clock = re.compile(r"\btime\.(time|time_ns|perf_counter|monotonic|process_time)\b|max_time_in_seconds|"
                       r"setitimer|threading\.Timer|\bdeadline\s*=")
    found = {}
    for p in sorted(SOLVER.rglob("*.py")):
        rel = p.relative_to(SOLVER).as_posix()
        if rel.startswith("bench/"):
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if clock.search(code) and not code.lstrip().startswith(("\"", "``")):
                found.setdefault(rel, []).append(i)
    assert set(found) <= set(CLOCK_READERS), {k: v for k, v in found.items() if k not in CLOCK_READERS}
    assert all("safety" in line for p in SOLVER.rglob("*.py")
               for line in p.read_text(encoding="utf-8").splitlines() if "max_time_in_seconds =" in line)


#: modules that check bad input: they raise ScenarioError or NotModelled (``solver.errors``), never a bare
#: KeyError, ValueError or NotImplementedError that some broad ``except`` would have to turn into the user's error
_INPUT_CHECKERS = ("encoding", "games", "check", "victory", "run")
_BARE_RAISE = re.compile(r"\braise (KeyError|ValueError|NotImplementedError)\(")
_BROAD_EXCEPT = re.compile(r"except \(?[^:]*\b(KeyError|ValueError|NotImplementedError)\b")
#: narrow catches around one call, each named: (file, the call it guards)
_NARROW = {("victory/model.py", "int("), ("encoding/state.py", "self[key]")}


def test_errors_by_kind_not_by_python_type() -> None:
    """Bad input is raised as a ScenarioError or NotModelled where it is found; nothing turns a KeyError, ValueError or
    NotImplementedError into the user's error (a bug reads as an internal error, ``solver.errors``). The reference,
    with its own Unsupported, and the generators are outside this rule."""
    bad = []
    for folder in _INPUT_CHECKERS:
        for p in sorted((SOLVER / folder).rglob("*.py")):
            rel = p.relative_to(SOLVER).as_posix()
            if "reference" in p.name or p.name in ("generate.py", "scale.py"):
                continue
            lines = p.read_text(encoding="utf-8").splitlines()
            for i, line in enumerate(lines):
                if _BARE_RAISE.search(line):
                    bad.append(f"{rel}:{i + 1}: {line.strip()}")
                if _BROAD_EXCEPT.search(line) and (folder != "run" or rel == "run/single.py"):
                    guarded = "\n".join(lines[max(0, i - 3):i])
                    if not any(rel == f and call in guarded for f, call in _NARROW):
                        bad.append(f"{rel}:{i + 1}: {line.strip()}")
    assert not bad, bad


def test_the_registry_is_the_only_list_of_games() -> None:
    """No other module spells out the list of games."""
    listed = re.compile(r"\(\s*\"(core|berserk|mtg|riftbound|ti4)\",\s*\"(core|berserk|mtg|riftbound|ti4)\"")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in PROJECT
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if listed.search(line)]
    assert not hits, hits
    assert set(registry()) == set(names())


# -- adding a game: the checklist, followed ---------------------------------------------------------------------
ADDING = ROOT / "docs" / "adding-a-game.md"
TEMPLATE = ROOT / "tests" / "fixtures" / "template_game"


def _checklist() -> tuple[list[str], list[str], str]:
    """What docs/adding-a-game.md says to do: the files to write (its ``text`` block), the commands to run (its
    ``sh`` blocks, in order) and the README link to add."""
    text = ADDING.read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, re.DOTALL)
    files = [line.split()[0] for lang, body in blocks if lang == "text" for line in body.splitlines() if line.strip()]
    commands = [line.strip() for lang, body in blocks if lang == "sh" for line in body.splitlines() if line.strip()]
    link = re.search(r"`(\[NAME\]\(docs/games/NAME\.md\))`", text)
    assert files and commands and link, "the checklist lists its files, its commands and the README link"
    return files, commands, link.group(1)


def test_the_adding_a_game_checklist_builds_a_game(tmp_path) -> None:
    """Following docs/adding-a-game.md with the template game (tests/fixtures/template_game/, NAME = template) in a
    copy of the project registers a game: the template holds exactly the files the checklist lists; after its
    regenerate commands and its README link, its scenario passes ``arbiter check``, ``rules --clauses`` places its
    rule in both readings, the soak finds no disagreement and the per-game layout, vocabulary and schema tests pass."""
    import fnmatch
    import os
    import shlex
    import shutil
    import subprocess
    import sys

    files, commands, link = _checklist()
    given = sorted(p.relative_to(TEMPLATE).as_posix() for p in TEMPLATE.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    wanted = [re.sub(r"<[^>]+>", "*", f.replace("NAME", "template")) for f in files]
    assert [g for g in given if not any(fnmatch.fnmatch(g, w) for w in wanted)] == [], "a file the checklist omits"
    assert [w for w in wanted if not any(fnmatch.fnmatch(g, w) for g in given)] == [], "a listed file the template lacks"

    copy = tmp_path / "project"
    skip = shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info")
    for part in ("solver", "models", "tests", "scenarios", "docs", "cards"):
        shutil.copytree(ROOT / part, copy / part, ignore=skip)
    for part in ("README.md", "pyproject.toml"):
        shutil.copy(ROOT / part, copy / part)
    shutil.copytree(TEMPLATE, copy, dirs_exist_ok=True, ignore=skip)
    readme = (copy / "README.md").read_text(encoding="utf-8")
    assert "[core](docs/games/core.md), " in readme, "the README lists the games' references"
    (copy / "README.md").write_text(readme.replace("[core](docs/games/core.md), ", "[core](docs/games/core.md), "
                                                   + link.replace("NAME", "template") + ", ", 1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = {}
    for command in commands:
        argv = shlex.split(command.replace("NAME", "template"))
        argv = [sys.executable, "-m", "solver.cli", *argv[1:]] if argv[0] == "arbiter" else \
            [sys.executable, *argv[1:]] if argv[0] == "python" else argv
        run = subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, check=False)
        assert run.returncode == 0, (command, run.stdout[-3000:], run.stderr[-3000:])
        tool = argv[2] if argv[1] == "-m" else argv[1]
        out[tool] = out.get(tool, "") + run.stdout
    assert "1 passed, 0 failed, 0 errors, 0 unknown, 1 total" in out["solver.cli"]
    assert "template.discard\n  encoding  solver/games/template/ruleset.py:" in out["solver.cli"]
    assert "  reference solver/games/template/reference.py:" in out["solver.cli"]
    assert "template: compared 50, disagreed 0" in out["solver.cli"]
    ran = re.search(r"\b(\d+) passed\b", out["pytest"])
    assert ran and int(ran.group(1)) >= 10, out["pytest"][-2000:]
    assert '"template"' in (copy / "models" / "scenario.schema.json").read_text(encoding="utf-8")
    assert (copy / "docs" / "games" / "template.md").exists()


# -- rules see the narrow RuleContext --------------------------------------------------------------------------
#: rule code: the games' encodings (not their references) and the shared rule code of the encoding
RULE_CODE = sorted(p for p in GAMES_DIR.rglob("*.py") if not p.name.startswith("reference")) + [
    SOLVER / "encoding" / "derived.py", SOLVER / "encoding" / "ruleset.py"]
#: the names rule code gives its context (``comp`` only until ``rename_ctx`` ran over a merged branch)
CONTEXT_NAMES = ("ctx", "comp")


def _context_uses(path: Path) -> list[tuple[int, str]]:
    """(line, member) of every attribute the file reads, calls or sets on its context."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in CONTEXT_NAMES]


def test_rules_touch_only_the_rule_context() -> None:
    """Rule code touches nothing of its context but the members of ``RuleContext`` (solver/encoding/context.py):
    no compiler internal, no write to one (a rule talks back through ``require``, ``request_proof``,
    ``start_static``)."""
    from solver.encoding.context import MEMBERS

    bad = [f"{p.relative_to(ROOT)}:{line}: ctx.{name}" for p in RULE_CODE for line, name in _context_uses(p)
           if name not in MEMBERS]
    assert not bad, bad
    assert {"rm", "step", "require", "stage"} <= MEMBERS, "the protocol names what rules use"


def test_rule_code_never_sees_the_compiler() -> None:
    """Rule code imports neither the compiler nor its parts, and assigns nothing on its context."""
    parts = {"solver.encoding.world", "solver.encoding.stages", "solver.encoding.expectations"}
    bad = []
    for p in RULE_CODE:
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom) and (n.module in parts or any(a.name == "Compiler" for a in n.names)):
                bad.append(f"{p.relative_to(ROOT)}:{n.lineno}: imports {n.module}")
            targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AugAssign) else []
            for t in targets:
                while isinstance(t, ast.Subscript):
                    t = t.value
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in CONTEXT_NAMES:
                    bad.append(f"{p.relative_to(ROOT)}:{n.lineno}: sets ctx.{t.attr}")
    assert not bad, bad


def test_the_compiler_is_a_rule_context() -> None:
    """``Compiler`` offers every member of ``RuleContext`` (a built one: some are fields)."""
    from models.loader import load_scenario
    from solver.encoding.compile import Compiler
    from solver.encoding.context import MEMBERS
    from solver.registry import ruleset_for

    path = next((ROOT / "scenarios" / "mtg").glob("*.yaml"))
    sc = load_scenario(path).scenario
    comp = Compiler(sc, ruleset_for(sc.game))
    assert not [m for m in sorted(MEMBERS) if not hasattr(comp, m)]
