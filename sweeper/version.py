"""Versions of the package and of its behaviour.

``BEHAVIOUR_VERSION`` names what the code computes, not how it is written: it
is recorded in every stored result (``meta.json``, see
:mod:`sweeper.experiments.runner`), and a result made under another behaviour
version is recomputed by the runner and refused by the readers, never reused.

Bump it in the same commit as any change that alters a stored result (a game
rule, an agent's decision or update, the random streams, a task's tables).
``tests/test_behaviour.py`` pins the checksums of every data file of a
quick-scale reproduction (``tests/data/quick-checksums.json``), so such a
change fails the tests until the version is bumped and the checksums are
regenerated (``python -m tests.test_behaviour``); a docstring or a refactor
leaves the checksums, and the version, alone.

History:

1. The first stored results.
2. The sample-average update computes ``Q += (1 / N) * (R - Q)``, the paper
   code's order of operations, instead of ``Q + (R - Q) / N``; the two differ
   in the last bit now and then, which changes tie-breaks and so later games.
"""

#: The package's version (the one ``pyproject.toml`` declares). Stored results record it, but only
#: ``BEHAVIOUR_VERSION`` decides whether a result is reused.
__version__ = "0.1.0"

#: The version of the results this code computes (see the module docstring).
BEHAVIOUR_VERSION = 2
