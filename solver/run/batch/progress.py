"""The progress bar of a batch run: on stderr, only when it is a terminal."""
from __future__ import annotations

import sys
from contextlib import contextmanager

from solver.run.batch.jobs import Record


@contextmanager
def progress(enabled: bool, total: int, done: int):
    """A rich progress bar on stderr when it is a terminal; else nothing. Yields advance(record)."""
    if not (enabled and sys.stderr.isatty() and total):
        yield lambda rec: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[bad]}"), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("check", total=total, completed=done, bad="")
        bad = [0]

        def advance(rec: Record) -> None:
            bad[0] += rec.get("status") != "pass"
            bar.update(task, advance=1, bad=f"{bad[0]} not passing" if bad[0] else "")
        yield advance
