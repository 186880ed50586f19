"""Model clients behind one interface (see :mod:`webfovea.models.base`)."""

from webfovea.models.base import Model, ModelReply, ModelRequest, SentImage, Turn, Usage
from webfovea.models.loader import load_model
from webfovea.models.retry import RetryPolicy
from webfovea.models.scripted import ScriptedModel

__all__ = ["Model", "ModelReply", "ModelRequest", "RetryPolicy", "ScriptedModel", "SentImage",
           "Turn", "Usage", "load_model"]
