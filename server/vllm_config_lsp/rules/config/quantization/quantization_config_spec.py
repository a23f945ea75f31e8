"""`quantization-config.linear`/`moe` names a quantization scheme vLLM does not know.

## What vLLM does
`linear` and `moe` take either an online shorthand (`fp8_per_tensor`, `fp8_per_block`, …),
a single weight scheme name, or `{weight: …, activation: …}` with scheme names from
`QUANT_KEY_NAMES` (`fp8_per_tensor_static`, `fp8_per_token`, `mxfp4`, …). While the
arguments are parsed vLLM stops the start with `online shorthand 'X' does not define a
linear spec` for a shorthand that only covers MoE layers, with `unknown quantization name
'X'; expected one of [...]` for any other name. A value that is not text raises the
TypeError `expected str or QuantKey, got int`, which argparse reports as `argument
--quantization-config: invalid _optional_type value: '…'` (vllm/config/quantization.py:53-65,
134-148).

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
quantization-config:
  moe:
    weight: fp8_per_tensor
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
quantization-config:
  moe:
    weight: fp8_per_tensor_static
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import raw_node, value_set
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC450"
NAME = "quantization-config-spec"
VLLM_SOURCE = "vllm/config/quantization.py:62"
CATALOGUE = ("quant_cfg.key_name", "quant_cfg.key_type", "quant_cfg.shorthand_field")
TYPE_SOURCE = "vllm/config/quantization.py:58"
SHORTHAND_SOURCE = "vllm/config/quantization.py:146"
FLAG = "quantization-config"
#: Online shorthands that define only a `moe` spec (vllm/config/quantization.py:218-228).
MOE_ONLY = ("int8_per_channel_weight_only", "nvfp4_per_token")


def _key_problem(model: ConfigModel, node: ValueNode, names: list[str]) -> Finding | None:
    value = node.value
    where = (node.start, node.end)
    if value is None:
        return None
    if not isinstance(value, str):
        kind = {bool: "bool", int: "int", float: "float", list: "list", dict: "dict"}
        return finding(
            CODE,
            Severity.ERROR,
            where,
            "argument --quantization-config: invalid _optional_type value: vLLM's "
            "`expected str or QuantKey, got "
            f"{kind.get(type(value), type(value).__name__)}` is a TypeError, which argparse "
            f"reports as an invalid value. Write a scheme name, e.g. `{names[0]}`.",
            source=TYPE_SOURCE,
        )
    if value in names:
        return None
    fixes = []
    guess = closest(value, names, cutoff=0.6)
    at = model.text.find(value, node.start, node.end)
    if guess is not None and at != -1:
        edit = TextEdit(at, at + len(value), guess)
        fixes.append(Fix(f"Replace with `{guess}`", (edit,), safe=False, preferred=True))
    return finding(
        CODE,
        Severity.ERROR,
        where,
        f"unknown quantization name {value!r}; expected one of {sorted(names)}",
        source=VLLM_SOURCE,
        fixes=fixes,
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    names = value_set(model, "quant_key_names")
    shorthands = [s for s in value_set(model, "online_quantization_shorthands") if s != "online"]
    if not names or not shorthands:
        return
    for field in ("linear", "moe"):
        node = raw_node(model, FLAG, field)
        if node is None:
            continue
        if isinstance(node.value, str):
            if node.value in shorthands:
                if field == "linear" and node.value in MOE_ONLY:
                    yield finding(
                        CODE,
                        Severity.ERROR,
                        (node.start, node.end),
                        f"online shorthand {node.value!r} does not define a {field} spec "
                        "(it quantizes MoE layers only): use it under `moe`.",
                        source=SHORTHAND_SOURCE,
                    )
                continue
            found = _key_problem(model, node, names)
            if found is not None:
                yield found
            continue
        if not node.is_object:
            continue
        for key in ("weight", "activation"):
            child = node.get(key)
            found = _key_problem(model, child, names) if child is not None else None
            if found is not None:
                yield found
