"""With LoRA and speculative decoding, `max-num-batched-tokens` cannot hold a full batch.

## What vLLM does
When both LoRA and speculative decoding are on, `EngineArgs.create_engine_config` refuses
`max_num_batched_tokens < max_num_seqs * (num_speculative_tokens + 1)` with `Consider
increasing max_num_batched_tokens or decreasing num_speculative_tokens`
(vllm/engine/arg_utils.py:2712-2724). Every running sequence carries its draft tokens in
each step, and the LoRA kernels size their buffers for that many tokens. Both limits
default from the platform and the usage context, and the draft length can come from the
model, so this rule only fires when the file sets all three.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-num-seqs: 256
max-num-batched-tokens: 512
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-num-seqs: 256
max-num-batched-tokens: 1024
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._frontend import Unparsed, arg, args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC516"
NAME = "lora-spec-token-budget"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2721"
CATALOGUE = ("cli.lora_spec_budget",)


def _draft_tokens(model: ConfigModel) -> int | None:
    """`num_speculative_tokens` as the file gives it (`spec-tokens` or the config)."""
    try:
        flag = arg(model, "spec-tokens")
    except Unparsed:
        return None
    if flag.explicit and isinstance(flag.value, int):
        return flag.value
    raw = model.flag("speculative-config")
    tree = raw.tree if raw is not None and raw.error is None else None
    node = tree.get("num_speculative_tokens") if tree is not None and tree.is_object else None
    if node is None or not isinstance(node.value, int) or isinstance(node.value, bool):
        return None
    return node.value


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "enable-lora", "max-num-seqs", "max-num-batched-tokens")
    if a is None or not a["enable_lora"].value:
        return
    seqs, batched = a["max_num_seqs"], a["max_num_batched_tokens"]
    if not (seqs.explicit and batched.explicit):
        return
    drafts = _draft_tokens(model)
    if drafts is None or not isinstance(seqs.value, int) or not isinstance(batched.value, int):
        return
    needed = seqs.value * (drafts + 1)
    if batched.value >= needed:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        batched.where,
        "Consider increasing max_num_batched_tokens or decreasing num_speculative_tokens: "
        f"with LoRA, max-num-batched-tokens ({batched.value}) must be at least "
        f"max-num-seqs x (num_speculative_tokens + 1) = {seqs.value} x {drafts + 1} = "
        f"{needed}.",
        source=VLLM_SOURCE,
        fixes=[
            Fix(
                f"Raise max-num-batched-tokens to {needed}",
                (TextEdit(*batched.where, str(needed)),),
                safe=False,
                preferred=True,
            )
        ],
    )
