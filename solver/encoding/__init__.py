"""The CP-SAT encoding: rule literals (``cp``), stages and the frame axiom (``state``), effect precedence
(``derived``), the generic ruleset and action lifecycle (``ruleset``), scenario to model (``compile``)."""
