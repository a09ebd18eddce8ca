"""DOS and UNO Duo as PettingZoo AEC environments (issue 34, docs/moves.md "PettingZoo"), built on the
move API's table: the mask comes from ``legal_moves()``, a step from ``play()``.

Needs the optional extra ``rl`` (``pip install 'dosverify[rl]'``): pettingzoo, gymnasium, numpy.
"""
