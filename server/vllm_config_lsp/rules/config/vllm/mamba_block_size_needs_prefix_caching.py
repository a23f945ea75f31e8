"""`mamba-block-size` with prefix caching turned off.

## What vLLM does
`VllmConfig.validate_mamba_block_size` (vllm/config/vllm.py:3440-3451) refuses a
`mamba_block_size` (other than `max_model_len`) while prefix caching is off: `--mamba-block-size
can only be set with --enable-prefix-caching`. The Mamba state is checkpointed every
`mamba_block_size` tokens only so that cached prefixes can be resumed; without prefix
caching the state is kept for the whole sequence. Prefix caching's default comes from the
model, so this rule fires when the file turns it off.

## Example
```yaml
model: ibm-granite/granite-4.0-h-small
mamba-block-size: 256
no-enable-prefix-caching: true
```

## Fixed
```yaml
model: ibm-granite/granite-4.0-h-small
no-enable-prefix-caching: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, given_field, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC328"
NAME = "mamba-block-size-without-prefix-caching"
VLLM_SOURCE = "vllm/config/vllm.py:3449"
CATALOGUE = ("vllm.mamba_block_size.prefix",)


def check(model: ConfigModel) -> Iterator[Finding]:
    size = given_field(model, "CacheConfig", "mamba_block_size")
    caching = given_field(model, "CacheConfig", "enable_prefix_caching")
    if size is None or size.value is None or caching is None or caching.value is not False:
        return
    model_len = given(model, "max-model-len")
    if model_len is not None and model_len.value == size.value:
        return
    yield error(
        CODE,
        size,
        "--mamba-block-size can only be set with --enable-prefix-caching. Remove "
        f"`{size.label}`, or remove `{caching.label}`.",
        VLLM_SOURCE,
        [removal(model, size), removal(model, caching)],
    )
