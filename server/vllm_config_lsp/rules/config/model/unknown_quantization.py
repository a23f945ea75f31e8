"""`quantization` names a method vLLM does not have.

## What vLLM does
`--quantization` is a plain string for argparse, so any value parses. `ModelConfig` then
lower-cases it and `_verify_quantization` refuses anything outside `QUANTIZATION_METHODS`
with `Unknown quantization method: X. Must be one of [...]`
(vllm/config/model.py:1465-1469), before any weights are read. The list is open: a plugin
calling `register_quantization_config("X")` adds `X` at start-up, so a name missing here is
only valid with such a plugin installed. `bitsandbytes` is not a method of vLLM 0.33.0.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct-AWQ
quantization: awq_marlinn
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct-AWQ
quantization: awq_marlin
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import closest, finding, remove_pair_fix, replace_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC303"
NAME = "unknown-quantization"
VLLM_SOURCE = "vllm/config/model.py:1466"
CATALOGUE = ("model.quantization.known",)

FLAG = "quantization"
VALUE_SET = "quantization_methods"


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    methods = model.catalogue.value_sets.get(VALUE_SET)
    if value is None or methods is None or value.error is not None:
        return
    if not isinstance(value.value, str):  # None: `quantization: null`, "" or "None"
        return
    method = value.value.lower()  # ModelConfig.validate_quantization_before
    if method in methods:
        return
    token = value.use.values[-1] if value.use.values else value.use.token
    where = token_span(model, token)
    known = [str(m) for m in methods.values]
    message = f"Unknown quantization method: {method}. Must be one of {known}."
    fixes: list[Fix] = []
    suggestion = closest(method, known, cutoff=0.6)
    if suggestion is not None:
        message += f" Did you mean `{suggestion}`?"
        fixes.append(replace_fix(where, suggestion))
    else:
        message += (
            f" vLLM {model.version} has no `{method}` method (and none with a similar "
            "name): remove `quantization` to use the method the checkpoint declares, or "
            "pick one of the methods above."
        )
    if methods.open:
        message += (
            " A plugin can register more methods (`register_quantization_config`); "
            "without one, vLLM refuses this value."
        )
    pair = token.pair
    if pair is not None:
        removal = remove_pair_fix(model, pair, f"Remove `{pair.key}`")
        if removal is not None:
            fixes.append(removal)
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        message,
        source=VLLM_SOURCE,
        fixes=fixes,
    )
