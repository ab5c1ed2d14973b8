"""The compiler's static world and its state keys: objects, effects and their order, object identity and the time
effects were applied, the domains and initial values of every state key, and stage 0 (the scenario's state, each
value fixed under a fact literal; with slicing, created on first use).

``World`` is one part of ``solver.encoding.compile.Compiler``; rules see it through ``RuleContext``.
"""
from __future__ import annotations

from models.effects import Effect, Selector
from models.events import BeginEffect, Declare
from models.expectations import ACTION_STATUSES, Expectation
from models.scenario import PLAYER_STATUSES
from models.timeline import simultaneous_groups
from solver.encoding.context import ObjInfo
from solver.encoding.cp import Cat, Lit
from solver.encoding.state import NONE, LazyVars, Stage, fixed, new_var
from solver.errors import ScenarioError
from solver.registry import vocabulary_for

ATTR_RANGE = [-1_000_000, 1_000_000]
TURN_KEYS = ("active_player", "priority", "focus")


class World:
    """The static world, the state keys' domains and stage 0 (a part of ``Compiler``, which sets the fields)."""

    # -- static world ---------------------------------------------------------
    def _collect(self) -> None:
        for o in self.sc.objects:
            if o.zone not in self.zones:
                raise ScenarioError(f"object {o.id}: zone '{o.zone}' is not a zone of {self.sc.game} "
                                    f"(known: {', '.join(self.zones)})")
            self.objects[o.id] = ObjInfo(o.id, o.owner, tuple(o.types), o.card, o.token, o.action, o)
            if o.action is not None:
                self.actions.append(o.id)
        for ev in self.sc.events:  # objects events create exist (unborn) for every effect's selector
            for oid in self.rs.created_objects(self, ev):
                self.objects.setdefault(oid.id, oid)
        for e in self.sc.effects:
            self._add_effect(e)
        for i, ev in enumerate(self.sc.events):
            if isinstance(ev, Declare):
                owner = self.owner_of(ev.source) if ev.source else ev.actor
                self.objects[ev.id] = ObjInfo(ev.id, owner, ("action",), ev.card, False, ev, None)
                self.actions.append(ev.id)
            elif isinstance(ev, BeginEffect):
                self._add_effect(ev.effect, begun_by=i)
            for e in self.rs.created_effects(self, i, ev):  # an effect the game's rules begin at this event
                self._add_effect(e, begun_by=i)

    def _add_effect(self, e: Effect, begun_by: int | None = None) -> None:
        if e.source is not None and e.source not in self.objects:
            raise ScenarioError(f"effect {e.id}: unknown source '{e.source}'")
        if begun_by is None and e.timestamp is None and self._in_play_at_start(e.source):
            place = next(i for i, x in enumerate(self.sc.effects) if x.id == e.id)
            raise ScenarioError(f"effects[{place}] (effect {e.id}): its source {e.source} is in play at the start: give "
                                f"it a timestamp (when its effects were applied; of conflicting effects the latest "
                                f"wins)")
        self.effects[e.id] = e
        # "applied last" follows time: the initial state's effects by timestamp, then each begun one at its event; a
        # static effect counts from when its source last entered (``effect_time``), this order breaks ties
        stamp = -1 if e.timestamp is None else e.timestamp
        self._order[e.id] = (0, stamp, len(self._order)) if begun_by is None else (1, begun_by, len(self._order))
        self.began[e.id] = 0 if begun_by is None else begun_by + 1
        if begun_by is not None:
            self.initial["active", e.id] = False
            self.pending.add(e.id)
        for obj in self.candidates(e):
            key = (e.kind, obj) if e.kind == "control" else (e.kind, obj, e.attribute or e.action or e.ability)
            self._on.setdefault(key, []).append(e)
        for lst in self._on.values():
            lst.sort(key=self.effect_order)

    def effect_order(self, e: Effect) -> tuple[int, int, int]:
        """When an effect began: the initial state's by timestamp, then those events begin, in event order.

        Effects contesting one characteristic never tie (``models.timeline``); other ties keep list order. It is the
        order of the scenario; the order in time, which a re-entry changes, is ``later`` (it breaks ties there).
        """
        return self._order[e.id]

    def _in_play_at_start(self, obj: str | None) -> bool:
        """Static: the object starts in a zone where its static abilities work."""
        data = self.objects[obj].data if obj in self.objects else None
        return data is not None and data.zone in self.rs.play_zones

    # -- object identity and the time effects were applied --------------------------------
    def identity_objects(self) -> tuple[str, ...]:
        """Objects whose identity per zone visit a rule reads: the source of every static effect (its effects count
        from when it last entered or was attached) and every object an effect names by listing it (the effect
        names the visit it was created for)."""
        out: dict[str, None] = {}
        for e in self.effects.values():
            if e.duration == "static" and e.source in self.objects:
                out[e.source] = None
            for t in named(e):
                if t in self.objects:
                    out[t] = None
        for t in self.rs.identity_objects(self):  # what a game's rules name besides effects (targets: MTG 400.7)
            out[t] = None
        return tuple(out)

    def created_at(self, obj: str) -> int:
        """The index of the event that creates ``obj`` (declares an action, triggers an ability, creates a token); 0
        for an object of the initial state. An object's visit that began no later is the one it named then."""
        for i, ev in enumerate(self.sc.events):
            if ev.declared_id() == obj:
                return i
        return 0

    def since(self, st: Stage, obj: str):
        """When ``obj``'s current zone visit began at ``st`` (0: the initial state; 1 + the index of the event in
        which it last changed zone or attachment): a variable, or an int while it is known (still the first visit,
        no rule could have changed it); None when no rule reads its identity."""
        if ("since", obj) not in self.domains:
            return None
        var = st["since", obj]
        return self._known.get(int(var.index), var)

    def effect_time(self, st: Stage, e: Effect):
        """When ``e`` was applied, as of ``st``: when it began; a static effect (a card's static ability) not before
        its source last entered or was attached (a re-entry applies it anew). An int, or a variable."""
        began = self.began[e.id]
        src = self.since(st, e.source) if e.duration == "static" and e.source else None
        if src is None or isinstance(src, int):
            return began if src is None else max(began, src)
        key = ("at", e.id, int(src.index))
        if key not in self._times:
            at = self.rm.new_int(f"s{st.index}:applied.{e.id}", 0, len(self.sc.events))
            self.rm.model.add_max_equality(at, [self.rm.model.new_constant(began), src])
            self._times[key] = at
        return self._times[key]

    def _open_orders(self) -> None:
        """Effects whose order no rule fixes (``models.timeline.simultaneous_groups``: static abilities of cards
        that entered together) get a rank each, a permutation the solver chooses: every order is an outcome."""
        rule = self.rs.open_order_rule()
        for group in simultaneous_groups(self.sc):
            ranks = [self.rm.new_int(f"order.{eid}", 0, len(group) - 1) for eid in group]
            for i, ra in enumerate(ranks):  # a permutation: pairwise different
                for rb in ranks[i + 1:]:
                    self.rm.model.add(ra != rb)
            if rule is not None:  # a player chooses the permutation (MTG 613.7m); without the rule, list order
                for i, r in enumerate(ranks):
                    self.rm.model.add(r == i).only_enforce_if(self.rm.neg(self.rm.rule(rule)))
            self._ranks.update((eid, (r, group)) for eid, r in zip(group, ranks))

    def open_orders(self) -> list[tuple[str, ...]]:
        """The groups of effects whose relative order is open (each in list order)."""
        return list(dict.fromkeys(group for _, group in self._ranks.values()))

    def rank(self, eid: str):
        """The variable of an effect's place in its open order (0: applied first)."""
        return self._ranks[eid][0]

    def _tie(self, a: Effect, b: Effect):
        """On the same time, does ``a`` need one more to be later than ``b``: 1 when ``a`` comes first in the
        scenario's order, else 0; for an open order, the literal 'a ranks before b' (the solver's choice)."""
        ra, rb = self._ranks.get(a.id), self._ranks.get(b.id)
        if ra is None or rb is None or ra[1] != rb[1]:
            return 1 if self.effect_order(a) < self.effect_order(b) else 0
        key = ("rank", a.id, b.id)
        if key not in self._times:
            lit = self.rm.new_bool(f"order.{a.id}<{b.id}")
            self.rm.model.add(ra[0] < rb[0]).only_enforce_if(lit)
            self.rm.model.add(ra[0] > rb[0]).only_enforce_if(~lit)
            self._times[key] = lit
        return self._times[key]

    def later(self, st: Stage, a: Effect, b: Effect) -> Lit:
        """Literal (a definition): ``a`` was applied after ``b`` at ``st``: a later time, or the same time and a
        later place in the scenario's order (``effect_order``), or in the order chosen where it is open
        (``_tie``). Folded when both times are known."""
        ta, tb = self.effect_time(st, a), self.effect_time(st, b)
        tie = self._tie(a, b)  # on the same time, a needs one more
        if isinstance(ta, int) and isinstance(tb, int):
            if not isinstance(tie, int) and ta == tb:
                return self.rm.neg(tie)
            if not isinstance(tie, int):
                return self.rm.true if ta > tb else self.rm.false
            return self.rm.true if ta >= tb + tie else self.rm.false
        key = ("later", id(ta), id(tb), tie if isinstance(tie, int) else id(tie))
        if key not in self._times:
            lit = self.rm.new_bool(f"s{st.index}:later.{a.id}.{b.id}")
            self.rm.model.add(ta >= tb + tie).only_enforce_if(lit)
            self.rm.model.add(ta < tb + tie).only_enforce_if(~lit)
            self._times[key] = (lit, ta, tb)
        return self._times[key][0]

    def named_visit(self, st: Stage, e: Effect, obj: str) -> Lit:
        """Literal (a definition): ``obj``'s current visit is one ``e`` names: the effect lists it and it has not changed
        zone since ``e`` was applied (its own source's static ability always names the source's current visit).
        True for an effect that does not list it (a selector follows whatever matches it)."""
        if obj not in named(e) or (e.duration == "static" and e.source == obj):
            return self.rm.true
        return self.visit_since(st, obj, self.effect_time(st, e), f"names.{e.id}")

    def visit_since(self, st: Stage, obj: str, at, name: str = "visit") -> Lit:
        """Literal (a definition): ``obj``'s current zone visit began no later than ``at`` (an int or a variable):
        it is still the object it was then (true when no rule reads its identity)."""
        rm = self.rm
        since = self.since(st, obj)
        if since is None:
            return rm.true
        if isinstance(since, int) and isinstance(at, int):
            return rm.true if since <= at else rm.false
        if isinstance(since, int):
            return rm.int_ge(at, since)
        if isinstance(at, int):
            return rm.int_le(since, at)
        key = ("named", id(since), id(at))
        if key not in self._times:
            lit = rm.new_bool(f"s{st.index}:{name}.{obj}")
            rm.model.add(since <= at).only_enforce_if(lit)
            rm.model.add(since > at).only_enforce_if(~lit)
            self._times[key] = (lit, since, at)
        return self._times[key][0]

    def candidates(self, e: Effect) -> list[str]:
        """Objects an effect may apply to, by its static criteria (ids, types)."""
        if isinstance(e.targets, Selector):
            ids = e.targets.objects or list(self.objects)
            types = set(e.targets.types or [])
            return [o for o in ids if o in self.objects and (not types or types & set(self.objects[o].types))
                    and not (e.targets.other and o == e.source)]
        return [t for t in e.targets if t in self.objects]

    def effects_on(self, obj: str, kind: str, what: str | None = None) -> list[Effect]:
        """Effects of ``kind`` that may apply to ``obj`` (for ``what``: attribute, action or ability)."""
        key = (kind, obj) if kind == "control" else (kind, obj, what)
        return list(self._on.get(key, []))

    def effect_groups(self) -> list[tuple]:
        """(kind, object[, attribute/action/ability]) of every group of effects that may apply to one object."""
        return sorted(self._on, key=lambda k: tuple(map(str, k)))

    def owner_of(self, obj: str | None) -> str | None:
        """The owner of an object (static)."""
        return self.objects[obj].owner if obj in self.objects else None

    def next_player(self, player: str) -> str:
        """The player after ``player`` in turn order (cyclic)."""
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    # -- domains and stage 0 ---------------------------------------------------
    def add_key(self, key: tuple, domain, initial) -> None:
        """Declare a state variable (idempotent) with its domain and initial value."""
        if key not in self.domains:
            self.domains[key] = domain
            self.initial.setdefault(key, initial)

    def _build_domains(self) -> None:
        players = tuple(self.players) + (NONE,)
        cells = tuple(self.cells) + (NONE,)
        attach_targets = sorted({o.data.attached_to for o in self.objects.values() if o.data and o.data.attached_to})
        for oid, info in self.objects.items():
            o = info.data
            self.add_key(("zone", oid), self.zones, o.zone if o else NONE)
            ctrl = (o.controller or o.owner) if o else None
            self.add_key(("ctrl", oid), players, ctrl or NONE)
            if self.cells:
                self.add_key(("cell", oid), cells, (o.cell if o else None) or NONE)
            if attach_targets and (o is None or o.attached_to or "aura" in info.types or "equipment" in info.types):
                self.add_key(("attach", oid), tuple(attach_targets) + (NONE,), (o.attached_to if o else None) or NONE)
            if info.action is not None:
                status = (o.status if o and o.status else ("on_stack" if o and o.zone == self.rs.stack_zone else "unborn"))
                if status not in ACTION_STATUSES:
                    raise ScenarioError(f"object {oid}: unknown action status '{status}'")
                self.add_key(("status", oid), ACTION_STATUSES, status)
            if o:
                for a, v in o.attributes.items():
                    self.add_key(("attr", oid, a), ATTR_RANGE, v)
                for f, v in o.flags.items():
                    self.add_key(("flag", oid, f), "bool", v)
                for ab in o.abilities:
                    self.add_key(("ability", oid, ab), "bool", True)
        for p in self.sc.players:
            self.add_key(("pstatus", p.id), PLAYER_STATUSES, p.status)
            for a, v in p.attributes.items():
                self.add_key(("pattr", p.id, a), ATTR_RANGE, v)
            for f, v in p.flags.items():
                self.add_key(("pflag", p.id, f), "bool", v)
        for name in TURN_KEYS:
            self.add_key(("turn", name), players, getattr(self.sc.turn, name) or NONE)
        self.add_key(("gflag", "showdown"), "bool", self.sc.turn.showdown)
        for eid, e in self.effects.items():
            self.add_key(("active", eid), "bool", e.active)
            for obj in self.candidates(e):
                if e.kind in ("set", "add") and isinstance(e.value, int):
                    self.add_key(("attr", obj, e.attribute), ATTR_RANGE, 0)
                elif e.kind == "set":
                    self.add_prop(obj, e.attribute, str(e.value))
        for ev in self.sc.events:
            for key, dom, init in self.rs.event_keys(self, ev):
                self.add_key(key, dom, init)
        self.identity = self.identity_objects()
        for oid in self.identity:
            self.add_key(("since", oid), [0, len(self.sc.events)], 0)
        for ex in self.sc.expect:
            self._expectation_keys(ex)
        self.rs.declare_keys(self)

    def add_prop(self, obj: str, name: str, value: str | None = None) -> None:
        """Declare (or widen) a categorical property's domain."""
        key = ("prop", obj, name)
        base = self.objects[obj].data.properties.get(name) if self.objects[obj].data else None
        dom = set(self.domains.get(key, ())) | {NONE} | ({base} if base else set()) | ({value} if value else set())
        self.domains[key] = tuple(sorted(dom))
        self.initial.setdefault(key, base or NONE)

    def _expectation_keys(self, ex: Expectation) -> None:
        if ex.player is not None:  # a player attribute the scenario does not give has its declared default
            vocab = vocabulary_for(self.sc.game)
            for a in ex.player_attributes:
                word = vocab.word("player_attributes", a)
                if getattr(word, "default", None) is not None:
                    self.add_key(("pattr", ex.player, a), ATTR_RANGE, word.default)
        if ex.object is None:
            return
        for a in ex.attributes:
            self.add_key(("attr", ex.object, a), ATTR_RANGE, 0)
        for p, v in ex.properties.items():
            self.add_prop(ex.object, p, v)
        for f in ex.flags:
            if f not in self.rs.derived_flags:
                self.add_key(("flag", ex.object, f), "bool", False)

    def _stage0(self) -> Stage:
        self._statics0 = {("active", eid) for eid, e in self.effects.items()
                          if e.duration == "static" and eid not in self.pending}
        for key, dom in self.domains.items():
            if isinstance(dom, tuple) and key not in self._statics0 and self.initial[key] not in dom:
                raise ScenarioError(f"{_fact_name(key)}: '{self.initial[key]}' is not one of {', '.join(dom)}")
        st = Stage(0, "initial state", LazyVars(self._initial_var if self.slicing else None))
        named = self._named_objects() | self.read if self.slicing else None
        self._creating = True
        for key in self.domains:  # in the model's usual order; with slicing, only those of objects named somewhere
            if named is None or not (len(key) > 1 and key[1] in self.objects and key[1] not in named):
                st.vars[key] = self._initial_var(key)
        self._creating = False
        self._define_statics(st)
        return st

    def _named_objects(self) -> set[str]:
        """Objects the scenario names outside their own entry (events, effects, expectations, claims, another
        object's attachment or stacked action): their keys are likely read, so stage 0 creates them first, in the
        usual order, and the model is the one built without slicing whenever nothing else is read. Others get
        variables when read (``late``: the checker then builds the model again with them first, ``read``), so
        the solver meets the variables in the same order, and returns the same cores, with slicing or without."""
        names: set[str] = set()

        def walk(v) -> None:
            if isinstance(v, str):
                names.add(v)
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    walk(x)
        data = self.sc.model_dump(exclude={"objects"})
        walk(data)
        for o in self.sc.objects:
            if o.attached_to:
                names.add(o.attached_to)
            if o.action is not None:  # an action waiting on the stack names its source and targets
                walk(o.action.model_dump())
        return names & set(self.objects)

    def zone_named(self, zone: str) -> bool:
        """Does the scenario put anything in ``zone`` itself: an object starting there, or an event naming it? For a
        zone no rule of the game ever puts an object into (MTG's ante), a clause about objects in it can only
        fire when this holds; elsewhere the clause owns nothing (a structural bound like slicing, never a verdict)."""
        if any(o.zone == zone for o in self.sc.objects):
            return True
        return any(ev.model_dump().get("zone") == zone for ev in self.sc.events)

    def _initial_var(self, key: tuple, probe: bool = False):
        """Stage 0's variable for ``key``, fixed to the scenario's value under its fact literal (a static effect's
        activity is the static rule's business); once the model is solved, the value itself (a constant)."""
        if key not in self.domains:
            return None
        if probe:
            return True
        if key[0] == "since":  # every object of the initial state is on its first visit: a constant, no fact
            var = fixed(self.rm, key, self.domains[key], self.initial[key])
            self._known[int(var.index)] = int(self.initial[key])
            return var
        if self.rm.sealed and key not in self._statics0:
            return fixed(self.rm, key, self.domains[key], self.initial[key])
        if not self._creating and len(key) > 1 and key[1] in self.objects:
            self.late.add(key[1])
        var = new_var(self.rm, key, self.domains[key], 0)
        if key in self._statics0 or key in self.derived0:
            return var
        init = self.initial[key]
        fact = self.rm.fact(_fact_name(key))
        if isinstance(var, Cat):
            var.assign(init, [fact])
        else:
            self.rm.equal(var, int(init), [fact])
        return var

    def initial_text(self, key: tuple) -> str:
        """A key's initial value as an outcome shows it (a name, '0'/'1' for a flag, a number)."""
        init = self.initial[key]
        return init if isinstance(self.domains[key], tuple) else str(int(init))

    def _define_statics(self, st: Stage) -> None:
        """The game's static-effect rule at this stage (core.static, or the game's own id)."""
        self.rs.statics(self, st)


def named(e: Effect) -> tuple[str, ...]:
    """The objects an effect names by listing them (its listed targets, a selector's ``objects``)."""
    if isinstance(e.targets, Selector):
        return tuple(e.targets.objects or ())
    return tuple(e.targets)


def _fact_name(key: tuple) -> str:
    kind, *rest = key
    subject = ".".join(str(r) for r in rest)
    return {"zone": f"{subject}.zone", "ctrl": f"{subject}.controller", "pstatus": f"{subject}.status",
            "active": f"{subject}.active", "turn": f"turn.{subject}", "status": f"{subject}.status",
            "gflag": f"game.{subject}"}.get(kind, f"{subject}" if kind in ("attr", "pattr", "flag", "pflag", "prop")
                                         else f"{kind}.{subject}") if kind not in ("ability",) else f"{subject}.has"
