"""Test helpers that ship with webfovea, for users' own offline smoke tests."""

from webfovea.testing.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.testing.fake_wire import FakeRequest, FakeTurn, Policy, fit_within
from webfovea.testing.local_server import LocalServer

__all__ = ["FakeProvider", "FakeRequest", "FakeTurn", "LocalServer", "Policy", "ScriptedPolicy", "fit_within"]
