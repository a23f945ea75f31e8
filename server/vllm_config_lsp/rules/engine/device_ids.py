"""`device-ids` repeats a device, mixes integer indices with UUIDs, or holds a digit `int`
cannot read.

## What vLLM does
`--device-ids` is split on commas; all-digit parts become integers, the rest stay strings
(UUIDs such as `GPU-8a3c…`). A part that is a digit to `str.isdigit` but not to `int`
(`²`) makes the `type=` lambda raise, and argparse stops with `argument --device-ids:
invalid <lambda> value: '0,²'`. `EngineArgs._resolve_device_ids` then refuses duplicates
(`--device-ids must not contain duplicates: [0, 1, 1]`) and a mix of integers and
UUIDs (`--device-ids must not mix integer IDs and UUIDs`)
(vllm/engine/arg_utils.py:2149-2158), while the engine config is built. Each listed device
gets one worker, so a repeated one would get two, and integer indices are read relative
to `CUDA_VISIBLE_DEVICES` while UUIDs are absolute, so the two cannot be combined.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
device-ids: 2,2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
device-ids: 2,3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC513"
NAME = "device-ids"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2151"
CATALOGUE = ("cli.device_ids.dupes", "cli.device_ids.mixed")

MIXED_SOURCE = "vllm/engine/arg_utils.py:2158"
TYPE_SOURCE = "vllm/engine/arg_utils.py:1196"


def _parse_ids(text: str) -> list[int | str] | None:
    """The `type=` lambda of `--device-ids` (vllm/engine/arg_utils.py:1196-1199), None
    where it raises: `str.isdigit` holds for `²`, which `int` refuses."""
    try:
        return [int(p) if p.isdigit() else p for p in (part.strip() for part in text.split(","))]
    except ValueError:
        return None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "device-ids")
    if a is None:
        return
    given = a["device_ids"]
    if not given.explicit or not isinstance(given.value, str):
        return
    ids = _parse_ids(given.value)
    if ids is None:
        yield finding(
            CODE,
            Severity.ERROR,
            given.where,
            f"argument --device-ids: invalid <lambda> value: {given.value!r}. Write device "
            "indices in ASCII digits (e.g. `0,1`) or UUIDs.",
            source=TYPE_SOURCE,
        )
        return
    if not ids:
        return
    if len(set(ids)) != len(ids):
        repeated = sorted({str(i) for i in ids if ids.count(i) > 1})
        yield finding(
            CODE,
            Severity.ERROR,
            given.where,
            f"--device-ids must not contain duplicates: {ids}. Each device is listed once; "
            f"{', '.join(repeated)} appear{'s' if len(repeated) == 1 else ''} more than once.",
            source=VLLM_SOURCE,
        )
        return
    if any(isinstance(i, str) for i in ids) and not all(isinstance(i, str) for i in ids):
        yield finding(
            CODE,
            Severity.ERROR,
            given.where,
            "--device-ids must not mix integer IDs and UUIDs: use only indices (e.g. `0,1`) "
            "or only UUIDs.",
            source=MIXED_SOURCE,
        )
