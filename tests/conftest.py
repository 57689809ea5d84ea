"""Shared test settings.

Hypothesis profiles: ``ci`` (default, quick) and ``stress`` (thousands of examples
per property), chosen with ``HYPOTHESIS_PROFILE=stress python3 -m pytest tests/rules``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile(
    "stress", max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
