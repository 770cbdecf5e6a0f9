"""What the book shows: it reads stored results and draws them, and never computes them.

* :mod:`~sweeper.viz.figures` -- the data of each of the paper's figures and tables, from ``results/``;
* :mod:`~sweeper.viz.paper_charts` -- one Altair chart per figure of the paper (learning curves, heatmaps, ...);
* :mod:`~sweeper.viz.board_charts` -- pictures of boards, replays of games and atlases of learned patterns;
* :mod:`~sweeper.viz.widgets` -- ipywidgets for a live kernel (step through a game, explore patterns);
* :mod:`~sweeper.viz.offline` -- the Altair renderer that makes charts work without a network.
"""

import importlib
import inspect
import pkgutil
import re


def chart_functions() -> dict:
    """Every chart the package draws, by name (``"paper_charts.how_good"`` -> the function): the public functions
    of the modules of this package whose return annotation is an Altair chart, except the layers that a chart draws
    on its ``base``. Derived from the modules, so a chart joins the list by being written; ``tests/test_legibility.py``
    draws every one of them."""
    found = {}
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            continue
        mod = importlib.import_module(f"{__name__}.{module.name}")
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ != mod.__name__ or name.startswith("_"):
                continue
            params, returns = inspect.signature(fn).parameters, inspect.signature(fn).return_annotation
            chart = (re.fullmatch(r"alt\.\w*Chart", returns) if isinstance(returns, str)
                     else getattr(returns, "__module__", "").startswith("altair") and returns.__name__.endswith("Chart"))
            if chart and "base" not in params:
                found[f"{module.name}.{name}"] = fn
    return found
