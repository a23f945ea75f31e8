"""`num-scheduler-steps` below 1, which vLLM 0.6.6 to 0.9.2 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC844`),
`SchedulerConfig._verify_args` refuses fewer than one scheduler step: "num_scheduler_steps
(0) must be greater than or equal to 1." (vllm/config.py:2333-2337 in 0.9.2), when the
engine config is built. Multi-step scheduling is a V0 feature: in 0.8.5 and 0.9.2 a value
other than 1 makes vLLM pick the V0 engine (or refuse `VLLM_USE_V1=1` earlier, in other
words), and V0 then refuses the value. vLLM 0.10 dropped the flag (VC120 says so).

## Example
```yaml
# vllm-config: version=0.9.2
num-scheduler-steps: 0
```

## Fixed
```yaml
# vllm-config: version=0.9.2
num-scheduler-steps: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC844"
NAME = "scheduler-steps-0-9"
#: Gone from the release the other rules transcribe (multi-step scheduling went with V0):
#: read from 0.9.2, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.9.2"
VLLM_SOURCE = "vllm/config.py:2334"


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "num-scheduler-steps")
    if a is None:
        return
    steps = a["num_scheduler_steps"]
    if not steps.explicit or not is_int(steps.value) or steps.value >= 1:
        return
    removal = steps.removal(model)
    yield finding(
        CODE,
        Severity.ERROR,
        steps.where,
        f"num_scheduler_steps ({steps.value}) must be greater than or equal to 1. "
        f"vLLM {model.version} refuses to start: remove `num-scheduler-steps` (1, one "
        "step per scheduling round) or set it to 1 or more.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
