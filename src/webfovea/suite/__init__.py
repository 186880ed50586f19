"""The offline site suite: realistic sites with seeded data and programmatically known answers.

See FRAMEWORK.md in this folder for how sites, data, tasks and layout reports fit together.

The names load on first use (PEP 562), so the command line can define ``suite``'s options
without building every site's catalog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import DOMAINS, export_tasks, tasks
    from .server import SuiteServer
    from .spec import KINDS, Kind, Plan, SuiteTask

_HOMES = {
    "catalog": ("DOMAINS", "export_tasks", "tasks"),
    "server": ("SuiteServer",),
    "spec": ("KINDS", "Kind", "Plan", "SuiteTask"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = ["DOMAINS", "KINDS", "Kind", "Plan", "SuiteServer", "SuiteTask", "export_tasks",
           "tasks"]


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'webfovea.suite' has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value  # loaded once; later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
