"""`quantization-config.targets` is not a map of layer patterns to online shorthands, or
is combined with `linear`/`moe`.

## What vLLM does
`targets` maps layer names (`re:`-prefixed regular expressions, or fnmatch patterns) to
online shorthands. While the arguments are parsed, `QuantizationConfigArgs._validate_targets`
stops the start for a `targets` that is not a mapping (its `targets must be a dict, got
list` is a TypeError, which argparse reports as `argument --quantization-config: invalid
_optional_type value: '…'`), with
`targets[pattern] = X is not a valid online shorthand name; expected one of [...]`, and
with `targets key re:… is not a valid regex: …`; `_validate_targets_exclusivity` then
refuses `targets` together with `linear` or `moe`: `quantization_config.targets is
mutually exclusive with quantization_config.linear/moe` (vllm/config/quantization.py:150-189).

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
quantization-config:
  targets:
    "re:.*experts.*": fp8_per_tensor_static
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
quantization-config:
  targets:
    "re:.*experts.*": fp8_per_tensor
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import raw_node, value_set
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC451"
NAME = "quantization-config-targets"
VLLM_SOURCE = "vllm/config/quantization.py:165"
CATALOGUE = (
    "quant_cfg.targets_dict",
    "quant_cfg.targets_value",
    "quant_cfg.targets_regex",
    "quant_cfg.targets_exclusive",
)
DICT_SOURCE = "vllm/config/quantization.py:158"
REGEX_SOURCE = "vllm/config/quantization.py:174"
EXCLUSIVE_SOURCE = "vllm/config/quantization.py:184"
FLAG = "quantization-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    shorthands = sorted(
        s for s in value_set(model, "online_quantization_shorthands") if s != "online"
    )
    node = raw_node(model, FLAG, "targets")
    if node is None or node.value is None or not shorthands:
        return
    if not node.is_object:
        kind = {str: "str", list: "list", int: "int", float: "float", bool: "bool"}
        yield finding(
            CODE,
            Severity.ERROR,
            (node.start, node.end),
            "argument --quantization-config: invalid _optional_type value: vLLM's "
            "`targets must be a dict, got "
            f"{kind.get(type(node.value), type(node.value).__name__)}` is a TypeError, which "
            "argparse reports as an invalid value. Map layer patterns to online shorthands.",
            source=DICT_SOURCE,
        )
        return
    for entry in node.entries or ():
        value = entry.value
        if not isinstance(value.value, str) or value.value not in shorthands:
            fixes = []
            guess = closest(str(value.value), shorthands, cutoff=0.6)
            if guess is not None:
                edit = TextEdit(value.start, value.end, guess)
                fixes.append(Fix(f"Replace with `{guess}`", (edit,), safe=False, preferred=True))
            yield finding(
                CODE,
                Severity.ERROR,
                (value.start, value.end),
                f"targets[{entry.key}] = {value.value} is not a valid online shorthand name; "
                f"expected one of {shorthands}",
                source=VLLM_SOURCE,
                fixes=fixes,
            )
            return
        if entry.key.startswith("re:"):
            try:
                re.compile(entry.key[3:])
            except re.error as error:
                yield finding(
                    CODE,
                    Severity.ERROR,
                    (entry.key_start, entry.key_end),
                    f"targets key {entry.key} is not a valid regex: {error}",
                    source=REGEX_SOURCE,
                )
                return
    others = [raw_node(model, FLAG, key) for key in ("linear", "moe")]
    other = next((n for n in others if n is not None and n.value is not None), None)
    if other is not None:
        yield finding(
            CODE,
            Severity.ERROR,
            (node.start, node.end),
            "quantization_config.targets is mutually exclusive with "
            "quantization_config.linear/moe: give per-layer `targets`, or `linear`/`moe`, "
            "not both.",
            source=EXCLUSIVE_SOURCE,
        )
