"""Every reference plan, registered: the core plans of :mod:`.policies` and the ones built on
its helpers (apps, widgets), which register themselves into the same table on import."""

from __future__ import annotations

from . import policies_apps, policies_widgets  # noqa: F401  (they register themselves)
from .policies import POLICIES

__all__ = ["POLICIES"]
