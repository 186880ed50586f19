"""Model profiles, the TOML config file, and the precedence between every source.

A setting's value comes from the first source that gives it:
command-line flag > environment variable > config file ``[run]`` > the model profile > default.

``--model NAME`` takes a profile (built in: ``data/profiles.toml``; yours: ``[profiles.NAME]``
in the config file) as well as a spec like ``openai:<name>``. The config file is
``--config FILE``, else ``./webfovea.toml``, else ``webfovea/config.toml`` in the user
config directory (``$XDG_CONFIG_HOME``, default ``~/.config``). It may also hold
``[prices."provider:model"]`` entries (USD per million tokens) that override the table.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.config import SmartResize
from ..core.errors import ConfigError
from .prices import Price, find_price, price_from

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

# Settings a profile, the config file or the environment can give, with their defaults.
DEFAULTS: dict[str, Any] = {"coords": "image", "image_cap": "1440x810", "history": "blocks",
                            "base_url": None, "dialect": "text", "dialect_version": None}
ENV = {"model": "WEBFOVEA_MODEL", "base_url": "WEBFOVEA_BASE_URL", "coords": "WEBFOVEA_COORDS",
       "image_cap": "WEBFOVEA_IMAGE_CAP", "history": "WEBFOVEA_HISTORY",
       "dialect": "WEBFOVEA_DIALECT"}
PROFILE_KEYS = {"description", "model", "coords", "image_cap", "history", "base_url",
                "smart_resize", "temperature", "top_p", "max_tokens", "dialect",
                "dialect_version"}
RUN_KEYS = {"model", "base_url", "coords", "image_cap", "history", "dialect"}
KINDS = ("openai", "anthropic", "gemini", "oracle", "scripted")
PROVIDER_URL_VARS = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL",
                     "gemini": "GEMINI_BASE_URL"}


@dataclass(frozen=True)
class ConfigFile:
    path: Path | None = None
    run: Mapping[str, Any] = field(default_factory=dict)
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    prices: Mapping[str, Price] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolved:
    """What the model side of a run uses, each value from its winning source."""

    model: str
    base_url: str | None
    coords: str
    image_cap: str
    history: str
    smart_resize: SmartResize
    sampling: dict[str, float]
    max_tokens: int | None
    price: Price | None
    profile: str | None
    dialect: str = "text"
    dialect_version: str | None = None

    def agent_settings(self) -> dict[str, Any]:
        """The AgentConfig fields this resolution decides (besides coords and image cap)."""
        out: dict[str, Any] = {"history": self.history, "smart_resize": self.smart_resize,
                               "sampling": self.sampling, "price": self.price,
                               "dialect": self.dialect, "dialect_version": self.dialect_version}
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        return out


def builtin_profiles() -> dict[str, dict[str, Any]]:
    text = resources.files("webfovea.models").joinpath("data/profiles.toml").read_text("utf-8")
    return dict(tomllib.loads(text))


def config_path(explicit: Path | None) -> Path | None:
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"--config {explicit}: no such file")
        return explicit
    here = Path("webfovea.toml")
    if here.is_file():
        return here
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    user = base / "webfovea" / "config.toml"
    return user if user.is_file() else None


def load_config(explicit: Path | None = None) -> ConfigFile:
    path = config_path(explicit)
    if path is None:
        return ConfigFile()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"config file {path}: {error}") from None
    unknown = set(data) - {"run", "profiles", "prices"}
    if unknown:
        raise ConfigError(f"config file {path}: unknown section(s) {', '.join(sorted(unknown))}; "
                          "use [run], [profiles.NAME], [prices.\"provider:model\"]")
    run = _table(path, data, "run")
    _only(path, "[run]", run, RUN_KEYS)
    profiles = _table(path, data, "profiles")
    for name, entry in profiles.items():
        _only(path, f"[profiles.{name}]", _as_table(path, name, entry), PROFILE_KEYS)
    prices = {name: price_from(name, _as_table(path, name, entry))
              for name, entry in _table(path, data, "prices").items()}
    return ConfigFile(path, run, profiles, prices)


def resolve(ns: argparse.Namespace, config: ConfigFile, env: Mapping[str, str] | None = None
            ) -> Resolved:
    """Every model-side setting from flags (``ns``), ``env``, the config file and the profile."""
    env = os.environ if env is None else env
    given = _first(ns, env, config, "model", {})
    if not given:
        raise ConfigError("give --model (a profile such as claude, or openai:<name>, "
                          "anthropic:<name>, oracle, scripted:<file>), or set WEBFOVEA_MODEL")
    name, profile = _profile(str(given), config)
    spec = str(profile.get("model", given))
    pick = {key: _first(ns, env, config, key, profile) for key in DEFAULTS}
    provider = spec.partition(":")[0]
    if _from_profile(ns, env, config, "base_url") and os.environ.get(PROVIDER_URL_VARS.get(provider, "")):
        pick["base_url"] = None  # the provider's own variable (environment) beats the profile
    grid = profile.get("smart_resize") or {}
    sampling = {k: float(profile[k]) for k in ("temperature", "top_p") if k in profile}
    dialect = str(pick["dialect"])
    version = pick["dialect_version"]
    if (getattr(ns, "dialect_version", None) is None
            and profile.get("dialect", "text") != dialect):
        version = None  # the profile's version belongs to the profile's dialect
    return Resolved(spec, pick["base_url"], str(pick["coords"]), str(pick["image_cap"]),
                    str(pick["history"]), SmartResize(**grid), sampling,
                    int(profile["max_tokens"]) if "max_tokens" in profile else None,
                    find_price(spec, config.prices), name, dialect,
                    None if version is None else str(version))


def resolve_other(given: str, base_url: str | None, config: ConfigFile
                  ) -> tuple[str, str | None, Price | None]:
    """A second model of the run (the verifier, a judge) named by profile or spec: its spec,
    endpoint (the flag's, else the profile's) and price."""
    _, profile = _profile(given, config)
    spec = str(profile.get("model", given))
    url = base_url or profile.get("base_url")
    return spec, None if url is None else str(url), find_price(spec, config.prices)


def profile_of(given: str, config: ConfigFile) -> Mapping[str, Any]:
    """The profile a second model's spec names (empty for a plain spec)."""
    return _profile(given, config)[1]


def _first(ns: argparse.Namespace, env: Mapping[str, str], config: ConfigFile, key: str,
           profile: Mapping[str, Any]) -> Any:
    flag = getattr(ns, key, None)
    if flag is not None:
        return flag
    if key in ENV and env.get(ENV[key]):
        return env[ENV[key]]
    if key in config.run:
        return config.run[key]
    if key in profile:
        return profile[key]
    return DEFAULTS.get(key)


def _from_profile(ns: argparse.Namespace, env: Mapping[str, str], config: ConfigFile,
                  key: str) -> bool:
    return (getattr(ns, key, None) is None and not env.get(ENV.get(key, ""), "")
            and key not in config.run)


def _profile(given: str, config: ConfigFile) -> tuple[str | None, Mapping[str, Any]]:
    """The profile a --model value names (yours first), or none for a plain spec."""
    if given in config.profiles:
        return given, config.profiles[given]
    builtin = builtin_profiles()
    if given in builtin:
        return given, builtin[given]
    if given.partition(":")[0] in KINDS:
        return None, {}
    known = sorted({*builtin, *config.profiles})
    raise ConfigError(f"bad model spec {given!r}: neither a profile ({', '.join(known)}) nor "
                      "a spec (openai:<name>, anthropic:<name>, oracle, scripted:<file>)")


def _table(path: Path, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return _as_table(path, key, data.get(key, {}))


def _as_table(path: Path, key: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"config file {path}: {key} must be a table")
    return value


def _only(path: Path, where: str, table: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise ConfigError(f"config file {path}: {where} has unknown key(s) "
                          f"{', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}")


def apply(ns: argparse.Namespace) -> Resolved:
    """Resolve the model side of ``ns`` and write the winners back into it, so everything
    downstream (the model loader, the pre-flight, the bench's stored settings) sees them."""
    resolved = resolve(ns, load_config(getattr(ns, "config", None)))
    ns.model, ns.base_url = resolved.model, resolved.base_url
    ns.coords, ns.image_cap, ns.history = resolved.coords, resolved.image_cap, resolved.history
    return resolved
