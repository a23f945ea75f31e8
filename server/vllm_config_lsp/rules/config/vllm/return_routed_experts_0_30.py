"""Returning routed experts with pipeline or context parallelism or a KV connector, as
vLLM 0.22.1-0.30.0 refuse it.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC827`),
`VllmConfig.__post_init__` refuses `--enable-return-routed-experts` next to
`pipeline-parallel-size` above 1, then (from 0.28.0) `decode-context-parallel-size` or
`prefill-context-parallel-size` above 1: "--enable-return-routed-experts is incompatible
with context parallelism (DCP > 1 or PCP > 1)." (vllm/config/vllm.py:1288-1295 in
0.30.0), then any KV connector with a role: "--enable-return-routed-experts is
incompatible with KV connectors (PD disaggregation, KV cache offload)."
(vllm/config/vllm.py:1302-1309): routing captured on a prefill instance cannot reach the
decode one, and offloaded KV blocks break the slot-indexed routed-experts buffer. 0.31.0
moved these checks to the auxiliary-output path (VC333), which refuses only the P/D
connectors.

## Example
```yaml
# vllm-config: version=0.30.0
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
kv-transfer-config: '{"kv_connector": "OffloadingConnector", "kv_role": "kv_both"}'
```

## Fixed
```yaml
# vllm-config: version=0.30.0
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import above_one, error, json_given, removal, switched_on
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC827"
NAME = "return-routed-experts-0-30"
#: Gone from the release the other rules transcribe: read from 0.30.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.30.0"
VLLM_SOURCE = "vllm/config/vllm.py:1306"
PP_SOURCE = "vllm/config/vllm.py:1284"
CP_SOURCE = "vllm/config/vllm.py:1292"
FLAG = "--enable-return-routed-experts"


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = switched_on(model, "enable-return-routed-experts")
    if enabled is None:
        return
    pp = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    if pp is not None:
        yield error(
            CODE,
            pp,
            f"{FLAG} is incompatible with pipeline parallelism (PP > 1). vLLM {model.version} "
            "returns routed experts from one pipeline stage only.",
            PP_SOURCE,
            [removal(model, pp)],
        )
        return
    cp = above_one(model, "ParallelConfig", "decode_context_parallel_size") or above_one(
        model, "ParallelConfig", "prefill_context_parallel_size"
    )
    if cp is not None and has_check(model.catalogue, CODE, CP_SOURCE):  # from 0.28.0 on
        yield error(
            CODE,
            cp,
            f"{FLAG} is incompatible with context parallelism (DCP > 1 or PCP > 1). vLLM "
            f"{model.version} keeps the routed experts of whole sequences on one rank.",
            CP_SOURCE,
            [removal(model, cp)],
        )
        return
    kind = json_given(model, "kv-transfer-config", "kv_connector")
    role = json_given(model, "kv-transfer-config", "kv_role")
    if kind is None or kind.value is None or role is None or not role.value:
        return  # `is_kv_transfer_instance`: a connector with a role
    yield error(
        CODE,
        kind,
        f"{FLAG} is incompatible with KV connectors (PD disaggregation, KV cache offload). "
        f"vLLM {model.version} returns routed experts only without a KV connector: remove "
        "`kv-transfer-config` or the flag.",
        VLLM_SOURCE,
        [removal(model, enabled)],
    )
