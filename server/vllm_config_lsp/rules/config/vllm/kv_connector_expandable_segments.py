"""A KV connector with `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` and sleep mode off
(vLLM 0.21.0).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC817`),
`VllmConfig._verify_kv_transfer_compat`, the last step of `__post_init__`, refuses any
`kv-transfer-config.kv_connector` when the process's `PYTORCH_CUDA_ALLOC_CONF` contains
`expandable_segments:True` and `enable-sleep-mode` is off: `KV connector NixlConnector is
incompatible with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True unless enable_sleep_mode
is also enabled. …` (vllm/config/vllm.py:716-756 in 0.21.0). PyTorch's CUDA VMM allocator
can remap the KV cache's virtual addresses to other physical pages, so memory a connector
registered for RDMA (NIXL, Mooncake) goes stale; sleep mode allocates the KV cache from a
pool where expandable segments are off. The environment decides it, so the rule speaks
where the host writes the variable (a Kubernetes `env:`, a compose `environment:`, `ENV`,
`export`, a `NAME=value` prefix). Later releases accept the combination.

## Example
```sh
# vllm-config: version=0.21.0
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B \\
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
```

## Fixed
```sh
# vllm-config: version=0.21.0
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B \\
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' \\
  --enable-sleep-mode
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import add_switch, error, json_given, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC817"
NAME = "kv-connector-expandable-segments"
#: Gone from the release the other rules transcribe: read from 0.21.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.21.0"
VLLM_SOURCE = "vllm/config/vllm.py:746"
VARIABLE = "PYTORCH_CUDA_ALLOC_CONF"
#: What vLLM looks for in the variable's value (`in`, case as written).
EXPANDABLE = "expandable_segments:True"


def check(model: ConfigModel) -> Iterator[Finding]:
    kind = json_given(model, "kv-transfer-config", "kv_connector")
    if kind is None or not isinstance(kind.value, str):
        return
    var = model.invocation.environment().get(VARIABLE)
    if var is None or var.value is None or not var.value.resolved:
        return
    if EXPANDABLE not in var.value.text or switched_on(model, "enable-sleep-mode"):
        return
    yield error(
        CODE,
        kind,
        f"KV connector {kind.value} is incompatible with "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True unless enable_sleep_mode is also "
        "enabled. PyTorch's CUDA VMM allocator can remap KV cache virtual addresses to "
        "different physical pages, invalidating any pinned/registered KV memory. Either "
        "unset expandable_segments:True (the host sets it here) or enable sleep mode.",
        VLLM_SOURCE,
        [add_switch(model, kind, "enable-sleep-mode")],
    )
