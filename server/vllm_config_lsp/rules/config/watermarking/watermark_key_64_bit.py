"""`watermark-config.key` does not fit in 64 bits.

## What vLLM does
`WatermarkConfig.validate_watermark_settings` refuses a key above 2**64 - 1: `philox keys
must fit in 64 bits` (vllm/config/watermarking.py:59-61). The key seeds the Philox
generator that picks watermarked tokens, which takes a 64-bit key. `--watermark-config` is
plain JSON at argparse time; the check runs when the engine config is built.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
watermark-config:
  key: 18446744073709551616
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
watermark-config:
  key: 1234567890
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC525"
NAME = "watermark-key-64-bit"
VLLM_SOURCE = "vllm/config/watermarking.py:61"
CATALOGUE = ("wm.key_64bit",)

LIMIT = 2**64 - 1


def check(model: ConfigModel) -> Iterator[Finding]:
    key = model.json_setting("watermark-config", "key")
    if key is None or not isinstance(key.value, int) or isinstance(key.value, bool):
        return
    if key.value <= LIMIT:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        (key.start, key.end),
        f"philox keys must fit in 64 bits: the key is at most {LIMIT} (2**64 - 1).",
        source=VLLM_SOURCE,
    )
