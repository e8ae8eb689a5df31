"""Module boundaries: the analytical core does not pull in the UI stack."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import tpot_model
from tpot_model import estimate, resolve_hardware, resolve_model, Scenario
estimate(resolve_model("llama-3.1-8b"), resolve_hardware("h100-sxm"), Scenario(batch=[1, 8]))
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"file": tpot_model.__file__, "loaded": loaded}))
"""


def _modules_loaded_by_the_core() -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_tpot_model_loads_neither_streamlit_nor_plotly():
    probe = _modules_loaded_by_the_core()
    assert Path(probe["file"]).resolve().parent == ROOT / "tpot_model"
    loaded = set(probe["loaded"])
    assert "numpy" in loaded and "yaml" in loaded  # the probe did import the core
    # house-style 2.1: dependencies point one way only, app pages -> ui -> tpot_model
    for ui_module in ("streamlit", "plotly", "ui"):
        assert ui_module not in loaded, ui_module
