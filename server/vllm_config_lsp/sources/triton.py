"""Triton Inference Server's vLLM backend: the engine arguments of a `model.json`.

Triton's backend reads `<model>/<version>/model.json` with `json.load` and starts the engine
with `self._aync_engine_args = AsyncEngineArgs(**self.vllm_engine_config)`
(triton-inference-server/vllm_backend, src/model.py:227 at 8de0c148; the file is read at
src/model.py:218). So the file is a JSON object of `AsyncEngineArgs` field names, not a
command line, and the one start it holds is the command line that means the same
(`sources.engine_kwargs`): `"gpu_memory_utilization": 0.1` → `--gpu-memory-utilization 0.1`,
a finding on the flag lands on the key, one on the value on the value.

JSON is YAML, so the positioned YAML tree reads it, offsets included. A tab, which JSON
allows between tokens, cannot start a YAML token, so it is read as a space (a tab inside a
valid JSON string is an escape, so nothing else changes). A text broken while it is typed
is read as far as the tree recovers it (the lines it cannot read are left out), or not at
all, never with an exception.

`is_model_json` is the content half of `sources.hosts`' decision (the name half is
`model.json`): an object with a `"model"` string whose keys are largely engine arguments.
"""

from __future__ import annotations

from yaml.nodes import MappingNode

from vllm_config_lsp.sources.association import has_vllm_keys
from vllm_config_lsp.sources.engine_kwargs import engine_kwargs_words
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.yaml_hosts import Frame, documents, get, pairs, text_of, value_of

__all__ = ["SOURCE", "find_invocations", "is_model_json"]

SOURCE = "triton"
#: Share of the keys that must be vLLM flags. Lower than a `--config` file's: the name and
#: the `"model"` string already say Triton, and a typo in a three-key file (the backend's
#: own sample has three) must keep its diagnostics, not lose them.
KEY_SHARE = 0.5
#: The backend builds `AsyncEngineArgs(**self.vllm_engine_config)`: its fields are the names.
KEYWORDS_OF = "AsyncEngineArgs"


def _object(text: str) -> MappingNode | None:
    """The top-level JSON object, or None for anything else (an array, broken text)."""
    roots = documents(text.replace("\t", " "))
    root = roots[0] if len(roots) == 1 else None
    return root if isinstance(root, MappingNode) and root.flow_style else None


def is_model_json(text: str, flag_names: frozenset[str]) -> bool:
    """A Triton vLLM `model.json`: a JSON object with a non-empty `"model"` string, every
    key a string, half of them vLLM flags (`_` read as `-`) and one of those distinctive
    (`association.has_vllm_keys`)."""
    root = _object(text)
    if root is None:
        return False
    model = value_of(get(root, "model"))
    if not isinstance(model, str) or not model:
        return False
    keys = [text_of(key) for key, _value in pairs(root)]
    names = [key for key in keys if key is not None]
    return len(names) == len(keys) and has_vllm_keys(names, flag_names, KEY_SHARE)


def find_invocations(text: str) -> list[Invocation]:
    """The start a `model.json` describes, spanning the object's `{`; none while the JSON
    is not an object."""
    root = _object(text)
    if root is None:
        return []
    start = root.start_mark.index
    words = engine_kwargs_words(Frame(text), root, syntax="json")
    return [Invocation(SOURCE, "serve", start, start + 1, words, keywords_of=KEYWORDS_OF)]
