"""A KV block size that decode context parallelism cannot interleave.

## What vLLM does
With `decode-context-parallel-size` above 1 and no NIXL connector,
`VllmConfig.validate_block_size` (vllm/config/vllm.py:3390-3412), run by the engine core
once the KV cache layout is final, asserts that `block-size` is at least
`cp-kv-cache-interleave-size` and a multiple of it: each block is split into interleaved
chunks across the DCP ranks. A block size the file leaves to vLLM is chosen by the
attention backend (16 for most), so that case is a warning; hybrid (Mamba) models may
also realign the block size.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
decode-context-parallel-size: 8
block-size: 16
cp-kv-cache-interleave-size: 32
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
decode-context-parallel-size: 8
block-size: 64
cp-kv-cache-interleave-size: 32
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    above_one,
    connector,
    error,
    given,
    given_field,
    is_int,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC343"
NAME = "cp-interleave-block-size"
VLLM_SOURCE = "vllm/config/vllm.py:3405"
CATALOGUE = ("vllm.block_size.cp_interleave",)

#: The block size most attention backends pick when the file sets none.
DEFAULT_BLOCK = 16


def check(model: ConfigModel) -> Iterator[Finding]:
    if above_one(model, "ParallelConfig", "decode_context_parallel_size") is None:
        return
    if connector(model, "NixlConnector") is not None:
        return
    if given(model, "dcp-kv-cache-interleave-size") is not None:
        return  # the deprecated spelling may override it with a KV connector
    interleave = given_field(model, "ParallelConfig", "cp_kv_cache_interleave_size")
    if interleave is None or not is_int(interleave.value) or interleave.value <= 1:
        return
    block = given_field(model, "CacheConfig", "block_size")
    size = block.value if block is not None else DEFAULT_BLOCK
    if not is_int(size) or (interleave.value <= size and size % interleave.value == 0):
        return
    message = (
        f"Block_size({size}) should be greater than or equal to and divisible by "
        f"cp_kv_cache_interleave_size ({interleave.value}) (an assertion in vLLM)."
    )
    if block is not None:
        yield error(CODE, interleave, message, VLLM_SOURCE)
    else:
        yield warning(
            CODE,
            interleave,
            message + " The block size is left to the attention backend (usually "
            f"{DEFAULT_BLOCK}); set `block-size` to a multiple of the interleave size.",
            VLLM_SOURCE,
        )
