"""Model specs (``--model``) to model clients."""

from __future__ import annotations

from webfovea.core.config import AgentConfig
from webfovea.core.errors import ConfigError
from webfovea.models.base import Model
from webfovea.models.retry import RetryPolicy

# One attempt, no retry: the "retries" fix ablated (webfovea.core.ablations).
NO_RETRIES = RetryPolicy(max_attempts=1)

ACCEPTED_FORMS = ("openai:<model>", "anthropic:<model>", "gemini:<model>", "scripted:<file>", "oracle",
                  "oracle:provider-resize", "oracle:targets", "oracle:grounder")

PROVIDERS = ("openai", "anthropic", "gemini")


def load_model(spec: str, *, base_url: str | None = None, timeout: float = 120.0,
               host_rules: tuple[str, ...] = (), retry: RetryPolicy | None = None,
               api_key: str | None = None) -> Model:
    """The model client for ``spec``; ConfigError listing the accepted forms when it is bad.
    ``retry``: the provider clients' retry policy (default: the shared one).

    Only the part before the first colon names the kind, so model names that contain
    colons (Ollama's ``qwen2.5vl:7b``) pass through intact. ``host_rules``: the browser's,
    from which the oracle finds its suite lane when no ``base_url`` is given. ``retry``: a
    provider client's retry policy (default: the shared one's defaults). ``api_key``: a
    provider model's key (default: its provider's usual environment variable).
    """
    kind, _, rest = spec.strip().partition(":")
    if kind in PROVIDERS and base_url is not None:
        from webfovea.models.preflight import check_base_url

        check_base_url(base_url)
    if kind in PROVIDERS and rest:
        return _provider_model(kind, rest, base_url=base_url, timeout=timeout, retry=retry,
                               api_key=api_key)
    if kind == "oracle":
        from webfovea.models.oracle import oracle_from_spec

        return oracle_from_spec(spec.strip(), base_url, host_rules)
    if base_url is not None and kind == "scripted":
        raise ConfigError(f"--base-url applies only to openai:, anthropic: and gemini: models, "
                          f"not {spec!r}")
    if kind == "scripted" and rest:
        from webfovea.models.scripted import ScriptedModel

        return ScriptedModel.from_file(rest)
    raise ConfigError(f"bad model spec {spec!r}: use one of {', '.join(ACCEPTED_FORMS)}")


def retry_policy(config: AgentConfig) -> RetryPolicy | None:
    """The run's retry policy: none when the "retries" fix is ablated, the configured number
    of retries when one is set (bench --preset), else the default."""
    if "retries" in config.ablate:
        return NO_RETRIES
    if config.model_retries is not None:
        return RetryPolicy(max_attempts=config.model_retries + 1)
    return None


def _provider_model(kind: str, name: str, *, base_url: str | None, timeout: float,
                    retry: RetryPolicy | None, api_key: str | None) -> Model:
    # The SDKs load lazily: importing both costs ~3 s, which scripted and oracle runs skip.
    if kind == "openai":
        from webfovea.models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(name, base_url=base_url, timeout=timeout, retry=retry,
                             api_key=api_key)
    if kind == "gemini":
        from webfovea.models.gemini import GeminiModel

        return GeminiModel(name, base_url=base_url, timeout=timeout, retry=retry,
                       api_key=api_key)
    from webfovea.models.anthropic import AnthropicModel

    return AnthropicModel(name, base_url=base_url, timeout=timeout, retry=retry,
                          api_key=api_key)
