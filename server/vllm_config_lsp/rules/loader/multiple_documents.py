"""The file holds more than one YAML document.

## What vLLM does
`yaml.safe_load` accepts exactly one document; a `---` followed by more content makes it
raise `expected a single document in the stream` and vLLM does not start.

## Example
```yaml
model: Qwen/Qwen3-8B
---
tensor-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.yaml_tree import document_start
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC003"
NAME = "multiple-documents"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:646"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:
        return
    root = model.origin.parsed.root
    previous_end = root.end_mark.index if root is not None else 0
    for document in model.origin.parsed.extra_documents:
        # PyYAML names the start of the next document: its `---`, not its first key
        start = document_start(model.text, previous_end, document)
        previous_end = document.end_mark.index
        yield finding(
            CODE,
            Severity.ERROR,
            (start, max(start + 1, min(document.end_mark.index, start + 3))),
            "expected a single document in the stream, but found another document: "
            "merge the documents into one mapping (only the first is checked here)",
            source=VLLM_SOURCE,
        )
