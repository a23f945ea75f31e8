"""A deprecated quantization method that `allow-deprecated-quantization` lets through.

## What vLLM does
`ModelConfig._verify_quantization` refuses the methods of
`DEPRECATED_QUANTIZATION_METHODS` (`fbgemm_fp8`, `fp_quant` in 0.33.0; VC304) unless
`--allow-deprecated-quantization` is given; with it vLLM starts and logs "The quantization
method fbgemm_fp8 is deprecated and will be removed in future versions of vLLM."
(vllm/config/model.py:1474). The file works today and stops working when a release removes
the method.

## Example
```yaml
model: my-org/llama-fbgemm-fp8
quantization: fbgemm_fp8
allow-deprecated-quantization: true
```

## Fixed
```yaml
model: my-org/llama-fp8
quantization: fp8
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given, switched_on, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC382"
NAME = "deprecated-quantization-allowed"
VLLM_SOURCE = "vllm/config/model.py:1474"
CATALOGUE = ("warn.model.quantization.deprecated",)


def check(model: ConfigModel) -> Iterator[Finding]:
    method = given(model, "quantization")
    deprecated = model.catalogue.value_sets.get("deprecated_quantization_methods")
    allowed = switched_on(model, "allow-deprecated-quantization")
    if method is None or deprecated is None or allowed is None:
        return
    if not isinstance(method.value, str) or method.value.lower() not in deprecated.values:
        return
    yield warning(
        CODE,
        method,
        f"The quantization method {method.value.lower()} is deprecated and will be removed "
        "in future versions of vLLM. It starts only because `allow-deprecated-quantization` "
        "is set: plan a move to a supported method.",
        VLLM_SOURCE,
        related=[allowed],
    )
