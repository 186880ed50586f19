"""Model clients behind one interface (see :mod:`webfovea.models.base`)."""
