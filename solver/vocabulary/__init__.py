"""Closed world: each game's vocabulary (``words``, ``shared``), the check of a scenario against it (``check``),
and what is generated from it: the per-game JSON Schema (``schema``) and reference docs (``docs``)."""
