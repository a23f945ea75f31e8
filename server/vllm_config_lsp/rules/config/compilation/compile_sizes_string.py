"""A text entry of `compilation-config.compile_sizes` other than `cudagraph_capture_sizes`.

## What vLLM does
`compile_sizes` holds batch sizes to compile for, plus the one word
`cudagraph_capture_sizes` (meaning: all CUDA-graph capture sizes). When the sizes are
finalised, `CompilationConfig.post_init_cudagraph_sizes` asserts
`Unrecognized size type in compile_sizes, expect 'cudagraph_capture_sizes', got X`
(vllm/config/compilation.py:1144-1149). This runs on platforms with CUDA graphs (CUDA,
ROCm) during `vllm serve` start-up; the CPU backend skips it.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  compile_sizes: [1, 2, cudagraph_sizes]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  compile_sizes: [1, 2, cudagraph_capture_sizes]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC407"
NAME = "compile-sizes-string"
VLLM_SOURCE = "vllm/config/compilation.py:1147"
CATALOGUE = ("compilation.compile_sizes.string",)
WORD = "cudagraph_capture_sizes"


def _is_int_text(text: str) -> bool:
    return text.strip().lstrip("+-").isdigit()


def check(model: ConfigModel) -> Iterator[Finding]:
    given = json_given(model, "compilation-config", "compile_sizes")
    if given is None or given.node is None or given.node.items is None:
        return
    for item in given.node.items:
        text = item.value
        # pydantic's `int | str` keeps text as text (smart mode: exact type first).
        if not isinstance(text, str) or text == WORD:
            continue
        at = model.text.find(text, item.start, item.end)
        fixes = []
        if at != -1 and not _is_int_text(text):
            edit = TextEdit(at, at + len(text), WORD)
            fixes.append(Fix(f"Replace with `{WORD}`", (edit,), safe=False, preferred=True))
        elif at != -1:
            edit = TextEdit(item.start, item.end, text.strip())
            fixes.append(Fix("Write the size as a number", (edit,), safe=False, preferred=True))
        yield finding(
            CODE,
            Severity.ERROR,
            (item.start, item.end),
            f"Unrecognized size type in compile_sizes, expect '{WORD}', got {text} "
            "(AssertionError when CUDA graph sizes are finalised at start-up): write a "
            f"batch size as a number, or `{WORD}`.",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
        return
