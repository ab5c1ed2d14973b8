"""Running checks: the Python API (``api``, ``single``), output formats (``formats``), batches (``batch``) and the
pytest plugin (``pytest_plugin``). The ``arbiter`` command line on top of everything is ``solver.cli``."""
