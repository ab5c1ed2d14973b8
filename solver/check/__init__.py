"""Checking one scenario: outcomes, uniqueness, verdicts, action legality (``checker``); rule texts and aliases
(``rulebook``); the checker against the solver-free reference (``differential``)."""
