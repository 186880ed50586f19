"""``python -m webfovea`` is the ``webfovea`` command."""

from webfovea.entry import main

main()
