"""An `attention-backend` the target GPU's compute capability does not run.

## What vLLM does
A backend the file selects is checked alone, with no fallback:
`CudaPlatform.get_attn_backend_cls` (vllm/platforms/cuda.py:420-446) calls the backend's
`validate_configuration`, whose reasons include `compute capability not supported` when
`supports_compute_capability` refuses the GPU, and raises `Selected backend
AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. Reason: ['compute
capability not supported']`. The capabilities are the backends' own
(`vllm/v1/attention/backends/`): FLASH_ATTN and FLASHINFER need 8.0 (FLASHINFER up to
12.1), FLASH_ATTN_MLA, TRITON_FLASH_ATTN and the SM90 sparse backends Hopper (9.x), FLASHMLA
9.x or 10.x, CUTLASS_MLA, FLASHINFER_MLA and TOKENSPEED_MLA data-centre Blackwell (10.x),
B12X 12.0/12.1. The Triton and FlexAttention backends run anywhere. FLASH_ATTN stores a
quantized KV cache (`kv-cache-dtype: fp8`) only with FlashAttention 3 on Hopper or 4 on
data-centre Blackwell (`flash_attn_supports_kv_cache_dtype`,
vllm/v1/attention/backends/fa_utils.py:282-313); on Ampere, Ada and consumer Blackwell
FlashAttention 2 runs and the reason is `kv_cache_dtype not supported`. Only NVIDIA targets
are checked (ROCm selects among its own backends).

## Example
```yaml
# vllm-config: gpu=T4
model: Qwen/Qwen3-8B
dtype: half
attention-backend: FLASH_ATTN
```

## Fixed
```yaml
# vllm-config: gpu=T4
model: Qwen/Qwen3-8B
dtype: half
attention-backend: TRITON_ATTN
```
"""

from collections.abc import Callable, Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, replace
from vllm_config_lsp.rules._platform import capability, on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC704"
NAME = "attention-backend-capability"
VLLM_SOURCE = "vllm/platforms/cuda.py:443"

Capability = tuple[int, int]


def _major(*majors: int) -> Callable[[Capability], bool]:
    return lambda c: c[0] in majors


#: `supports_compute_capability` of each backend class (vllm/v1/attention/backends/…).
SUPPORTS: dict[str, Callable[[Capability], bool]] = {
    "FLASH_ATTN": lambda c: c >= (8, 0),  # flash_attn.py:458
    "FLASHINFER": lambda c: (8, 0) <= c <= (12, 1),  # flashinfer.py:696
    "TRITON_FLASH_ATTN": _major(9),  # triton_flash_attn.py:21
    "FLASHMLA": _major(9, 10),  # mla/flashmla.py:73
    "FLASHMLA_SPARSE": _major(9, 10),  # mla/flashmla_sparse.py:203
    "FLASH_ATTN_MLA": _major(9),  # mla/flashattn_mla.py:69
    "FLASH_ATTN_MLA_SPARSE": _major(9),  # mla/flashattn_mla_sparse.py:82
    "CUTLASS_MLA": _major(10),  # mla/cutlass_mla.py:65
    "FLASHINFER_MLA": _major(10),  # mla/flashinfer_mla.py:220
    "FLASHINFER_MLA_SPARSE": _major(10),  # mla/flashinfer_mla_sparse.py:105
    "FLASHINFER_MLA_SPARSE_SM120": _major(12),  # mla/flashinfer_mla_sparse.py:192
    "FLASHINFER_MLA_SPARSE_SM90": _major(9),  # mla/flashinfer_mla_sparse_sm90.py:189
    "TOKENSPEED_MLA": _major(10),  # mla/tokenspeed_mla.py:125
    "B12X": lambda c: c in ((12, 0), (12, 1)),  # b12x.py:216
}


def _flash_attn_kv(model: ConfigModel, device: Capability) -> bool:
    """`FlashAttentionBackend.supports_kv_cache_dtype` (flash_attn.py:438): its
    `supported_kv_cache_dtypes`, the fp8 ones only on Hopper and data-centre Blackwell
    (where FlashAttention 3/4 may run; elsewhere it is 2, which stores no fp8)."""
    dtype = given_field(model, "CacheConfig", "cache_dtype")
    if dtype is None or not isinstance(dtype.value, str):
        return True
    if dtype.value in ("fp8", "fp8_e4m3"):
        return device[0] in (9, 10)
    return dtype.value in _FLASH_ATTN_KV


#: `FlashAttentionBackend.supported_kv_cache_dtypes` (flash_attn.py:290).
_FLASH_ATTN_KV = ("auto", "float16", "bfloat16", "fp8", "fp8_e4m3")


def check(model: ConfigModel) -> Iterator[Finding]:
    device = capability(model)
    backend = given_field(model, "AttentionConfig", "backend")
    if device is None or vendor(model) != "nvidia" or backend is None:
        return
    if not isinstance(backend.value, str):
        return
    name = backend.value.upper()
    supports = SUPPORTS.get(name)
    reasons = []
    if supports is not None and not supports(device):
        reasons.append("compute capability not supported")
    elif name == "FLASH_ATTN" and not _flash_attn_kv(model, device):
        reasons.append("kv_cache_dtype not supported")
    if not reasons:
        return
    usable = "TRITON_MLA" if "MLA" in name else "TRITON_ATTN"
    yield error(
        CODE,
        backend,
        f"Selected backend AttentionBackendEnum.{name} is not valid for this configuration. "
        f"Reason: {reasons} (compute capability {device[0]}.{device[1]}){on_target(model)}",
        VLLM_SOURCE,
        [replace(model, backend, usable, f"Set `{backend.assign(usable)}`")],
    )
