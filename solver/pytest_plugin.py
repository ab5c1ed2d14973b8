"""Pytest plugin: collect Arbiter scenario files as test items (minimal placeholder, being built)."""
