"""Arbiter's solver side, in sub-packages by job.

``encoding`` (CP-SAT model), ``engine`` (solving, cores), ``check`` (one scenario's verdicts), ``games`` (one
folder per game, registered in ``registry``), ``reference`` (the solver-free reading), ``victory`` (decisive
advantage, forced wins), ``run`` (CLI, API, batches, formats, pytest plugin), ``bench`` (benchmarks, soak).
"""
