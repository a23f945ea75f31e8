"""`flag: []` is silently ignored by `vllm serve --config`, and the flag's default is not "none".

## What vLLM does
`load_config_file` emits a list's key only when the list has items: an empty list never
reaches argparse, so vLLM uses the flag's default. Where that default is a non-empty list,
the file says the opposite of what happens. In vLLM up to 0.32, `allowed-origins: []` leaves
the default `['*']`: cross-origin requests are allowed from every origin (0.33 made the
default empty). The default compared against is the checked release's own. A JSON-valued
flag (`allowed-origins`, `allowed-methods`, `allowed-headers`) takes the JSON string `'[]'`.

## Example
```yaml
# vllm-config: version=0.28.0
model: Qwen/Qwen3-8B
allowed-origins: []
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: Qwen/Qwen3-8B
allowed-origins: '[]'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import dropped_pairs, finding, quote_fix, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC113"
NAME = "empty-list-dropped"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:660"
#: Fields whose default None means "everything", which `[]` reads as "nothing" (security:
#: allow-lists), with what vLLM then does and its source line.
MEANS_EVERYTHING = {
    "ModelConfig.allowed_media_domains": (
        "None: media URLs from every domain are fetched (security: the domain allow-list is "
        "off; vllm/multimodal/media/connector.py:371 checks only a non-empty list, so "
        '`[]` cannot say "no domain" either); list the domains to allow'
    ),
}


def check(model: ConfigModel) -> Iterator[Finding]:
    for pair, spec in dropped_pairs(model, "empty-list-dropped"):
        everything = MEANS_EVERYTHING.get(spec.field or "")
        if everything is not None and spec.default is None:
            yield finding(
                CODE,
                Severity.WARNING,
                span(pair.value_node),
                f"`{pair.key}: []` is ignored: `vllm serve --config` drops an empty list, so "
                f"vLLM {model.catalogue.version} uses the default {everything}",
                source=VLLM_SOURCE,
            )
            continue
        if not isinstance(spec.default, list) or not spec.default:
            continue
        message = (
            f"`{pair.key}: []` is ignored: `vllm serve --config` drops an empty list, so "
            f"vLLM {model.catalogue.version} uses the default {spec.default!r}"
        )
        fixes = []
        if spec.parse == "json":
            message += "; write the JSON string '[]'"
            fixes.append(quote_fix(model, pair.value_node, "[]", "Write the JSON string '[]'"))
        yield finding(
            CODE, Severity.WARNING, span(pair.value_node), message, source=VLLM_SOURCE, fixes=fixes
        )
