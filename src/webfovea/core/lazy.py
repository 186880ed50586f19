"""Names a package loads on first use (PEP 562): ``import webfovea`` and the command line's
parser stay light, and a name's module is imported when the name is first read.

Imports nothing itself, not even typing: ``webfovea/__init__`` uses it before the command's
signal handlers are in place.
"""

# No `from __future__ import annotations` (it imports a module): the one annotation that
# needs typing is a string.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def exports(namespace: dict[str, object], homes: dict[str, tuple[str, ...]]
            ) -> "tuple[Callable[[str], object], Callable[[], list[str]]]":
    """The package's ``__getattr__`` and ``__dir__``: each name of ``homes[module]`` comes
    from that module (absolute name) and is kept in ``namespace`` once loaded."""
    home = {name: module for module, names in homes.items() for name in names}
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(__import__(module, fromlist=[name]), name)
        namespace[name] = value  # loaded once; later lookups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home})

    return __getattr__, __dir__
