# ruff: noqa: E501  (a table of judgements: one sentence per string)
"""The hand classification of vLLM 0.33.0's start-up warnings, keyed by `file:line`.

`warning_sites` finds the calls; what each one means for a config file is judged here, by
reading the code around it: the class (STATIC: decidable from the file and vLLM's static
defaults; MODEL: needs the model's files; PLATFORM: needs the hardware, the environment,
installed packages or the model-runner choice) and what it says happens to a setting
(ignored, overridden, deprecated, fallback, changed; caution: every setting applies as
written and vLLM only warns of a risk, which the rules give as information). A site kept as
not applicable says specifically why: it echoes a setting as written, needs runtime state
(the loaded model, the attention backend, a request, the environment or the hardware), or
runs after `create_engine_config()`.
`tools/generate_warning_catalogue.py` refuses a site without an entry and an entry without
a site, so a new release cannot slip through unjudged.
"""

from __future__ import annotations

from typing import NamedTuple


class Applies(NamedTuple):
    id: str
    kind: str  # STATIC, MODEL, PLATFORM
    effect: str  # ignored, overridden, deprecated, fallback, changed, caution
    settings: tuple[str, ...]
    condition: str  # in words: what the file must say for vLLM to warn


class NotApplicable(NamedTuple):
    kind: str
    reason: str


MODULE = "an import-time notice of a deprecated Python module, not a setting"


def _na(kind: str, reason: str) -> NotApplicable:
    return NotApplicable(kind, reason)


S, M, P = "STATIC", "MODEL", "PLATFORM"

CLASSES: dict[str, Applies | NotApplicable] = {
    # -- vllm/config/cache.py
    "vllm/config/cache.py:143": _na(
        S,
        "plugin registration (`register_kv_cache_dtype` by a KV-cache dtype plugin overwriting a name), not reached from a setting",
    ),
    # -- vllm/config/compilation.py
    **{
        f"vllm/config/compilation.py:{line}": Applies(
            f"compilation.eliminate_noops.{name}",
            S,
            "ignored",
            (
                "compilation-config.pass_config.eliminate_noops",
                f"compilation-config.pass_config.{name}",
            ),
            f"pass_config.eliminate_noops is false while pass_config.{name} is true",
        )
        for line, name in (
            (243, "fuse_norm_quant"),
            (248, "fuse_attn_quant"),
            (253, "fuse_allreduce_rms"),
            (258, "fuse_act_padding"),
        )
    },
    "vllm/config/compilation.py:265": Applies(
        "compilation.qk_norm_rope.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.enable_qk_norm_rope_fusion",),
        "the platform is not CUDA, ROCm or XPU",
    ),
    "vllm/config/compilation.py:271": Applies(
        "compilation.fuse_act_padding.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_act_padding",),
        "the platform is not ROCm",
    ),
    "vllm/config/compilation.py:277": Applies(
        "compilation.fuse_mla_dual_rms_norm.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_mla_dual_rms_norm",),
        "the platform is not ROCm",
    ),
    "vllm/config/compilation.py:283": Applies(
        "compilation.fuse_rope_kvcache.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_rope_kvcache",),
        "the platform is not ROCm",
    ),
    "vllm/config/compilation.py:289": Applies(
        "compilation.fuse_qk_norm_rope_kvcache.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_qk_norm_rope_kvcache",),
        "the platform is not ROCm",
    ),
    "vllm/config/compilation.py:295": Applies(
        "compilation.fuse_rope_kvcache_cat_mla.platform",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_rope_kvcache_cat_mla",),
        "the platform is not CUDA or ROCm",
    ),
    "vllm/config/compilation.py:317": _na(
        S,
        "echoes the fusion passes the file and the optimization level enable (`log_enabled_passes`): nothing is ignored, changed or cautioned",
    ),
    "vllm/config/compilation.py:1193": Applies(
        "compilation.fuse_rope_kvcache.splitting",
        P,
        "ignored",
        ("compilation-config.pass_config.fuse_rope_kvcache", "compilation-config.splitting_ops"),
        "on ROCm (elsewhere :283 disables it first), splitting_ops unset and no Inductor graph partition",
    ),
    "vllm/config/compilation.py:1203": Applies(
        "compilation.fuse_qk_norm_rope_kvcache.splitting",
        P,
        "ignored",
        (
            "compilation-config.pass_config.fuse_qk_norm_rope_kvcache",
            "compilation-config.splitting_ops",
        ),
        "on ROCm (elsewhere :289 disables it first), splitting_ops unset and no Inductor graph partition",
    ),
    "vllm/config/compilation.py:1220": _na(
        S, "a caution that precedes :1224, which says what changes"
    ),
    "vllm/config/compilation.py:1224": Applies(
        "compilation.empty_splitting.piecewise",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "compilation-config.splitting_ops"),
        "splitting_ops [] with cudagraph_mode PIECEWISE: set to NONE; reached only where the platform compiles with VLLM_COMPILE and CUDA graphs (not CPU)",
    ),
    "vllm/config/compilation.py:1234": Applies(
        "compilation.empty_splitting.full",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "compilation-config.splitting_ops"),
        "splitting_ops [] with a piecewise cudagraph_mode other than PIECEWISE: set to FULL; reached only on platforms with CUDA graphs",
    ),
    "vllm/config/compilation.py:1265": Applies(
        "compilation.fuse_attn_quant.piecewise",
        P,
        "overridden",
        ("compilation-config.pass_config.fuse_attn_quant", "compilation-config.cudagraph_mode"),
        "fuse_attn_quant with a piecewise cudagraph_mode and no Inductor graph partition; reached only on platforms with CUDA graphs",
    ),
    "vllm/config/compilation.py:1355": _na(
        M,
        "needs the ops of the loaded model (`all_ops_in_model`): logged after the model is compiled in the worker",
    ),
    "vllm/config/compilation.py:1419": _na(
        P,
        "needs the attention backend the model runner picks and its CUDA-graph support (`resolve_cudagraph_mode_and_sizes` runs in the GPU model runner after model load)",
    ),
    "vllm/config/compilation.py:1446": _na(
        P,
        "needs the attention backend the model runner picks and its CUDA-graph support (`resolve_cudagraph_mode_and_sizes` runs in the GPU model runner after model load)",
    ),
    "vllm/config/compilation.py:1466": _na(
        P,
        "needs the attention backend the model runner picks and its CUDA-graph support (`resolve_cudagraph_mode_and_sizes` runs in the GPU model runner after model load)",
    ),
    "vllm/config/compilation.py:1473": _na(
        M,
        "needs the loaded model (a compiled submodule or breakable CUDA graphs): logged by the model runner after model load",
    ),
    # -- vllm/config/kernel.py
    "vllm/config/kernel.py:216": Applies(
        "kernel.moe_ep.passthrough",
        P,
        "overridden",
        ("all2all-backend", "kernel-config.moe_backend"),
        "a FlashInfer MoE-EP moe_backend with all2all-backend allgather_reducescatter; reached only past CUDA platform defaults",
    ),
    # -- vllm/config/lora.py
    "vllm/config/lora.py:131": Applies(
        "lora.dual_stream.env",
        P,
        "ignored",
        ("fully-sharded-loras",),
        "VLLM_LORA_ENABLE_DUAL_STREAM is set in the environment",
    ),
    # -- vllm/config/model.py
    "vllm/config/model.py:670": Applies(
        "model.sleep_mode.cumem",
        P,
        "changed",
        ("enable-sleep-mode", "enable-cumem-allocator"),
        "sleep mode on a CUDA-like platform turns the cumem allocator on",
    ),
    "vllm/config/model.py:839": Applies(
        "model.mm_encoder_tp_mode.fallback",
        M,
        "fallback",
        ("mm-encoder-tp-mode",),
        "mm-encoder-tp-mode data on a multimodal model whose class does not support it",
    ),
    "vllm/config/model.py:947": Applies(
        "model.multimodal.no_processor",
        M,
        "fallback",
        (),
        "the model is multimodal but has no registered processor: text-only",
    ),
    "vllm/config/model.py:964": _na(
        S,
        "echoes text-only mode when every limit-mm-per-prompt of the model is 0, as the file asks: nothing is ignored, changed or cautioned",
    ),
    "vllm/config/model.py:1021": _na(
        S,
        "echoes the consequence of limit-mm-per-prompt 0 (mm_prefix attention off because multimodal input is off, as the file asks)",
    ),
    "vllm/config/model.py:1105": Applies(
        "model.mm_device_do_normalize.rust",
        P,
        "overridden",
        ("mm-device-do-normalize",),
        "VLLM_USE_RUST_FRONTEND is set in the environment",
    ),
    "vllm/config/model.py:1116": Applies(
        "model.mm_device_do_normalize.model",
        M,
        "overridden",
        ("mm-device-do-normalize",),
        "the model class does not support device normalisation",
    ),
    "vllm/config/model.py:1186": Applies(
        "model.class_overrides",
        S,
        "caution",
        ("model-class-overrides",),
        "model-class-overrides maps an architecture to another class (a development hook)",
    ),
    "vllm/config/model.py:1474": Applies(
        "model.quantization.deprecated",
        S,
        "deprecated",
        ("quantization", "allow-deprecated-quantization"),
        "a deprecated quantization method allowed by allow-deprecated-quantization",
    ),
    "vllm/config/model.py:1491": Applies(
        "model.cuda_graph.rocm",
        P,
        "fallback",
        ("enforce-eager",),
        "a model type without ROCm CUDA graphs, on ROCm",
    ),
    "vllm/config/model.py:1907": _na(
        M,
        "logged when the API server reads the default sampling parameters (`get_diff_sampling_param`) from generation_config.json, after the engine starts",
    ),
    "vllm/config/model.py:2100": Applies(
        "model.use_pad_token.deprecated",
        M,
        "deprecated",
        (),
        "the model's pooling config uses use_pad_token",
    ),
    "vllm/config/model.py:2125": Applies(
        "model.head_dtype.platform",
        P,
        "fallback",
        (),
        "the platform does not support the head dtype",
    ),
    "vllm/config/model.py:2457": Applies(
        "model.dtype.device",
        P,
        "fallback",
        ("dtype",),
        "dtype auto and the device does not support the checkpoint's dtype",
    ),
    "vllm/config/model.py:2516": Applies(
        "model.dtype.cast",
        M,
        "caution",
        ("dtype",),
        "dtype float16 on a bfloat16 checkpoint, or bfloat16 on a float16 one: the weights are cast",
    ),
    "vllm/config/model.py:2590": Applies(
        "model.max_len.unknown",
        M,
        "fallback",
        (),
        "config.json has none of the keys that give the context length",
    ),
    "vllm/config/model.py:2626": Applies(
        "model.rope.null_factor", M, "fallback", (), "config.json's RoPE scaling factor is null"
    ),
    "vllm/config/model.py:2678": Applies(
        "model.max_len.allow_long",
        P,
        "changed",
        ("max-model-len",),
        "max-model-len above the derived length with VLLM_ALLOW_LONG_MAX_MODEL_LEN set (without it: the refusal VC604)",
    ),
    # -- vllm/config/multimodal.py
    "vllm/config/multimodal.py:667": _na(
        S,
        "echoes the device mm-processor-device chooses for the multi-modal processor: nothing is ignored, changed or cautioned",
    ),
    "vllm/config/multimodal.py:730": _na(
        S, "per request: logged when a request's mm_processor_kwargs carry do_normalize/do_rescale"
    ),
    # -- vllm/config/offload.py
    "vllm/config/offload.py:119": Applies(
        "offload.prefetch_ignored",
        S,
        "ignored",
        ("offload-backend", "offload-group-size"),
        "offload-backend uva with offload-group-size > 0",
    ),
    "vllm/config/offload.py:125": Applies(
        "offload.uva_ignored",
        S,
        "ignored",
        ("offload-backend", "cpu-offload-gb"),
        "offload-backend prefetch with cpu-offload-gb > 0",
    ),
    "vllm/config/offload.py:131": Applies(
        "offload.auto_both",
        S,
        "ignored",
        ("offload-backend", "cpu-offload-gb", "offload-group-size"),
        "offload-backend auto with both cpu-offload-gb > 0 and offload-group-size > 0: prefetch wins",
    ),
    # -- vllm/config/parallel.py
    "vllm/config/parallel.py:538": Applies(
        "parallel.all2all.removed",
        S,
        "fallback",
        ("all2all-backend",),
        "all2all-backend pplx or naive",
    ),
    "vllm/config/parallel.py:750": _na(
        S,
        "a retry when the data-parallel port is already taken: needs the machine's ports when the DP group starts",
    ),
    "vllm/config/parallel.py:1102": Applies(
        "parallel.max_parallel_loading_workers",
        S,
        "ignored",
        ("max-parallel-loading-workers",),
        "max-parallel-loading-workers is set",
    ),
    # -- vllm/config/profiler.py, scheduler.py
    "vllm/config/profiler.py:229": Applies(
        "profiler.frontend_overhead",
        S,
        "caution",
        (
            "profiler-config.delay_iterations",
            "profiler-config.max_iterations",
            "profiler-config.ignore_frontend",
        ),
        "torch profiler with delay_iterations or max_iterations above 0 and the frontend profiled",
    ),
    "vllm/config/scheduler.py:247": _na(
        S,
        "logged in the engine core when it builds its scheduler (`get_scheduler_cls`, vllm/v1/engine/core.py:167), after create_engine_config()",
    ),
    "vllm/config/scheduler.py:310": _na(
        S,
        "echoes max-num-batched-tokens with chunked prefill on, as written or defaulted: nothing is ignored, changed or cautioned",
    ),
    "vllm/config/scheduler.py:348": Applies(
        "scheduler.batched_tokens.unreachable",
        S,
        "ignored",
        ("max-num-batched-tokens", "max-num-seqs", "max-model-len"),
        "max-num-batched-tokens above max-num-seqs x max-model-len: the budget is never reached",
    ),
    # -- vllm/config/speculative.py
    "vllm/config/speculative.py:1247": Applies(
        "speculative.mtp_method.deprecated",
        S,
        "deprecated",
        ("speculative-config.method",),
        "a model-specific MTP method name (deepseek_mtp, …) instead of mtp",
    ),
    "vllm/config/speculative.py:1338": Applies(
        "speculative.custom_class",
        S,
        "caution",
        ("speculative-config.method",),
        "speculative method custom_class (a development hook)",
    ),
    "vllm/config/speculative.py:1491": Applies(
        "speculative.mtp.multi_token",
        M,
        "caution",
        ("speculative-config.method", "speculative-config.num_speculative_tokens"),
        "MTP with num_speculative_tokens above 1, except the Step-3.5, Step-5 and Inkling drafts",
    ),
    "vllm/config/speculative.py:1736": _na(
        S,
        "reports the num_speculative_tokens suffix decoding takes from suffix_decoding_max_tree_depth when the file leaves it unset; no setting of the file changes",
    ),
    "vllm/config/speculative.py:2031": Applies(
        "speculative.fly.lossy",
        S,
        "caution",
        ("speculative-config.rejection_sample_method",),
        "rejection_sample_method is fly: a lossy verification",
    ),
    # -- vllm/config/structured_outputs.py
    "vllm/config/structured_outputs.py:78": Applies(
        "structured_outputs.lmfe.deprecated",
        S,
        "deprecated",
        ("structured-outputs-config.backend",),
        "backend lm-format-enforcer",
    ),
    # -- vllm/config/utils.py
    "vllm/config/utils.py:111": _na(
        S,
        "a dataclass helper (`get_field`) about vLLM's own field definitions, not reached from a setting",
    ),
    "vllm/config/utils.py:150": Applies(
        "utils.deprecated_attribute",
        M,
        "deprecated",
        (),
        "the model's config.json names an attribute by a deprecated name",
    ),
    "vllm/config/utils.py:452": _na(
        S,
        "the `handle_deprecated` helper has no caller in 0.33.0's config code: not reached from a setting",
    ),
    "vllm/config/utils.py:477": Applies(
        "utils.deprecated_env", P, "deprecated", (), "a deprecated environment variable is set"
    ),
    # -- vllm/config/vllm.py
    "vllm/config/vllm.py:742": Applies(
        "vllm.watermark.v2_runner",
        P,
        "overridden",
        ("watermark-config",),
        "VLLM_USE_V2_MODEL_RUNNER=0 in the environment with watermarking",
    ),
    "vllm/config/vllm.py:753": Applies(
        "vllm.v2_runner.triton", P, "fallback", (), "Triton is not installed"
    ),
    "vllm/config/vllm.py:760": Applies(
        "vllm.v2_runner.unsupported",
        P,
        "fallback",
        (),
        "the model-runner choice: features Model Runner V2 lacks",
    ),
    "vllm/config/vllm.py:848": _na(
        P,
        "needs the platform and the model's default for breakable CUDA graphs; sets an environment variable, every setting of the file applies as written",
    ),
    "vllm/config/vllm.py:858": _na(
        P,
        "needs VLLM_BATCH_INVARIANT from the environment and the platform's breakable-CUDA-graph default; every setting of the file applies as written",
    ),
    "vllm/config/vllm.py:1079": Applies(
        "vllm.dynamic_sd.piecewise",
        P,
        "overridden",
        (
            "speculative-config.num_speculative_tokens_per_batch_size",
            "compilation-config.cudagraph_mode",
        ),
        "dynamic speculative decoding on Model Runner V1 (the runner choice)",
    ),
    "vllm/config/vllm.py:1100": Applies(
        "vllm.dynamic_sd.v1_method",
        P,
        "ignored",
        ("speculative-config.num_speculative_tokens_per_batch_size", "speculative-config.method"),
        "dynamic speculative decoding with a method Model Runner V1 lacks (the runner choice)",
    ),
    "vllm/config/vllm.py:1119": Applies(
        "vllm.dynamic_sd.data_parallel",
        S,
        "ignored",
        ("speculative-config.num_speculative_tokens_per_batch_size", "data-parallel-size"),
        "num_speculative_tokens_per_batch_size with data-parallel-size > 1",
    ),
    "vllm/config/vllm.py:1139": Applies(
        "vllm.cudagraph.compile_mode",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "compilation-config.mode"),
        "a piecewise cudagraph_mode with a compilation mode other than VLLM_COMPILE and no breakable CUDA graphs (chosen per architecture and environment)",
    ),
    "vllm/config/vllm.py:1351": _na(
        S,
        "per request: `_check_supports_watermarking(params)` of the input processor (vllm/v1/engine/input_processor.py:122), a request asking for watermarking without a watermark-config",
    ),
    "vllm/config/vllm.py:1407": Applies(
        "vllm.watermark.target_only",
        S,
        "caution",
        ("watermark-config.allow_target_only_watermarking", "speculative-config"),
        "allow_target_only_watermarking with an algorithm other than dual_key_gumbel and speculative decoding that passes the watermark checks",
    ),
    "vllm/config/vllm.py:1416": Applies(
        "vllm.watermark.alpha_unused",
        S,
        "ignored",
        ("watermark-config.alpha", "speculative-config"),
        "dual_key_gumbel with an alpha other than the default and speculative decoding: the alpha is not used",
    ),
    "vllm/config/vllm.py:1435": _na(
        S,
        "per request: a beam-search request while watermarking is on (vllm/v1/engine/input_processor.py:122)",
    ),
    "vllm/config/vllm.py:1445": _na(
        S,
        "per request: a trace-replay request while watermarking is on (vllm/v1/engine/input_processor.py:122)",
    ),
    "vllm/config/vllm.py:1453": _na(
        S,
        "per request: a greedy (temperature 0) request while watermarking is on (vllm/v1/engine/input_processor.py:122)",
    ),
    "vllm/config/vllm.py:1490": _na(
        S, "echoes the resolved engram-config: nothing is ignored, changed or cautioned"
    ),
    "vllm/config/vllm.py:1537": _na(
        S, "echoes performance-mode as written: nothing is ignored, changed or cautioned"
    ),
    "vllm/config/vllm.py:1633": Applies(
        "vllm.deep_gemm.blackwell",
        P,
        "changed",
        (),
        "a Blackwell GPU and a model type DeepGEMM is auto-disabled for",
    ),
    "vllm/config/vllm.py:1698": _na(
        S,
        "every built-in executor supports async scheduling (mp, uni, external_launcher = UniProcExecutor, ray = RayExecutorV2(MultiprocExecutor)); only a user's executor class named by qualname reaches it, and its supports_async_scheduling() is not readable from the file",
    ),
    "vllm/config/vllm.py:1705": Applies(
        "vllm.async.rocm_deepep_dbo",
        P,
        "caution",
        ("async-scheduling", "enable-dbo", "all2all-backend"),
        "async-scheduling unset on ROCm with enable-dbo and all2all-backend deepep_high_throughput: vLLM turns it off",
    ),
    "vllm/config/vllm.py:1712": Applies(
        "vllm.async.v1_runner",
        P,
        "caution",
        (
            "async-scheduling",
            "distributed-executor-backend",
            "pipeline-parallel-size",
            "speculative-config.method",
        ),
        "async-scheduling unset with the V1 model runner and pipeline parallelism or a method V1 cannot schedule asynchronously; reported where the file picks V1 (external_launcher with pipeline parallelism, suffix or custom_class); V1 chosen by the machine (no Triton, VLLM_USE_V2_MODEL_RUNNER=0) is not known",
    ),
    "vllm/config/vllm.py:1726": _na(
        S,
        "reports the default vLLM picks for disable_nccl_for_dp_synchronization (an internal ParallelConfig field the file leaves unset) with async scheduling and data parallelism",
    ),
    "vllm/config/vllm.py:1760": _na(
        P,
        "needs the GPU's compute capability (7.5, Turing) with float32 and chunked prefill: a caution, read from the device at start-up",
    ),
    "vllm/config/vllm.py:1772": Applies(
        "vllm.enforce_eager.fault_tolerance",
        S,
        "overridden",
        (
            "enforce-eager",
            "compilation-config.mode",
            "compilation-config.cudagraph_mode",
            "optimization-level",
        ),
        "enforce-eager with enable-fault-tolerance, beside compilation or CUDA-graph settings",
    ),
    "vllm/config/vllm.py:1778": Applies(
        "vllm.enforce_eager",
        S,
        "overridden",
        (
            "enforce-eager",
            "compilation-config.mode",
            "compilation-config.cudagraph_mode",
            "kernel-config.enable_jit_warmup",
            "optimization-level",
        ),
        "enforce-eager beside compilation, CUDA-graph or JIT warm-up settings",
    ),
    "vllm/config/vllm.py:1787": Applies(
        "vllm.torch_compile_disable",
        P,
        "overridden",
        ("compilation-config.mode",),
        "TORCH_COMPILE_DISABLE=1 in the environment",
    ),
    "vllm/config/vllm.py:1802": Applies(
        "vllm.inductor_disabled",
        M,
        "ignored",
        ("compilation-config.mode", "compilation-config.backend", "compilation-config.pass_config"),
        "compilation mode other than VLLM_COMPILE or backend eager, unless breakable CUDA graphs are on (chosen per architecture and environment)",
    ),
    "vllm/config/vllm.py:1921": Applies(
        "vllm.hisparse.connector",
        P,
        "caution",
        ("kv-transfer-config.kv_connector", "attention-config.hisparse_config"),
        "HiSparse on NVIDIA CUDA with a top-level kv_connector other than NixlConnector, MooncakeStoreConnector or MultiConnector (HiSparseConnector itself included)",
    ),
    "vllm/config/vllm.py:1957": Applies(
        "vllm.cudagraph.pooling",
        M,
        "overridden",
        ("compilation-config.cudagraph_mode",),
        "a full cudagraph_mode on a pooling model (on platforms with static graphs)",
    ),
    "vllm/config/vllm.py:1967": Applies(
        "vllm.cudagraph.encoder_decoder",
        M,
        "overridden",
        ("compilation-config.cudagraph_mode",),
        "a cudagraph_mode other than FULL_DECODE_ONLY/NONE on an encoder-decoder model (on platforms with static graphs)",
    ),
    "vllm/config/vllm.py:1993": Applies(
        "vllm.cudagraph.kv_connector",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "kv-transfer-config.kv_connector"),
        "a full cudagraph_mode with a KV connector class that needs piecewise graphs (on platforms with static graphs)",
    ),
    "vllm/config/vllm.py:2005": Applies(
        "vllm.enforce_eager.cudagraph",
        P,
        "overridden",
        (
            "enforce-eager",
            "compilation-config.cudagraph_capture_sizes",
            "compilation-config.max_cudagraph_capture_size",
        ),
        "enforce-eager on a platform with static graphs: capture sizes emptied (the STATIC part is :1778)",
    ),
    "vllm/config/vllm.py:2030": Applies(
        "vllm.kv_sharing_fast_prefill",
        S,
        "caution",
        ("kv-sharing-fast-prefill",),
        "kv-sharing-fast-prefill on without EAGLE-style speculative decoding (refused before)",
    ),
    "vllm/config/vllm.py:2040": _na(
        M,
        "needs the host environment: `vllm serve` sets VLLM_WORKER_MULTIPROC_METHOD=spawn when it is unset (vllm/entrypoints/common/startup.py:149), so only a host that sets fork or forkserver with a Whisper checkpoint gets this caution",
    ),
    "vllm/config/vllm.py:2052": Applies(
        "vllm.kv_events.prefix_caching",
        S,
        "ignored",
        ("kv-events-config.enable_kv_cache_events", "enable-prefix-caching"),
        "enable_kv_cache_events true while prefix caching is off",
    ),
    "vllm/config/vllm.py:2061": Applies(
        "vllm.kv_events.publisher",
        S,
        "ignored",
        ("kv-events-config.publisher", "kv-events-config.enable_kv_cache_events"),
        "publisher zmq while enable_kv_cache_events is false",
    ),
    "vllm/config/vllm.py:2212": Applies(
        "vllm.reasoning.token_ids",
        M,
        "fallback",
        ("reasoning-parser",),
        "the reasoning parser cannot find its start/end tokens in the tokenizer",
    ),
    "vllm/config/vllm.py:2247": Applies(
        "vllm.hma.chunked_local",
        M,
        "changed",
        (),
        "the model uses chunked local attention (config.json)",
    ),
    "vllm/config/vllm.py:2266": Applies(
        "vllm.hma.connector_off",
        S,
        "caution",
        ("kv-transfer-config", "disable-hybrid-kv-cache-manager"),
        "a kv-transfer-config connector without HMA support and the hybrid KV cache manager"
        " left to vLLM: it is turned off",
    ),
    "vllm/config/vllm.py:2313": Applies(
        "vllm.debug_dump_path.env",
        P,
        "overridden",
        ("compilation-config.debug_dump_path",),
        "VLLM_DEBUG_DUMP_PATH in the environment",
    ),
    "vllm/config/vllm.py:2334": _na(
        P,
        "needs NCCL_GRAPH_REGISTER from the environment and the cumem CUDA-graph pool (CUDA sleep mode)",
    ),
    "vllm/config/vllm.py:2360": Applies(
        "vllm.spec.scheduled_tokens",
        S,
        "caution",
        ("max-num-scheduled-tokens", "max-num-batched-tokens", "speculative-config"),
        "speculative decoding with max-num-scheduled-tokens (else max-num-batched-tokens) below 8192",
    ),
    "vllm/config/vllm.py:2386": Applies(
        "vllm.dflash.active_seqs",
        S,
        "overridden",
        ("max-num-active-seqs", "max-num-seqs", "max-num-batched-tokens", "speculative-config"),
        "a DFlash/DSpark draft whose lookahead tokens do not fit max-num-batched-tokens for every active sequence; static only when max-num-batched-tokens is given",
    ),
    "vllm/config/vllm.py:2626": Applies(
        "vllm.cudagraph.max_size_truncated",
        P,
        "overridden",
        ("compilation-config.max_cudagraph_capture_size", "max-cudagraph-capture-size"),
        "max_cudagraph_capture_size not a capture size vLLM keeps (depends on max-num-batched-tokens and the platform's graph support)",
    ),
    "vllm/config/vllm.py:2639": Applies(
        "vllm.cudagraph.sizes_dropped",
        P,
        "overridden",
        ("compilation-config.cudagraph_capture_sizes", "max-num-batched-tokens"),
        "capture sizes above the token budget (reached only with CUDA graphs: not on CPU)",
    ),
    "vllm/config/vllm.py:2880": _na(
        S,
        "echoes what an EC/KV consumer accepts by definition (pre-computed embeddings): nothing is ignored, changed or cautioned",
    ),
    "vllm/config/vllm.py:2884": _na(
        S,
        "echoes what an EC/KV consumer accepts by definition (embedding tensors may be omitted): nothing is ignored, changed or cautioned",
    ),
    "vllm/config/vllm.py:2941": _na(
        S,
        "echoes where an EPD encoder instance runs the multi-modal processor, as mm_tensor_ipc leaves it: nothing the file writes is changed",
    ),
    "vllm/config/vllm.py:2953": _na(
        S,
        "echoes where an EPD encoder instance runs the multi-modal processor: nothing is ignored, changed or cautioned",
    ),
    "vllm/config/vllm.py:3001": _na(
        P,
        "needs the installed packages (torchcodec with FFmpeg, a CUDA build) for an EPD encoder instance",
    ),
    "vllm/config/vllm.py:3009": _na(
        P,
        "needs the installed torchcodec and the device; echoes NVDEC video decoding for an EPD encoder instance",
    ),
    "vllm/config/vllm.py:3043": Applies(
        "vllm.draft_max_len.v2",
        M,
        "changed",
        ("max-model-len",),
        "the draft model's context is shorter than the target's on Model Runner V2",
    ),
    "vllm/config/vllm.py:3315": Applies(
        "vllm.v2_runner.stock_compile",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode",),
        "Model Runner V2 with stock torch.compile (the runner choice)",
    ),
    "vllm/config/vllm.py:3363": _na(
        S,
        "logged in the engine core once the KV cache groups are known (`adjust_dcp_kv_cache_interleave_size`, vllm/v1/engine/core.py:293), after create_engine_config()",
    ),
    "vllm/config/vllm.py:3380": _na(
        S,
        "logged in the engine core once the KV block size is known (`adjust_dcp_kv_cache_interleave_size`, vllm/v1/engine/core.py:293), after create_engine_config()",
    ),
    "vllm/config/vllm.py:3601": _na(
        M,
        "needs the model class: logged while the model is constructed in the worker (`set_current_vllm_config(check_compile=True)`)",
    ),
    # -- vllm/config/watermarking.py
    "vllm/config/watermarking.py:69": Applies(
        "watermarking.deduplication",
        S,
        "caution",
        (
            "watermark-config.deduplicate_contexts",
            "watermark-config.deduplicate_contexts_max_history",
        ),
        "gumbel watermarking without context deduplication, or a history below 1024",
    ),
    # -- vllm/engine/arg_utils.py
    "vllm/engine/arg_utils.py:484": Applies(
        "cli.log_config_file.deprecated",
        S,
        "deprecated",
        ("log-config-file",),
        "log-config-file is given",
    ),
    "vllm/engine/arg_utils.py:908": _na(
        S,
        "unreachable from vllm serve: argparse parses --fault-tolerance-config into a FaultToleranceConfig (parse_dataclass), never the dict this checks (only the Python API passes one)",
    ),
    "vllm/engine/arg_utils.py:1984": _na(
        P,
        "needs VLLM_ENABLE_V1_MULTIPROCESSING from the environment (off): a caution about the process's random state",
    ),
    "vllm/engine/arg_utils.py:1992": Applies(
        "cli.disable_cascade_attn.deprecated",
        S,
        "deprecated",
        ("disable-cascade-attn",),
        "disable-cascade-attn is given",
    ),
    "vllm/engine/arg_utils.py:2145": Applies(
        "cli.device_ids.ray",
        S,
        "ignored",
        ("device-ids", "distributed-executor-backend"),
        "device-ids with distributed-executor-backend ray",
    ),
    "vllm/engine/arg_utils.py:2305": Applies(
        "cli.mamba_cache_mode.deprecated",
        S,
        "deprecated",
        ("mamba-cache-mode",),
        "mamba-cache-mode is given",
    ),
    "vllm/engine/arg_utils.py:2495": Applies(
        "cli.hybrid_lb.local_one",
        S,
        "changed",
        ("data-parallel-hybrid-lb", "data-parallel-size-local", "data-parallel-start-rank"),
        "hybrid LB (data-parallel-hybrid-lb, or a start rank without headless) with data-parallel-size-local 1",
    ),
    "vllm/engine/arg_utils.py:2759": Applies(
        "cli.packed_kv.flash_attn_version",
        S,
        "overridden",
        ("attention-config.flash_attn_version", "kv-cache-dtype"),
        "a TurboQuant/UltraQuant kv-cache-dtype with flash_attn_version 3 or more written",
    ),
    "vllm/engine/arg_utils.py:2823": Applies(
        "cli.ir_op_priority.deprecated",
        S,
        "deprecated",
        ("ir-op-priority", "kernel-config.ir_op_priority"),
        "an ir_op_priority op list is given",
    ),
    "vllm/engine/arg_utils.py:3059": Applies(
        "cli.chunked_prefill.disabled",
        M,
        "caution",
        ("enable-chunked-prefill",),
        "chunked prefill turned off on a generative model that supports it (not encoder-decoder)",
    ),
    "vllm/engine/arg_utils.py:3069": Applies(
        "cli.chunked_prefill.pooling",
        M,
        "caution",
        ("enable-chunked-prefill", "pooler-config"),
        "chunked prefill turned on for a pooling model whose pooler needs whole prompts (MEAN/CLS sequence, STEP token pooling)",
    ),
    "vllm/engine/arg_utils.py:3087": Applies(
        "cli.prefix_caching.pooling",
        M,
        "caution",
        ("enable-prefix-caching", "pooler-config"),
        "prefix caching turned on for a pooling model whose pooler needs whole prompts (MEAN/CLS sequence, STEP token pooling)",
    ),
    "vllm/engine/arg_utils.py:3148": _na(
        S,
        "an exception handler while vLLM estimates multimodal batched tokens from the model's processor: needs the processor, not a setting",
    ),
    # -- serve and the API server
    "vllm/entrypoints/common/cli_args.py:544": Applies(
        "serve.chat_template.hf_parser",
        S,
        "caution",
        ("chat-template", "tool-call-parser", "reasoning-parser"),
        "chat-template set with the hf tool-call or reasoning parser",
    ),
    "vllm/entrypoints/openai/api_server.py:24": _na(S, MODULE),
    "vllm/entrypoints/openai/api_server.py:51": _na(S, MODULE),
    "vllm/entrypoints/cli/serve.py:132": Applies(
        "serve.api_server_count.rust",
        P,
        "ignored",
        ("api-server-count",),
        "the Rust front end (VLLM_USE_RUST_FRONTEND) with api-server-count > 1",
    ),
    "vllm/entrypoints/cli/serve.py:140": Applies(
        "serve.api_server_count.elastic_ep",
        S,
        "overridden",
        ("api-server-count", "enable-elastic-ep"),
        "enable-elastic-ep with api-server-count > 1",
    ),
    # -- vllm/utils/argparse_utils.py
    "vllm/utils/argparse_utils.py:207": Applies(
        "argparse.deprecated_argument",
        S,
        "deprecated",
        (),
        "a deprecated flag is given with a value other than its default",
    ),
    "vllm/utils/argparse_utils.py:330": Applies(
        "argparse.serve_model_option",
        S,
        "deprecated",
        ("model",),
        "--model on the vllm serve command line (a model key in the --config file does not warn)",
    ),
    "vllm/utils/argparse_utils.py:495": Applies(
        "argparse.duplicate_keys",
        S,
        "overridden",
        (),
        "one flag given twice (two spellings): the last value wins",
    ),
    # -- platforms: check_and_update_config
    "vllm/platforms/cpu.py:242": _na(P, "needs the installed packages (triton-cpu on an x86 CPU)"),
    "vllm/platforms/cpu.py:293": Applies(
        "platform.cpu.mla_block_size",
        P,
        "overridden",
        ("block-size",),
        "CPU, an MLA model and block-size other than 16",
    ),
    "vllm/platforms/cpu.py:304": Applies(
        "platform.cpu.dsv4_block_size",
        P,
        "overridden",
        ("block-size",),
        "CPU, DeepSeek-V4 and block-size other than 256",
    ),
    "vllm/platforms/cpu.py:313": _na(
        P,
        "needs a CPU target (block-size not a multiple of 32): a performance caution the CPU platform gives",
    ),
    "vllm/platforms/cpu.py:334": Applies(
        "platform.cpu.ssm_cache_dtype",
        P,
        "overridden",
        ("mamba-ssm-cache-dtype",),
        "CPU with an accelerated GDN Mamba backend",
    ),
    "vllm/platforms/cpu.py:364": Applies(
        "platform.cpu.dbo", P, "ignored", ("enable-dbo",), "CPU with dual-batch overlap"
    ),
    "vllm/platforms/cpu.py:538": Applies(
        "platform.cpu.mla_prefill",
        P,
        "overridden",
        ("enable-chunked-prefill", "enable-prefix-caching"),
        "an MLA model on a non-GPU platform",
    ),
    "vllm/platforms/cuda.py:341": Applies(
        "platform.cuda.chunked_mm_input",
        P,
        "changed",
        ("disable-chunked-mm-input",),
        "CUDA and a model with bidirectional multimodal attention",
    ),
    "vllm/platforms/cuda.py:352": _na(
        P, "needs WSL2 (`in_wsl()`) on CUDA with cpu-offload-gb and CUDA graphs"
    ),
    "vllm/platforms/rocm.py:1180": Applies(
        "platform.rocm.pcp_full_graphs",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "prefill-context-parallel-size"),
        "ROCm with prefill context parallelism and full CUDA graphs",
    ),
    "vllm/platforms/rocm.py:1199": Applies(
        "platform.rocm.chunked_mm_input",
        P,
        "changed",
        ("disable-chunked-mm-input",),
        "ROCm and a model with bidirectional multimodal attention",
    ),
    "vllm/platforms/xpu.py:387": Applies(
        "platform.xpu.graph_torch",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode",),
        "XPU with a PyTorch without XPU graphs",
    ),
    "vllm/platforms/xpu.py:398": Applies(
        "platform.xpu.graph_sleep",
        P,
        "overridden",
        ("compilation-config.cudagraph_mode", "enable-sleep-mode"),
        "XPU graphs with sleep mode",
    ),
    "vllm/platforms/xpu.py:416": Applies(
        "platform.xpu.feature", P, "ignored", (), "a feature XPU lacks"
    ),
    "vllm/platforms/xpu.py:441": _na(
        P,
        "needs an XPU target with UVA weight offloading; echoes a launcher change internal to Inductor",
    ),
}
