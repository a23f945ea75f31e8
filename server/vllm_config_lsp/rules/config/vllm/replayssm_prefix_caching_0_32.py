"""`use-replayssm` with Mamba prefix caching, as vLLM 0.32.0 refuses it (in the words that
name the Mamba cache mode).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC834`),
`VllmConfig.validate_mamba_cached_kernel` refuses the Mamba cache mode `align`, which
`MambaModelConfig.verify_and_update_config` gives a hybrid model when
`enable-prefix-caching` is on: with speculative decoding on a Mamba2 model, "FlashInfer
ReplaySSM speculative decoding requires --mamba-cache-mode none" (vllm/config/vllm.py:
3372-3376 in 0.32.0; a warning unless the model's config.json shows it is not a KDA model,
which runs RecoverSSM), and without it on the FlashInfer backend, "FlashInfer ReplaySSM
does not support --mamba-cache-mode align yet; use none" (vllm/config/vllm.py:3391-3395).
0.33.0 has the same checks in words about prefix caching (VC337).

## Example
```yaml
# vllm-config: version=0.32.0
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: flashinfer
enable-prefix-caching: true
```

## Fixed
```yaml
# vllm-config: version=0.32.0
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: flashinfer
enable-prefix-caching: false
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules.config.vllm.replayssm_settings import prefix_caching_refusals
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC834"
NAME = "replayssm-prefix-caching-0-32"
#: These words are gone from the release the other rules transcribe (0.33.0 has the same
#: checks, VC337, with advice about prefix caching): read from 0.32.0.
TRANSCRIBES = "0.32.0"
VLLM_SOURCE = "vllm/config/vllm.py:3392"
SPEC_SOURCE = "vllm/config/vllm.py:3373"
SPEC_WORDS = "FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none"
WORDS = "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none"


def check(model: ConfigModel) -> Iterator[Finding]:
    yield from prefix_caching_refusals(model, CODE, (SPEC_SOURCE, SPEC_WORDS), (VLLM_SOURCE, WORDS))
