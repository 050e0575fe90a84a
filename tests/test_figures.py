"""Figure scripts: discovery, drawing from the runner's cached measurements, CLI (issue 4)."""

from __future__ import annotations

import sqlite3
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import fedtheory.papers
from fedtheory.cli import cli
from fedtheory.errors import ParameterError
from fedtheory.figures import discover_figures, main, make_figure

CLAIM = '''
import numpy as np

from fedtheory.bounds import Citation
from fedtheory.verify import Claim, RateExponent, Sweep


def squared_mean(params, seed):
    """Squared mean of n standard normals: E = 1/n exactly."""
    x = np.random.default_rng(seed).standard_normal(int(params["n"]))
    return {"sq": float(x.mean() ** 2)}


rate = Claim(
    id="classic/figures/rate",
    source=Citation("classic", "figure test"),
    statement="The squared mean of n standard normals decays like 1/n.",
    experiment=squared_mean,
    sweeps={
        "smoke": Sweep(grid={"n": [10, 100, 1000]}, replicates=8),
        "quick": Sweep(grid={"n": [10, 100, 1000, 10000]}, replicates=16),
    },
    criterion=RateExponent(x="n", y="sq", expected=-1, band=0.5),
)
'''

SCRIPT = """
import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript


def draw(results):
    result = results["classic/figures/rate"]
    data = result.measurements
    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.loglog(data.param("n"), [v.mean() for v in data.column("sq")], "o-")
    ax.set_title(result.verdict.outcome)
    return fig


FIGURE = FigureScript(
    name="toy_rate",
    title="squared mean against n",
    claims="classic/figures/*",
    draw=draw,
    profile="smoke",
    catalog=({catalog!r},),
    source="nowhere, Figure 0",
)
"""


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "rate.py").write_text(textwrap.dedent(CLAIM))
    scripts = tmp_path / "figures"
    scripts.mkdir()
    (scripts / "toy_rate.py").write_text(textwrap.dedent(SCRIPT).format(catalog=str(catalog)))
    return catalog, scripts


def _stored_rows(store: Path) -> int:
    with sqlite3.connect(store) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def test_make_figure_draws_from_the_store_and_reuses_it(folders, tmp_path):
    _, scripts = folders
    script = discover_figures(scripts)["toy_rate"]
    store = tmp_path / "store.sqlite"
    out = make_figure(script, output=tmp_path / "a.png", store=store, workers=1)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert _stored_rows(store) == 3 * 8
    # a second make computes nothing new: the figure is read back from the cache
    make_figure(script, output=tmp_path / "b.png", store=store, workers=1)
    assert _stored_rows(store) == 3 * 8
    # another profile computes only what is new: replicate seeds do not depend on the profile,
    # so the 3 x 8 smoke replicates are the first 8 of three quick points
    make_figure(script, output=tmp_path / "c.png", store=store, workers=1, profile="quick")
    assert _stored_rows(store) == 4 * 16


def test_script_entry_point_writes_the_png(folders, tmp_path, capsys):
    _, scripts = folders
    script = discover_figures(scripts)["toy_rate"]
    out = tmp_path / "entry.png"
    main(script, ["--output", str(out), "--store", str(tmp_path / "s.sqlite"), "--workers", "1"])
    assert out.exists()
    assert str(out) in capsys.readouterr().out


def test_cli_list_and_make(folders, tmp_path):
    _, scripts = folders
    runner = CliRunner()
    listed = runner.invoke(cli, ["figures", "list", "--figures", str(scripts)])
    assert listed.exit_code == 0, listed.output
    assert "toy_rate" in listed.output and "Figure 0" in listed.output
    out = tmp_path / "cli.png"
    made = runner.invoke(
        cli,
        [
            "figures",
            "make",
            "toy_rate",
            "--figures",
            str(scripts),
            "--output",
            str(out),
            "--store",
            str(tmp_path / "s.sqlite"),
            "--workers",
            "1",
        ],
    )
    assert made.exit_code == 0, made.output
    assert out.exists()


def test_cli_unknown_figure_is_one_line_exit_2(folders):
    _, scripts = folders
    result = CliRunner().invoke(cli, ["figures", "make", "nope", "--figures", str(scripts)])
    assert result.exit_code == 2
    assert "name='nope'" in result.output and "toy_rate" in result.output


def test_malformed_scripts_are_refused(tmp_path):
    with pytest.raises(ParameterError, match="must be a folder"):
        discover_figures(tmp_path / "missing")
    (tmp_path / "bad.py").write_text("FIGURE = 3\n")
    with pytest.raises(ParameterError, match="FIGURE = FigureScript"):
        discover_figures(tmp_path)
    (tmp_path / "bad.py").write_text(
        "from fedtheory.figures import FigureScript\n"
        "FIGURE = FigureScript(name='other', title='t', claims='x', draw=print)\n"
    )
    with pytest.raises(ParameterError, match="file stem"):
        discover_figures(tmp_path)


def test_the_repository_figures_load():
    scripts = discover_figures(Path(__file__).resolve().parents[1] / "figures")
    assert {"minimax_dichotomy", "minimax_fig1"} <= set(scripts)
    papers = tuple(f"{key}/" for key in (*fedtheory.papers.__all__, "classic"))
    # figures across every paper say so: their glob starts with "*/"
    across = {name for name, script in scripts.items() if script.claims.startswith("*/")}
    assert across == {"worstcase_tightness"}
    assert all(
        script.claims.startswith(papers) for name, script in scripts.items() if name not in across
    )


def test_make_figure_goes_to_the_report_unless_docs_and_is_stamped(folders, tmp_path, monkeypatch):
    import dataclasses

    from fedtheory import __version__

    _, scripts = folders
    script = discover_figures(scripts)["toy_rate"]
    drawn = []

    def draw(results):
        figure = script.draw(results)
        drawn.append(figure)
        return figure

    recording = dataclasses.replace(script, draw=draw)
    monkeypatch.chdir(tmp_path)
    store = tmp_path / "s.sqlite"
    out = make_figure(recording, store=store, workers=1, seed=3)
    assert out == Path("report") / "figures" / "toy_rate.png" and out.exists()
    texts = [t.get_text() for t in drawn[-1].texts]
    assert f"fedtheory {__version__} · profile smoke · seed 3" in texts
    docs = make_figure(recording, store=store, workers=1, docs=True)
    assert docs == Path("docs") / "figures" / "toy_rate.png" and docs.exists()
    with pytest.raises(ParameterError, match="docs"):
        make_figure(recording, store=store, workers=1, docs=True, output="x.png")
    # the script's own entry point: --docs, or the report folder by default
    main(script, ["--docs", "--store", str(store), "--workers", "1"])
    made = CliRunner().invoke(
        cli,
        [
            "figures",
            "make",
            "toy_rate",
            "--figures",
            str(scripts),
            "--store",
            str(store),
            "--workers",
            "1",
            "--docs",
        ],
    )
    assert made.exit_code == 0, made.output
    assert str(Path("docs") / "figures" / "toy_rate.png") in made.output
