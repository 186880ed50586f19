"""The CAPTCHA-like check the news archive embeds from another origin."""

from __future__ import annotations

from ...web import Request, Response, render
from ..base import Site


class VerifySite(Site):
    name = "verify"
    host = "verify.fovea.test"
    title = "Fovea Verify"

    def setup(self) -> None:
        self.router.add(r"/challenge", self.challenge)

    def challenge(self, req: Request) -> Response:
        return self.page("Verification · Fovea Verify", render("news/challenge.html"),
                         scripts=("verify.js",))
