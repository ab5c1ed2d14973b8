"""The fast sweep: every combination classified, most of them settled by the check of another with the same reads.

A combination's check is a deterministic program of the placed scenario (``solver.run.sweep.reads``). Its cards reach
it as their *shape* (the definition without its wording, and with its attributes and properties reduced to their
names) and as the values of their attributes and properties. Two combinations whose cards have the same shapes, slot
by slot, and agree on every value the check of one of them read (its probe's log), run the same program: the same
model and solves, so the same result, verdicts, cores and messages; their outcomes differ only in the values nothing
read, which keep their initial values (nothing set them) and are shown as the combination's own.

So the sweep runs in rounds: each round checks one *representative* per shape tuple not yet settled (and, on a
second round, per projection of the stragglers onto the reads logged so far), with the normal check (its record is
the exhaustive sweep's) and the probe; then every combination of that shape tuple that agrees with a representative
on the representative's reads takes its result. A representative whose result is ``unknown`` or ``error``, or whose
check read the scenario by other means (a victory proof or claim), settles nobody: the combinations of its shape
tuple are each checked (the exhaustive path, on the same batch runner: ``--jobs``, ``--cluster``).

Sub-combinations (``ABSENT`` in a slot: its objects left out of the template) are combinations like any other; the
minimal cause of a flagged combination is read off them (``solver.run.sweep.cause``).
"""
from __future__ import annotations

import copy
import hashlib
import itertools
import json
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from models.cards import CardDef, load_library
from models.results import ScenarioResult
from models.yamlsafe import LineMap, LoadError, LoadErrors
from solver.run.batch.jobs import Record, RunOptions, ScenarioTimeout, deadline, guarded, shipped_cards
from solver.run.single import check_loaded, error_result
from solver.run.sweep.formats import ABSENT, SweepInfo, decorate
from solver.run.sweep.jobs import SweepJob, _check as check_full, _uncored_contradiction
from solver.run.sweep.reads import probe
from solver.run.sweep.template import Template, combination_name, fill, parsed
from solver.load import check_library, load_checked_data

#: what a settled combination keeps of its representative's record besides what is its own
OWN = ("path", "hash", "cards", "seconds", "reads")

#: a combination by pool index, -1 for an empty slot
Combo = tuple[int, ...]


def card_shape(card: CardDef, property_values: bool = False) -> str:
    """Everything of a card the check may read except its attribute and property values: its definition without its
    wording (``text``, ``flavour``, an action's ``text``), the attributes and properties by name only (canonical
    JSON). ``property_values``: keep the properties' values (validation reads them: ``names_read``)."""
    d = card.model_dump(mode="json", exclude={"id", "text", "flavour"}, exclude_none=True)
    for a in d.get("actions", []):
        a.pop("text", None)
    d["attributes"] = sorted(d.get("attributes", {}))
    if not property_values:
        d["properties"] = sorted(d.get("properties", {}))
    return json.dumps(d, sort_keys=True)


def names_fields(game: str) -> set[str]:
    """The fields of a game whose text names cards by their ids, names, types or property values (Berserk 532.8's
    ``not_with``): where one appears, validating a scenario reads every object's property values."""
    from solver.registry import vocabulary_for
    from solver.vocabulary.words import Text

    v = vocabulary_for(game)
    words = list(v.properties) + [f for e in v.events for f in e.fields] + [p for a in v.actions for p in a.params]
    return {w.name for w in words if isinstance(w, Text) and w.words == "names"}


def names_read(game: str, *documents) -> bool:
    """Whether a field that names cards appears anywhere in these documents (the template, the pool's cards)."""
    keys = names_fields(game)

    def walk(v) -> bool:
        if isinstance(v, dict):
            return any(k in keys or walk(x) for k, x in v.items())
        if isinstance(v, list):
            return any(walk(x) for x in v)
        return False
    return bool(keys) and any(walk(d) for d in documents)


# -- the template's slots ------------------------------------------------------------------------------
def slot_objects(template: Template) -> dict[int, list[str]]:
    """Slot number -> the ids of its objects."""
    objects = template.data.get("objects") or []
    return {n: [str(objects[i].get("id")) for i in idx] for n, idx in template.slots.items()}


def removable_slots(template: Template) -> set[int]:
    """The slots whose objects nothing else in the template names (events, effects, expectations, claims, another
    object): leaving them out gives a template with one slot fewer."""
    names: set[str] = set()

    def walk(v) -> None:
        if isinstance(v, str):
            names.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk({k: v for k, v in template.data.items() if k != "objects"})
    objects = template.data.get("objects") or []
    out = set()
    for n, idx in template.slots.items():
        own = {str(objects[i].get("id")) for i in idx}
        others = [o for j, o in enumerate(objects) if j not in idx]
        walk_others: set[str] = set()
        for o in others:
            if isinstance(o, dict):
                walk_others |= {str(v) for k, v in o.items() if k in ("attached_to",)}
                if isinstance(o.get("action"), dict):
                    before = set(names)
                    walk(o["action"])
                    walk_others |= names - before
        if not own & (names | walk_others):
            out.add(n)
    return out


def fill_partial(name: str, raw: bytes, cards: list[str], library) -> tuple[dict, LineMap]:
    """The template with slot n filled by ``cards[n-1]``, and the objects of a slot given ``ABSENT`` left out (their
    line map shifted, so errors stay located in the template)."""
    _, linemap, slots = parsed(name, raw)
    present = [c if c != ABSENT else None for c in cards]
    filled, _ = fill(name, raw, [c or "" for c in present], library)
    gone = sorted(i for n, idx in slots.items() if present[n - 1] is None for i in idx)
    if not gone:
        return filled, linemap
    keep = [i for i in range(len(filled["objects"])) if i not in gone]
    filled["objects"] = [filled["objects"][i] for i in keep]
    return filled, _shifted(linemap, {old: new for new, old in enumerate(keep)}, set(gone))


def _shifted(linemap: LineMap, renumber: dict[int, int], gone: set[int]) -> LineMap:
    """The line map of a template whose objects ``gone`` are left out (the others renumbered)."""
    def move(path):
        if len(path) >= 2 and path[0] == "objects" and isinstance(path[1], int):
            if path[1] in gone:
                return None
            return ("objects", renumber[path[1]], *path[2:])
        return path
    positions = {}
    for p, pos in linemap._positions.items():
        q = move(p)
        if q is not None:
            positions[q] = pos
    aliases = {}
    for p, (label, target) in linemap._aliases.items():
        q, t = move(p), move(target)
        if q is not None and t is not None:
            aliases[q] = (label, t)
    return LineMap(positions, aliases)


# -- what a worker does with one combination -------------------------------------------------------------
@dataclass(frozen=True)
class FastJob(SweepJob):
    """A combination (``ABSENT`` in its empty slots) and the ids of its slots' objects, whose values the probe logs;
    ``extra``: settings of its own (a diff's side: ``rules_off``, ``ruleset_options``, ``why``)."""

    watch: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def payload(self) -> dict:
        """The plain dict shipped to a worker."""
        return {**super().payload(), "watch": list(self.watch), **dict(self.extra)}


@dataclass(frozen=True)
class SideOptions(RunOptions):
    """The batch options with rules switched off (a ruleset change: ``arbiter diff --rules-off``)."""

    rules_off: tuple[str, ...] = ()

    def solver_options(self):
        """The engine's settings, these rules left out of the assumptions."""
        return replace(super().solver_options(), rules_off=self.rules_off)


def job_options(job: dict, opts: RunOptions) -> RunOptions:
    """The options a job runs with: the batch's, with the job's own ``rules_off`` and ``why`` when it has them."""
    off, why = tuple(job.get("rules_off") or ()), job.get("why")
    if not off and why is None:
        return opts
    base = {f.name: getattr(opts, f.name) for f in fields(opts) if f.name != "rules_off"}
    if why is not None:
        base["why"] = bool(why)
    return SideOptions(**base, rules_off=off)


def with_ruleset_options(data: Any, options: dict | None) -> Any:
    """Scenario data with the ruleset's options changed: each given option where the scenario does not set it
    (a scenario's own ``options`` override the ruleset's, as always)."""
    if not options or not isinstance(data, dict):
        return data
    out = dict(data)
    out["options"] = {**options, **(data.get("options") or {})}
    return out


def _load(job: dict):
    """The combination placed and validated (LoadError / LoadErrors located in the template and card files)."""
    sources = tuple(shipped_cards(job["cards"]) or ())  # by digest (solver.run.batch.jobs.BLOBS)
    data, _, _ = parsed(job["template"], job["text"])
    library = check_library(load_library(sources, str(data.get("game"))))
    filled, linemap = fill_partial(job["template"], job["text"], list(job["slots"]), library)
    filled = with_ruleset_options(filled, job.get("ruleset_options"))
    return load_checked_data(filled, linemap, job["template"], list(sources))


def check_combination(job: dict, opts: RunOptions) -> ScenarioResult:
    """The check of one combination, as the exhaustive sweep does it (a sub-combination: the same, its empty slots'
    objects left out)."""
    if ABSENT not in job["slots"] and not job.get("ruleset_options"):
        return check_full(job, opts)
    try:
        loaded = _load(job)
    except (LoadError, LoadErrors) as exc:
        return error_result(job["path"], str(exc))
    res = check_loaded(loaded, opts.solver_options(), opts.why)
    if _uncored_contradiction(res):
        res = check_loaded(loaded, replace(opts.solver_options(), lazy_cores=False), opts.why)
    res.path = job["path"]
    return res


def _probe_reads(job: dict, opts: RunOptions, rec: Record) -> list[list[str]] | None:
    """The slot values the check read (the probe's log), or None when they cannot be told (see ``reads.probe``) or the
    probe does not come to the record's verdicts."""
    loaded = _load(job)
    if loaded.scenario is None:
        return None
    options = opts.solver_options()
    res, log, complete = probe(loaded, frozenset(job["watch"]), options, opts.why)
    if _uncored_contradiction(res):
        res, more, also = probe(_load(job), frozenset(job["watch"]), replace(options, lazy_cores=False), opts.why)
        log, complete = log | more, complete and also
    if not complete or not _same_verdicts(res.model_dump(mode="json"), rec):
        return None
    return sorted([o, k, n] for o, k, n in log)


def _same_verdicts(a: Record, b: Record) -> bool:
    """The same status, outcome count and verdicts (a safety net: the probe's model is the sliced one)."""
    def key(r: Record):
        return (r.get("status"), len(r.get("outcomes") or []), r.get("unique"),
                [(e.get("verdict"), e.get("passed")) for e in r.get("expectations") or []],
                [(a.get("id"), a.get("statuses")) for a in r.get("actions") or []])
    return key(a) == key(b)


def fast_job(job: dict, opts: RunOptions) -> Record:
    """Check one representative combination and probe what it read; never raises (a record with ``reads``: None when
    it settles nobody)."""
    opts = job_options(job, opts)
    rec = {**guarded(job, opts, check_combination), "cards": list(job["slots"])}
    reads = None
    if job.get("probe", True) and rec.get("status") not in ("error", "unknown"):
        try:
            with deadline(opts.safety):
                reads = _probe_reads(job, opts, rec)
        except ScenarioTimeout:
            reads = None
        except Exception:  # noqa: BLE001 - a probe that fails settles nobody; the record stands
            reads = None
    rec["reads"] = reads
    return rec


# -- the rounds -------------------------------------------------------------------------------------------
@dataclass
class _Rep:
    """A representative: its combination, its record and its reads by slot ((slot, kind, name), sorted)."""

    combo: Combo
    record: Record
    reads: tuple[tuple[int, str, str], ...] | None


@dataclass
class _Shape:
    """The representatives of one shape tuple: per read set, projection -> representative index."""

    tables: dict[tuple, dict[tuple, int]] = field(default_factory=dict)
    #: a representative of this shape tuple settles nobody: check each of its combinations
    each: bool = False


@dataclass
class FastStats:
    """What the fast sweep did: combinations, representatives checked, rounds."""

    combinations: int = 0
    checked: int = 0
    rounds: int = 0

    @property
    def settled(self) -> int:
        """Combinations that took a representative's result without a check of their own."""
        return self.combinations - self.checked


class FastSweep:
    """The fast sweep of a template over a pool (or over given combinations, sub-combinations included).

    ``runner(jobs)`` runs jobs (``fast_job``) and yields (index, record) in any order: the batch runner of
    ``arbiter check`` (in-process, local workers, Dask).
    """

    def __init__(self, template: Template, pool_ids: tuple[str, ...], library, sources: tuple, info: SweepInfo,
                 combos: Callable[[], Iterable[Combo]] | None = None, ordered: bool = False, prefix: str = "",
                 extra: dict | None = None) -> None:
        self.template, self.ids, self.library, self.sources, self.info = template, pool_ids, library, sources, info
        #: a prefix to every job's name (a diff's side), and the settings every job carries
        self.prefix, self.extra = prefix, tuple(sorted((extra or {}).items(), key=lambda kv: kv[0]))
        k = template.k
        self._combos = combos or (lambda: (itertools.permutations if ordered else itertools.combinations)(
            range(len(pool_ids)), k))
        defs = [library.get(c).definition for c in pool_ids]
        shapes: dict[str, int] = {}
        #: a field naming cards (532.8) appears: validation reads property values, so they are part of the shape
        self.names_read = names_read(template.game, template.data,
                                     *(d.model_dump(mode="json", exclude_none=True) for d in defs))
        self.shape = [shapes.setdefault(card_shape(d, self.names_read), len(shapes)) for d in defs]
        self.values = [{**{("attr", a): v for a, v in d.attributes.items()},
                        **{("prop", p): v for p, v in d.properties.items()}} for d in defs]
        self.slot_ids = slot_objects(template)
        self.obj_slot = {o: n for n, objs in self.slot_ids.items() for o in objs}
        self.restated = self._restated()
        self.reps: list[_Rep] = []
        self.shapes: dict[tuple, _Shape] = {}
        self.stats = FastStats()
        #: each representative's own combination -> its index
        self._own: dict[Combo, int] = {}
        h = hashlib.sha256(template.raw)
        for name, raw in sources:
            h.update(b"\0" + name.encode("utf-8", "surrogateescape") + b"\0" + raw)
        self._base = h.hexdigest()

    def _restated(self) -> dict[str, set[tuple[str, str]]]:
        """Per slot object: the attributes and properties the template restates (their values are the template's)."""
        out: dict[str, set[tuple[str, str]]] = {}
        for o in self.template.data.get("objects") or []:
            if isinstance(o, dict) and str(o.get("id")) in self.obj_slot:
                out[str(o["id"])] = ({("attr", a) for a in o.get("attributes") or {}}
                                     | {("prop", p) for p in o.get("properties") or {}})
        return out

    # -- naming ---------------------------------------------------------------------------------------
    def cards(self, combo: Combo) -> tuple[str, ...]:
        """The card ids of a combination (``ABSENT`` for an empty slot)."""
        return tuple(self.ids[c] if c >= 0 else ABSENT for c in combo)

    def job(self, combo: Combo, probe: bool = True) -> FastJob:
        """The job of one combination (``probe``: also find what its check reads; not for one that settles nobody
        else)."""
        cards = self.cards(combo)
        extra = self.extra if probe else (*self.extra, ("probe", False))
        digest = hashlib.sha256((self._base + "\0fast\0" + "+".join(cards) + "\0" + json.dumps(extra))
                                .encode("utf-8")).hexdigest()
        watch = tuple(o for n, objs in self.slot_ids.items() if combo[n - 1] >= 0 for o in objs)
        return FastJob(self.prefix + combination_name(self.template.name, cards), "sha256:" + digest,
                       text=self.template.raw, cards=list(self.sources), template=self.template.name, slots=cards,
                       watch=watch, extra=extra)

    # -- settling ---------------------------------------------------------------------------------------
    def _shape_of(self, combo: Combo) -> tuple:
        return tuple(self.shape[c] if c >= 0 else -1 for c in combo)

    def _project(self, combo: Combo, reads: tuple) -> tuple:
        return tuple(self.values[combo[n - 1]].get((kind, name)) if combo[n - 1] >= 0 else None
                     for n, kind, name in reads)

    def _settle(self, combo: Combo) -> int | None:
        """The representative whose result this combination takes, if any."""
        s = self.shapes.get(self._shape_of(combo))
        if s is None:
            return None
        for reads, table in s.tables.items():
            r = table.get(self._project(combo, reads))
            if r is not None:
                return r
        return None

    def run(self, runner: Callable[[list[FastJob]], Iterator[tuple[int, Record]]]) -> array:
        """Settle every combination; the representative index of each, in combination order."""
        rep_of = array("l")
        # round 1: one representative per shape tuple
        first: dict[tuple, Combo] = {}
        count: dict[tuple, int] = {}
        for combo in self._combos():
            shape = self._shape_of(combo)
            first.setdefault(shape, combo)
            count[shape] = count.get(shape, 0) + 1
        self.stats.combinations = sum(count.values())
        self._check(list(first.values()), runner, {c for shape, c in first.items() if count[shape] == 1})
        # round 2: everything against them; stragglers grouped by shape tuple and projection
        left: list[tuple[int, Combo]] = []
        for i, combo in enumerate(self._combos()):
            r = self._own.get(combo)
            if r is None:
                r = self._settle(combo)
            rep_of.append(-1 if r is None else r)
            if r is None:
                left.append((i, combo))
        # further rounds: one representative per (shape tuple, projection onto the reads known), until none is left
        while left:
            picks: dict[tuple, Combo] = {}
            many: set[tuple] = set()
            for _, combo in left:
                shape = self._shape_of(combo)
                s = self.shapes.get(shape)
                if s is not None and s.each:
                    picks[("each", combo)] = combo
                    continue
                known = tuple(sorted(s.tables)) if s else ()
                key = (shape, tuple(self._project(combo, r) for r in known))
                if key in picks:
                    many.add(key)
                picks.setdefault(key, combo)
            self._check(list(picks.values()), runner, {c for k, c in picks.items() if k not in many})
            still = []
            for i, combo in left:
                r = self._settle(combo)
                if r is None:
                    r = self._own.get(combo)
                if r is None:
                    still.append((i, combo))
                else:
                    rep_of[i] = r
            left = still
        return rep_of

    def _check(self, combos: list[Combo], runner, alone: set[Combo] = frozenset()) -> None:
        """Check these representatives (on the runner) and register what each settles (those ``alone`` in their
        group settle nobody else: checked without the probe)."""
        self.stats.rounds += 1
        jobs = [self.job(c, c not in alone) for c in combos]
        got: dict[int, Record] = {}
        for i, rec in runner(jobs):
            got[i] = rec
        for i, combo in enumerate(combos):
            rec = got[i]
            raw = rec.pop("reads", None)
            reads = None
            if raw is not None and all(o in self.obj_slot for o, _, _ in raw):
                reads = tuple(sorted((self.obj_slot[o], k, nm) for o, k, nm in raw))
            idx = len(self.reps)
            self.reps.append(_Rep(combo, rec, reads))
            self._own[combo] = idx
            self.stats.checked += 1
            s = self.shapes.setdefault(self._shape_of(combo), _Shape())
            if reads is None:
                s.each = s.each or combo not in alone
                continue
            s.tables.setdefault(reads, {}).setdefault(self._project(combo, reads), idx)

    # -- records ---------------------------------------------------------------------------------------
    def record(self, rep: int, combo: Combo) -> Record:
        """The record of a combination settled by representative ``rep``: the representative's, with the
        combination's own name, cards and unread values."""
        r = self.reps[rep]
        cards = self.cards(combo)
        if r.combo == combo:
            return r.record
        out = {k: v for k, v in r.record.items() if k not in OWN}
        job = self.job(combo)
        out.update(path=job.path, hash=job.hash, cards=list(cards))
        patch = self._patch(r, combo)
        if patch and out.get("outcomes"):
            outs = copy.deepcopy(out["outcomes"])
            for o in outs:
                for key, value in patch.items():
                    if key in o.get("state", {}):
                        o["state"][key] = value
            out["outcomes"] = outs
        return out

    def _patch(self, rep: _Rep, combo: Combo) -> dict[str, str]:
        """State keys whose value nothing read -> this combination's own initial value (as an outcome shows it)."""
        read = set(rep.reads or ())
        out: dict[str, str] = {}
        for n, objs in self.slot_ids.items():
            c = combo[n - 1]
            if c < 0 or c == rep.combo[n - 1]:
                continue
            for o in objs:
                for (kind, name), v in self.values[c].items():
                    if (n, kind, name) in read or (kind, name) in self.restated.get(o, set()):
                        continue
                    out[f"{kind}.{o}.{name}"] = str(int(v)) if kind == "attr" and not isinstance(v, str) else str(v)
        return out

    def decorated(self, rep_of: array, timings: bool = False) -> Iterator[Record]:
        """Every combination's decorated record (result and why), in combination order, made as it is asked for."""
        cache: dict[int, tuple[str, dict]] = {}
        for i, combo in enumerate(self._combos()):
            rep = rep_of[i]
            rec = self.record(rep, combo)
            if rep not in cache:
                d = decorate(self.reps[rep].record, self.info, timings)
                cache[rep] = (d["result"], d["why"])
            out = {k: v for k, v in rec.items() if timings or k != "seconds"}
            out["result"], out["why"] = cache[rep]
            yield out

    def results(self, rep_of: array) -> list[str]:
        """Each combination's result, in combination order."""
        by_rep = [decorate(r.record, self.info)["result"] for r in self.reps]
        return [by_rep[rep_of[i]] for i in range(len(rep_of))]


# -- runs on the batch runner of ``arbiter check``, in rounds ------------------------------------------------------
@dataclass
class Rounds:
    """A run (a ``CheckRun``) whose jobs come in several batches (the fast sweep's rounds, a diff's sides and passes):
    one journal for all of them (``--output``: FILE.partial, appended batch after batch), and records reused by
    hash from earlier batches of the run and, with ``--resume``, from the journal."""

    #: the records of this run's earlier batches, by job name
    _kept_records: dict = field(default_factory=dict, repr=False)
    #: whether the journal was started (afresh, or kept with ``--resume``)
    _journal_started: bool = False

    def batch(self, jobs: list) -> list[Record]:
        """Run jobs on the batch runner, in job order (RoundsStopped when the run stops early)."""
        if not jobs:
            return []
        records, stopped = self.collect_results(jobs, lambda i, rec: None)
        if stopped is not None:
            raise RoundsStopped(stopped)
        out = [records[i] for i in range(len(jobs))]
        self._kept_records.update((r["path"], r) for r in out)
        return out

    def _previous(self, jobs: list) -> dict[int, Record]:
        """Records of this run so far, and with ``--resume`` those of the journal, reused by hash."""
        from solver.run.batch.journal import read_records, result_options, reusable

        previous: dict[str, Record] = {}
        if self.resume and self.output:
            previous.update(read_records(self.journal_path))
        previous.update(self._kept_records)
        return reusable(jobs, previous, result_options(self.options))

    def _open_journal(self, kept: dict[int, Record]):
        """The journal: started afresh once (kept as it is with ``--resume``), then appended (``Journal``: each line
        written in full, or an OutputError naming the file)."""
        from solver.run.output import Journal, atomic_write

        if self.journal_path is None:
            return None
        if not self._journal_started:
            self._journal_started = True
            self.journal_path.parent.mkdir(parents=True, exist_ok=True)
            if not self.resume:
                atomic_write(self.journal_path, "")
        return Journal(self.journal_path)

    @property
    def journal_path(self):
        """Every record of the run, appended as it finishes: FILE.partial (the report is written at the end)."""
        return None if self.output is None else self.output.with_name(self.output.name + ".partial")


class RoundsStopped(Exception):
    """A batch stopped early (cluster lost: 2, interrupted: 130)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code
