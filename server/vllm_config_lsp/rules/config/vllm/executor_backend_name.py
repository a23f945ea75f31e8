"""`distributed-executor-backend` is neither a built-in executor nor an import path.

## What vLLM does
Any string passes argparse and `ParallelConfig`. `VllmConfig.__post_init__` then picks the
executor class (`Executor.get_class`, vllm/config/vllm.py:1643): `ray`, `mp`, `uni` and
`external_launcher` are built in, and any other string is taken as the import path of an
`Executor` subclass, `resolve_obj_by_qualname` splitting it at its last dot
(vllm/v1/executor/abstract.py:93, vllm/utils/import_utils.py:121). A name without a dot
has nothing to split: `not enough values to unpack (expected 2, got 1)`. Names are
matched exactly (`Ray` is not `ray`). A dotted path is a module of the user's and is not
checked here.

## Example
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
distributed-executor-backend: multiprocessing
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, removal, replace
from vllm_config_lsp.rules.support import closest
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC363"
NAME = "executor-backend-name"
VLLM_SOURCE = "vllm/utils/import_utils.py:121"
CATALOGUE = ()

BUILT_IN = ("ray", "mp", "uni", "external_launcher")
#: What people write for the built-ins.
SYNONYMS = {"multiprocessing": "mp", "uniproc": "uni", "external": "external_launcher"}


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given_field(model, "ParallelConfig", "distributed_executor_backend")
    if backend is None or not isinstance(backend.value, str) or not backend.value:
        return
    name = backend.value
    if name in BUILT_IN or "." in name:
        return
    guess = SYNONYMS.get(name.lower()) or closest(name.lower(), list(BUILT_IN), cutoff=0.6)
    fixes = [removal(model, backend)]
    hint = (
        "Use one of ray, mp, uni, external_launcher (exactly so written), or the "
        "`module.Class` path of an Executor subclass"
    )
    if guess is not None:
        hint = f"Did you mean `{guess}`? {hint}"
        fixes.insert(0, replace(model, backend, guess, f"Use `{guess}`"))
    yield error(
        CODE,
        backend,
        f"not enough values to unpack (expected 2, got 1): vLLM takes `{name}` as the "
        f"import path of an executor class and finds no dot in it. {hint}; or remove "
        f"`{backend.label}` to let vLLM choose.",
        VLLM_SOURCE,
        fixes,
    )
