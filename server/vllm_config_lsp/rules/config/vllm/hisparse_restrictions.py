"""HiSparse combined with a setting it does not support.

## What vLLM does
`VllmConfig.__post_init__` turns HiSparse on when `attention-config.hisparse_config` is set
or a `HiSparseConnector` is configured (vllm/config/vllm.py:1876-1903), then refuses, in
this order: a platform other than NVIDIA CUDA, pipeline parallelism, decode context
parallelism, `cudagraph_mode: FULL` (HiSparse needs piecewise graphs for prefill; use
`FULL_AND_PIECEWISE`, the default), and `--no-scheduler-reserve-full-isl` (without it,
asynchronous host loads can deadlock). Later it refuses a disabled hybrid KV cache manager
(vllm/config/vllm.py:2296-2304). Each of these is refused on every platform: off CUDA the
platform check refuses first.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3.2
attention-config:
  hisparse_config: {}
pipeline-parallel-size: 2
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3.2
attention-config:
  hisparse_config: {}
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    above_one,
    compilation_field,
    error,
    given,
    hisparse_on,
    removal,
    replace,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC331"
NAME = "hisparse-restrictions"
VLLM_SOURCE = "vllm/config/vllm.py:1887"
CATALOGUE = (
    "vllm.hisparse.pp",
    "vllm.hisparse.dcp",
    "vllm.hisparse.full",
    "vllm.hisparse.reserve_isl",
    "vllm.hisparse.hma",
)

DCP_SOURCE = "vllm/config/vllm.py:1889"
FULL_SOURCE = "vllm/config/vllm.py:1893"
RESERVE_SOURCE = "vllm/config/vllm.py:1902"
HMA_SOURCE = "vllm/config/vllm.py:2300"


def check(model: ConfigModel) -> Iterator[Finding]:
    if hisparse_on(model) is None:
        return
    pp = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    if pp is not None:
        yield error(
            CODE,
            pp,
            "HiSparse does not support pipeline parallelism. Set `pipeline-parallel-size` "
            "to 1 or turn HiSparse off.",
            VLLM_SOURCE,
            [removal(model, pp)],
        )
    dcp = above_one(model, "ParallelConfig", "decode_context_parallel_size")
    if dcp is not None:
        yield error(
            CODE,
            dcp,
            "HiSparse does not support decode context parallelism. Remove "
            "`decode-context-parallel-size` or turn HiSparse off.",
            DCP_SOURCE,
            [removal(model, dcp)],
        )
    mode = compilation_field(model, "cudagraph_mode")
    if mode is not None and str(mode.value).upper() == "FULL":
        yield error(
            CODE,
            mode,
            "HiSparse does not support cudagraph_mode=FULL; use FULL_AND_PIECEWISE (the "
            "default), which captures FULL graphs for decode batches.",
            FULL_SOURCE,
            [replace(model, mode, "FULL_AND_PIECEWISE", "Use `FULL_AND_PIECEWISE`")],
        )
    reserve = given(model, "scheduler-reserve-full-isl")
    if reserve is not None and reserve.value is False:
        yield error(
            CODE,
            reserve,
            "HiSparse requires --scheduler-reserve-full-isl; remove "
            "--no-scheduler-reserve-full-isl.",
            RESERVE_SOURCE,
            [removal(model, reserve)],
        )
    hma = given(model, "disable-hybrid-kv-cache-manager")
    if hma is not None and hma.value is True:
        yield error(
            CODE,
            hma,
            "HiSparse requires the hybrid KV cache manager; remove "
            "--disable-hybrid-kv-cache-manager or use connectors that support HMA.",
            HMA_SOURCE,
            [removal(model, hma)],
        )
