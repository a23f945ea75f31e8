"""Concurrent partial prefills, which older vLLM releases refuse outright.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC346`),
`EngineArgs._check_feature_supported`, the first step of `create_engine_config`, refuses a
`max-num-partial-prefills` or `max-long-partial-prefills` other than the scheduler's
default (1): "Concurrent Partial Prefill is not supported. We recommend to remove
Concurrent Partial Prefill from your config." (vllm/engine/arg_utils.py:1797-1803 in
0.11.2). Later releases dropped the check and schedule several partial prefills at once.

## Example
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
max-num-partial-prefills: 2
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC346"
NAME = "concurrent-partial-prefill"
#: The check is gone from the release the other rules transcribe: this one is read from
#: 0.11.2, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1803"

FEATURE = "Concurrent Partial Prefill"
FLAGS = ("max-num-partial-prefills", "max-long-partial-prefills")
#: `SchedulerConfig.max_num_partial_prefills` and `max_long_partial_prefills`.
DEFAULT = 1


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None:
        return
    for flag in FLAGS:
        given = a[flag.replace("-", "_")]
        if given.explicit and given.value != DEFAULT:
            yield finding(
                CODE,
                Severity.ERROR,
                given.where,
                f"{FEATURE} is not supported. We recommend to remove {FEATURE} from your "
                f"config. vLLM {model.version} schedules one partial prefill at a time: "
                f"remove `{flag}` (or set it to 1).",
                source=VLLM_SOURCE,
            )
            return
