"""OR-Tools' ``cp_model`` imported without loading pandas, with the real pandas behind it on first use.

``cp_model`` imports pandas (about a third of a second, more than half of its import time) only for its
pandas helpers (``new_int_var_series``, ``new_bool_var_series``, ``CpSolver.values`` ...), which Arbiter
never calls; at import time it reads just ``pd.Index`` and ``pd.Series`` (type hints and one
``Union`` alias). So, when nothing has loaded pandas yet and no other thread runs:

- a stand-in module with those two names sits in ``sys.modules["pandas"]`` while ``cp_model`` is
  imported, and ``sys.modules`` is restored exactly after (the entry removed, or left alone if the
  import replaced it), so a later ``import pandas`` anywhere loads the real library;
- ``cp_model.pd`` is then a proxy that imports the real pandas on its first attribute access and puts
  it in place, so every pandas helper of ``cp_model`` (``isinstance(x, pd.Index)``, ``pd.Series(...)``)
  works with the real library, exactly as after an ordinary import;
- if the import fails with the stand-in (an OR-Tools that reads more of pandas), ``cp_model`` is
  imported again the ordinary way.

What differs from an ordinary import: the eagerly evaluated annotations of those helpers (and the
``_IndexOrSeries`` alias) name the stand-in's ``Index`` and ``Series`` classes. ``tests/test_fast_paths.py``
checks the restore, the helpers with the real pandas and the fallback.
"""
from __future__ import annotations

import sys
import threading
import types

MODULE = "ortools.sat.python.cp_model"


class _RealPandas(types.ModuleType):
    """``cp_model.pd`` until first used: imports the real pandas then and puts it in ``cp_model.pd``."""

    def __getattr__(self, name: str):
        import pandas

        sys.modules[MODULE].pd = pandas
        return getattr(pandas, name)


def _stand_in() -> types.ModuleType:
    """A module with the two names ``cp_model`` reads from pandas while it is imported."""
    stand_in = types.ModuleType("pandas", "stand-in while ortools' cp_model is imported (solver.encoding.cpsat)")
    for name in ("Index", "Series"):
        setattr(stand_in, name, type(name, (), {"__module__": "pandas"}))
    return stand_in


def _ordinary():
    """``cp_model`` imported the usual way."""
    from ortools.sat.python import cp_model

    return cp_model


def import_cp_model():
    """OR-Tools' ``cp_model``; without loading pandas when that is safe (see the module docstring)."""
    if MODULE in sys.modules or "pandas" in sys.modules or threading.active_count() > 1:
        return _ordinary()
    stand_in = _stand_in()
    sys.modules["pandas"] = stand_in
    try:
        module = _ordinary()
    except Exception:  # noqa: BLE001 - this OR-Tools reads more of pandas: the ordinary import below
        module = None
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if module is None or getattr(module, "pd", None) is not stand_in:
        sys.modules.pop(MODULE, None)
        return _ordinary()
    module.pd = _RealPandas("pandas", "imports the real pandas on first use (solver.encoding.cpsat)")
    return module


cp_model = import_cp_model()
