"""Returning routed experts together with the features vLLM 0.21.0 had not validated it with.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC818`),
`VllmConfig._validate_return_routed_experts`, run by `__post_init__` when
`--enable-return-routed-experts` is on, collects pipeline parallelism, prefill context
parallelism and decode context parallelism (each a size above 1) and async scheduling,
and refuses them all at once: `--enable-return-routed-experts is not yet validated with:
pipeline parallelism (pipeline_parallel_size=2). Disable these features or omit
--enable-return-routed-experts.` (vllm/config/vllm.py:1898-1941 in 0.21.0). Async
scheduling counts once vLLM has decided it: left unset, 0.21.0 turns it on unless the model
is a pooling model, the speculative method or the executor cannot run it (vllm.py:844-884),
which the file alone does not always tell; the rule names it only where the file turns it
on, and lists the others as vLLM does. Later releases check the auxiliary-output path
instead (VC333).

## Example
```yaml
# vllm-config: version=0.21.0
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
pipeline-parallel-size: 2
async-scheduling: false
```

## Fixed
```yaml
# vllm-config: version=0.21.0
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
tensor-parallel-size: 2
async-scheduling: false
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, above_one, error, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC818"
NAME = "return-routed-experts-0-21"
#: Gone from the release the other rules transcribe: read from 0.21.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.21.0"
VLLM_SOURCE = "vllm/config/vllm.py:1936"
#: (field, vLLM's name of the feature), in vLLM's order.
SIZES = (
    ("pipeline_parallel_size", "pipeline parallelism"),
    ("prefill_context_parallel_size", "prefill context parallelism"),
    ("decode_context_parallel_size", "decode context parallelism"),
)
FLAG = "--enable-return-routed-experts"


def check(model: ConfigModel) -> Iterator[Finding]:
    if switched_on(model, "enable-return-routed-experts") is None:
        return
    unsupported: list[tuple[Given, str]] = []
    for field, feature in SIZES:
        size = above_one(model, "ParallelConfig", field)
        if size is not None:
            unsupported.append((size, f"{feature} ({field}={size.value})"))
    asynchronous = switched_on(model, "async-scheduling")
    if asynchronous is not None:
        unsupported.append((asynchronous, "async scheduling"))
    if not unsupported:
        return
    listed = ", ".join(feature for _, feature in unsupported)
    for where, _ in unsupported:
        yield error(
            CODE,
            where,
            f"{FLAG} is not yet validated with: {listed}. Disable these features or omit {FLAG}.",
            VLLM_SOURCE,
            [removal(model, where)],
        )
