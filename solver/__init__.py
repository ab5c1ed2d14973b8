"""Arbiter's solver side: the CP-SAT encoding, one module per game's rules, the checker, victory analysis,
batch runner, CLI and pytest plugin."""
