"""webfovea: a harness for vision-based web agents on live websites.

The public surface is re-exported here; the modules behind it are private in
spirit (``webfovea.browser.executor`` may move, ``webfovea.Executor`` won't).

The names load on first use (PEP 562): ``import webfovea`` costs nothing, so the
``webfovea`` command installs its signal handlers before the heavy imports (pydantic,
Playwright, PIL) and a Ctrl-C in its first second ends in one line, not a traceback.
"""

# Nothing is imported at run time but webfovea.core.lazy (which imports nothing), not even typing
# (~0.1 s under load): every import here widens the window in which a Ctrl-C reaches no
# handler of ours.
from webfovea.core.lazy import exports as _exports

TYPE_CHECKING = False
if TYPE_CHECKING:
    from webfovea.actions.registry import REGISTRY, Action, ActionSpec, Point
    from webfovea.browser.session import BrowserSession
    from webfovea.core.config import AgentConfig, BrowserConfig, Size, SmartResize
    from webfovea.core.errors import (
        BrowserError,
        ConfigError,
        ModelError,
        ParseError,
        SiteUnreachable,
        TimeLimit,
        WebfoveaError,
    )
    from webfovea.core.task import Task
    from webfovea.dialects.text.parse import ParsedReply, parse_reply
    from webfovea.loop.agent import run_task
    from webfovea.models.loader import load_model
    from webfovea.rundir.trajectory import ResultRecord, StepRecord
del TYPE_CHECKING

__version__ = "0.1.0"

_HOMES = {
    "webfovea.actions.registry": ("REGISTRY", "Action", "ActionSpec", "Point"),
    "webfovea.loop.agent": ("run_task",),
    "webfovea.browser.session": ("BrowserSession",),
    "webfovea.core.config": ("AgentConfig", "BrowserConfig", "Size", "SmartResize"),
    "webfovea.core.errors": ("BrowserError", "ConfigError", "ModelError", "ParseError",
                        "SiteUnreachable", "TimeLimit", "WebfoveaError"),
    "webfovea.models.loader": ("load_model",),
    "webfovea.dialects.text.parse": ("ParsedReply", "parse_reply"),
    "webfovea.core.task": ("Task",),
    "webfovea.rundir.trajectory": ("ResultRecord", "StepRecord"),
}

__all__ = [
    "REGISTRY", "Action", "ActionSpec", "AgentConfig", "BrowserConfig", "BrowserError",
    "BrowserSession", "ConfigError", "ModelError", "ParseError", "ParsedReply", "Point",
    "ResultRecord", "SiteUnreachable", "Size", "SmartResize", "StepRecord", "Task", "TimeLimit",
    "WebfoveaError", "__version__", "load_model", "parse_reply", "run_task",
]

__getattr__, __dir__ = _exports(globals(), _HOMES)
