"""What the book shows: it reads stored results and draws them, and never computes them.

* :mod:`~sweeper.viz.figures` -- the data of each of the paper's figures and tables, from ``results/``;
* :mod:`~sweeper.viz.paper_charts` -- one Altair chart per figure of the paper (learning curves, heatmaps, ...);
* :mod:`~sweeper.viz.board_charts` -- pictures of boards, replays of games and atlases of learned patterns;
* :mod:`~sweeper.viz.widgets` -- ipywidgets for a live kernel (step through a game, explore patterns);
* :mod:`~sweeper.viz.offline` -- the Altair renderer that makes charts work without a network.
"""
