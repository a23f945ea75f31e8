"""Returning routed experts together with a feature the auxiliary output cannot follow.

## What vLLM does
`--enable-return-routed-experts` turns on the auxiliary-output path, which
`VllmConfig._verify_aux_output_compatibility` (vllm/config/vllm.py:1187-1244) checks: it
needs Model Runner V2, a generate runner and a MoE model (all decided by the platform and
the model), then refuses prefix caching turned off, adaptive speculative verification,
pipeline parallelism, decode or prefill context parallelism, and the P/D connectors
`NixlConnector`, `NixlPullConnector`, `NixlPushConnector`, `MoRIIOConnector` and
`MooncakeConnector` (directly or inside a MultiConnector): the routed-expert records are
kept per request on one rank and are not transferred between prefill and decode.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
pipeline-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
enable-return-routed-experts: true
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    above_one,
    adaptive_verification,
    connector,
    error,
    given,
    removal,
    switched_on,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC333"
NAME = "return-routed-experts"
VLLM_SOURCE = "vllm/config/vllm.py:1208"
CATALOGUE = (
    "vllm.aux.prefix_caching",
    "vllm.aux.adaptive",
    "vllm.aux.pp",
    "vllm.aux.cp",
    "vllm.aux.connector",
)

ADAPTIVE_SOURCE = "vllm/config/vllm.py:1213"
PP_SOURCE = "vllm/config/vllm.py:1218"
CP_SOURCE = "vllm/config/vllm.py:1226"
CONNECTOR_SOURCE = "vllm/config/vllm.py:1241"
CONNECTORS = (
    "NixlConnector",
    "NixlPullConnector",
    "NixlPushConnector",
    "MoRIIOConnector",
    "MooncakeConnector",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    if switched_on(model, "enable-return-routed-experts") is None:
        return
    caching = given(model, "enable-prefix-caching")
    if caching is not None and caching.value is False:
        yield error(
            CODE,
            caching,
            "AuxOutput Connector requires prefix caching. `--enable-return-routed-experts` "
            "needs prefix caching on: remove the setting that disables it.",
            VLLM_SOURCE,
            [removal(model, caching)],
        )
    adaptive = adaptive_verification(model)
    if adaptive is not None:
        yield error(
            CODE,
            adaptive,
            "--enable-return-routed-experts is incompatible with adaptive speculative "
            "verification.",
            ADAPTIVE_SOURCE,
            [removal(model, adaptive)],
        )
    pp = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    if pp is not None:
        yield error(
            CODE,
            pp,
            "--enable-return-routed-experts is incompatible with pipeline parallelism (PP > 1).",
            PP_SOURCE,
            [removal(model, pp)],
        )
    for field in ("decode_context_parallel_size", "prefill_context_parallel_size"):
        cp = above_one(model, "ParallelConfig", field)
        if cp is not None:
            yield error(
                CODE,
                cp,
                "--enable-return-routed-experts is incompatible with context parallelism "
                "(DCP/PCP > 1).",
                CP_SOURCE,
                [removal(model, cp)],
            )
            break
    for name in CONNECTORS:
        found = connector(model, name)
        if found is not None:
            yield error(
                CODE,
                found,
                f"--enable-return-routed-experts is incompatible with {name}; PD auxiliary "
                "output is not supported.",
                CONNECTOR_SOURCE,
            )
            return
