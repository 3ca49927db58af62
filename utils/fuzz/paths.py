"""Where the repository is, and what the fuzzer imports from outside the package
(utils/mplan_pipelines.py, models/gen_models.py's input filler)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _d in ("utils", "models"):
    if os.path.join(ROOT, _d) not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, _d))

import mplan_pipelines as mp  # noqa: E402,F401
from gen_models import INIT_FN  # noqa: E402,F401
