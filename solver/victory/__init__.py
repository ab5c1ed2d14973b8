"""Victory analysis: decisive advantage and bounded forced wins, decided on the combat rules.

``model``: positions, dice and combat rules (the predicates every search applies); ``encode``: the CP-SAT combat
model; ``search``: the explicit AND/OR search, its strategies and refuting lines; ``analysis``: the claims;
``bounded``: forced wins within N rounds; ``naive``: the plain minimax the benchmark compares with.
"""
