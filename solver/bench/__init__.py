"""Benchmarks and soak runs: ``arbiter bench`` (``python -m solver.bench``), the victory benchmark
(``python -m solver.bench.victory``), the soak against the reference (``python -m solver.bench.soak``) and the
scenario writer behind ``arbiter generate``."""
