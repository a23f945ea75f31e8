"""`mamba-backend` names a Mamba SSU backend vLLM does not have.

## What vLLM does
`--mamba-backend` takes any text; when the engine config is built vLLM looks it up with
`MambaBackendEnum[value.upper()]` (vllm/engine/arg_utils.py:2772-2773) and stops the start
with `Unknown Mamba SSU backend: 'X'. Valid options are: TRITON, FLASHINFER, CPU`
(vllm/config/mamba.py:14-22).

## Example
```yaml
model: ibm-granite/granite-4.0-h-small
mamba-backend: flash-infer
```

## Fixed
```yaml
model: ibm-granite/granite-4.0-h-small
mamba-backend: flashinfer
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import name_fixes, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC414"
NAME = "mamba-backend-name"
VLLM_SOURCE = "vllm/config/mamba.py:20"
CATALOGUE = ("mamba.backend.enum",)
#: MambaBackendEnum in declaration order (vllm/config/mamba.py:25-30).
ORDER = ("TRITON", "FLASHINFER", "CPU")


def names(model: ConfigModel) -> list[str]:
    members = list(model.catalogue.enums.get("MambaBackendEnum", {}))
    return sorted(members, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))


def check(model: ConfigModel) -> Iterator[Finding]:
    given = plain(model, "mamba-backend")
    valid = names(model)
    if given is None or not isinstance(given.value, str) or not valid:
        return
    if given.value.upper() in valid:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        given.span,
        f"Unknown Mamba SSU backend: '{given.value.upper()}'. Valid options are: "
        f"{', '.join(valid)} (any case).",
        source=VLLM_SOURCE,
        fixes=name_fixes(given.span, given.value, [n.lower() for n in valid]),
    )
