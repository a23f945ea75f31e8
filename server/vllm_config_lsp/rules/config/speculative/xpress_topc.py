"""`xpress_topc` for a draft that is not an XPress refiner, or outside its vocabulary.

## What vLLM does
Once `SpeculativeConfig.__post_init__` has read the draft's config.json and settled the
method and `num_speculative_tokens`, it refuses `xpress_topc` unless the draft is an XPress
refiner (`is_xpress`: method `dflash` and a draft architecture in `XPRESS_ARCHITECTURES`,
`Qwen3XPressModel` or the `DFlashQwen3XPressModel` that vLLM's EAGLEConfig wrapper renames
it to): `xpress_topc is only supported by XPress` (vllm/config/speculative.py:1620-1621).
For an XPress draft the value (or the draft config's own `xpress_topc`) must lie between 0
and the draft vocabulary, the wrapper's `draft_vocab_size` or else `vocab_size`, both copied
from the draft's config.json (vllm/config/speculative.py:1623-1637).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/qwen3-dspark
  num_speculative_tokens: 7
  xpress_topc: 8
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/qwen3-dspark
  num_speculative_tokens: 7
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft, draft_method, int_value, served, speculative
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC631"
NAME = "xpress-topc"
VLLM_SOURCE = "vllm/config/speculative.py:1621"
CATALOGUE = ("spec.xpress_topc.arch", "spec.xpress_topc.range")

RANGE_SOURCE = "vllm/config/speculative.py:1634"
#: `XPRESS_ARCHITECTURES` (vllm/config/speculative.py:98). EAGLEConfig renames a dflash
#: draft's `Qwen3XPressModel` to `DFlashQwen3XPressModel`, which is also in the set, and
#: gives any other architecture a `DFlash` prefix, which is not: testing the architectures
#: as written gives the same answer.
XPRESS_ARCHITECTURES = ("Qwen3XPressModel", "DFlashQwen3XPressModel")


def check(model: ConfigModel) -> Iterator[Finding]:
    if served(model) is None:
        return
    proposer = draft(model)
    if proposer is None or proposer.config is None or proposer.name is None:
        return
    method = draft_method(model, proposer.config, proposer.name)
    if method is None:
        return
    draft_config = proposer.config
    xpress = method == "dflash" and any(
        a in XPRESS_ARCHITECTURES for a in draft_config.architectures
    )
    written = (speculative(model) or {}).get("xpress_topc")
    if written is not None and written[0] is not None and not xpress:
        yield finding(
            CODE,
            Severity.ERROR,
            written[1],
            "xpress_topc is only supported by XPress: the draft "
            f"{draft_config.architectures} under method `{method}` is not an XPress refiner "
            f"({' or '.join(XPRESS_ARCHITECTURES)} with method `dflash`).",
            source=VLLM_SOURCE,
        )
        return
    if not xpress:
        return
    if written is not None and written[0] is not None:
        topc, where = int_value(written[0]), written[1]
    else:
        topc, where = int_value(draft_config.raw.get("xpress_topc")), proposer.where
    raw = draft_config.raw
    vocab = int_value(raw.get("draft_vocab_size") or raw.get("vocab_size"))
    if topc is None or vocab is None or 0 <= topc <= vocab:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"xpress_topc must be between 0 and the draft vocabulary size ({vocab}); got {topc}.",
        source=RANGE_SOURCE,
    )
