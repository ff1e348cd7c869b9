"""Plots a card player reads (issue 14, item 10): plain numbers on log axes, % labels, no always-empty
heatmap columns, the sweep's edge warning and default."""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tricksim.analysis import plots


def test_log_axis_labels_are_plain_numbers():
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [5, 30, 400])
    ax.set_yscale("log")
    plots.log_axis(ax, "y")
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert labels and all("10^" not in x and "times" not in x and "$" not in x for x in labels), labels
    assert "20" in labels and "100" in labels
    plt.close(fig)
    assert plots._percent(0.001) == "0.1%" and plots._percent(0.5) == "50%" and plots._plain(2000) == "2,000"


def test_heatmap_has_no_always_empty_column(tmp_path, monkeypatch):
    rows = [{"trumps": t, "bowers": b, "n": 1000 if t <= 5 else 10, **{f"p{k}": 0.5 for k in range(3, 7)}}
            for t in range(0, 8) for b in range(3)]
    shapes = []
    real = plt.Axes.imshow
    monkeypatch.setattr(plt.Axes, "imshow", lambda self, g, **k: (shapes.append(np.shape(g)), real(self, g, **k))[1])
    plots.heatmap_classes(pd.DataFrame(rows), tmp_path / "h.png", 10_000)
    assert shapes == [(3, 6)] * 4          # trumps 0..5; 6 and 7 never reach 200 deals


def test_sweep_edge_warning_and_default(tmp_path):
    assert "lowest" in plots.sweep_edge_note([0, 0.5, 1], 0)
    assert "highest" in plots.sweep_edge_note([0, 0.5, 1], 1)
    assert plots.sweep_edge_note([0, 0.5, 1], 0.5) == ""
    df = pd.DataFrame({"param": "margin", "value": [0, 0.5, 1], "advantage": [0.3, 0.2, 0.1], "ci": [0.03] * 3})
    plots.sweep_plot(df, tmp_path / "s.png", "t", "points per deal", 0.0, [], default=0.5)
    assert (tmp_path / "s.png").exists()


def test_line_styles_differ_and_markers_are_staggered():
    a, b = plots.style(0, 40, 2), plots.style(1, 40, 2)
    assert a["ls"] != b["ls"] and a["marker"] != b["marker"] and a["markevery"] != b["markevery"]
