"""A dotted key (`compilation-config.x: …`) whose value vLLM does not read as written.

## What vLLM does
`compilation-config.x: v` becomes the two arguments `--compilation-config.x v`, and the
dotted-key code takes *the next argument* as the value (argparse_utils.py:466). `true` emits
no value at all, so the next flag in the file (e.g. `--port`) is swallowed as the value — or,
at the end of the file, vLLM crashes with an `IndexError`; `false` is dropped; a YAML list
gives one argument per item, so only the first item is taken and the others are stray
arguments (a one-item list is just that item). The append form `key+: "a,b"` splits one
text at commas, so its list is written as that text, not as JSON. Write the value as text.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config.cudagraph_mm_encoder: true
port: 8000
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config.cudagraph_mm_encoder: "true"
port: 8000
```
"""

import json
from collections.abc import Iterator
from typing import Any

from yaml.nodes import SequenceNode

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, quote_fix, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC109"
NAME = "dotted-key-value"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:466"


def check(model: ConfigModel) -> Iterator[Finding]:
    for event in model.events:
        pair = event.pair
        if pair is None or event.kind not in ("dotted-ate-next", "dotted-missing-value"):
            continue
        text = json.dumps(pair.value)
        if event.kind == "dotted-ate-next":
            message = (
                f"`{pair.key}: {model.text[span(pair.value_node)[0] : span(pair.value_node)[1]]}` "
                f"gives vLLM the bare argument `--{pair.key}`, which takes the next argument "
                f"(`{event.detail}`) as its value"
            )
        else:
            message = (
                f"`--{pair.key}` has no value (`true` emits the bare key) and is the last "
                "argument: vLLM crashes with IndexError"
            )
        yield finding(
            CODE,
            Severity.ERROR,
            span(pair.value_node),
            message + ". Write the value as text",
            source=VLLM_SOURCE,
            fixes=[quote_fix(model, pair.value_node, text, f"Write `{text}` as text")],
        )
    for pair in model.origin.pairs if model.origin is not None else []:
        node = pair.value_node
        # One item is the single argument `--key item`, validated as that item (VC2xx).
        if "." not in pair.key or not isinstance(node, SequenceNode) or len(node.value) < 2:
            continue
        first = model.text[span(node.value[0])[0] : span(node.value[0])[1]]
        if pair.key.endswith("+"):
            yield _appended_list(model, pair.key, node, first, pair.value)
            continue
        text = json.dumps(pair.value)
        yield finding(
            CODE,
            Severity.ERROR,
            span(node),
            f"a YAML list under a dotted key becomes one argument per item: vLLM reads "
            f'`--{pair.key} {first}` (not a list: "Input should be a valid array") '
            "and the other items are stray arguments. Write the list as a JSON string",
            source=VLLM_SOURCE,
            fixes=[quote_fix(model, node, text, f"Write the list as the JSON string '{text}'")],
        )


def _appended_list(
    model: ConfigModel, key: str, node: SequenceNode, first: str, items: list[Any]
) -> Finding:
    """`key+: [a, b]`: the append form splits one text at commas (argparse_utils.py:469),
    so the list is written as that text; a JSON string would be split too."""
    texts = [str(item) for item in items]
    fixes = []
    if all(
        isinstance(item, (str, int, float)) and "," not in t
        for item, t in zip(items, texts, strict=True)
    ):
        joined = ",".join(texts)
        fixes.append(quote_fix(model, node, joined, f"Write the items as the text '{joined}'"))
    return finding(
        CODE,
        Severity.ERROR,
        span(node),
        f"a YAML list under a dotted key becomes one argument per item: vLLM reads "
        f"`--{key} {first}` (the list of that one item) and the other items are stray "
        "arguments. Write the items as one comma-separated text",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
