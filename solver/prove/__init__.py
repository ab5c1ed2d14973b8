"""arbiter prove: properties of the rules for every state and event sequence of a bounded space (issue 25)."""
