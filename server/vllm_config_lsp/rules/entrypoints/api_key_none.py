"""`api-key` with no value turns authentication off, and `VLLM_API_KEY` with it.

## What vLLM does
`--api-key` takes a list, each item read by `optional_type` (vllm/engine/arg_utils.py:173):
`""` and `None` become Python's None. `api-key:` with no value (YAML null, written as
`None` by `load_config_file`), `api-key: ""` and `--api-key ""` on a command line all give
`[None]`. The server then builds its keys as
`[key for key in (args.api_key or [envs.VLLM_API_KEY]) if key]`
(vllm/entrypoints/serve/middleware/register.py:33): `[None]` is set, so `VLLM_API_KEY` is
not consulted, and its one item is dropped, so no key is left and the authentication
middleware is never added. The server starts and answers every request without a key.
This is a security setting: remove the key (then `VLLM_API_KEY` applies), or write the key.

## Example
```yaml
model: Qwen/Qwen3-8B
api-key:
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC114"
NAME = "api-key-none"
VLLM_SOURCE = "vllm/entrypoints/serve/middleware/register.py:33"
#: What the "give the key" fix writes: a placeholder to replace (never applied unattended).
PLACEHOLDER = "<your API key>"


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.final.get("api_key")
    if value is None or value.unresolved or value.spec.nargs != "+":
        return  # before 0.10 `--api-key` is one optional text: None falls back to the env
    items = value.value
    if not isinstance(items, list) or not items or any(item for item in items):
        return
    site = site_of(model, value.use.token)
    if site is None:
        return
    texts = [t.text for t in value.use.values] or [value.use.explicit or ""]
    written = " ".join(repr(text) for text in texts)
    where = value.value_span()
    if where[0] == where[1]:
        where = site.span
    message = (
        f"`{site.key}` has no key: argparse reads {written} as None, so vLLM gets "
        f"`api_key={items!r}`; `[key for key in (args.api_key or [envs.VLLM_API_KEY]) if key]` "
        "is then empty, and the server starts with authentication off (security: every "
        "endpoint answers without a key). Because `--api-key` is set, `VLLM_API_KEY` is not "
        "used either. Remove the key to use `VLLM_API_KEY`, or write the key"
    )
    removal = site.remove(f"Remove `{site.key}` (VLLM_API_KEY then applies)")
    give = site.fill(
        f"'{PLACEHOLDER}'", f"Write the key (`{site.key}: '{PLACEHOLDER}'`, then fill it in)"
    )
    fixes = [fix for fix in (removal, give) if fix is not None]
    yield finding(CODE, Severity.WARNING, where, message, source=VLLM_SOURCE, fixes=fixes)
