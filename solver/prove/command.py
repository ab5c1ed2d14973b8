"""``arbiter prove GAME``: the text it prints and the counterexample files it writes (``solver.prove.prove``)."""
from __future__ import annotations

from pathlib import Path

import yaml

from solver.prove.closure import prove_every_length
from solver.prove.prove import Result
from solver.prove.spaces import SPACES, Bound


def render(game: str, bound: Bound, results: list[Result]) -> list[str]:
    """The answer for every property, with its bound, counts and (for a counterexample) the step trace."""
    fixed = SPACES[game].fixed if game in SPACES else "no space yet"
    most = SPACES[game].max_players if game in SPACES else 0
    if most and bound.players > most:  # the bound as the space reaches it (Berserk: two players)
        bound = Bound(most, bound.objects, bound.events, bound.board)
    out = [f"arbiter prove {game}: {bound.text()}",
           f"  space: initial values enumerated, not symbolic; kept fixed: {fixed}"]
    for r in results:
        p = r.prop
        head = f"{r.verdict:<14} {p.id} ({p.rule}): {p.says}"
        out.append(head)
        counts = (f"    {r.states} state(s) and event sequences checked of {r.space} in the space, "
                  f"{r.vacuous} vacuous (no outcome keeps the game's properties initially)")
        if r.refused:
            counts += f", {r.refused} refused by the rules (first: {r.refusal})"
        out.append(counts + f"; work {r.work:g} units")
        if r.verdict == "proved" and r.inductive:
            out.append(f"    proved for every length (inductive): the induction step within {bound.text()}, and "
                       f"{r.closure}")
        elif r.verdict == "proved":
            out.append(f"    proved for every state and event sequence within {bound.text()}"
                       + ("; the induction step within the space: one event keeps it from every state of the space "
                          "that keeps the game's properties (every length: below)" if r.step else ""))
        elif r.verdict == "unknown":
            out.append(f"    unknown (never a pass): {r.why}")
        else:
            where = ", ".join(f"{k}={v}" for k, v in r.binding.items())
            out.append(f"    fails after event {r.at} for {where}; step trace:")
            out += [f"      {line}" for line in r.trace]
    closure = next((r for r in results if r.closure), None)
    if closure is not None:
        out.append(f"every length: {'claimed' if closure.inductive else 'not claimed'}: {closure.closure}")
    return out


def as_json(game: str, bound: Bound, results: list[Result]) -> dict:
    """The answer as JSON data (``arbiter prove --json``): the same facts as the text."""
    return {"game": game, "bound": {"players": bound.players, "objects": bound.objects, "events": bound.events,
                                    "board": list(bound.board) if bound.board else None, "text": bound.text()},
            "space_fixed": SPACES[game].fixed if game in SPACES else None,
            "properties": [{"id": r.prop.id, "rule": r.prop.rule, "says": r.prop.says, "verdict": r.verdict,
                            "states": r.states, "space": r.space, "vacuous": r.vacuous, "refused": r.refused,
                            "work": r.work, "induction_step": r.step, "every_length": r.inductive,
                            "closure": r.closure, "why": r.why, "at": r.at, "binding": r.binding,
                            "scenario": r.scenario or None, "trace": r.trace, "counterexample": r.counterexample}
                           for r in results]}


def write_counterexamples(results: list[Result], folder: Path) -> list[Path]:
    """Write each counterexample as a scenario file (its ``arbiter check`` fails on the property)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for r in results:
        if r.counterexample is None:
            continue
        path = folder / f"{r.counterexample['id']}.yaml"
        path.write_text(yaml.safe_dump(r.counterexample, sort_keys=False, allow_unicode=True), encoding="utf-8")
        written.append(path)
    return written


def prove_command(game: str, only: list[str], bound: Bound, budget: float, states: int, rules_off: list[str],
                  out: Path | None, json_out: bool = False) -> int:
    """Run ``arbiter prove``; exit code 0 when every property is proved, 1 otherwise."""
    results = prove_every_length(game, bound, tuple(only), tuple(rules_off), budget, states)
    if json_out:
        import json
        print(json.dumps(as_json(game, bound, results), indent=2, ensure_ascii=False))
    else:
        for line in render(game, bound, results):
            print(line)
    if out is not None:
        for path in write_counterexamples(results, out):
            print(f"counterexample written: {path}")
    return 0 if all(r.verdict == "proved" for r in results) else 1


#: the smallest bounds the two readings are compared at (``arbiter soak --properties``)
AGREE_BOUNDS = {"mtg": Bound(3, 1, 1), "riftbound": Bound(3, 1, 1), "ti4": Bound(3, 1, 1),
                "berserk": Bound(2, 2, 1, (1, 3))}


def soak_properties(games: list[str]) -> int:
    """``arbiter soak --properties``: prove and the reference agree on every property at the smallest bound."""
    from solver.prove.reference import compare

    bad = 0
    for game in games:
        if game not in AGREE_BOUNDS:
            continue
        found = compare(game, AGREE_BOUNDS[game])
        print(f"{game}: properties at {AGREE_BOUNDS[game].text()}: "
              + ("prove and the reference agree" if not found else f"{len(found)} disagreement(s)"))
        for f in found:
            print(f"  DISAGREE {f}")
        bad += len(found)
    return 0 if bad == 0 else 1
