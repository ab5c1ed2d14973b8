"""``arbiter diff``: what an errata (or a ruleset change) breaks: every verdict that differs between two versions.

- ``cards``: the versions (the working tree, files or folders, git revisions read with ``git show``), and what
  changed in each card (added, removed, wording only, functional) as a unified diff of its definition;
- ``jobs``: what a worker does with one scenario on one side;
- ``compare``: a record's verdicts, and the flips between two records;
- ``formats``: text and JSON (the HTML view is ``solver.run.report.diff``);
- here: one run. Every scenario is checked under both versions, every template swept under both (the fast sweep,
  ``solver.run.sweep.fast``, settling combinations soundly from representatives), on the batch runner of ``arbiter
  check`` (``--jobs``, ``--cluster``, ``--output`` and ``--resume`` the same way). Whatever flipped is checked again
  with explanations on both sides, for the rules deciding each verdict.

Nothing is skipped: a wording-only errata is re-decided too, and its 0 flips are the proof that nothing changed.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.loader import scan
from models.yamlsafe import LoadError, LoadErrors, display_name, load_yaml_text, read_bytes
from solver.run.batch import CheckRun, RunOptions, run, run_dask, run_local_cluster
from solver.run.batch.jobs import Job, card_sources, problem_job
from solver.run.diff.cards import WORKING, CardChange, Version, VersionError, cards_named, changes, load_checked
from solver.run.diff.compare import flips, with_rules
from solver.run.diff.jobs import SIDES, diff_job, scenario_job
from solver.run.exits import FAILED, PASSED, REFUSED
from solver.run.sweep.fast import FastSweep, Rounds, RoundsStopped
from solver.run.sweep.formats import SweepInfo, decorate
from solver.run.sweep.template import combination_name, load_pool, load_template

__all__ = ["DiffRun", "Refused"]


class Refused(Exception):
    """Input the diff cannot use (exit 2): the message lists every located problem."""


@dataclass
class _Scenario:
    """One scenario of the diff: its file, bytes, library (by side) and the cards it names."""

    file: str
    text: bytes | None
    problem: str | None
    game: str | None
    library: tuple[str, ...]
    sources: dict[str, list | None]
    cards: set[str]


@dataclass
class _Template:
    """One template of the diff: the template, its pool's common card ids, and each side's library."""

    template: Any
    ids: tuple[str, ...]
    libraries: dict[str, Any]
    sources: dict[str, tuple]
    key: tuple[str, ...]


@dataclass
class DiffRun(Rounds, CheckRun):
    """``arbiter diff``: check everything under both versions and list every verdict that changed."""

    old: Version = field(default_factory=lambda: Version(WORKING))
    new: Version = field(default_factory=lambda: Version(WORKING))
    rules_off: tuple[str, ...] = ()
    ruleset_options: dict = field(default_factory=dict)
    templates: list[Path] = field(default_factory=list)
    pool: list[Path] = field(default_factory=list)
    #: the diff as a JSON document, once run (``formats``, the HTML view)
    document: dict | None = None
    #: how many scenarios and combinations were re-decided
    _counts: dict = field(default_factory=lambda: {"scenarios": 0, "combinations": 0})
    #: (game, library files) -> card id -> what changed in it
    _changes: dict = field(default_factory=dict)

    # -- the two sides ------------------------------------------------------------------------------
    def version(self, side: str) -> Version:
        """The card library version of a side."""
        return self.old if side == "old" else self.new

    def settings(self, side: str) -> dict:
        """What a side's jobs carry: the new side the ruleset change (rules switched off, options changed)."""
        if side == "old":
            return {}
        out: dict[str, Any] = {}
        if self.rules_off:
            out["rules_off"] = list(self.rules_off)
        if self.ruleset_options:
            out["ruleset_options"] = dict(self.ruleset_options)
        return out

    # -- preparing ----------------------------------------------------------------------------------
    def prepare(self) -> tuple[list[_Scenario], list[_Template], list[CardChange]]:
        """The scenarios, templates and card changes; Refused listing every problem of the input."""
        problems: list[str] = []
        libraries: dict[tuple, dict[str, list]] = {}
        scenarios = []
        for e in scan(list(self.paths)):
            if e.problem:
                scenarios.append(_Scenario(e.name, None, f"{e.name}: {e.problem}", None, (), {}, set()))
                continue
            name = display_name(e.path)
            try:
                text = read_bytes(e.path, name)
            except LoadError as exc:
                scenarios.append(_Scenario(name, None, str(exc), None, (), {}, set()))
                continue
            try:
                data, _ = load_yaml_text(text, name)
            except (LoadError, LoadErrors):
                data = None
            game = data.get("game") if isinstance(data, dict) and isinstance(data.get("game"), str) else None
            working, found = card_sources(e.path, name, text, list(self.cards))
            working = None if found else working  # a library that cannot be found: the scenario's check says why
            sources: dict[str, list | None] = {s: None for s in SIDES}
            key: tuple[str, ...] = ()
            if working is not None and game is not None:
                key = tuple(n for n, _ in working)
                for side in SIDES:
                    try:
                        sources[side] = self.version(side).sources(game, working)
                    except VersionError as exc:
                        raise Refused(str(exc)) from None
                libraries.setdefault((game, key), sources)
            scenarios.append(_Scenario(name, text, None, game, key, sources, cards_named(data) if data else set()))
        templates = []
        for t in self.templates:
            try:
                templates.append(self._template(t, libraries))
            except (LoadError, LoadErrors) as exc:
                problems.append(str(exc))
            except VersionError as exc:
                problems.append(str(exc))
        found: list[CardChange] = []
        for (game, key), sources in libraries.items():
            try:
                libs = {side: load_checked(sources[side] or [], game, self.version(side).label) for side in SIDES}
            except LoadErrors as exc:
                problems.append(f"the card library ({', '.join(key)}) of {game} cannot be read in one version:\n{exc}")
                continue
            got = changes(libs["old"], libs["new"], sources["old"] or [], sources["new"] or [])
            self._changes[(game, key)] = {c.id: c for c in got}
            found += [c for c in got if c not in found]
        if problems:
            raise Refused("\n".join(problems))
        return scenarios, templates, found

    def _template(self, path: Path, libraries: dict) -> _Template:
        """A template with its pool under both versions: the pool's cards both versions have, in the new order (a card
        added or removed is listed among the changed cards, its combinations with no old or new verdict)."""
        t = load_template(path)
        pool = load_pool(list(self.pool), t)
        working = list(pool.sources)
        key = tuple(n for n, _ in working)
        sources = {side: self.version(side).sources(t.game, working) for side in SIDES}
        libraries.setdefault((t.game, key), sources)
        libs = {side: load_checked(sources[side], t.game, self.version(side).label) for side in SIDES}
        own = set(pool.ids)  # the pool's cards (not those the template names itself), both versions have them
        ids = tuple(c for c in libs["new"].cards if c in own and libs["old"].get(c) is not None)
        return _Template(t, ids, libs, {s: tuple(sources[s]) for s in SIDES}, key)

    # -- running ------------------------------------------------------------------------------------
    def execute(self) -> int:
        """Check both sides, compare, check the flips again with explanations, report; the exit code (0 nothing
        flipped, 1 something did, 2 refused or the cluster lost, 130 interrupted)."""
        from solver.run.format_table import renderer

        try:
            scenarios, templates, card_changes = self.prepare()
        except Refused as exc:
            print(f"arbiter: cannot diff:\n{exc}", file=sys.stderr)
            return REFUSED
        try:
            entries = self._scenarios(scenarios)
            for t in templates:
                entries += self._sweep(t)
        except RoundsStopped as stop:
            return stop.code
        self.document = self._document(scenarios, templates, card_changes, entries)
        body = renderer("diff", self.format)(self.document)
        self.write(body)
        return FAILED if self.document["summary"]["flips"] else PASSED

    def _scenarios(self, scenarios: list[_Scenario]) -> list[dict]:
        """Every scenario on both sides; the flipped ones again with explanations; their entries."""
        def jobs(why: bool, which: list[_Scenario]) -> list[Job]:
            out = []
            for side in SIDES:
                extra = {**self.settings(side), **({"why": True} if why else {})}
                prefix = f"{side}{'+why' if why else ''}"
                for s in which:
                    if s.text is None:
                        job = problem_job(f"{prefix}|{s.file}", s.problem or "unreadable")
                    else:
                        job = scenario_job(prefix, s.file, s.text, s.sources[side], extra)
                    out.append(job)
            return out
        first = self.batch(jobs(False, scenarios))
        n = len(scenarios)
        flipped = [(i, flips(first[i], first[n + i])) for i in range(n)]
        flipped = [(i, f) for i, f in flipped if f]
        which = [scenarios[i] for i, _ in flipped]
        again = self.batch(jobs(True, which)) if which else []
        m = len(which)
        entries = []
        for k, (i, found) in enumerate(flipped):
            s = scenarios[i]
            old, new = (again[k], again[m + k]) if again else (first[i], first[n + i])
            entries.append({"kind": "scenario", "name": s.file, "cards": sorted(s.cards),
                            "changes": self._changed(s.game, s.library, s.cards),
                            "flips": [with_rules(f, old, new) for f in found]})
        self._counts["scenarios"] = n
        return entries

    def _changed(self, game: str | None, library: tuple, cards) -> list[str]:
        """The changed cards among ``cards`` of a library (their ids)."""
        known = self._changes.get((game, library), {})
        return [c for c in sorted(cards) if c in known]

    def _sweep(self, t: _Template) -> list[dict]:
        """A template swept on both sides (the fast sweep); the flipped combinations again with explanations."""
        tpl = t.template
        info = SweepInfo(tpl.name, t.ids, tpl.k, False, tpl.asks_for_one_outcome())

        def sweep(side: str, why: bool, combos=None) -> tuple[FastSweep, Any]:
            extra = {**self.settings(side), **({"why": True} if why else {})}
            fs = FastSweep(tpl, t.ids, t.libraries[side], t.sources[side], info, combos=combos,
                           prefix=f"{side}{'+why' if why else ''}|", extra=extra)
            return fs, fs.run(lambda jobs: enumerate(self.batch(jobs)))
        sides = {side: sweep(side, False) for side in SIDES}
        (_, ro), (fn, rn) = sides["old"], sides["new"]
        decorated = {side: [decorate(r.record, info) for r in fs.reps] for side, (fs, _) in sides.items()}
        cache: dict[tuple[int, int], list] = {}
        flipped = []
        for i, combo in enumerate(fn._combos()):
            pair = (ro[i], rn[i])
            if pair not in cache:
                cache[pair] = flips(decorated["old"][pair[0]], decorated["new"][pair[1]])
            if cache[pair]:
                flipped.append((combo, cache[pair]))
        self._counts["combinations"] += len(rn)
        if not flipped:
            return []
        combos = [c for c, _ in flipped]
        again = {side: sweep(side, True, lambda: iter(combos)) for side in SIDES}
        entries = []
        (wo, wro), (wn, wrn) = again["old"], again["new"]
        for j, (combo, found) in enumerate(flipped):
            old = decorate(wo.record(wro[j], combo), info)
            new = decorate(wn.record(wrn[j], combo), info)
            cards = fn.cards(combo)
            entries.append({"kind": "combination", "template": tpl.name, "name": combination_name(tpl.name, cards),
                            "cards": list(cards), "changes": self._changed(tpl.game, t.key, cards),
                            "flips": [with_rules(f, old, new) for f in found]})
        return entries

    def _document(self, scenarios, templates, card_changes: list[CardChange], entries: list[dict]) -> dict:
        """The diff as a JSON document."""
        n_flips = sum(len(e["flips"]) for e in entries)
        behavioural = [c for c in card_changes if c.behavioural]
        return {
            "old": self.old.label, "new": self.new.label,
            "ruleset": {"rules_off": list(self.rules_off), "options": dict(self.ruleset_options)},
            "cards": [c.document() for c in card_changes],
            "summary": {"scenarios": len(scenarios), "templates": [t.template.name for t in templates],
                        "combinations": self._counts.get("combinations", 0),
                        "flipped_scenarios": sum(1 for e in entries if e["kind"] == "scenario"),
                        "flipped_combinations": sum(1 for e in entries if e["kind"] == "combination"),
                        "flips": n_flips, "behavioural_card_changes": len(behavioural),
                        "wording_only": bool(card_changes) and not behavioural},
            "flips": entries,
        }

    # -- the batch runner, journal and resume (shared by both sides and both passes) --------------------------
    def _runner(self, jobs, opts: RunOptions):
        if self.cluster == "local":
            return run_local_cluster(jobs, opts, self.jobs, self.cluster_timeout, fn=diff_job)
        if self.cluster is not None:
            return run_dask(jobs, opts, self.cluster, diff_job, no_worker_timeout=self.cluster_timeout)
        return run(jobs, opts, self.jobs, fn=diff_job)
