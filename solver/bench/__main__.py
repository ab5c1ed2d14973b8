"""``python -m solver.bench``: the benchmark table (the same as ``arbiter bench``)."""
from solver.bench.bench import Bench

print(Bench().run())
