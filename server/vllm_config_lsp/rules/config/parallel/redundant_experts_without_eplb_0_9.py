"""`num-redundant-experts` other than 0 without EPLB, or negative with it: vLLM 0.9.2 refuses both.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC368`),
`ParallelConfig.__post_init__` refuses redundant experts when expert-parallel load balancing
is off: "num_redundant_experts should be used with EPLB.1." (vllm/config.py:1999-2003 in
0.9.2), when the engine config is built. Redundant experts are the spare copies EPLB moves
hot experts into; without EPLB nothing uses them. 0.33.0 refuses the same in other words
(`eplb-config.num_redundant_experts`, VC312).

With EPLB on, the same `__post_init__` refuses a negative number after refusing EPLB off
CUDA: "num_redundant_experts must be non-negative, but got -1." (vllm/config.py:1995-1998),
which the rule says only where the target GPU is known to be NVIDIA (0.10.2's, VC815).

## Example
```yaml
# vllm-config: version=0.9.2
model: deepseek-ai/DeepSeek-V2-Lite
num-redundant-experts: 2
```

## Fixed
```yaml
# vllm-config: version=0.9.2
model: deepseek-ai/DeepSeek-V2-Lite
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, is_int, removal
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC368"
NAME = "redundant-experts-without-eplb-0-9"
#: Gone from the release the other rules transcribe (the key moved into `eplb-config`): read
#: from 0.9.2, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.9.2"
VLLM_SOURCE = "vllm/config.py:2001"
#: With EPLB on, after the CUDA-only check (is_cuda()).
NEGATIVE_SOURCE = "vllm/config.py:1996"
CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    eplb = given_field(model, CLASS, "enable_eplb")
    redundant = given_field(model, CLASS, "num_redundant_experts")
    if redundant is None or not is_int(redundant.value) or redundant.value == 0:
        return
    if eplb is not None and eplb.value is True:
        if redundant.value < 0 and vendor(model) == "nvidia":
            yield error(
                CODE,
                redundant,
                "num_redundant_experts must be non-negative, but got "
                f"{redundant.value}.{on_target(model)} Set it to 0 or more.",
                NEGATIVE_SOURCE,
                [removal(model, redundant)],
            )
        return
    yield error(
        CODE,
        redundant,
        f"num_redundant_experts should be used with EPLB.{redundant.value}. vLLM "
        f"{model.version} refuses to start: add `enable-eplb: true` (with expert "
        "parallelism) or remove `num-redundant-experts`.",
        VLLM_SOURCE,
        [removal(model, redundant)],
    )
