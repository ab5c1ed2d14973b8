"""Running under a memory limit (``ulimit -v``): where checks run, and how running out of memory is reported.

Under an address-space limit, the native solver may abort (``std::bad_alloc``) or panic and hang when it
runs out of memory, where no Python handler can act. So under a limit every check runs in a spawned
worker (``solver/run/batch``: even with ``--jobs 1``, and ``explain``'s one check): a worker that runs
out of memory is replaced and its scenario retried once, then an error naming the limit; the parent,
which does no solving, reports it and never hangs. Running out of memory in the parent is a clean
``arbiter: out of memory`` and exit 2.
"""
from __future__ import annotations

import resource


def address_limit() -> int | None:
    """The address-space limit of this process in bytes (``ulimit -v``), or None."""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def memory_limited() -> bool:
    """Whether this process runs under an address-space limit: then checks run in spawned workers."""
    return address_limit() is not None


def limit_note(prefix: str = "; ") -> str:
    """'; the address-space limit (ulimit -v) is N MB' when one is set, else ''."""
    limit = address_limit()
    return "" if limit is None else f"{prefix}the address-space limit (ulimit -v) is {limit // 2**20} MB"
