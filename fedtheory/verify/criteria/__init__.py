"""Pass criteria: how measurements become a verdict (DESIGN §5).

Every criterion says ``holds``, ``violated`` or ``inconclusive`` and reports the numbers behind
the decision. The rules, common to all criteria:

- **Monte-Carlo error is accounted for.** A statement about an expectation is judged on a
  confidence interval of the mean, never on the point estimate alone. Intervals that are checked
  simultaneously at several grid points use a Bonferroni-corrected level, so the family-wise
  chance of a false "violated" stays at ``1 - level``.
- **Deterministic data is exact.** A point with a single replicate (a deterministic experiment)
  contributes its value with no interval; statements about every replicate (``over="every"``)
  are checked replicate by replicate and a failure is a reproducible counterexample.
- **Curves.** When a sweep varies more than the criterion's axis ``x``, the criterion is applied
  to each curve (one per combination of the other varied parameters) and the outcomes are
  combined: violated if any curve is violated, else inconclusive if any is, else holds.
- **Inconclusive** always says why (interval too wide, an alternative not excluded, ...).

A criterion that cannot fail is a defect: every class here validates its thresholds at
construction (e.g. an alternative exponent inside the tolerance band is refused).

One module per family: :mod:`~fedtheory.verify.criteria.bounds` (:class:`UpperBoundHolds`,
:class:`LowerBoundHolds`), :mod:`~fedtheory.verify.criteria.identity` (:class:`Identity`),
:mod:`~fedtheory.verify.criteria.rates` (:class:`RateExponent`),
:mod:`~fedtheory.verify.criteria.crossing` (:class:`Crossing`) and
:mod:`~fedtheory.verify.criteria.trends` (:class:`Monotone`),
:mod:`~fedtheory.verify.criteria.worstcase` (:class:`WorstCaseHolds`: a bound against an exact
worst case); the base class
:class:`Criterion` and the shared helpers are in ``_base`` (and ``_pairwise`` for the
point-by-point comparisons).
"""

from __future__ import annotations

from fedtheory.verify.criteria._base import MIN_BOOTSTRAP_REPLICATES, Criterion
from fedtheory.verify.criteria.bounds import LowerBoundHolds, UpperBoundHolds
from fedtheory.verify.criteria.crossing import Crossing
from fedtheory.verify.criteria.identity import Identity
from fedtheory.verify.criteria.rates import RateExponent
from fedtheory.verify.criteria.trends import Monotone
from fedtheory.verify.criteria.worstcase import WorstCaseHolds

__all__ = [
    "MIN_BOOTSTRAP_REPLICATES",
    "Criterion",
    "Crossing",
    "Identity",
    "LowerBoundHolds",
    "Monotone",
    "RateExponent",
    "UpperBoundHolds",
    "WorstCaseHolds",
]
