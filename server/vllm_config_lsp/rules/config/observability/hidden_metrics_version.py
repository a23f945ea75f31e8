"""`show-hidden-metrics-for-version` is not a version number.

## What vLLM does
`ObservabilityConfig` parses `show_hidden_metrics_for_version` with
`packaging.version.parse`, which raises `Invalid version: 'X'` for anything that is not a
PEP 440 version (vllm/config/observability.py:145-151); pydantic turns it into a
validation error while the engine config is built. The value names the release whose
hidden (deprecated) metrics to show again, e.g. `0.31`.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
show-hidden-metrics-for-version: v0.31-latest
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
show-hidden-metrics-for-version: "0.31"
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC518"
NAME = "hidden-metrics-version"
VLLM_SOURCE = "vllm/config/observability.py:150"
CATALOGUE = ("obs.hidden_metrics.version",)

#: PEP 440, as `packaging.version.VERSION_PATTERN` spells it (Version uses it anchored,
#: with surrounding whitespace allowed, case-insensitive).
_PEP440 = re.compile(
    r"""^\s*v?
    (?:(?:[0-9]+)!)?
    (?:[0-9]+(?:\.[0-9]+)*)
    (?:[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?:[0-9]+)?)?
    (?:(?:-(?:[0-9]+))|(?:[-_.]?(?:post|rev|r)[-_.]?(?:[0-9]+)?))?
    (?:[-_.]?(?:dev)[-_.]?(?:[0-9]+)?)?
    (?:\+(?:[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "show-hidden-metrics-for-version")
    if a is None:
        return
    given = a["show_hidden_metrics_for_version"]
    if not given.explicit or not isinstance(given.value, str) or _PEP440.match(given.value):
        return
    yield finding(
        CODE,
        Severity.ERROR,
        given.where,
        f"Invalid version: '{given.value}'. Give the vLLM release whose hidden metrics to "
        'show, as a version number such as "0.31".',
        source=VLLM_SOURCE,
    )
