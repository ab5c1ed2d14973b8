"""Berserk: only an action on the stack resolves, starts executing; only an executing one finishes (525.1, 526.1).

A ``resolve`` or ``start_execution`` event names an action the stack holds; one that an
earlier event already took off the stack (or that the initial state does not put there)
is a located error whatever happens. One whose declaration was illegal (525.1: it never
went on the stack) is a located error as soon as some outcome shows it: the checker reads
the condition in every outcome (``Compiler.preconditions``) and reports the first event in
error. The same for ``finish_execution`` of an action that is not executing.
"""
from __future__ import annotations

from solver.encoding.context import RuleContext

#: event type -> the status its action must have before it
NEEDS = {"resolve": "on_stack", "start_execution": "on_stack", "finish_execution": "executing"}
#: event types that take an action off the stack
OFF_STACK = ("resolve", "start_execution")


def initial_status(ctx: RuleContext, action: str) -> str | None:
    """The status an action object of the initial state has (None: it is declared by an event)."""
    data = ctx.objects[action].data
    if data is None:
        return None
    return data.status or ("on_stack" if data.zone == ctx.rs.stack_zone else "unborn")


def why_not_there(ctx: RuleContext, ev, index: int) -> str | None:
    """Why the event's action cannot have the status it needs, whatever happened before (None: it may)."""
    need, action = NEEDS[ev.type], ev.action
    earlier = [(i, e) for i, e in enumerate(ctx.sc.events[:index]) if getattr(e, "action", None) == action
               and e.type in NEEDS]
    declared = any(e.type == "declare" and e.id == action for e in ctx.sc.events[:index])
    status = initial_status(ctx, action)
    if need == "on_stack":
        for i, e in earlier:
            if e.type in OFF_STACK:
                return f"events[{i}] ({e.type}) already took it off the stack"
        if not declared and status != "on_stack":
            return f"it is {status} in the initial state, not on the stack"
        return None
    starts = [i for i, e in earlier if e.type == "start_execution"]
    finishes = [i for i, e in earlier if e.type == "finish_execution" and (not starts or i > starts[-1])]
    if finishes:
        return f"events[{finishes[-1]}] (finish_execution) already finished it"
    if not starts and status != "executing":
        return "no earlier start_execution started it"
    return None


def require_status(ctx: RuleContext, ev) -> bool:
    """The event's action has the status the event needs, in every outcome; known from the events alone when an
    earlier event took it off the stack (the checker reports either as a located error, in event order). False when
    it is known not to: the event has nothing to act on and adds no stage."""
    need, action = NEEDS[ev.type], ev.action
    what = "on the stack" if need == "on_stack" else "executing"
    reason = why_not_there(ctx, ev, ctx.event_index)
    if reason is not None:
        ctx.require(ctx.rm.false, f"action '{action}' is not {what}: {reason}")
        return False
    ctx.require(ctx.stage["status", action].is_(need),
                 f"action '{action}' is not {what} here"
                 + (" (525.1: an action that could not be declared never goes on the stack)"
                    if need == "on_stack" else ""))
    return True
