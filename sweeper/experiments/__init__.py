"""Experiments: one spec per table and figure of the paper, the resumable runner, the reproduction
and its statistics.

* :mod:`~sweeper.experiments.specs` -- the specs and the task kinds they run;
* :mod:`~sweeper.experiments.runner` -- tasks stored with checksums, run on processes or Dask;
* :mod:`~sweeper.experiments.reproduce` -- run every spec, then the summary and the comparison with the paper;
* :mod:`~sweeper.experiments.stats` -- Wilson intervals and the Mann-Whitney "significantly best" marks.
"""

from .specs import EXTRA_SPECS, SCALES, SPECS, all_tasks

__all__ = ["SPECS", "EXTRA_SPECS", "SCALES", "all_tasks"]
