"""The rule book: every rule id of every registered game, with its one-line text, and alias resolution.

Read from the registry (each game's ``rules.py``), so it costs no solver import.
"""
from __future__ import annotations

from functools import lru_cache

from solver.errors import ScenarioError
from solver.registry import game as game_named


class UnknownRule(ScenarioError):
    """A scenario cites a rule id that no ruleset defines (bad input)."""


@lru_cache(maxsize=None)
def rules(game: str) -> dict[str, str]:
    """Rule ids of a game plus the core rules, with their texts."""
    out = game_named("core").rule_texts()
    out.update(game_named(game).rule_texts())
    return out


def canonical(game: str, rule_id: str) -> str:
    """The canonical id of a rule id, resolving the game's aliases (``ti4.33.4a`` -> ``ti4.75.4a``)."""
    for alias, canon in game_named(game).aliases().items():
        if rule_id == alias or rule_id.startswith(alias + "."):
            return canon + rule_id[len(alias):]
    return rule_id


def lookup(game: str, rule_id: str) -> str:
    """The text of a rule id (or a summary of the section it prefixes); UnknownRule otherwise."""
    known = rules(game)
    rid = canonical(game, rule_id)
    if rid in known:
        return known[rid]
    section = [r for r in known if r.startswith(rid + ".") or (r.startswith(rid) and r[len(rid):][:1].isalpha()
                                                                and rid[-1].isdigit())]
    if section:
        return f"section of {len(section)} rules: " + ", ".join(sorted(section)[:5])
    same = f" (= {rid})" if rid != rule_id else ""
    raise UnknownRule(f"unknown rule id '{rule_id}'{same} for game {game}")


def covers(game: str, named: str, rule_id: str) -> bool:
    """Does the rule id (or section) ``named`` cover ``rule_id``: the same id, or a rule of that section."""
    a, b = canonical(game, named), canonical(game, rule_id)
    return b == a or b.startswith(a + ".")
