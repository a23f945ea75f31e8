"""The device types of vLLM's platforms, for choices computed from `current_platform`.

`--mm-processor-device` offers `["auto", "cpu"] + [current_platform.device_type]`
(vllm/engine/arg_utils.py, 0.33.0): what argparse accepts depends on the machine vLLM runs
on. The wheel holds every platform class (`CudaPlatform.device_type = "cuda"`, ROCm's is
also `"cuda"`, XPU's `"xpu"`); the running one is among them, so a value outside the static
part and all of these is refused on every platform.
"""

from __future__ import annotations

import ast

from .modules import SourceIndex

PLATFORMS = "vllm/platforms/"


def device_types(index: SourceIndex) -> list[str]:
    """Every non-empty `device_type` a platform class of the wheel declares, sorted."""
    found: set[str] = set()
    for path in index.src.paths():
        if not (path.startswith(PLATFORMS) and path.endswith(".py")):
            continue
        for node in ast.walk(ast.parse(index.src.text(path))):
            if not isinstance(node, ast.ClassDef):
                continue
            for st in node.body:
                target = st.target if isinstance(st, ast.AnnAssign) else None
                if isinstance(st, ast.Assign) and len(st.targets) == 1:
                    target = st.targets[0]
                value = getattr(st, "value", None)
                if (
                    isinstance(target, ast.Name)
                    and target.id == "device_type"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and value.value
                ):
                    found.add(value.value)
    return sorted(found)
