"""The reference reading of Berserk triggered effects (card text, berserk.trigger), read from the rule text.

"At the start (end) of your turn, heal 1 life of an adjacent creature of yours": when a turn of the player who
controls the card begins (ends), and the card is in play, in the state before the event, its text applies to one
object in play that its selector matches then and that has the attribute: any such object may be the one (each a
possible next state); when none matches, nothing changes. Two such texts at once each choose their own (both may
choose one object: it gets both).
"""
from __future__ import annotations

from itertools import product

from models.effects import Effect
from solver.reference.rules import Step
from solver.reference.world import NONE, State, World, key


class TriggerReading:
    """Mixin for the Berserk reference rules: triggers at the start and end of a turn."""

    def turn_triggers(self, w: World, prev: State, step: Step, at: str, player: str) -> None:
        """Each trigger ``at`` of a card in play controlled by ``player``: one object it matches gets the value."""
        choices: list[tuple[int, list[str]]] = []  # (value, the keys it may choose among) of each that fires
        for o in w.sc.objects:
            for t in o.triggers:
                if t.at != at:
                    continue
                w.note("berserk.trigger")
                if (player == NONE or prev.get(key("zone", o.id)) not in self.play_zones
                        or self.controller(w, prev, o.id) != player):  # nobody's turn, or a card nobody controls
                    continue
                fit = self._matched(w, prev, o.id, t)
                if fit:
                    choices.append((t.value, [key("attr", oid, t.attribute) for oid in fit]))
        if not choices:
            return
        outcomes = []
        for picks in product(*(keys for _, keys in choices)):
            after: dict[str, int] = {}
            for (value, _), k in zip(choices, picks):
                after[k] = after.get(k, int(prev[k])) + value
            outcomes.append(after)
        touched = sorted({k for _, keys in choices for k in keys})
        for k in touched:
            step.release(k, "berserk.trigger", {str(a.get(k, prev[k])) for a in outcomes})

        def one_each(nxt: State) -> bool:
            """Each trigger that fires gave its value to one of the objects it matches."""
            return any(all(nxt[k] == str(a.get(k, prev[k])) for k in touched) for a in outcomes)
        step.check("berserk.trigger", one_each, f"each trigger at the {at.replace('_', ' ')} gives one object it "
                                                f"matches its value")

    def _matched(self, w: World, prev: State, source: str, t) -> list[str]:
        """The objects in play the trigger's selector matches in the state before, of those the scenario gives its
        attribute."""
        e = Effect(id=f"{source}.{t.id}", source=source, kind="add", attribute=t.attribute, value=t.value,
                   targets=t.targets)
        sel, types = t.targets, set(t.targets.types or [])
        given = {o.id for o in w.sc.objects if t.attribute in o.attributes}  # they give the attribute
        pool = [oid for oid in (sel.objects or list(w.objects)) if oid in given
                and (not types or types & set(w.objects[oid].types)) and not (sel.other and oid == source)]

        def matched(oid: str) -> bool:
            """In play, in the selector's zone, controlled by whom it says, on the cell it says."""
            if prev.get(key("zone", oid)) not in self.play_zones:
                return False
            if sel.zone and prev.get(key("zone", oid)) != sel.zone:
                return False
            if sel.controlled_by and not self._controlled_by(w, prev, e, oid, sel.controlled_by):
                return False
            if sel.element and self.prop(w, prev, oid, "element") != sel.element:  # type: ignore[attr-defined]
                return False  # the element it has then (berserk.element.selector)
            return not sel.cell or self._on_cell(w, prev, e, oid, sel.cell)
        return [oid for oid in pool if matched(oid)]
