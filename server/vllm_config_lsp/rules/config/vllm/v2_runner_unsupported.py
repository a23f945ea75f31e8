"""`VLLM_USE_V2_MODEL_RUNNER=1` with a feature the V2 model runner of vLLM 0.20.2 to 0.30.0
does not run yet.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC819`),
`VllmConfig._validate_v2_model_runner`, run by `__post_init__` when the variable turns the
V2 model runner on (`bool(int(value))`), collects what that runner cannot do yet and
refuses them all at once: `VLLM_USE_V2_MODEL_RUNNER does not yet support: prefill context
parallelism, dual batch overlap` (vllm/config/vllm.py:2057-2067 in 0.22.1, the list from
`_get_v2_model_runner_unsupported_features`, vllm.py:1977-2055). Later releases keep the
check in other words (`Model Runner V2 does not yet support: …`) while the V2 runner
learns features one by one, so the rule lists what the file shows while the release still
lists it: `prefill-context-parallel-size` above 1 (to 0.25.1; later only without MLA),
`enable-dbo` and `kv-sharing-fast-prefill` (to 0.29.0), `enable-return-routed-experts` and an
`ec-transfer-config` (to 0.27.1), `logits-processors` (to 0.30.0), and up to 0.22.1 a
speculative method other than EAGLE, EAGLE-3 and MTP (the accepted set grows later). vLLM
may list more that the model decides (hybrid/mamba models, logits-processor plugins
installed). 0.22.1 on first refuse the variable without Triton, which every CUDA and ROCm
install has. Left unset, the variable lets vLLM fall back to the V1 runner. The
environment decides it, so the rule speaks where the host writes the variable (a
Kubernetes `env:`, a compose `environment:`, `ENV`, `export`, a `NAME=value` prefix).

## Example
```sh
# vllm-config: version=0.22.1
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B --kv-sharing-fast-prefill
```

## Fixed
```sh
# vllm-config: version=0.22.1
vllm serve Qwen/Qwen3-8B --kv-sharing-fast-prefill
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import above_one, given, switched_on
from vllm_config_lsp.rules._environ import where
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.catalogue import version_key
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import as_int

CODE = "VC819"
NAME = "v2-runner-unsupported"
#: Gone from the release the other rules transcribe: read from 0.22.1, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.22.1"
VLLM_SOURCE = "vllm/config/vllm.py:2064"
VARIABLE = "VLLM_USE_V2_MODEL_RUNNER"
#: The speculative methods the V2 runner of these releases drafts with. A draft model
#: without a method may become EAGLE by its name (speculative.py), so it is left out.
DRAFTS = ("eagle", "eagle3", "mtp", "draft_model")
#: The last release whose list still holds each feature (read from each wheel's
#: `_get_v2_model_runner_unsupported_features`; later releases run it on V2). Others, such
#: as the speculative methods, whose accepted set grows release by release: TRANSCRIBES.
LAST = {
    "prefill context parallelism": "0.25.1",  # then only for a model without MLA
    "dual batch overlap": "0.29.0",
    "routed experts capture": "0.27.1",
    "custom logits processors": "0.30.0",
    "KV sharing fast prefill": "0.29.0",
    "EC transfer": "0.27.1",
}
#: The methods 0.22.1 names together (0.20.2 and 0.21.0 name each as a method).
NGRAM = ("ngram", "ngram_gpu")
#: On/off flags and vLLM's names for them, in vLLM's order.
SWITCHES = (
    ("enable-dbo", "dual batch overlap"),
    ("enable-return-routed-experts", "routed experts capture"),
)


def check(model: ConfigModel) -> Iterator[Finding]:
    var = model.invocation.environment().get(VARIABLE)
    if var is None or var.value is None or not var.value.resolved:
        return
    if not as_int(var.value.text):
        return  # V1, or `bool(int(...))` raising first (VC241)
    unsupported = _unsupported(model)
    if not unsupported:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where(var),
        f"VLLM_USE_V2_MODEL_RUNNER does not yet support: {', '.join(unsupported)}. Unset "
        "the variable (vLLM then runs the V1 model runner), or drop these settings.",
        source=VLLM_SOURCE,
    )


def _unsupported(model: ConfigModel) -> list[str]:
    found = []
    if above_one(model, "ParallelConfig", "prefill_context_parallel_size") is not None:
        found.append("prefill context parallelism")
    config = spec(model)
    if config is not None and config.method not in DRAFTS:
        ngram = config.method in NGRAM and model.version == TRANSCRIBES
        found.append(
            "ngram/ngram_gpu speculative decoding"
            if ngram
            else f"speculative method '{config.method}'"
        )
    found.extend(name for flag, name in SWITCHES if switched_on(model, flag) is not None)
    processors = given(model, "logits-processors")
    if processors is not None and processors.value:
        found.append("custom logits processors")
    if switched_on(model, "kv-sharing-fast-prefill") is not None:
        found.append("KV sharing fast prefill")
    if given(model, "ec-transfer-config") is not None:
        found.append("EC transfer")
    release = version_key(model.version)
    return [name for name in found if release <= version_key(LAST.get(name, TRANSCRIBES))]
