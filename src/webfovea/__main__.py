"""``python -m webfovea`` is the ``webfovea`` command."""

from webfovea.cli import main

main()
