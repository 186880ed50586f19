"""``--model oracle --dialect D``: the reference policy speaking dialect D for real.

The oracle plays behind a fake provider on loopback (:mod:`.oracle_policy`),
and dialect D talks to it with its real provider client, so the request the dialect builds,
the wire format, the tool-call translation and the coordinate space are all exercised; only
the model's judgement is the oracle's. :func:`webfovea.loop.agent.run_task` composes it (the
dialect registry knows nothing of the oracle).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...core.config import AgentConfig
from ...core.errors import ConfigError
from ...models.base import Model
from ...models.oracle import OracleModel
from ..base import Decision, Dialect, DialectFactory, Observation
from .fake_provider import FakeProvider
from .fake_wire import Policy
from .oracle_policy import OraclePolicy
from .renderer_base import Renderer
from .renderers import RENDERERS


def renderer(config: AgentConfig, who: str) -> Renderer:
    """The renderer through which ``who`` speaks ``config.dialect``; ConfigError naming the
    dialects it speaks when there is none."""
    renderer_for = RENDERERS.get(config.dialect)
    if renderer_for is None:
        raise ConfigError(f"{who} does not speak the {config.dialect} dialect "
                          f"(it speaks text, {', '.join(RENDERERS)})")
    return renderer_for(config)


class FakeBridge:
    """Dialect D, its client and the fake provider a policy answers behind, closed together."""

    def __init__(self, policy: Policy, renderer: Renderer, config: AgentConfig,
                 make: DialectFactory, *, on_close: Callable[[], None] | None = None) -> None:
        self.fake = FakeProvider(policy).start()
        self.client: Model = renderer.client(self.fake)
        self.inner: Dialect = make(self.client, config)
        self.name = self.inner.name
        self._on_close = on_close

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        return await self.inner.decide(obs, timeout=timeout)

    async def aclose(self) -> None:
        await self.inner.aclose()
        await self.client.aclose()
        await asyncio.to_thread(self.fake.close)
        if self._on_close is not None:
            self._on_close()


class OracleBridge(FakeBridge):
    """The suite's oracle behind the fake provider, speaking dialect D."""

    def __init__(self, oracle: OracleModel, config: AgentConfig, make: DialectFactory) -> None:
        self.policy = OraclePolicy(oracle.suite_url, renderer(config, "the oracle"),
                                   provider_resize=oracle.provider_resize)
        super().__init__(self.policy, self.policy.renderer, config, make,
                         on_close=self.policy.close)
