"""The model a config serves, read offline from its files: what model-aware rules decide on.

vLLM only learns a model's shape after it has resolved `model:` and loaded `config.json`
through transformers, minutes into a start. The same facts sit in a few JSON files: this
module finds them without the network and without vLLM or transformers, and derives the
numbers vLLM derives (attention/KV heads, layers, experts, the maximum context, the
checkpoint's quantization and dtype) the way vllm/transformers_utils/
model_arch_config_convertor.py does.

Where a model is looked for, first hit wins:
1. a local folder: the name as a path, relative to the config file's folder (or absolute);
2. extra model folders (`model_dirs` from the editor settings, and the
   `VLLM_CONFIG_MODEL_DIRS` environment variable, `os.pathsep`-separated): `DIR/<name>`;
3. the local Hugging Face cache (`HF_HUB_CACHE`, else `HF_HOME/hub`, else
   `~/.cache/huggingface/hub`): `models--ORG--NAME/snapshots/<commit>/`, the commit taken
   from `revision:` (a commit hash, or a branch/tag under `refs/`), else `refs/main`. A
   revision is a name, never a path: one that could leave `refs/` is not looked up.

Nothing is executed: `trust-remote-code` checkpoints are read as JSON like any other. Files
are cached by (path, mtime, size) so an editor re-linting on every keystroke re-reads
nothing; every file is read through `sources.safe_read` (regular files only, at most
MODEL_FILE_BYTES), and one that cannot be read is one that is not there. Values that
transformers would fill in from its own config classes (defaults not written in
config.json) are unknown here: the properties return None for them and the rules then stay
silent, because a config vLLM accepts must never get an error.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from vllm_config_lsp.sources.safe_read import is_dir, is_file, read_text

if TYPE_CHECKING:
    from vllm_config_lsp.vllm.config_model import ConfigModel

CONFIG_JSON = "config.json"
MODEL_DIRS_ENV = "VLLM_CONFIG_MODEL_DIRS"
REGISTRY_ENV = "VLLM_CONFIG_MODEL_REGISTRY"
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
#: What is read of a model's JSON files: config.json is a few KB, the largest
#: tokenizer_config.json known (Gemma 3's, its added tokens listed) 1.2 MB.
MODEL_FILE_BYTES = 4_000_000
#: A file under `refs/` holds a 40-character commit hash.
REF_BYTES = 1024
#: Characters git's check-ref-format forbids in a ref name that would make one a path.
_NOT_IN_REF = re.compile(r"[\x00-\x1f\x7f\\:]")

#: transformers `get_text_config()` sub-config names (decoder side first).
TEXT_CONFIG_KEYS = ("text_config", "decoder", "generator", "text_encoder")
#: Aliases transformers' `attribute_map`s give the standard names (GPT-2, Falcon, MPT, BLOOM).
HEAD_KEYS = ("num_attention_heads", "n_head", "n_heads")
LAYER_KEYS = ("num_hidden_layers", "n_layer", "n_layers")
#: CONFIG_FIELD_ALIASES, vllm/transformers_utils/config.py:56.
KV_HEAD_KEYS = (
    "n_head_kv",
    "num_kv_heads",
    "num_key_value_heads",
    "multi_query_group_num",
    "num_attention_groups",
)
EXPERT_KEYS = ("num_experts", "moe_num_experts", "n_routed_experts", "num_local_experts")
#: `derive_max_model_len_and_key` (model_arch_config_convertor.py:371): the smallest wins.
MAX_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_target_positions",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)
#: RoPE types whose `factor` is already folded into max_position_embeddings (model.py:2605).
ROPE_PRESCALED = ("su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling")
#: `is_deepseek_mla` (model_arch_config_convertor.py:294).
MLA_MODEL_TYPES = frozenset(
    {
        "axk1",
        "deepseek_v2",
        "deepseek_v3",
        "deepseek_v32",
        "deepseek_v4",
        "deepseek_v41",
        "dots3_note",
        "deepseek_mtp",
        "k3_dspark",
        "glm5_next",
        "glm5_next_text",
        "glm_moe_dsa",
        "glm4_moe_lite",
        "glm4_moe_lite_mtp",
        "kimi_k2",
        "kimi_linear",
        "longcat_flash",
        "pangu_ultra_moe",
        "pangu_ultra_moe_mtp",
        "bailing_hybrid",
        "bailing_hybrid_mtp",
        "bailing_hybrid_v3_mtp",
        "hy_v4",
        "hy_v4_mtp",
    }
)
#: model types whose convertor computes heads or KV heads its own way
#: (MODEL_ARCH_CONFIG_CONVERTORS): their shapes are not derived here.
CUSTOM_HEADS = frozenset({"cohere_asr", "moss_audio"})
CUSTOM_KV_HEADS = frozenset(
    {"cohere_asr", "moss_audio", "dbrx", "nemotron-nas", "mamba", "falcon_mamba", "timm_wrapper"}
)
#: model types whose convertor counts layers from another key (MTP drafts, LongCat).
CUSTOM_LAYERS = frozenset(
    {
        "deepseek_mtp",
        "mimo_mtp",
        "mimo_v2_mtp",
        "mimo_v2_omni_mtp",
        "glm4_moe_mtp",
        "glm_ocr_mtp",
        "ernie_mtp",
        "qwen3_next_mtp",
        "qwen4_exp_mtp",
        "bailing_hybrid_mtp",
        "bailing_hybrid_v3_mtp",
        "qwen3_5_mtp",
        "step3p5_mtp",
        "pangu_ultra_moe_mtp",
        "longcat_flash",
        "longcat_flash_mtp",
        "moss_audio",
    }
)


# --------------------------------------------------------------------------- files


#: Numbers a model file can hold that are read as numbers: no dimension, length or count
#: comes near 10**18, and anything past it (a 4,000-digit integer, `-1e999`) would overflow
#: `float()` or `int()` in the arithmetic vLLM does on them.
MAX_NUMBER = 10**18
#: Nesting kept in a model file (real ones nest four or five levels): a deeper value is null.
MAX_DEPTH = 32
#: The parsed-file cache: one entry per path, at most this many, holding at most this many
#: bytes of JSON between them (parsed, JSON takes 5 to 20 times its size in memory: at
#: most about 160 MB), the least recently read dropped first. The newest entry is always
#: kept, so one file over the budget is not parsed again on every check.
CACHE_FILES = 64
CACHE_BYTES = 8 * 1024 * 1024


def _bounded(value: Any, depth: int = 0) -> Any:
    """`value` with every number vLLM could not compute with (NaN, infinities, magnitudes
    past MAX_NUMBER) and every container deeper than MAX_DEPTH made null: unknown to the
    properties and rules, as a key the file does not have."""
    if isinstance(value, float):
        return value if math.isfinite(value) and abs(value) <= MAX_NUMBER else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) <= MAX_NUMBER else None
    if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
        return None
    if isinstance(value, dict):
        return {key: _bounded(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_bounded(item, depth + 1) for item in value]
    return value


def _json_int(digits: str) -> int | None:
    """JSON integers past MAX_NUMBER's 19 digits are null before `int()` sees them (past
    4,300 digits it raises)."""
    return int(digits) if len(digits.lstrip("-")) <= 19 else None


def _parse_json(path: str) -> dict[str, Any] | None:
    text = read_text(path, MODEL_FILE_BYTES)
    try:
        data = json.loads(text, parse_int=_json_int) if text is not None else None
    except (ValueError, RecursionError):  # nesting past the recursion limit
        return None
    return _bounded(data) if isinstance(data, dict) else None


#: path → ((mtime, size), parsed file), least recently used first; the lint thread and
#: the event loop (hover) both read files.
_FILES: OrderedDict[str, tuple[tuple[int, int], dict[str, Any] | None]] = OrderedDict()
_FILES_LOCK = threading.Lock()


def read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object file, numbers and nesting bounded (`_bounded`), cached until its mtime
    or size changes (one entry per path, at most CACHE_FILES and CACHE_BYTES); None if
    unreadable."""
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    key, stamp = str(path), (stat.st_mtime_ns, stat.st_size)
    with _FILES_LOCK:
        cached = _FILES.pop(key, None)  # an old version goes before the new one is parsed
        if cached is not None and cached[0] == stamp:
            _FILES[key] = cached
            return cached[1]
    data = _parse_json(key)
    with _FILES_LOCK:
        _FILES[key] = (stamp, data)
        while len(_FILES) > 1 and (len(_FILES) > CACHE_FILES or _cached_bytes() > CACHE_BYTES):
            _FILES.popitem(last=False)
    return data


def _cached_bytes() -> int:
    """What the cached files weigh: their sizes (an unreadable file holds nothing)."""
    return sum(size for (_, size), data in _FILES.values() if data is not None)


def expanded_path(name: str) -> Path:
    """`~` expanded where it can be: `~user/…` of no known user stays as written."""
    try:
        return Path(name).expanduser()
    except RuntimeError:  # `~user/…` of no known user, or no home: the name as written
        return Path(name)


def hub_cache() -> Path:
    """Where huggingface_hub keeps downloads (`HF_HUB_CACHE` > `HF_HOME/hub` > default)."""
    if os.environ.get("HF_HUB_CACHE"):
        return expanded_path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return expanded_path(os.environ["HF_HOME"]) / "hub"
    return expanded_path("~/.cache/huggingface/hub")


def env_model_dirs() -> list[Path]:
    raw = os.environ.get(MODEL_DIRS_ENV, "")
    return [expanded_path(part) for part in raw.split(os.pathsep) if part.strip()]


def looks_like_path(name: str) -> bool:
    """A name no Hub repository id can have: vLLM would only find it on disk."""
    return (
        name.startswith(("/", "./", "../", "~", "\\"))
        or name in (".", "..")
        or "\\" in name
        or name.count("/") > 1
    )


#: Where ModelOpt 0.29.0 and before keep a checkpoint's quantization.
HF_QUANT_JSON = "hf_quant_config.json"


def with_quant(
    config: dict[str, Any] | None, quant: dict[str, Any] | None
) -> dict[str, Any] | None:
    """config.json with `hf_quant_config.json` as its `quantization_config` where it has
    none at the top, as vLLM 0.33.0 reads a checkpoint (vllm/transformers_utils/config.py
    `get_config`, lines 951-962: "ModelOpt 0.29.0 and before saves the quantization config
    in a separate hf_quant_config.json in the same directory as the model config file")."""
    if config is None or quant is None or config.get("quantization_config") is not None:
        return config
    return {**config, "quantization_config": quant}


@dataclass(frozen=True)
class ModelFolder:
    """A folder holding a model's config.json, and how it was found."""

    name: str
    folder: Path
    origin: str  # "local folder", "model folder DIR", "Hugging Face cache (<commit>)"

    def file(self, name: str) -> dict[str, Any] | None:
        """The JSON file `name` beside config.json; config.json as vLLM reads it, with
        `hf_quant_config.json` as its quantization_config where it has none (`with_quant`)."""
        data = self.read(name)
        return with_quant(data, self.read(HF_QUANT_JSON)) if name == CONFIG_JSON else data

    def read(self, name: str) -> dict[str, Any] | None:
        """The JSON file `name` as it is written."""
        return read_json(self.folder / name)

    def has(self, name: str) -> bool:
        return is_file(self.folder / name)

    @property
    def local(self) -> bool:
        """Files on this machine (not facts the product carries)."""
        return True


#: The generated facts of the models people deploy (tools/build_model_registry.py).
REGISTRY_FILE = "models/registry.json"
INDEX_JSON = "model.safetensors.index.json"


@cache
def model_registry() -> dict[str, Any]:
    """Hub id → registry entry (`config`, `source`, optional `total_size`)."""
    from vllm_config_lsp.vllm.catalogue import schema_dir

    path = schema_dir() / REGISTRY_FILE
    stat = path.stat() if is_file(path) else None
    text = read_text(path, stat.st_size + 1) if stat is not None else None
    try:
        data = json.loads(text) if text is not None else {}
    except ValueError:
        data = {}
    models = data.get("models") if isinstance(data, dict) else None
    return models if isinstance(models, dict) else {}


@dataclass(frozen=True)
class RegistryFolder(ModelFolder):
    """A model known from the registry the product carries, not from files here: its
    config.json's keys that the checks read and, where a source gives it, the safetensors
    index's `total_size`; every other file is unknown (as in a partial HF cache)."""

    entry: dict[str, Any] = field(default_factory=dict)

    def read(self, name: str) -> dict[str, Any] | None:
        if name in (CONFIG_JSON, HF_QUANT_JSON):
            config = self.entry.get("config" if name == CONFIG_JSON else "hf_quant_config")
            return _bounded(config) if isinstance(config, dict) else None
        total = _int(self.entry.get("total_size"))
        if name == INDEX_JSON and total:
            return {"metadata": {"total_size": total}}
        return None

    def has(self, name: str) -> bool:
        return self.read(name) is not None

    @property
    def local(self) -> bool:
        return False


def _cite(source: object) -> str:
    """`repository path @ commit` of a registry citation."""
    cite = source if isinstance(source, dict) else {}
    return f"{cite.get('repository')} {cite.get('path')} @ {str(cite.get('commit'))[:12]}"


def registry_folder(name: str) -> RegistryFolder | None:
    """`name`'s registry entry as a folder, if the registry has it (and
    `VLLM_CONFIG_MODEL_REGISTRY` does not turn it off: `0`, `false`, `off`)."""
    from vllm_config_lsp.vllm.catalogue import schema_dir

    if os.environ.get(REGISTRY_ENV, "").strip().lower() in ("0", "false", "off", "no"):
        return None
    entry = model_registry().get(name)
    if not isinstance(entry, dict) or not isinstance(entry.get("config"), dict):
        return None
    origin = f"the vllm-config-lsp model registry (config.json from {_cite(entry.get('source'))}"
    if isinstance(entry.get("hf_quant_config"), dict):
        origin += f", {HF_QUANT_JSON} from {_cite(entry.get('hf_quant_config_source'))}"
    origin += ")"
    return RegistryFolder(name, schema_dir() / "models", origin, entry)


def is_revision(revision: str) -> bool:
    """A commit hash or a ref name (`main`, `v1.0`, `refs/pr/1`), never a path: not
    absolute, no empty, `.` or `..` part, no NUL, control character, backslash or colon."""
    return (
        len(revision) <= 255
        and not _NOT_IN_REF.search(revision)
        and all(part not in ("", ".", "..") for part in revision.split("/"))
    )


def _snapshot(repo_dir: Path, revision: str | None) -> Path | None:
    """The snapshot folder huggingface_hub would use offline for `revision` (a name
    `is_revision` accepts; the commit a ref holds must be one folder name)."""
    snapshots = repo_dir / "snapshots"
    if revision and _COMMIT.match(revision):
        commit: str | None = revision
    else:
        text = read_text(repo_dir / "refs" / (revision or "main"), REF_BYTES)
        commit = text.strip() if text is not None else None
    if commit:
        folder = snapshots / commit
        return folder if "/" not in commit and is_revision(commit) and is_dir(folder) else None
    if revision:
        return None
    found = sorted(p for p in snapshots.glob("*") if is_dir(p)) if is_dir(snapshots) else []
    return found[0] if len(found) == 1 else None


def _working_directory() -> Path | None:
    try:
        return Path.cwd()
    except OSError:  # deleted while the server or the CLI runs in it
        return None


def find_folder(
    name: str,
    *,
    base: Path | None = None,
    revision: str | None = None,
    model_dirs: Iterable[Path] = (),
) -> ModelFolder | str:
    """The folder with `name`'s config.json, or a sentence saying where it was looked for."""
    if not name or "\n" in name or len(name) > 1000:
        return "the model name is not a path or a repository id"
    as_path = expanded_path(name)
    candidates: list[tuple[Path, str]] = []
    if as_path.is_absolute():
        candidates.append((as_path, "local folder"))
    else:
        for folder in (base, _working_directory()):
            if folder is not None:
                candidates.append((folder / as_path, "local folder"))
        for directory in [*model_dirs, *env_model_dirs()]:
            candidates.append((directory / as_path, f"model folder {directory}"))
    for folder, origin in candidates:
        if is_file(folder / CONFIG_JSON):
            return ModelFolder(name, folder.resolve(), origin)
    if not looks_like_path(name) and name.count("/") <= 1:
        if revision and not is_revision(revision):
            return f"revision `{revision}` is not a commit hash or a ref name"
        repo_dir = hub_cache() / ("models--" + name.replace("/", "--"))
        snapshot = _snapshot(repo_dir, revision) if is_dir(repo_dir) else None
        if snapshot is not None and is_file(snapshot / CONFIG_JSON):
            return ModelFolder(name, snapshot, f"Hugging Face cache ({snapshot.name[:12]})")
        known = registry_folder(name) if revision in (None, "main") else None
        if known is not None:
            return known
        if is_dir(repo_dir):
            wanted = f"revision `{revision}`" if revision else "`refs/main`"
            return f"{repo_dir} has no config.json for {wanted}"
    return f"no folder `{name}` with a config.json, and it is not in {hub_cache()}"


# --------------------------------------------------------------------------- HF config


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _shape(value: Any) -> int | None:
    """A dimension of the model (heads, layers, hidden size…): a positive int, else unknown
    (a config.json of zero or negative shapes sized a 0.0 GiB KV cache)."""
    number = _int(value)
    return number if number is not None and number > 0 else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@dataclass(frozen=True)
class Arch:
    """One architecture of vLLM's registry (schemas/vllm-<v>.models.json)."""

    name: str
    roles: tuple[str, ...]
    flags: dict[str, bool]
    resolved: bool
    #: `supported_video_pruning_methods` of the class (empty: it does not prune videos).
    video_pruning: tuple[str, ...] = ()
    #: The class vLLM loads for it (`_ModelInfo.architecture` is its `__name__`).
    cls: str = ""

    def flag(self, name: str) -> bool | None:
        """The class's flag, or None when the generator could not follow its bases."""
        if not self.resolved and not self.flags.get(name, False):
            return None
        return self.flags.get(name, False)


@cache
def _registry_file(version: str) -> dict[str, Any]:
    """`schemas/vllm-<version>.models.json`, generated (`tools/generate_model_registry.py`):
    read as it is, without `read_json`'s bounds for files found on disk (a third of a first
    check's reading time went to bounding its 7,500 values)."""
    from vllm_config_lsp.vllm.catalogue import schema_dir

    try:
        with (schema_dir() / f"vllm-{version}.models.json").open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@cache
def registry(version: str) -> dict[str, Arch]:
    data = _registry_file(version)
    out: dict[str, Arch] = {}
    for name, entry in (data.get("architectures") or {}).items():
        flags = {k: v for k, v in entry.items() if isinstance(v, bool) and k != "resolved"}
        pruning = tuple(str(m) for m in entry.get("supported_video_pruning_methods") or ())
        roles = tuple(entry.get("roles", ()))
        cls = str(entry.get("class") or name)
        out[name] = Arch(name, roles, flags, bool(entry.get("resolved")), pruning, cls)
    return out


@cache
def draft_rewrites(version: str) -> frozenset[str]:
    """Draft model types vLLM rewrites before choosing the speculative method
    (`SpeculativeConfig.hf_config_override`; generated into the registry file)."""
    data = _registry_file(version)
    return frozenset(str(t) for t in data.get("draft_rewritten_model_types") or ())


@dataclass
class HfConfig:
    """A checkpoint's config.json as vLLM reads it (after optional `hf-overrides`)."""

    raw: dict[str, Any]
    where: ModelFolder
    version: str

    @cached_property
    def text(self) -> dict[str, Any]:
        """`hf_text_config`: the language model's sub-config, or the config itself."""
        for key in TEXT_CONFIG_KEYS:
            sub = self.raw.get(key)
            if isinstance(sub, dict) and sub:
                return sub
        return self.raw

    def get(self, *names: str) -> Any:
        """The first of `names` the text config has (a nested one falls back to the top
        level, which is where transformers reads legacy flat multimodal configs from)."""
        for source in (self.text, self.raw) if self.text is not self.raw else (self.raw,):
            for name in names:
                if name in source and source[name] is not None:
                    return source[name]
        return None

    @property
    def architectures(self) -> list[str]:
        archs = self.raw.get("architectures")
        return [a for a in archs if isinstance(a, str)] if isinstance(archs, list) else []

    @property
    def architecture(self) -> str | None:
        return self.architectures[0] if self.architectures else None

    @property
    def model_type(self) -> str:
        value = self.raw.get("model_type")
        return value if isinstance(value, str) else ""

    @property
    def text_model_type(self) -> str:
        value = self.text.get("model_type")
        return value if isinstance(value, str) else self.model_type

    @property
    def heterogeneous(self) -> bool:
        return bool(self.raw.get("is_heterogeneous") or self.text.get("is_heterogeneous"))

    @property
    def arch(self) -> Arch | None:
        """vLLM's registry entry for the first architecture vLLM knows."""
        table = registry(self.version)
        for name in self.architectures:
            if name in table:
                return table[name]
        return None

    def arch_flag(self, flag: str) -> bool | None:
        arch = self.arch
        return arch.flag(flag) if arch is not None else None

    @property
    def num_attention_heads(self) -> int | None:
        if self.model_type in CUSTOM_HEADS or self.heterogeneous:
            return None
        return _shape(self.get(*HEAD_KEYS))

    @property
    def num_kv_heads(self) -> int | None:
        """`get_total_num_kv_heads`: the first alias present, else the attention heads."""
        if self.model_type in CUSTOM_KV_HEADS or self.heterogeneous:
            return None
        falcon_mqa = not self.get("new_decoder_architecture") and self.get("multi_query")
        if self.model_type == "falcon" and falcon_mqa:
            return 1
        value = self.get(*KV_HEAD_KEYS)
        return _shape(value) if value is not None else self.num_attention_heads

    @property
    def num_layers(self) -> int | None:
        if self.model_type in CUSTOM_LAYERS or self.heterogeneous:
            return None
        return _shape(self.get(*LAYER_KEYS))

    @property
    def hidden_size(self) -> int | None:
        return _shape(self.get("hidden_size", "n_embd", "d_model"))

    @property
    def vocab_size(self) -> int | None:
        return _shape(self.get("vocab_size"))

    @property
    def num_experts(self) -> int:
        """`get_num_experts`: 0 for a dense model (block_configs of NemotronH included)."""
        value = self.get(*EXPERT_KEYS)
        if isinstance(value, list) and value:
            value = value[0]
        number = _int(value) or 0
        if not number:
            for block in self.text.get("block_configs") or ():
                if isinstance(block, dict) and block.get("block_type") == "moe":
                    number = max(number, _int(block.get("n_routed_experts")) or 0)
        return number

    @property
    def is_mla(self) -> bool:
        """`is_deepseek_mla` (DeepSeek-V4's compressed variant aside)."""
        text = self.text
        if self.text_model_type in MLA_MODEL_TYPES:
            if text.get("compress_ratios"):
                return text.get("head_dim") is not None
            return text.get("kv_lora_rank") is not None
        return False

    @property
    def uses_mla(self) -> bool:
        """`ModelConfig.use_mla` for vLLM's own implementations (VLLM_MLA_DISABLE unset)."""
        return self.is_mla and self.text.get("is_causal", True) is not False

    @property
    def is_encoder_decoder(self) -> bool:
        return bool(self.raw.get("is_encoder_decoder") or self.text.get("is_encoder_decoder"))

    @property
    def quantization_config(self) -> dict[str, Any] | None:
        """`get_quantization_config`: `quantization_config` (or compressed-tensors'
        `compression_config`), at the top or in the text config."""
        for source in (self.raw, self.raw.get("text_config")):
            if not isinstance(source, dict):
                continue
            config = source.get("quantization_config")
            if config is None:
                config = source.get("compression_config")
            if isinstance(config, dict):
                return config
        return None

    @property
    def quant_method(self) -> str | None:
        """The checkpoint's quantization method as vLLM normalises it (modelopt producers
        by `quant_algo`, lower case, `compressed_tensors` → `compressed-tensors`)."""
        config = self.quantization_config
        if config is None:
            return None
        producer = config.get("producer")
        nested = config.get("quantization")
        legacy = isinstance(nested, dict) and "modelopt_quant_config" in nested
        if (isinstance(producer, dict) and producer.get("name") == "modelopt") or legacy:
            algo = str((nested or {}).get("quant_algo", "")).upper() if nested else ""
            return {
                "FP8": "modelopt",
                "FP8_PER_CHANNEL_PER_TOKEN": "modelopt",
                "FP8_PB_WO": "modelopt",
                "NVFP4": "modelopt_fp4",
                "MIXED_PRECISION": "modelopt_mixed",
            }.get(algo)
        method = config.get("quant_method", "")
        if not isinstance(method, str):
            return None
        return method.lower().replace("compressed_tensors", "compressed-tensors") or None

    @property
    def dtype(self) -> str | None:
        """The checkpoint's dtype as written (`torch_dtype`, or `dtype` in transformers 5)."""
        for source in (self.raw, self.text, self.raw.get("vision_config")):
            if isinstance(source, dict):
                value = source.get("dtype", source.get("torch_dtype"))
                if isinstance(value, str):
                    return value.removeprefix("torch.")
        return None

    @property
    def sliding_window(self) -> int | None:
        """Qwen2-style configs keep `sliding_window` but switch it off with
        `use_sliding_window: false` (transformers then sets it to None)."""
        if self.text.get("use_sliding_window") is False:
            return None
        return _int(self.text.get("sliding_window"))

    def rope_parameters(self) -> list[dict[str, Any]]:
        """`iter_rope_parameters` of the text config: one dict per layer type if nested,
        legacy `rope_scaling` (`type` → `rope_type`) included."""
        params = self.text.get("rope_parameters")
        if not isinstance(params, dict) or not params:
            params = self.text.get("rope_scaling")
        if not isinstance(params, dict) or not params:
            return []
        nested = all(isinstance(v, dict) for v in params.values())
        found = [v for v in params.values() if v] if nested else [params]
        out = []
        for entry in found:
            entry = dict(entry)
            if "rope_type" not in entry:
                entry["rope_type"] = entry.get("type", "default")
            out.append(entry)
        return out

    def derived_max_len(
        self,
        *,
        disable_sliding_window: bool = False,
        tokenizer_max: int | float | None = None,
    ) -> MaxLen | None:
        """`_get_and_verify_max_len` (model.py:2545) without a user value: the longest
        context vLLM allows, the key it came from and how. `tokenizer_max` is
        tokenizer_config.json's `model_max_length` (pooling models with absolute positions
        only); a sentence-transformers `max_seq_length` beside config.json replaces the
        result. None when it cannot be known here: config.json names no length key (vLLM
        then assumes 2048, or a class default transformers fills in), or a cached snapshot
        may lack the sentence-transformers file the repository has."""
        known, encoder_max = encoder_max_length(self.where)
        if not known:
            return None
        text = self.text
        derived = math.inf
        key: str | None = None
        for name in MAX_LEN_KEYS:
            value = _number(text.get(name))
            if value is not None:
                if value < derived:
                    key = name
                derived = min(derived, value)
        model_max = _number(text.get("model_max_length"))
        if model_max is None and "model_max_length" in text:
            return None  # no number (or one `_bounded` made null): vLLM's result is unknown
        if model_max:
            key, derived = "model_max_length", model_max
        notes: list[str] = []
        window = self.sliding_window
        if disable_sliding_window and window is not None and window < derived:
            key, derived = "sliding_window", float(window)
            notes.append("`disable-sliding-window` caps it at the sliding window")
        shown: str | None = None
        if tokenizer_max is not None and tokenizer_max < derived:
            derived, shown = float(tokenizer_max), str(tokenizer_max)
            notes.append("tokenizer_config.json's model_max_length caps it")
        if derived == math.inf:
            return None
        if encoder_max is not None:
            note = "the sentence-transformers max_seq_length replaces it"
            return MaxLen(float(encoder_max), key, model_max, (*notes, note), str(encoder_max))
        rope = self.rope_parameters()
        if rope and "gemma3" not in self.text_model_type:
            factor: Any = 1.0
            for params in rope:
                if params["rope_type"] not in ROPE_PRESCALED:
                    factor = params.get("factor", factor)
            number = _number(factor)
            if number is None:
                return None  # as for model_max_length: no number, no known length
            factor = number or 1.0
            if factor != 1.0:
                notes.append(f"times the RoPE scaling factor {factor:g}")
            derived *= factor
            shown = None
        return MaxLen(derived, key, model_max, tuple(notes), shown or repr(float(derived)))

    def estimate_parameters(self) -> int | None:
        """A rough parameter count from the shapes (embeddings + attention + MLP/experts),
        for hover only."""
        hidden, layers, vocab = self.hidden_size, self.num_layers, self.vocab_size
        heads = self.num_attention_heads
        if not (hidden and layers and vocab and heads):
            return None
        head_dim = _shape(self.get("head_dim")) or hidden // heads
        kv = self.num_kv_heads or heads
        attention = hidden * head_dim * (heads * 2 + kv * 2)
        inter = _shape(self.get("intermediate_size", "ffn_hidden_size", "n_inner")) or 4 * hidden
        experts = self.num_experts
        if experts:
            moe_inter = _shape(self.get("moe_intermediate_size")) or inter
            shared = _int(self.get("n_shared_experts", "num_shared_experts")) or 0
            mlp = 3 * hidden * moe_inter * (experts + shared)
        else:
            mlp = 3 * hidden * inter
        embeddings = vocab * hidden * (1 if self.get("tie_word_embeddings") else 2)
        return embeddings + layers * (attention + mlp)


@dataclass(frozen=True)
class MaxLen:
    value: float
    key: str | None
    model_max_length: float | None
    notes: tuple[str, ...] = ()
    #: How vLLM prints the derived value in its refusal: a float after the RoPE step, the
    #: tokenizer's or sentence-transformers' integer as read.
    shown: str = ""

    @property
    def as_int(self) -> int:
        return int(self.value)


def apply_overrides(raw: dict[str, Any], overrides: Any) -> dict[str, Any]:
    """`hf-overrides` as a mapping, merged the way `_apply_dict_overrides` does: a mapping
    value updates the sub-config of the same name, anything else replaces the key."""
    if not isinstance(overrides, dict):
        return raw
    merged = dict(raw)
    for key, value in _bounded(overrides).items():  # `.nan` in YAML is a number too
        current = merged.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            merged[key] = {**current, **value}
        else:
            merged[key] = value
    return merged


# --------------------------------------------------------------------------- per config


@dataclass
class Resolved:
    """One model reference of a config file and what was found for it."""

    name: str | None
    where: tuple[int, int]
    flag: str | None
    folder: ModelFolder | None = None
    config: HfConfig | None = None
    problem: str | None = None


@dataclass
class ModelContext:
    target: Resolved
    draft: Resolved | None = None
    extras: dict[str, Any] = field(default_factory=dict)


_CONTEXTS: WeakKeyDictionary[ConfigModel, ModelContext] = WeakKeyDictionary()


def _string_setting(model: ConfigModel, class_name: str, field_name: str) -> tuple[Any, Any]:
    setting = model.setting(class_name, field_name)
    value = setting.value if isinstance(setting.value, str) and setting.explicit else None
    return value, setting


def _resolve(
    model: ConfigModel, name: str | None, where: tuple[int, int], flag: str | None, **kw: Any
) -> Resolved:
    out = Resolved(name, where, flag)
    if name is None:
        return out
    found = find_folder(name, base=model.base_dir, model_dirs=model.model_dirs, **kw)
    if isinstance(found, str):
        out.problem = found
        return out
    raw = found.file(CONFIG_JSON)
    if raw is None:
        out.problem = f"{found.folder / CONFIG_JSON} is not a JSON object"
        return out
    out.folder = found
    out.config = HfConfig(raw, found, model.version)
    return out


def context(model: ConfigModel) -> ModelContext:
    """The served model (and the speculative draft) of a config, resolved once per lint."""
    cached = _CONTEXTS.get(model)
    if cached is not None:
        return cached
    name, setting = _string_setting(model, "ModelConfig", "model")
    revision, _ = _string_setting(model, "ModelConfig", "revision")
    target = _resolve(model, name, (setting.start, setting.end), setting.flag, revision=revision)
    hf_path, hf_setting = _string_setting(model, "ModelConfig", "hf_config_path")
    if target.name is not None and hf_path is not None:
        # `hf-config-path` replaces where config.json comes from (the weights stay put)
        alternative = _resolve(model, hf_path, (hf_setting.start, hf_setting.end), "hf-config-path")
        if alternative.config is not None:
            target.config = alternative.config
        else:
            target.config, target.problem = None, alternative.problem
    overrides = model.setting("ModelConfig", "hf_overrides")
    if target.config is not None and overrides.explicit:
        if not isinstance(overrides.value, dict):
            target.config, target.problem = None, "`hf-overrides` is not a mapping"
        else:
            raw = apply_overrides(target.config.raw, overrides.value)
            target.config = HfConfig(raw, target.config.where, model.version)
    result = ModelContext(target, _draft(model))
    _CONTEXTS[model] = result
    return result


@dataclass(frozen=True)
class DraftReference:
    """Where the file names the speculative draft: `speculative-config`'s `model` (YAML
    mapping, JSON string or dotted key) or the `spec-model` shorthand."""

    name: str
    where: tuple[int, int]
    flag: str
    revision: str | None = None


def draft_reference(model: ConfigModel) -> DraftReference | None:
    tree = model.json_tree("speculative-config")
    node = tree.get("model") if tree is not None and tree.is_object else None
    if tree is not None and node is not None and isinstance(node.value, str):
        revision = tree.get("revision")
        rev = revision.value if revision is not None and isinstance(revision.value, str) else None
        return DraftReference(node.value, (node.start, node.end), "speculative-config", rev)
    spec = model.flag("spec-model")
    if spec is not None and isinstance(spec.value, str):
        return DraftReference(spec.value, spec.value_span(), "spec-model")
    return None


def _draft(model: ConfigModel) -> Resolved | None:
    """The draft checkpoint, when the file names a folder or repository."""
    ref = draft_reference(model)
    if ref is None:
        return None
    return _resolve(model, ref.name, ref.where, ref.flag, revision=ref.revision)


#: `get_sentence_transformer_tokenizer_config`'s file names, in its order
#: (vllm/transformers_utils/config.py:1125).
SENTENCE_CONFIGS = (
    "sentence_bert_config.json",
    "sentence_roberta_config.json",
    "sentence_distilbert_config.json",
    "sentence_camembert_config.json",
    "sentence_albert_config.json",
    "sentence_xlm-roberta_config.json",
    "sentence_xlnet_config.json",
)


def _cached_snapshot(folder: ModelFolder) -> bool:
    """A Hugging Face cache snapshot (or the registry) may lack files the repository has
    (vLLM, online, would fetch them)."""
    return not folder.local or not folder.origin.startswith(("local folder", "model folder"))


def encoder_max_length(folder: ModelFolder) -> tuple[bool, float | None]:
    """The sentence-transformers `max_seq_length` vLLM substitutes for the derived length
    (`encoder_config`, model.py:2636): (known, value). The first of SENTENCE_CONFIGS that
    holds a non-empty mapping decides; a cached sentence-transformers snapshot without one
    may still have it in the repository, so that is unknown."""
    for name in SENTENCE_CONFIGS:
        if not folder.has(name):
            continue
        found = folder.file(name)
        if found is None:
            return False, None
        if found:
            if "max_seq_length" not in found:
                return True, None
            value = found["max_seq_length"]
            return (True, value) if _number(value) is not None else (False, None)
    if _cached_snapshot(folder) and folder.has("modules.json"):
        return False, None
    return True, None


def tokenizer_max_length(model: ConfigModel) -> tuple[bool, float | None]:
    """tokenizer_config.json's `model_max_length` for the tokenizer vLLM loads (`tokenizer`,
    else the model; `tokenizer-revision`, else `revision`): (known, value)."""
    name, _ = _string_setting(model, "ModelConfig", "tokenizer")
    revision, _ = _string_setting(model, "ModelConfig", "tokenizer_revision")
    if name is None:
        name, _ = _string_setting(model, "ModelConfig", "model")
    if revision is None:
        revision, _ = _string_setting(model, "ModelConfig", "revision")
    if name is None:
        return False, None
    folder = find_folder(name, base=model.base_dir, model_dirs=model.model_dirs, revision=revision)
    if isinstance(folder, str):
        return False, None
    if not folder.has("tokenizer_config.json"):
        return not _cached_snapshot(folder), None
    found = folder.file("tokenizer_config.json")
    if found is None:
        return False, None
    value = found.get("model_max_length")
    return True, value if _number(value) is not None else None


def draft_config(model: ConfigModel) -> HfConfig | None:
    draft = context(model).draft
    return draft.config if draft is not None else None


# --------------------------------------------------------------------------- hover


def _human(count: float) -> str:
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if count >= size:
            return f"{count / size:.1f}{unit}"
    return str(int(count))


def describe(config: HfConfig) -> str:
    """Markdown summary of a checkpoint (hover on `model:`)."""
    rows: list[tuple[str, str]] = []

    def row(label: str, value: object) -> None:
        if value not in (None, "", 0):
            rows.append((label, str(value)))

    arch = config.arch
    roles = f" ({', '.join(arch.roles)})" if arch else " (not in vLLM's registry)"
    row("architecture", ", ".join(config.architectures) + roles if config.architectures else None)
    row("model_type", config.model_type)
    params = config.estimate_parameters()
    row("parameters", f"≈ {_human(params)} (estimated from the shapes)" if params else None)
    row("layers", config.num_layers)
    heads, kv = config.num_attention_heads, config.num_kv_heads
    row("attention heads / KV heads", f"{heads} / {kv}" if heads else None)
    row("hidden size", config.hidden_size)
    experts = config.num_experts
    if experts:
        per_token = config.get("num_experts_per_tok", "num_experts_per_token", "moe_topk")
        row("experts", f"{experts}" + (f" ({per_token} per token)" if per_token else ""))
    if config.uses_mla:
        row("attention", "MLA (multi-head latent attention)")
    limit = config.derived_max_len()
    if limit is not None:
        how = f" ({limit.key}" + "".join(f", {n}" for n in limit.notes) + ")"
        row("max context", f"{limit.as_int}{how}")
    row("sliding window", config.sliding_window)
    row("vocab", config.vocab_size)
    row("dtype", config.dtype)
    row("quantization", config.quant_method)
    if arch is not None and arch.flag("supports_multimodal"):
        row("multimodal", "yes")
    lines = [f"**{config.where.name}**", ""]
    lines += [f"- {label}: `{value}`" for label, value in rows]
    if config.where.local:
        lines += ["", f"Read from {config.where.origin}: `{config.where.folder}`"]
    else:
        lines += ["", f"Read from {config.where.origin}; a local config.json would win."]
    return "\n".join(lines)


def describe_model(
    text: str,
    path: Path | None = None,
    model_dirs: Sequence[Path] = (),
    *,
    draft: bool = False,
    brief: bool = False,
) -> str | None:
    """Hover text for the `model:` of a config file, or with `draft` for the speculative
    draft (markdown), or None when the file names none; `brief`: files not found in one
    sentence (a note after the flag's documentation). Pure: reads only the model's files
    (cached), never the network."""
    from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION, load_catalogue
    from vllm_config_lsp.vllm.config_model import build_model

    model = build_model(
        text, load_catalogue(DEFAULT_VERSION), path=path, model_dirs=tuple(model_dirs)
    )
    resolved = context(model).draft if draft else context(model).target
    if resolved is None or resolved.name is None:
        return None
    if resolved.config is None:
        missing = f"Model files not found: {resolved.problem}."
        return missing if brief else f"**{resolved.name}**\n\n{missing}\n\n{HOW_TO}"
    return describe(resolved.config)


HOW_TO = (
    "Model-aware checks read the model's `config.json` offline. Make it findable: a local "
    "folder (relative to this file), a folder listed in the `modelDirs` setting or the "
    f"`{MODEL_DIRS_ENV}` environment variable, or the Hugging Face cache "
    "(`vllm-config-lsp models pull ORG/NAME` fetches config.json there)."
)


def iter_models(model: ConfigModel) -> Iterator[Resolved]:
    ctx = context(model)
    yield ctx.target
    if ctx.draft is not None:
        yield ctx.draft
