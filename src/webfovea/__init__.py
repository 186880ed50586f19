"""webfovea: a harness for vision-based web agents on live websites.

The public surface is re-exported here; the modules behind it are private in
spirit (``webfovea.browser.executor`` may move, ``webfovea.Executor`` won't).
"""

from webfovea.actions import REGISTRY, Action, ActionSpec, Point
from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import AgentConfig, BrowserConfig, Size, SmartResize
from webfovea.errors import (
    BrowserError,
    ConfigError,
    ModelError,
    ParseError,
    SiteUnreachable,
    TimeLimit,
    WebfoveaError,
)
from webfovea.models.loader import load_model
from webfovea.parse import ParsedReply, parse_reply
from webfovea.task import Task
from webfovea.trajectory import ResultRecord, StepRecord

__version__ = "0.1.0"

__all__ = [
    "REGISTRY", "Action", "ActionSpec", "AgentConfig", "BrowserConfig", "BrowserError",
    "BrowserSession", "ConfigError", "ModelError", "ParseError", "ParsedReply", "Point",
    "ResultRecord", "SiteUnreachable", "Size", "SmartResize", "StepRecord", "Task", "TimeLimit",
    "WebfoveaError", "__version__", "load_model", "parse_reply", "run_task",
]
