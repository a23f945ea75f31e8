"""The model's files cannot be found offline, so the model-aware checks are skipped.

## What vLLM does
vLLM resolves `model:` (a local folder, else a Hugging Face repository it downloads) and
reads its `config.json` before it checks anything that depends on the model: attention
heads against `tensor-parallel-size`, `max-model-len` against the model's context, the
checkpoint's quantization (vllm/config/model.py:602, `ModelConfig.__post_init__`). The
VC6xx rules repeat those checks at edit time from the same file, read offline: from a
folder (relative to this config file), from a folder in the `modelDirs` setting or the
`VLLM_CONFIG_MODEL_DIRS` environment variable, or from the local Hugging Face cache. This
note says that none of those has the model, and how to make it findable. It appears for
names that can only be folders (`./…`, `/…`) and, once model folders are configured, for
repository ids too; an uncached Hub id with nothing configured stays silent.

## Example
```yaml
model: ./checkpoints/llama-3.1-8b-finetune
tensor-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import (
    HOW_TO,
    env_model_dirs,
    iter_models,
    looks_like_path,
)
from vllm_config_lsp.vllm.model_files import context as model_context

CODE = "VC600"
NAME = "model-not-resolved"
#: A note about this tool, not a vLLM check: no fidelity case can show it.
VLLM_SOURCE = None


def check(model: ConfigModel) -> Iterator[Finding]:
    configured = bool(model.model_dirs or env_model_dirs())
    target = model_context(model).target
    for resolved in iter_models(model):
        if resolved.name is None or resolved.config is not None or resolved.problem is None:
            continue
        if not (looks_like_path(resolved.name) or configured):
            continue
        what = "The model's" if resolved is target else "The draft model's"
        yield finding(
            CODE,
            Severity.INFO,
            resolved.where,
            f"{what} files were not found ({resolved.problem}), so the checks that need "
            f"its config.json are skipped. {HOW_TO}",
        )
