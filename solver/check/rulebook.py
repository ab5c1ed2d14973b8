"""The rule registry: every rule id of every game, with a one-line description, and alias resolution."""
from __future__ import annotations


class UnknownRule(ValueError):
    """A scenario cites a rule id that no ruleset defines."""


class RuleBook:
    """All rule ids by game; ``lookup`` accepts an exact id or a section prefix of known ids."""

    def __init__(self) -> None:
        self._by_game: dict[str, dict[str, str]] = {}

    def register(self, game: str, rules: dict[str, str]) -> None:
        """Add a game's rules."""
        self._by_game.setdefault(game, {}).update(rules)

    def rules(self, game: str) -> dict[str, str]:
        """Rule ids of a game plus the core rules."""
        out = dict(self._by_game.get("core", {}))
        out.update(self._by_game.get(game, {}))
        return out

    def lookup(self, rule_id: str, game: str) -> str:
        """The description of a rule id (or of the section it prefixes); UnknownRule otherwise."""
        rules = self.rules(game)
        if rule_id in rules:
            return rules[rule_id]
        section = [r for r in rules if r.startswith(rule_id + ".") or (r.startswith(rule_id) and r[len(rule_id):][:1].isalpha()
                                                                          and len(rule_id.split(".")[-1]) > 0 and rule_id[-1].isdigit())]
        if section:
            return f"section of {len(section)} rules: " + ", ".join(sorted(section)[:5])
        raise UnknownRule(f"unknown rule id '{rule_id}' for game {game}")


RULEBOOK = RuleBook()
