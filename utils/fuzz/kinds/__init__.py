"""The program kinds: every module here defines KIND (a kind.Kind); a new kind is a new module.
KINDS lists their names in the default order (by each kind's `order`)."""
import importlib
import os
import pkgutil

_ALL = {}
for _m in pkgutil.iter_modules([os.path.dirname(os.path.abspath(__file__))]):
    _k = importlib.import_module(f"{__name__}.{_m.name}").KIND
    if _k.name in _ALL:
        raise RuntimeError(f"two kinds named {_k.name}")
    _ALL[_k.name] = _k

KINDS = [k.name for k in sorted(_ALL.values(), key=lambda k: k.order)]


def get(name):
    return _ALL[name]
