"""A windowed torch profile that also profiles the frontend: a caution about overhead.

## What vLLM does
`ProfilerConfig._validate_profiler_config` (vllm/config/profiler.py:229) warns when
`delay_iterations` or `max_iterations` is above 0 while the frontend CPU profiler is on
(`should_profile_frontend`, :167: profiler `torch`, `ignore_frontend` false, and
`torch_profiler_activities` unset or holding `CPU`): "Using 'torch' profiler with
delay_iterations or max_iterations while ignore_frontend is False may result in high
overhead." The profile runs as written, so this is information; `ignore_frontend: true`
profiles the engine only.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
profiler-config:
  profiler: torch
  torch_profiler_dir: /tmp/vllm-profile
  max_iterations: 5
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
profiler-config:
  profiler: torch
  torch_profiler_dir: /tmp/vllm-profile
  max_iterations: 5
  ignore_frontend: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC399"
NAME = "profiler-frontend-overhead"
VLLM_SOURCE = "vllm/config/profiler.py:229"
CATALOGUE = ("warn.profiler.frontend_overhead",)
FLAG = "profiler-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    def value(key: str, default: object) -> object:
        found = json_given(model, FLAG, key)
        return found.value if found is not None else default

    activities = value("torch_profiler_activities", None)
    if (
        value("profiler", None) != "torch"
        or value("ignore_frontend", False) is not False
        or (isinstance(activities, list) and "CPU" not in activities)
    ):
        return
    window = [
        found
        for key in ("delay_iterations", "max_iterations")
        if (found := json_given(model, FLAG, key)) is not None
        and isinstance(found.value, int)
        and found.value > 0
    ]
    if not window:
        return
    yield finding(
        CODE,
        Severity.INFO,
        window[0].where,
        "Using 'torch' profiler with delay_iterations or max_iterations while "
        "ignore_frontend is False may result in high overhead. Set `ignore_frontend: true` "
        "to profile the engine only.",
        source=VLLM_SOURCE,
    )
