"""`mamba-ssu-algorithm` is set but the Mamba backend is not FlashInfer.

## What vLLM does
Only the FlashInfer selective-state-update kernels have selectable algorithms. When the
engine config is built, `MambaConfig.validate_ssu_algorithm` stops the start with `Mamba
SSU algorithm selection is only supported with the FlashInfer backend. Please set
`--mamba-backend flashinfer`, or omit `--mamba-ssu-algorithm`.`
(vllm/config/mamba.py:66-81, called from vllm/engine/arg_utils.py:2786). The backend
defaults to `triton`.

## Example
```yaml
model: ibm-granite/granite-4.0-h-small
mamba-ssu-algorithm: vertical
```

## Fixed
```yaml
model: ibm-granite/granite-4.0-h-small
mamba-backend: flashinfer
mamba-ssu-algorithm: vertical
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import plain
from vllm_config_lsp.rules.support import finding, remove_pair_fix
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC415"
NAME = "mamba-ssu-algorithm-backend"
VLLM_SOURCE = "vllm/config/mamba.py:77"
CATALOGUE = ("mamba.ssu_algorithm.backend",)


def check(model: ConfigModel) -> Iterator[Finding]:
    algorithm = plain(model, "mamba-ssu-algorithm")
    if algorithm is None or algorithm.value is None:
        return
    backend = plain(model, "mamba-backend")
    name = backend.value if backend is not None else "triton"
    known = model.catalogue.enums.get("MambaBackendEnum", {})
    if not isinstance(name, str) or name.upper() == "FLASHINFER" or name.upper() not in known:
        return  # an unknown backend name is refused first (VC414)
    fixes: list[Fix] = []
    if backend is not None:
        edit = TextEdit(*backend.span, "flashinfer")
        fixes.append(Fix("Set `mamba-backend: flashinfer`", (edit,), safe=False, preferred=True))
    flag = model.flag("mamba-ssu-algorithm")
    pair = flag.use.token.pair if flag is not None else None
    removal = remove_pair_fix(model, pair, f"Remove `{pair.key}`") if pair else None
    if removal is not None:
        fixes.append(removal)
    yield finding(
        CODE,
        Severity.ERROR,
        algorithm.span,
        "Mamba SSU algorithm selection is only supported with the FlashInfer backend. "
        "Please set `--mamba-backend flashinfer`, or omit `--mamba-ssu-algorithm` "
        f"(the backend here is `{name}`).",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
