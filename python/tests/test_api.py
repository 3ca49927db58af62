"""The package exports only its API (issue 16): ``dir(mplan)`` lists
``__all__``, the version and the submodules, not what the implementation
imports (os, json, tempfile, typing names, dataclasses)."""

import mplan


def test_dir_lists_only_the_api():
    names = set(dir(mplan))
    assert set(mplan.__all__) <= names
    assert "__version__" in names
    for private in ("os", "json", "tempfile", "math", "reprlib", "Any", "Optional", "List",
                    "Dict", "Union", "Iterable", "Mapping", "Sequence", "Tuple", "dataclass",
                    "field"):
        assert private not in names, private
    assert names - set(mplan.__all__) <= {"__version__", "BufferLike", "errors", "report",
                                          "viz"}


def test_star_import_is_the_api():
    namespace = {}
    exec("from mplan import *", namespace)
    exported = {n for n in namespace if not n.startswith("__")}
    assert exported == set(mplan.__all__)
    for name in mplan.__all__:
        assert getattr(mplan, name) is namespace[name]


def test_version_matches_the_project():
    import os
    import re
    cmake = os.path.join(os.path.dirname(__file__), "..", "..", "CMakeLists.txt")
    with open(cmake) as f:
        version = re.search(r"project\(mplan VERSION (\S+)", f.read()).group(1)
    assert mplan.__version__ == version
