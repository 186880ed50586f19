"""Test helpers that ship with webfovea, for users' own offline smoke tests."""

from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.dialects.loopback.fake_wire import FakeRequest, FakeTurn, Policy, fit_within

__all__ = ["FakeProvider", "FakeRequest", "FakeTurn", "LocalServer", "Policy", "ScriptedPolicy", "fit_within"]
