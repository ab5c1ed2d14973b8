"""Victory analysis: decisive advantage and bounded forced wins, decided by CP-SAT (in)feasibility.

``model``: positions, dice and combat rules; ``encode``: the CP-SAT combat model; ``analysis``: the claims;
``bounded``: forced wins within N rounds; ``naive``: the plain minimax the benchmark compares with.
"""
