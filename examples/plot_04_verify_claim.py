"""
Run a claim and read its verdict
================================

A *claim* is a prediction of a theorem that can fail: an experiment, a sweep per profile and a
criterion. Here two claims of the catalog (``verification/classic/sgd.py``) on SGD with steps
1/(μt): the true one (the squared distance decays like 1/T, Rakhlin, Shamir & Sridharan) and a
deliberately false one (1/T², which the toolkit must report *violated*). The ``smoke`` profile
keeps it to seconds; the result store goes to a temporary directory.
"""

# %%
# :func:`fedtheory.verify.verify` discovers the claims in a file or folder, runs the replicates
# that the store does not hold yet, and judges every claim.

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from fedtheory.plotting import figure_from_spec
from fedtheory.verify import verify

# the repository's catalog: run this script from the repository's root or from examples/
root = Path.cwd() if Path("verification").is_dir() else Path.cwd().parent
catalog = root / "verification" / "classic" / "sgd.py"
with tempfile.TemporaryDirectory() as tmp:
    run = verify(
        catalog,
        profile="smoke",
        claims=["classic/sgd/rate", "classic/sgd/false-rate"],
        store=Path(tmp) / "results.sqlite",
        workers=1,
    )
print(f"{len(run.results)} claims judged in {run.seconds:.1f} s, exit code {run.exit_code}")

# %%
# A verdict says what was predicted, what was measured (with its confidence interval), the
# outcome and why. A claim *passes* when the outcome is what it expects: the false rate is
# expected to be violated, so its violation passes.
for result in run.results:
    v = result.verdict
    print(result.claim.id)
    print(f"  predicted: {v.predicted}")
    print(f"  measured:  {v.measured}  (95% CI {v.ci[0]:.3f} to {v.ci[1]:.3f})")
    print(f"  outcome:   {v.outcome} (expected {result.claim.expect}) -> passed: {result.passed}")
    print(f"  because:   {v.reason}")

# %%
# Every verdict carries the figure of its evidence (a :class:`~fedtheory.plotting.FigureSpec`):
# the measured points with their intervals, the fit, the predicted rate.
figure = figure_from_spec(run.results[0].verdict.figure, title=run.results[0].claim.id)
plt.figure(figure)  # hand the figure to pyplot, so that it shows
plt.show()
