"""The offline site suite: realistic sites with seeded data and programmatically known answers.

See FRAMEWORK.md in this folder for how sites, data, tasks and layout reports fit together.
"""

from __future__ import annotations

from .catalog import DOMAINS, export_tasks, tasks
from .server import SuiteServer
from .spec import KINDS, Kind, Plan, SuiteTask

__all__ = ["DOMAINS", "KINDS", "Kind", "Plan", "SuiteServer", "SuiteTask", "export_tasks",
           "tasks"]
