"""The command line: the parser and every command's handler (``main``), ``check`` and
``cost``; each room's own sub-commands live in its ``cli`` module and register here."""
