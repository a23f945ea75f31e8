"""Watermarking combined with a speculative-decoding setup it cannot watermark.

## What vLLM does
With both `watermark-config` and speculative decoding, `VllmConfig._check_supports_watermarking`
(vllm/config/vllm.py:1344-1402), run when the engine config is built, refuses in this
order: `draft_sample_method` other than `probabilistic` (the default is `greedy`, so it
must be set), `rejection_sample_method` other than `standard`, `parallel_drafting` with a
method other than `dflash`/`dspark`, a method other than `dflash`, `dspark`, `eagle`,
`eagle3`, `mtp`, and finally an algorithm that cannot watermark draft tokens (`gumbel`,
the default; only `dual_key_gumbel` can) unless `allow_target_only_watermarking` is set.
Draft tokens must be sampled with the same keyed randomness as target tokens, or the
watermark is lost on every accepted draft. A method left unset is detected from the draft
checkpoint, so the method checks apply only to a method the file names, and they test the
method `SpeculativeConfig` settles on: `draft_model` with an EAGLE-3 draft becomes `eagle3`
(as VC342 reads it), and a draft whose checkpoint alone decides gets no error.

A setup that passes gets two start-up notes: with `allow_target_only_watermarking` and an
algorithm other than `dual_key_gumbel`, information that accepted draft tokens stay
unwatermarked (vllm.py:1407); with `dual_key_gumbel` and an `alpha` other than the default,
a warning that the alpha is not used, since the key follows the token's role (vllm.py:1416).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config:
  key: 42
  algorithm: dual_key_gumbel
speculative-config:
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config:
  key: 42
  algorithm: dual_key_gumbel
speculative-config:
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 3
  draft_sample_method: probabilistic
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import Given, error, given, json_given, removal, replace, warning
from vllm_config_lsp.rules._model_config import USE_EAGLE, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC330"
NAME = "watermark-speculative"
VLLM_SOURCE = "vllm/config/vllm.py:1361"
CATALOGUE = (
    "vllm.wm.draft_sample",
    "vllm.wm.rejection",
    "vllm.wm.parallel",
    "vllm.wm.method",
    "vllm.wm.algorithm_spec",
    "warn.vllm.watermark.target_only",
    "warn.vllm.watermark.alpha_unused",
)

REJECTION_SOURCE = "vllm/config/vllm.py:1366"
PARALLEL_SOURCE = "vllm/config/vllm.py:1374"
METHOD_SOURCE = "vllm/config/vllm.py:1384"
ALGORITHM_SOURCE = "vllm/config/vllm.py:1397"
TARGET_ONLY_SOURCE = "vllm/config/vllm.py:1407"
ALPHA_SOURCE = "vllm/config/vllm.py:1416"
SPEC = "speculative-config"
WATERMARK = "watermark-config"


def speculative_anchor(model: ConfigModel) -> Given | None:
    """Where the file turns speculative decoding on, or None when it does not."""
    for flag in (SPEC, "spec-method", "spec-model", "spec-tokens"):
        found = given(model, flag)
        if found is not None and found.value is not None:
            return found
    return None


def written_method(model: ConfigModel) -> Given | None:
    written = json_given(model, SPEC, "method") or given(model, "spec-method")
    if written is None or not isinstance(written.value, str):
        return None
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    if mtp_types is not None and written.value in mtp_types:
        return Given("mtp", written.where, written.label, written.pair)
    return written


def settled_method(model: ConfigModel) -> tuple[Given | None, str | None]:
    """The method the file names, and the one `SpeculativeConfig` settles on from it
    (`draft_model` with an EAGLE-3 draft is eagle3); the second is None when no method is
    named or the draft's architecture decides it. VC825/VC826 read it too."""
    method = written_method(model)
    config = spec(model)
    return method, config.settled if method is not None and config is not None else None


def check(model: ConfigModel) -> Iterator[Finding]:
    watermark = given(model, WATERMARK)
    anchor = speculative_anchor(model)
    if watermark is None or not isinstance(watermark.value, dict) or anchor is None:
        return
    if model.flag(SPEC) is not None and model.json_tree(SPEC) is None:
        return  # the speculative config itself is refused first
    draft = json_given(model, SPEC, "draft_sample_method")
    if draft is None or draft.value != "probabilistic":
        current = draft.value if draft is not None else "greedy (the default)"
        yield error(
            CODE,
            draft or anchor,
            "Speculative decoding with watermarking requires "
            f"draft_sample_method='probabilistic' (got {current}). Add "
            "`draft_sample_method: probabilistic` to speculative-config.",
            VLLM_SOURCE,
            [replace(model, draft, "probabilistic", "Use `probabilistic`") if draft else None],
        )
        return
    rejection = json_given(model, SPEC, "rejection_sample_method")
    if rejection is not None and rejection.value != "standard":
        yield error(
            CODE,
            rejection,
            "Speculative decoding with watermarking requires rejection_sample_method='standard'.",
            REJECTION_SOURCE,
            [replace(model, rejection, "standard", "Use `standard`")],
        )
        return
    method, settled = settled_method(model)
    parallel = json_given(model, SPEC, "parallel_drafting")
    if (
        settled is not None
        and parallel is not None
        and parallel.value is True
        and settled not in ("dflash", "dspark")
    ):
        yield error(
            CODE,
            parallel,
            "Parallel speculative drafting is not supported with watermarking.",
            PARALLEL_SOURCE,
        )
        return
    if method is not None and settled is not None and settled not in USE_EAGLE:  # vllm.py:1377
        yield error(
            CODE,
            method,
            "Watermarking supports only dflash, dspark, eagle, eagle3 and mtp speculative "
            f"decoding (got `{settled}`).",
            METHOD_SOURCE,
        )
        return
    algorithm = json_given(model, WATERMARK, "algorithm")
    name = algorithm.value if algorithm is not None else "gumbel"
    allow = json_given(model, WATERMARK, "allow_target_only_watermarking")
    if settled in USE_EAGLE:
        yield from _startup_notes(model, name, allow)
    if name == "dual_key_gumbel" or (allow is not None and allow.value is True):
        return
    yield error(
        CODE,
        algorithm or watermark,
        f"The '{name}' watermarking algorithm does not support speculative decoding. Set "
        "allow_target_only_watermarking=true to leave draft tokens unwatermarked (or use "
        "`algorithm: dual_key_gumbel`).",
        ALGORITHM_SOURCE,
        [replace(model, algorithm, "dual_key_gumbel", "Use `dual_key_gumbel`")]
        if algorithm is not None
        else [],
    )


def _startup_notes(model: ConfigModel, name: str, allow: Given | None) -> Iterator[Finding]:
    """What vLLM logs once the combination passes (vllm/config/vllm.py:1403-1424)."""
    if name != "dual_key_gumbel" and allow is not None and allow.value is True:
        yield finding(
            CODE,
            Severity.INFO,
            allow.where,
            "Target-only watermarking leaves accepted draft tokens unwatermarked, weakening "
            "detectability in proportion to the share of output tokens supplied by accepted "
            "drafts. Use `algorithm: dual_key_gumbel` to watermark draft tokens too.",
            source=TARGET_ONLY_SOURCE,
        )
    alpha = json_given(model, WATERMARK, "alpha")
    cls = model.catalogue.classes.get("WatermarkConfig")
    default = cls.fields["alpha"].default if cls and "alpha" in cls.fields else None
    if name == "dual_key_gumbel" and alpha is not None and alpha.value != default:
        yield warning(
            CODE,
            alpha,
            "Speculative decoding selects the watermark key by token role: draft tokens use "
            "key A, recovery and bonus tokens use key B. The configured "
            f"alpha={alpha.value} is not used. Remove `alpha`: with speculative decoding "
            "dual_key_gumbel does not read it.",
            ALPHA_SOURCE,
            [removal(model, alpha, "Remove `alpha`")],
        )
