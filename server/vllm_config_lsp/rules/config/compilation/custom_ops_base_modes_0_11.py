"""`compilation-config.custom_ops` naming `none` and `all` more than once in all, in the
older releases that assert it.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC347`),
`CompilationConfig.__post_init__` counts the base modes and asserts
`count_none + count_all <= 1`, "Can only specify 'none' or 'all'"
(vllm/config/compilation.py:620-622 in 0.11.2): `["none", "all"]`, and also the same mode
twice (`["none", "none"]`), stops the start while the arguments are parsed. Later releases
replaced the assertion with VC403's checks.

## Example
```yaml
# vllm-config: version=0.11.2
model: Qwen/Qwen3-8B
compilation-config: '{"custom_ops": ["none", "all"]}'
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: Qwen/Qwen3-8B
compilation-config: '{"custom_ops": ["none"]}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC347"
NAME = "custom-ops-base-modes-0-11"
#: The assertion is gone from the release the other rules transcribe: this one is read
#: from 0.11.2, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/config/compilation.py:622"
BASE_MODES = ("none", "all")


def check(model: ConfigModel) -> Iterator[Finding]:
    given = json_given(model, "compilation-config", "custom_ops")
    if given is None or given.node is None or given.node.items is None:
        return
    modes = [item for item in given.node.items if item.value in BASE_MODES]
    if len(modes) <= 1:
        return
    second = modes[1]
    yield finding(
        CODE,
        Severity.ERROR,
        (second.start, second.end),
        "Can only specify 'none' or 'all' (AssertionError while the arguments are parsed): "
        f"`custom_ops` names {', '.join(repr(m.value) for m in modes)}; keep one base "
        "mode and list single ops as `+op` or `-op`.",
        source=VLLM_SOURCE,
    )
