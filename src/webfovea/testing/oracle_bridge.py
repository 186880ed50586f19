"""``--model oracle --dialect D``: the reference policy speaking dialect D for real.

The oracle plays behind a fake provider on loopback (:mod:`.oracle_policy`),
and dialect D talks to it with its real provider client, so the request the dialect builds,
the wire format, the tool-call translation and the coordinate space are all exercised; only
the model's judgement is the oracle's. :func:`webfovea.agent.run_task` composes it (the
dialect registry knows nothing of the testing side).
"""

from __future__ import annotations

import asyncio

from ..config import AgentConfig
from ..dialects.base import Decision, Dialect, DialectFactory, Observation
from ..errors import ConfigError
from ..models.base import Model
from ..models.oracle import OracleModel
from .fake_provider import FakeProvider
from .oracle_policy import OraclePolicy
from .renderers import RENDERERS


class OracleBridge:
    """Dialect D, its client and the fake provider the oracle answers behind, closed together."""

    def __init__(self, oracle: OracleModel, config: AgentConfig, make: DialectFactory) -> None:
        renderer_for = RENDERERS.get(config.dialect)
        if renderer_for is None:
            raise ConfigError(f"the oracle does not speak the {config.dialect} dialect yet "
                              f"(it speaks text, {', '.join(RENDERERS)})")
        renderer = renderer_for(config)
        self.policy = OraclePolicy(oracle.suite_url, renderer,
                                   provider_resize=oracle.provider_resize)
        self.fake = FakeProvider(self.policy).start()
        self.client: Model = renderer.client(self.fake)
        self.inner: Dialect = make(self.client, config)
        self.name = self.inner.name

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        return await self.inner.decide(obs, timeout=timeout)

    async def aclose(self) -> None:
        await self.inner.aclose()
        await self.client.aclose()
        await asyncio.to_thread(self.fake.close)
        self.policy.close()
