"""`num_speculative_tokens` is set but the speculative method needs a draft `model`.

## What vLLM does
`SpeculativeConfig.__post_init__` first settles the method: none given means `draft_model`
(or `custom_class` when `model` is a dotted import path), and MTP variants such as
`deepseek_mtp` become `mtp`. Then, with `num_speculative_tokens` set and no `model`, only
methods that bring their own proposer go on: `mtp` and `dspark` reuse the target
checkpoint, `ngram`, `ngram_gpu`, `suffix` and `extract_hidden_states` need no weights.
Every other method (`draft_model`, `eagle`, `eagle3`, `dflash`) stops the start with
`num_speculative_tokens was provided but without speculative model.`, and `custom_class`
with `method='custom_class' requires 'model' to contain the custom proposer module path`
(vllm/config/speculative.py:1240-1296). `--spec-method`, `--spec-model` and
`--spec-tokens` are folded into the same object first (vllm/engine/arg_utils.py:2108-2121).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: eagle3
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 3
```
"""

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, token_span
from vllm_config_lsp.vllm.catalogue import ValueSet
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC302"
NAME = "speculative-tokens-without-model"
VLLM_SOURCE = "vllm/config/speculative.py:1293"
CATALOGUE = ("spec.tokens_without_model", "spec.custom_class.model")

CUSTOM_CLASS_SOURCE = "vllm/config/speculative.py:1288"
FLAG = "speculative-config"
#: (flag, key inside speculative-config) pairs EngineArgs.create_speculative_config merges.
SHORTHANDS = (
    ("spec-method", "method"),
    ("spec-model", "model"),
    ("spec-tokens", "num_speculative_tokens"),
)
#: Methods whose branch fills `model` itself (speculative.py:1252-1283).
SELF_SUFFICIENT = (
    "mtp",
    "dspark",
    "ngram",
    "[ngram]",
    "ngram_gpu",
    "suffix",
    "extract_hidden_states",
)
NO_WEIGHTS = ("ngram", "ngram_gpu", "suffix")


#: key → (value, where, origin) of what SpeculativeConfig receives.
Effective = dict[str, tuple[Any, tuple[int, int], str]]


def _effective(model: ConfigModel) -> Effective | None:
    """key → (value, where, origin) of what SpeculativeConfig receives, or None when vLLM
    never gets that far (no config, unparsable or invalid JSON, conflicting flags)."""
    out: Effective = {}
    raw = model.flag(FLAG)
    if raw is not None and raw.error is not None:
        return None  # argparse refuses the value (VC205): no SpeculativeConfig is built
    if raw is not None and raw.value is not None:
        tree = model.json_tree(FLAG)
        if tree is None or not tree.is_object:
            return None
        for entry in tree.entries or ():
            node = tree.get(entry.key)
            if node is not None:
                out[entry.key] = (node.value, (node.start, node.end), FLAG)
    shorthand = False
    for flag, key in SHORTHANDS:
        value = model.flag(flag)
        if value is None or value.value is None:
            continue
        if value.error is not None or key in out:
            return None
        token = value.use.values[-1] if value.use.values else value.use.token
        out[key] = (value.value, token_span(model, token), flag)
        shorthand = True
    if (raw is None or raw.value is None) and not shorthand:
        return None  # `speculative-config:` null or '' is None: no SpeculativeConfig
    return out


def without_model(
    model: ConfigModel,
) -> tuple[tuple[Any, tuple[int, int], str], str | None, ValueSet] | None:
    """`num_speculative_tokens` (value, where, origin), the method written (None: none) and
    the release's MTP model types, when SpeculativeConfig receives the tokens without a
    `model` and with a method pydantic accepts (VC302, VC348); else None."""
    methods = model.catalogue.value_sets.get("speculative_methods")
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    config = _effective(model)
    if config is None or methods is None or mtp_types is None:
        return None
    tokens = config.get("num_speculative_tokens")
    if tokens is None or tokens[0] is None or config.get("model", (None,))[0] is not None:
        return None
    written = config.get("method", (None,))[0]
    if written is not None and written not in methods:
        return None  # not a SpeculativeMethod: pydantic refuses it first
    return tokens, written, mtp_types


def check(model: ConfigModel) -> Iterator[Finding]:
    found = without_model(model)
    if found is None:
        return
    tokens, written, mtp_types = found
    method = "draft_model" if written is None else written
    if method in mtp_types:
        method = "mtp"
    if method in SELF_SUFFICIENT:
        return
    where, origin = tokens[1], tokens[2]
    add = "`spec-model: <draft>`" if origin != FLAG else "`model: <draft>` to speculative-config"
    if method == "custom_class":
        yield finding(
            CODE,
            Severity.ERROR,
            where,
            "method='custom_class' requires 'model' to contain the custom proposer module "
            f"path (e.g., 'my_module.MyProposer'). Add {add.replace('<draft>', '<pkg.Class>')}.",
            source=CUSTOM_CLASS_SOURCE,
        )
        return
    if written is None:
        why = "No `method` is given, so vLLM assumes `draft_model`, which needs a draft model"
    else:
        why = f"Method `{method}` needs a draft/head checkpoint"
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        "num_speculative_tokens was provided but without speculative model. "
        f"{why}: add {add}, or use a method that needs none (`mtp` uses the target's own "
        f"MTP layers; {', '.join(f'`{m}`' for m in NO_WEIGHTS)} need no weights).",
        source=VLLM_SOURCE,
    )
