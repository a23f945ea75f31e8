"""`speculative-config.method: mtp` with a draft checkpoint that has no MTP layers.

## What vLLM does
`SpeculativeConfig.__post_init__` loads the draft named by `model` and then settles the
method from it (vllm/config/speculative.py:1432-1500): an `eagle`/`eagle3`/`dflash`/
`dspark` method stays; a draft whose name or architecture marks it as EAGLE, DFlash or
DSpark switches to that; a draft whose `model_type` is an MTP type (`deepseek_mtp`,
`qwen3_next_mtp`, … after vLLM's own rewrite of MTP-capable base configs) becomes `mtp`;
`draft_model` stays. Anything else, such as `method: mtp` (or one of its per-model
spellings) with an ordinary language model as the draft, ends the start with
`Unsupported speculative method: 'mtp'`. MTP heads ship inside the target checkpoint:
leave `model` out (vLLM then uses the target's own MTP layers) or use `draft_model`.
Only drafts of common plain model types (Llama, Mistral, Qwen2/3, Gemma, Phi-3, Granite,
GPT-2, OPT, Mixtral) are judged, since vLLM rewrites many other base configs into MTP
ones before it looks.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  method: mtp
  model: Qwen/Qwen2.5-0.5B-Instruct
  num_speculative_tokens: 1
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  method: draft_model
  model: Qwen/Qwen2.5-0.5B-Instruct
  num_speculative_tokens: 1
  use_heterogeneous_vocab: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import draft, draft_method, served, speculative
from vllm_config_lsp.rules._engine import Given, error, json_given, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC621"
NAME = "spec-method-unsupported"
VLLM_SOURCE = "vllm/config/speculative.py:1499"
CATALOGUE = ("spec.method_unsupported",)

#: Draft model types `SpeculativeConfig.hf_config_override` leaves alone (none of them,
#: nor their architectures, appears in vllm/config/speculative.py:710-1170).
PLAIN_MODEL_TYPES = frozenset(
    {
        "llama",
        "mistral",
        "qwen2",
        "qwen3",
        "qwen2_moe",
        "qwen3_moe",
        "gemma",
        "gemma2",
        "gemma3_text",
        "phi3",
        "granite",
        "gpt2",
        "opt",
        "mixtral",
    }
)


def check(model: ConfigModel) -> Iterator[Finding]:
    target, proposer, config = served(model), draft(model), speculative(model)
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    if target is None or proposer is None or proposer.config is None or not config:
        return
    if mtp_types is None or proposer.name is None:
        return
    written, where, _ = config.get("method", (None, proposer.where, ""))
    if written not in mtp_types:
        return  # only MTP spellings reach the `else` (the others have their own branches)
    if proposer.config.model_type not in PLAIN_MODEL_TYPES:
        return
    if target.text.get("num_mtp_layers") is not None:
        return  # MTP through the Transformers modeling backend (speculative.py:1377)
    if draft_method(model, proposer.config, proposer.name) is not None:
        return  # the draft's name or architecture picks EAGLE/DFlash/DSpark
    method = json_given(model, "speculative-config", "method")
    fixes = []
    if method is not None:
        fixes = [replace(model, method, "draft_model", "Set `method: draft_model`")]
    yield error(
        CODE,
        method or Given(written, where, "method"),
        f"Unsupported speculative method: 'mtp'. The draft {proposer.name} "
        f"(model_type {proposer.config.model_type}) has no MTP layers: MTP uses the "
        "target checkpoint's own layers (leave `model` out), an ordinary draft model "
        "needs `method: draft_model`.",
        VLLM_SOURCE,
        fixes,
    )
