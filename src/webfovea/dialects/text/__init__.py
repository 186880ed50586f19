"""The text dialect: the prompt it builds, the reply grammar it parses, and the dialect that
joins them (the default ``--dialect text``)."""
