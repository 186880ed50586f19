"""Model specs (``--model``) to model clients."""

from __future__ import annotations

from webfovea.errors import ConfigError
from webfovea.models.base import Model

ACCEPTED_FORMS = ("openai:<model>", "anthropic:<model>", "scripted:<file>", "oracle")


def load_model(spec: str, *, base_url: str | None = None, timeout: float = 120.0) -> Model:
    """The model client for ``spec``; ConfigError listing the accepted forms when it is bad.

    Only the part before the first colon names the kind, so model names that contain
    colons (Ollama's ``qwen2.5vl:7b``) pass through intact.
    """
    kind, _, rest = spec.strip().partition(":")
    if kind in ("openai", "anthropic") and rest:
        return _provider_model(kind, rest, base_url=base_url, timeout=timeout)
    if base_url is not None and kind in ("scripted", "oracle"):
        raise ConfigError(f"--base-url applies only to openai: and anthropic: models, not {spec!r}")
    if kind == "scripted" and rest:
        from webfovea.models.scripted import ScriptedModel

        return ScriptedModel.from_file(rest)
    if spec.strip() == "oracle":
        return _oracle()
    raise ConfigError(f"bad model spec {spec!r}: use one of {', '.join(ACCEPTED_FORMS)}")


def _provider_model(kind: str, name: str, *, base_url: str | None, timeout: float) -> Model:
    # The SDKs load lazily: importing both costs ~3 s, which scripted and oracle runs skip.
    if kind == "openai":
        from webfovea.models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(name, base_url=base_url, timeout=timeout)
    from webfovea.models.anthropic import AnthropicModel

    return AnthropicModel(name, base_url=base_url, timeout=timeout)


def _oracle() -> Model:
    try:
        from webfovea.models.oracle import OracleModel
    except ImportError as error:
        raise ConfigError(f"the oracle model is not available: {error}") from error
    model: Model = OracleModel()
    return model
