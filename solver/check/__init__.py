"""Checking one scenario: outcomes, uniqueness, verdicts, action legality (``checker``); rule texts and aliases
(``rulebook``)."""
