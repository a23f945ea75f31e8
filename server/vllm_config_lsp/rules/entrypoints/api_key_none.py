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

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.parse_args import Token

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
    give = _give_fix(model, value.use.values, site.key)
    fixes = [fix for fix in (removal, give) if fix is not None]
    yield finding(CODE, Severity.WARNING, where, message, source=VLLM_SOURCE, fixes=fixes)


def _give_fix(model: ConfigModel, values: list[Token], key: str) -> Fix | None:
    """Replace the empty value by a placeholder key to fill in (YAML only)."""
    if not model.is_config_file or len(values) != 1 or values[0].pair is None:
        return None
    node = values[0].pair.value_node
    start, end = node.start_mark.index, node.end_mark.index
    if values[0].node is not node:  # `api-key: [null]`: the item's own node
        item = values[0].node
        if item is None:
            return None
        start, end = item.start_mark.index, item.end_mark.index
    text = f"'{PLACEHOLDER}'"
    if start == end and model.text[start - 1 : start] == ":":
        text = " " + text
    title = f"Write the key (`{key}: {text.strip()}`, then fill it in)"
    return Fix(title, (TextEdit(start, end, text),), safe=False)
