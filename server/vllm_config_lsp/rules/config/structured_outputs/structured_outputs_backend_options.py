"""A `structured-outputs-config` option the chosen backend does not support.

## What vLLM does
`StructuredOutputsConfig._validate_structured_output_config` runs when argparse reads the
JSON (vllm/config/structured_outputs.py:64-76): `disable_any_whitespace` needs `backend`
`xgrammar` or `guidance` (`disable_any_whitespace is only supported for xgrammar and
guidance backends.`), and `disable_additional_properties` needs `guidance`
(`disable_additional_properties is only supported for the guidance backend.`). The
default `backend: auto` picks a backend per request, so it fails both checks too.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
structured-outputs-config:
  disable_any_whitespace: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
structured-outputs-config:
  backend: xgrammar
  disable_any_whitespace: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC524"
NAME = "structured-outputs-backend-options"
VLLM_SOURCE = "vllm/config/structured_outputs.py:68"
CATALOGUE = ("so.disable_any_whitespace", "so.disable_additional_properties")

FLAG = "structured-outputs-config"
#: (option, backends that support it, vLLM's message, source)
OPTIONS = (
    (
        "disable_any_whitespace",
        ("xgrammar", "guidance"),
        "disable_any_whitespace is only supported for xgrammar and guidance backends.",
        "vllm/config/structured_outputs.py:68",
    ),
    (
        "disable_additional_properties",
        ("guidance",),
        "disable_additional_properties is only supported for the guidance backend.",
        "vllm/config/structured_outputs.py:73",
    ),
)


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    if tree is None or not tree.is_object:
        return
    backend_node = tree.get("backend")
    backend = backend_node.value if backend_node is not None else "auto"
    for option, backends, message, source in OPTIONS:
        node = tree.get(option)
        if node is None or not node.value or backend in backends:
            continue
        choices = " or ".join(f"`backend: {b}`" for b in backends)
        yield finding(
            CODE,
            Severity.ERROR,
            (node.start, node.end),
            f"{message} The backend is `{backend}`: set {choices}, or remove `{option}`.",
            source=source,
        )
        return  # the validator stops at the first
