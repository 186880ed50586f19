"""One TLS context for every model client of the process.

httpx builds a context for each client it makes (for plain http too), and building one
reads the whole certificate bundle: ~38 ms of CPU on the event loop every bench worker
shares, once per task, since each task gets its own model client. The context is the
one httpx would build (certifi's bundle, or ``SSL_CERT_FILE``/``SSL_CERT_DIR``), built once;
a context is safe to share between connections.
"""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()

