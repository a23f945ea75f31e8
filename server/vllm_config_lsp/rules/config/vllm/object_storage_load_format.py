"""A model in object storage (`s3://`, `gs://`, `az://`) with a `load-format` that cannot
stream from it.

## What vLLM does
`VllmConfig.try_verify_and_update_config` (vllm/config/vllm.py:2775-2795) switches
`load_format: auto` to `runai_streamer` for object-storage models, and refuses every other
format except `modelexpress`, `runai_streamer` and `runai_streamer_sharded`: `To load a
model from object storage (S3/GCS/Azure), 'load_format' must be 'modelexpress',
'runai_streamer' or 'runai_streamer_sharded', but got 'safetensors'.` The other loaders
read local files only.

## Example
```yaml
model: s3://my-bucket/llama-3.1-8b-instruct
load-format: safetensors
```

## Fixed
```yaml
model: s3://my-bucket/llama-3.1-8b-instruct
load-format: runai_streamer
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, removal, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC327"
NAME = "object-storage-load-format"
VLLM_SOURCE = "vllm/config/vllm.py:2789"
CATALOGUE = ("vllm.object_storage.load_format",)

SCHEMES = ("s3://", "gs://", "az://")
STREAMING = ("auto", "modelexpress", "runai_streamer", "runai_streamer_sharded")


def check(model: ConfigModel) -> Iterator[Finding]:
    name = given(model, "model")
    fmt = given(model, "load-format")
    if name is None or fmt is None or not isinstance(name.value, str):
        return
    if not name.value.lower().startswith(SCHEMES) or fmt.value in STREAMING:
        return
    yield error(
        CODE,
        fmt,
        "To load a model from object storage (S3/GCS/Azure), 'load_format' must be "
        "'modelexpress', 'runai_streamer' or 'runai_streamer_sharded', but got "
        f"'{fmt.value}'. Model: {name.value}",
        VLLM_SOURCE,
        [
            replace(model, fmt, "runai_streamer", "Use `runai_streamer`"),
            removal(model, fmt, f"Remove `{fmt.written}` (vLLM picks runai_streamer)"),
        ],
    )
