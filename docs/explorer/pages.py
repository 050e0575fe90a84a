"""The documentation's bound explorer pages, and their screenshots.

    python docs/explorer/pages.py [OUTDIR] [--screenshots [FIGDIR]]

writes ``OUTDIR/dichotomy.html`` and ``OUTDIR/fedlrgd.html`` (default ``docs/explorer``; the
pages are generated, never committed) and, with ``--screenshots``, PNGs of both as headless
Chromium shows them (``FIGDIR/explorer_dichotomy.png`` and ``explorer_fedlrgd.png``, default
``docs/figures``). ``make explorer`` runs both. A documentation build calls
:func:`write_pages` (``runpy.run_path("docs/explorer/pages.py")["write_pages"](folder)``).

The pages:

- **dichotomy** — on the quadratic model GM-Q: local training (``minimax.gmq.plt``), FedAvg
  (``minimax.gmq.fedavg``), optimally tuned FedProx (``minimax.gmq.fedprox.tuned``) and the
  minimax IER rate (``minimax.minimax-rate.ier``, the lower envelope no algorithm beats) against
  the heterogeneity R. The GM-Q bounds are exact risks for balanced clients, so the total sample
  is tied to N = m·n and the rate's n_i to n; with d·s² = 1 and C = ½ the rate is the GM-Q
  envelope ½(min(R², 1/n) + 1/N) of docs/papers/minimax.md. Local training does not depend on R
  (a horizontal line).
- **fedlrgd** — federated oracle complexity Γ against the target accuracy ε: FedLRGD in
  Proposition 1's regime (``fedlrgd.prop1``, ≲ φm(p/ε)^ξ), FedAve (``fedlrgd.thm3``, ≲
  φm(p/ε)^{3/4}, inside its explicit bracket ``fedlrgd.thm3.lower``/``.upper``) and the omitted
  federated full-gradient GD (``fedlrgd.fedgd``). Theorem 2's exact FedLRGD cost
  ``fedlrgd.thm2`` is not on the page: it is a function of the rank r and the iterations S,
  not of ε, and the ε-dependence of r(47), S(48) lives in other bounds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from fedtheory.explore import write_explorer  # noqa: E402
from fedtheory.explore._browser import screenshot  # noqa: E402

#: name → the arguments of :func:`fedtheory.explore.write_explorer`.
PAGES: dict[str, dict[str, Any]] = {
    "dichotomy": {
        "bounds": [
            "minimax.gmq.plt",
            "minimax.gmq.fedavg",
            "minimax.gmq.fedprox.tuned",
            "minimax.minimax-rate.ier",
        ],
        "axis": "R",
        "flat": True,
        "tie": {"N": "m*n", "n_i": "n"},
        "values": {"d": 10, "s2": 0.1, "C": 0.5, "n": 100, "m": 10, "R": 0.1},
        "ranges": {"R": (1e-3, 10.0)},
        "title": "FedAvg vs local training on GM-Q: the dichotomy in R",
        "note": (
            "Exact expected excess risks of one client on the quadratic model GM-Q (m clients, "
            "n samples each, N = m·n), against the heterogeneity R: local training ds²/(2n), "
            "FedAvg ½(R² + ds²/N), optimally tuned FedProx, and the minimax rate "
            "C(min(R², 1/n_i) + 1/N) with n_i = n (dashed: a lower bound). With d·s² = 1 and "
            "C = ½ it is the GM-Q envelope; FedAvg and local training cross at "
            "R*² = ds²(1/n − 1/N). Move n or m and watch the crossover move like √(1/n)."
        ),
    },
    "fedlrgd": {
        "bounds": [
            "fedlrgd.prop1",
            "fedlrgd.thm3",
            "fedlrgd.thm3.upper",
            "fedlrgd.thm3.lower",
            "fedlrgd.fedgd",
        ],
        "axis": "epsilon",
        "values": {"C": 1, "phi": 50, "m": 1000},
        "ranges": {"epsilon": (1e-8, 1.0)},
        "title": "Federated oracle complexity: FedLRGD vs FedAve vs federated GD",
        "note": (
            "Γ against the target accuracy ε: FedLRGD in Proposition 1's regime "
            "(≲ φm(p/ε)^ξ, ξ < 3/4), FedAve (Theorem 3, ≲ φm(p/ε)^{3/4}, with the explicit "
            "bracket [¾, 8]·φτm(C/ε')^{3/4} of its proof) and the federated full-gradient GD "
            "the paper omits ((log(Δ0/ε)/log(κ/(κ−1)) + 1)(φm + n + r), derived): only "
            "logarithmic in 1/ε. The order bounds' unknown constants C have their own sliders."
        ),
    },
}


def write_pages(folder: str | Path) -> list[Path]:
    """Write every page of :data:`PAGES` into ``folder`` (created); return the paths."""
    out = Path(folder)
    written = []
    for name, spec in PAGES.items():
        options = dict(spec)
        chosen = options.pop("bounds")
        axis = options.pop("axis")
        written.append(write_explorer(out / f"{name}.html", chosen, axis, **options))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "docs" / "explorer"))
    parser.add_argument(
        "--screenshots",
        nargs="?",
        const=str(ROOT / "docs" / "figures"),
        default=None,
        metavar="FIGDIR",
        help="also save explorer_<name>.png of each page (default folder docs/figures)",
    )
    args = parser.parse_args(argv)
    for path in write_pages(args.outdir):
        print(f"wrote {path}")
        if args.screenshots is not None:
            png = Path(args.screenshots) / f"explorer_{path.stem}.png"
            console = screenshot(path, png)
            if console:
                print(f"{path}: the page logged {console}", file=sys.stderr)
                return 1
            print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
