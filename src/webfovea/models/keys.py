"""Where a model's API key comes from: its provider's usual environment variable, or one
named for that model (``--grounder-api-key-env NAME``), so a second model of the run (the
grounder) can hold a key of its own beside the planner's."""

from __future__ import annotations

import os

from webfovea.core.errors import ConfigError

# Each provider's usual variables, the first one the one its errors name.
KEY_VARS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}


def key_vars(spec: str) -> tuple[str, ...]:
    """The usual key variables of ``spec``'s provider (none for oracle and scripted models)."""
    return KEY_VARS.get(spec.strip().partition(":")[0], ())


def named_key(env: str | None, *, flag: str) -> str | None:
    """The key held by ``env`` (None: no variable named, the provider's own is read by its
    client); a named variable that is unset or empty is a ConfigError naming ``flag``."""
    if env is None:
        return None
    value = os.environ.get(env)
    if not value:
        raise ConfigError(f"{flag} {env}: the environment variable {env} is not set (it must "
                          f"hold the API key)")
    return value


def check_key(spec: str, env: str | None, base_url: str | None, *, role: str,
              flag: str) -> None:
    """A ConfigError before the run when ``role``'s model will have no key: the variable
    ``flag`` named is unset, or none was named, the provider's usual one is unset and no
    endpoint was given (a local server needs no key)."""
    if env is not None:
        named_key(env, flag=flag)
        return
    usual = key_vars(spec)
    if usual and base_url is None and not any(os.environ.get(v) for v in usual):
        raise ConfigError(f"the {role} {spec} has no API key: {usual[0]} is not set; export "
                          f"it, name the variable that holds the {role}'s key with {flag} NAME, "
                          f"or give --{role}-base-url for a local server")
