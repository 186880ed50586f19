"""The offline site suite: realistic sites with seeded data and programmatically known answers.

See FRAMEWORK.md in this folder for how sites, data, tasks and layout reports fit together.

The names load on first use (PEP 562), so the command line can define ``suite``'s options
without building every site's catalog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import exports as _exports

if TYPE_CHECKING:
    from .catalog import DOMAINS, export_tasks, tasks
    from .server import SuiteServer
    from .spec import KINDS, Kind, Plan, SuiteTask

_HOMES = {
    f"{__name__}.catalog": ("DOMAINS", "export_tasks", "tasks"),
    f"{__name__}.server": ("SuiteServer",),
    f"{__name__}.spec": ("KINDS", "Kind", "Plan", "SuiteTask"),
}

__all__ = ["DOMAINS", "KINDS", "Kind", "Plan", "SuiteServer", "SuiteTask", "export_tasks",
           "tasks"]

__getattr__, __dir__ = _exports(globals(), _HOMES)
