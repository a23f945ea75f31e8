"""`worker-use-ray` with a `distributed-executor-backend` other than ray, which vLLM 0.6.6 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC840`), `ParallelConfig.__post_init__`
takes the deprecated `--worker-use-ray` switch as "use the ray backend": it picks ray when no
backend is given, and refuses any other backend with "worker-use-ray can't be used with
distributed executor backend 'mp'." (vllm/config.py:1268-1274 in 0.6.6.post1), when the
engine config is built. argparse lets only `ray` and `mp` through there, so the refusal is
`mp` next to the switch. Later releases dropped the switch (VC120 says so).

## Example
```yaml
# vllm-config: version=0.6.6.post1
worker-use-ray: true
distributed-executor-backend: mp
```

## Fixed
```yaml
# vllm-config: version=0.6.6.post1
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC840"
NAME = "worker-use-ray-backend-0-6"
#: Gone from the release the other rules transcribe (the switch went in 0.7): read from
#: 0.6.6.post1, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.6.6.post1"
VLLM_SOURCE = "vllm/config.py:1272"


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "worker-use-ray", "distributed-executor-backend")
    if a is None:
        return
    ray, backend = a["worker_use_ray"], a["distributed_executor_backend"]
    if ray.value is not True or not backend.explicit or backend.value in (None, "ray"):
        return
    removal = ray.removal(model, "Remove `worker-use-ray` (keep the backend)")
    yield finding(
        CODE,
        Severity.ERROR,
        ray.where,
        f"worker-use-ray can't be used with distributed executor backend "
        f"'{backend.value}'. vLLM {model.version} refuses to start: `worker-use-ray` means "
        "the ray backend; remove it, or set `distributed-executor-backend: ray`.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
