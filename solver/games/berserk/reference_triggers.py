"""The reference reading of Berserk triggered effects (card text, berserk.trigger), read from the rule text.

"At the start (end) of your turn, heal 1 life of an adjacent creature of yours": when a turn of the player who
controls the card begins (ends), and the card is in play, in the state before the event, its text applies to one
object in play that its selector matches then and that has the attribute: any such object may be the one (each a
possible next state); when none matches, nothing changes.
"""
from __future__ import annotations

from models.effects import Effect
from solver.reference.rules import Step
from solver.reference.world import State, Unsupported, World, key


class TriggerReading:
    """Mixin for the Berserk reference rules: triggers at the start and end of a turn."""

    def turn_triggers(self, w: World, prev: State, step: Step, at: str, player: str) -> None:
        """Each trigger ``at`` of a card in play controlled by ``player``: one matching object gets the value."""
        seen: set[str] = set()
        for o in w.sc.objects:
            for t in o.triggers:
                if t.at != at:
                    continue
                w.note("berserk.trigger")
                if prev.get(key("zone", o.id)) not in self.play_zones or self.controller(w, prev, o.id) != player:
                    continue
                for k in self._one_gets(w, prev, step, o.id, t):
                    if k in seen:
                        raise Unsupported("two triggers at once on one object")
                    seen.add(k)

    def _one_gets(self, w: World, prev: State, step: Step, source: str, t) -> list[str]:
        """One object the selector matches (in the state before) gets ``t.value`` added to ``t.attribute``."""
        e = Effect(id=f"{source}.{t.id}", source=source, kind="add", attribute=t.attribute, value=t.value,
                   targets=t.targets)
        sel, types = t.targets, set(t.targets.types or [])
        pool = [oid for oid in (sel.objects or list(w.objects)) if oid in w.objects
                and key("attr", oid, t.attribute) in w.domains
                and (not types or types & set(w.objects[oid].types)) and not (sel.other and oid == source)]

        def matched(oid: str) -> bool:
            """In play, in the selector's zone, controlled by whom it says, on the cell it says."""
            if prev.get(key("zone", oid)) not in self.play_zones:
                return False
            if sel.zone and prev.get(key("zone", oid)) != sel.zone:
                return False
            if sel.controlled_by and not self._controlled_by(w, prev, e, oid, sel.controlled_by):
                return False
            return not sel.cell or self._on_cell(w, prev, e, oid, sel.cell)
        fit = [oid for oid in pool if matched(oid)]
        for oid in fit:
            k = key("attr", oid, t.attribute)
            step.release(k, "berserk.trigger", {prev[k], str(int(prev[k]) + t.value)})
        keys = [key("attr", oid, t.attribute) for oid in fit]

        def exactly_one(nxt: State) -> bool:
            """One of the matching objects got the value (none when none matches)."""
            changed = sum(nxt[k] != prev[k] for k in keys)
            return changed == (1 if keys else 0)
        step.check("berserk.trigger", exactly_one, f"trigger {t.id} of {source}: one object it matches gets {t.value}")
        return keys
