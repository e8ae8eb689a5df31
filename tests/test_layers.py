"""The package's shape: imports in tpot_model/ run one way, down the layers below, with no cycle; no module of the
project (model, UI, pages, scripts) imports another module's _private names. Read from the source (ast), so an
import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tpot_model"

# Each module may import modules of its own layer or lower ones; a new module must be given a layer here.
LAYERS = (
    ("units", "precision", "files", "prices", "numtext"),  # units and formats; safe file reading; the price table;
    # numbers as people read them
    ("hf_config",),  # a Hugging Face config.json -> the project's model entry
    ("catalog", "scenario", "targets"),  # Hardware, ModelSpec and their validation; a scenario; latency targets
    ("profiles",),  # efficiency profiles (fields that describe themselves)
    ("engines",),  # engine names, documented values, release periods
    ("roofline",),  # operator work, achievable rates, operator times, collectives
    ("speculative", "economics", "bands", "pool_correction"),  # speculative decoding; $ per 1M tokens, TCO; the
    # calibration bands; the disaggregated pools' committed correction
    ("serving",),  # continuous-batching steady state
    ("estimate",),  # the whole estimate of a scenario
    ("planner",),  # frontier, cost grid, levers, capacity
    ("layouts",),  # the frontier over serving layouts (aggregated, disaggregated) in a GPU budget
    ("fleet",),  # demand to capacity: GPUs, MW, capex and opex for tokens per day at a latency target
    ("fitting", "profile_file"),  # fitting tools; the profiles.yaml writer
    ("calibration", "serving_calibration", "mlperf"),  # the fitters (none imports another); MLPerf results
    ("band_fit", "disaggregated", "frontier_check"),  # the calibration bands; the check of the disaggregated runs
    # (not fitted); the layout search against the measured frontier runs
    ("calibrate",),  # the calibrate command, above both fitters
    ("csv_format", "cli_text", "planner_cli"),  # CSV and table formatting; the commands' shared words; the
    # frontier command
    ("cli",),  # the command line
    ("__init__", "__main__"),
)
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(PACKAGE.glob("*.py"))}


def _imports(name: str, tree: ast.Module) -> list[tuple[str, list[str], int]]:
    """(module of tpot_model imported, names taken from it, line) for every import in a tpot_model module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .x import a, b
                out.append((node.module.split(".")[0], [a.name for a in node.names], node.lineno))
            elif node.level == 1:  # from . import x
                out += [(a.name, [], node.lineno) for a in node.names]
            elif node.module and node.module.startswith("tpot_model"):
                parts = node.module.split(".")
                if len(parts) > 1:
                    out.append((parts[1], [a.name for a in node.names], node.lineno))
                else:
                    out += [(a.name, [], node.lineno) for a in node.names]
    return out


def test_every_module_has_a_layer():
    missing = sorted(set(_modules()) - set(LAYER))
    assert not missing, f"give these tpot_model modules a layer in LAYERS: {missing}"


def test_imports_run_down_the_layers():
    wrong = []
    for name, tree in _modules().items():
        for target, _, line in _imports(name, tree):
            if target in LAYER and name in LAYER and LAYER[target] > LAYER[name]:
                wrong.append(f"tpot_model/{name}.py:{line} imports {target} (a higher layer)")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    graph = {name: {t for t, _, _ in _imports(name, tree) if t != name} for name, tree in _modules().items()}
    graph = {k: {t for t in v if t in graph} for k, v in graph.items()}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path[path.index(nxt) :], nxt]))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def _project_files() -> list[Path]:
    dirs = [PACKAGE, ROOT / "ui", ROOT / "ui" / "figures", ROOT / "pages", ROOT / "scripts", ROOT / "benchmarks"]
    return [ROOT / "app.py", *(p for d in dirs if d.is_dir() for p in sorted(d.glob("*.py")))]


def test_no_module_imports_private_names():
    """`from x import _name` and `module._name` on an imported project module are both refused."""
    wrong = []
    for path in _project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        modules = set()  # local names bound to project modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                ours = node.level > 0 or (node.module or "").split(".")[0] in ("tpot_model", "ui", "pages")
                if not ours:
                    continue
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name}")
                    modules.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in ("tpot_model", "ui"):
                        modules.add(a.asname or a.name.split(".")[0])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
            ):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not wrong, "\n".join(wrong)
