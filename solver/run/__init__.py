"""Running checks: the Python API (``api``, ``single``), output formats (``format_table``: which there are, for
which command; ``formats``: check's renderers), batches (``batch``) and the pytest plugin (``pytest_plugin``). The
``arbiter`` command line on top of everything is ``solver.cli``."""
