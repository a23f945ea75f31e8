"""`quantization` names a deprecated method and `allow-deprecated-quantization` is not set.

## What vLLM does
After accepting the method, `ModelConfig._verify_quantization` refuses the ones in
`DEPRECATED_QUANTIZATION_METHODS` (`fbgemm_fp8`, `fp_quant` in 0.33.0) unless
`--allow-deprecated-quantization` is given (vllm/config/model.py:1472-1486); with the flag
it starts and logs the deprecation (:1474; VC382). vLLM builds that `ValueError` with two
arguments, so what users see is a tuple with a literal `%s`:
`('The quantization method %s is deprecated and will be removed in future versions of
vLLM. To bypass, set `--allow-deprecated-quantization`.', 'fbgemm_fp8')`. This rule shows
the same text with the method filled in.

## Example
```yaml
model: my-org/llama-fbgemm-fp8
quantization: fbgemm_fp8
```

## Fixed
```yaml
model: my-org/llama-fbgemm-fp8
quantization: fbgemm_fp8
allow-deprecated-quantization: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import entries, finding, spell_like, token_span
from vllm_config_lsp.sources import config_edits
from vllm_config_lsp.vllm.config_model import ConfigModel, FlagValue

CODE = "VC304"
NAME = "deprecated-quantization"
VLLM_SOURCE = "vllm/config/model.py:1480"
CATALOGUE = ("model.quantization.deprecated",)

FLAG = "quantization"
ALLOW = "allow-deprecated-quantization"
VALUE_SET = "deprecated_quantization_methods"


def _allowed(value: FlagValue | None) -> bool:
    """`allow-deprecated-quantization: true` (a `--no-…` negative stores False)."""
    if value is None:
        return False
    return value.value is True and value.use.option_string not in value.spec.negatives


def _allow_fix(model: ConfigModel, value: FlagValue) -> Fix | None:
    """Set `allow-deprecated-quantization: true`: flip a dropped `…: false` in place, else
    insert the key below the `quantization` line."""
    for other in entries(model):
        if other.key.replace("_", "-") == ALLOW:
            flip = config_edits.replace_value(model.text, other.value_node, "true")
            return Fix(f"Set `{other.key}: true`", (flip,), safe=False, preferred=True)
    pair = value.use.token.pair
    if pair is None or "." in pair.key:
        return None
    key = spell_like(pair.key, ALLOW)
    edit = config_edits.add_entry_after(model.text, pair, key, "true")
    if edit is None:
        return None
    return Fix(f"Add `{key}: true`", (edit,), safe=False, preferred=True)


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    deprecated = model.catalogue.value_sets.get(VALUE_SET)
    if value is None or deprecated is None or value.error is not None:
        return
    if not isinstance(value.value, str):
        return
    method = value.value.lower()  # ModelConfig.validate_quantization_before
    if method not in deprecated or _allowed(model.flag(ALLOW)):
        return
    token = value.use.values[-1] if value.use.values else value.use.token
    allow = model.flag(ALLOW)
    fixes: list[Fix] = []
    if allow is None:  # a `--no-…` key is there: the user said no, leave it to them
        fix = _allow_fix(model, value)
        if fix is not None:
            fixes.append(fix)
    yield finding(
        CODE,
        Severity.ERROR,
        token_span(model, token),
        f"The quantization method {method} is deprecated and will be removed in future "
        "versions of vLLM. To bypass, set `--allow-deprecated-quantization`. (vLLM prints "
        "this as a tuple with a literal `%s`.) Add `allow-deprecated-quantization: true` "
        "to start anyway, or move to a supported method.",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
