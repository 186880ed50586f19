"""A Dash app with a ``dcc.Dropdown`` whose choice a server callback echoes (over fetch), for
the gallery tests: ``serve()`` runs it on 127.0.0.1 in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from dash import Dash, Input, Output, dcc, html
from werkzeug.serving import WSGIRequestHandler, make_server

COUNTRIES = [
    "Austria", "Belgium", "Bulgaria", "Croatia", "Cyprus", "Czechia", "Denmark", "Estonia",
    "Finland", "France", "Germany", "Greece", "Hungary", "Iceland", "Ireland", "Italy", "Latvia",
    "Lithuania", "Luxembourg", "Malta", "Netherlands", "Norway", "Poland", "Portugal", "Romania",
    "Slovakia", "Slovenia", "Spain", "Sweden", "Switzerland",
]


def build() -> Dash:
    app = Dash(__name__, title="Dash dropdown")
    app.layout = html.Div([
        # The first callback, run on load, replaces this: the page is ready when it has.
        html.Div("Starting", id="out",
                 style={"position": "absolute", "left": "40px", "top": "12px", "width": "600px",
                        "height": "28px", "background": "#e8f0ff", "fontWeight": "bold"}),
        html.Div(style={"position": "absolute", "left": "760px", "top": "60px", "width": "440px",
                        "height": "300px", "background": "#f4f4f4"}, id="blank"),
        html.Div(dcc.Dropdown(COUNTRIES, id="country", placeholder="Choose a country"),
                 style={"position": "absolute", "left": "40px", "top": "80px", "width": "300px"}),
    ])

    @app.callback(Output("out", "children"), Input("country", "value"))
    def echo(value: str | None) -> str:
        return f"You chose {value}" if value else "You chose nothing"

    return app


class _Quiet(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Requests are not logged: the test output stays the tests'."""


@contextmanager
def serve() -> Iterator[str]:
    """The app on a free 127.0.0.1 port; yields its URL."""
    server = make_server("127.0.0.1", 0, build().server, threaded=True,
                         request_handler=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join(5)
