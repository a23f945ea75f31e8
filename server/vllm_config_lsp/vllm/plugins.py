"""vLLM's platform plugins (vllm-ascend, tpu-inference, …) and which one a start runs with.

Each catalogued plugin release is `schemas/plugins/<plugin>-<version>.json`, generated from
its wheel by `tools/generate_plugin_catalogues.py` (read with `ast`, never imported): the
names it registers (quantization methods, KV connectors, attention backends, models,
parsers, custom ops), the `--additional-config` keys it reads, its platform's supported
quantization methods, its environment variables and the vLLM release it is built for.

`choose_plugin` decides, most specific sign first, whether a start runs with a plugin:

1. the file's `# vllm-config: plugin=vllm-ascend@0.23.0` comment (`plugin=none`: stock);
2. the user's setting (`vllmConfig.plugins`, the project setting `plugins`);
3. the start's container image (`quay.io/ascend/vllm-ascend:v0.23.0rc1`, `vllm/vllm-tpu:…`);
   then its own command line's switch word, where vLLM hands the start to a plugin for it
   (`vllm serve … --omni` runs vllm-omni's serve command from vLLM 0.30.0 on);
4. an image named elsewhere in the document (an `IMAGE=` variable, a `FROM` line);
5. a `pip install vllm-ascend==X` in the document;
6. the device the document asks for (`huawei.com/Ascend910*`, `google.com/tpu`,
   `ASCEND_RT_VISIBLE_DEVICES`, vllm-ascend's test launcher's `npu_per_node`);
7. the document naming the plugin's package (`vllm-ascend`, `tpu-inference`), as the
   plugin's own docs and recipes do.

A start whose own image is stock vLLM's (`vllm/vllm-openai:…`) runs stock vLLM whatever
the rest of the document says (only the comment and the setting override it); without
any sign, the start runs stock vLLM. A sign that names the plugin's release fixes it
(and, unless the user named vLLM's, the vLLM release: the one it is built for); one that
names the plugin only takes the plugin release built for the vLLM release chosen.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any

from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.vllm.catalogue import Catalogue, minor_of, schema_dir, version_key

#: Image repositories (last path part) that ship a plugin, and the plugin.
IMAGE_PLUGINS = {
    "vllm-ascend": "vllm-ascend",
    "vllm-tpu": "tpu-inference",
    "tpu-inference": "tpu-inference",
    "vllm-spyre": "vllm-spyre",
    "vllm-rbln": "vllm-rbln",
    "vllm-kunlun": "vllm-kunlun",
    "vllm-omni": "vllm-omni",
}
#: Words on the command line with which vLLM hands the start to a plugin, the first vLLM
#: release that does, and the line: `maybe_run_omni` (vllm/entrypoints/cli/main.py:19 in
#: 0.33.0) runs vllm-omni's CLI when `"--omni" in sys.argv`, literally (an abbreviation or a
#: `--config` key is not in `sys.argv` and does not switch). Without vllm-omni installed it
#: logs "--omni flag requires a valid instance of vllm-omni to be installed." and exits.
SWITCHES = {"--omni": ("vllm-omni", (0, 30, 0), "vllm/entrypoints/cli/main.py:19")}
#: Device resources (Kubernetes extended resources, node labels) and the plugin they need.
DEVICE_PLUGINS = (
    (re.compile(r"\bhuawei\.com/Ascend\d+\w*"), "vllm-ascend"),
    (re.compile(r"\bgoogle\.com/tpu\b"), "tpu-inference"),
    (re.compile(r"\bcloud\.google\.com/gke-tpu-accelerator\b"), "tpu-inference"),
    (re.compile(r"\bASCEND_RT_VISIBLE_DEVICES\b"), "vllm-ascend"),
    (re.compile(r"^\s*npu_per_node\s*:", re.MULTILINE), "vllm-ascend"),
)
#: The package names a document may name the plugin by.
_NAMED_RE = re.compile(
    r"(?<![\w/-])(vllm[-_]ascend|tpu[-_]inference|vllm[-_]tpu|vllm[-_]omni)(?![\w-])"
)
#: Stock vLLM's images: a start in one runs no plugin.
_STOCK_RE = re.compile(r"(?:^|/)vllm-openai(?:-\w+)?(?::|@|$)")
_IMAGE_RE = re.compile(
    r"(?<![\w.-])(?:[\w.-]+(?::\d+)?/)*(" + "|".join(IMAGE_PLUGINS) + r"):([\w][\w.-]*)"
)
_PIP_RE = re.compile(
    r"\bpip3?\s+install\b[^\n]*?\b("
    + "|".join(sorted(set(IMAGE_PLUGINS.values())))
    + r")==v?([\w.]+)"
)
#: What is read of a document for the signs beyond its start (image names, pins, devices).
MAX_SCAN_CHARS = 512 * 1024


@dataclass(frozen=True)
class Plugin:
    """One catalogued plugin release."""

    name: str
    version: str
    data: Mapping[str, Any] = field(hash=False, compare=False)
    #: Chosen only because the document names the package (the weakest sign): its names
    #: are accepted, but what it refuses is not said (the start may run stock vLLM).
    named_only: bool = False

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"

    def registered(self, kind: str) -> Mapping[str, str]:
        """name → source line of what the plugin registers (`quantization`,
        `kv_connectors`, `attention_backends`, `models`, `tool_parsers`,
        `reasoning_parsers`, `custom_ops`)."""
        found = self.data.get("registers", {}).get(kind, {})
        return found if isinstance(found, dict) else {}

    def refusal(self, said: str) -> Mapping[str, str] | None:
        """The platform's `check_and_update_config` raise whose message starts with
        `said` (its message and source line), where this start surely runs the plugin:
        a release without the site, or a plugin chosen only by name, refuses nothing."""
        if self.named_only:
            return None
        raises = self.platform.get("check_and_update_config_raises") or []
        return next((r for r in raises if str(r.get("message", "")).startswith(said)), None)

    @property
    def vllm_release(self) -> str | None:
        release = self.data.get("vllm", {}).get("release")
        return release if isinstance(release, str) else None

    @property
    def additional_config(self) -> Mapping[str, Any]:
        found = self.data.get("additional_config", {})
        return found if isinstance(found, dict) else {}

    @property
    def environment(self) -> Mapping[str, Any]:
        """name → {default, source} of the variables the plugin's `envs.py` reads."""
        found = self.data.get("environment") or {}
        return found if isinstance(found, dict) else {}

    @property
    def serve_flags(self) -> Mapping[str, Any]:
        """flag name → its raw catalogue entry, for the flags the plugin's own serve command
        adds to vLLM's (vllm-omni's `OmniConfig` group)."""
        found = (self.data.get("serve") or {}).get("flags") or {}
        return found if isinstance(found, dict) else {}

    @property
    def platform(self) -> Mapping[str, Any]:
        found = self.data.get("platform") or {}
        return found if isinstance(found, dict) else {}


@dataclass(frozen=True)
class PluginChoice:
    """The plugin a start runs with, why, and whether the sign named its release
    (`said`: as written)."""

    plugin: Plugin
    why: str
    versioned: bool
    said: str | None = None

    @property
    def vllm_release(self) -> str | None:
        """The vLLM release the named plugin release is built for: the catalogued
        release's, or, for a plugin whose releases carry vLLM's number (vllm-ascend
        X.Y.Z is built for vLLM X.Y.Z), the number written (`v0.17.0rc1`: 0.17.0)."""
        built = self.plugin.vllm_release
        if not self.versioned or built is None:
            return None
        if self.said is not None and minor_of(built) == minor_of(self.plugin.version):
            return self.said.lstrip("v")
        return built


@cache
def catalogued() -> dict[str, tuple[str, ...]]:
    """plugin → its catalogued releases, oldest first."""
    found: dict[str, list[str]] = {}
    folder = schema_dir() / "plugins"
    for path in folder.glob("*.json") if folder.is_dir() else ():
        match = re.fullmatch(r"(.+)-(\d[\w.]*)\.json", path.name)
        if match:
            found.setdefault(match.group(1), []).append(match.group(2))
    return {name: tuple(sorted(v, key=version_key)) for name, v in sorted(found.items())}


@cache
def load_plugin(name: str, version: str) -> Plugin | None:
    if version not in catalogued().get(name, ()):
        return None
    path = schema_dir() / "plugins" / f"{name}-{version}.json"
    return Plugin(name, version, json.loads(path.read_text(encoding="utf-8")))


def _release_for(name: str, said: str | None) -> str | None:
    """The catalogued release of `name` for a version as written (`v0.23.0rc1`): the one
    of its minor, else the nearest minor (the newer of two as near); no version: newest."""
    releases = catalogued().get(name, ())
    if not releases:
        return None
    wanted = minor_of(said) if said else None
    if wanted is None:
        return releases[-1]

    def distance(release: str) -> tuple[int, int]:
        major, minor = minor_of(release) or (0, 0)
        gap = abs((major - wanted[0]) * 1000 + minor - wanted[1])
        return gap, -version_key(release)[1] if minor_of(release) else 0

    return min(reversed(releases), key=distance)


def _for_vllm(name: str, vllm: str) -> str | None:
    """The plugin release built for vLLM `vllm`'s minor, else the newest built for an
    older one, else the oldest."""
    releases = catalogued().get(name, ())
    wanted = minor_of(vllm)
    built = [(r, minor_of(_built_for(name, r))) for r in releases]
    same = [r for r, minor in built if minor == wanted]
    if same:
        return same[-1]
    older = [r for r, minor in built if wanted is not None and minor is not None and minor < wanted]
    return older[-1] if older else (releases[0] if releases else None)


def _built_for(name: str, release: str) -> str:
    plugin = load_plugin(name, release)
    return (plugin.vllm_release if plugin is not None else None) or release


def _spelled(name: str) -> str:
    """`ascend`, `vllm_ascend`, `vllm-tpu` → the catalogued plugin's name."""
    key = name.strip().lower().replace("_", "-")
    if key in catalogued():
        return key
    if key in IMAGE_PLUGINS:
        return IMAGE_PLUGINS[key]
    if f"vllm-{key}" in catalogued():
        return f"vllm-{key}"
    return key


def parse_plugin(spec: str) -> tuple[str, str | None]:
    """`vllm-ascend@0.23.0`, `vllm-ascend==0.23.0`, `vllm-ascend` → (plugin, version)."""
    name, _sep, version = _split(spec)
    return _spelled(name), version or None


def is_catalogued(spec: str) -> bool:
    """Whether a setting's entry (`vllm-ascend@0.23.0`, `ascend`) names a catalogued plugin."""
    return parse_plugin(spec)[0] in catalogued()


def _split(spec: str) -> tuple[str, str, str]:
    match = re.match(r"\s*([^@=\s]+)\s*(?:(@|==)\s*(\S+))?", spec)
    if not match:
        return spec, "", ""
    return match.group(1), match.group(2) or "", match.group(3) or ""


def choose_plugin(
    text: str,
    *,
    vllm: str,
    marker: Mapping[str, str],
    setting: Sequence[str] = (),
    image: str | None = None,
    words: Sequence[str] = (),
) -> PluginChoice | None:
    """The plugin a start runs with (the order in the module docstring), or None: stock
    vLLM. `vllm`: the release chosen so far (a plugin named without a release takes the
    plugin release built for it); `image`: the start's own container image; `words`: its
    command line as written (no `--config` file's keys)."""
    said = marker.get("plugin")
    if said is not None:
        if said.strip().lower() in ("", "none", "stock", "vllm"):
            return None
        return _choice(*parse_plugin(said), vllm, "the `# vllm-config: plugin=` comment")
    for entry in setting:
        name, version = parse_plugin(entry)
        if name in catalogued():
            return _choice(name, version, vllm, "the plugins setting")
    if image is not None:
        found = _IMAGE_RE.search(image)
        if found is not None:
            where = f"the image {image}"
            return _choice(IMAGE_PLUGINS[found.group(1)], found.group(2), vllm, where)
        if _STOCK_RE.search(image):
            return None
    switch = switched(words, vllm)
    if switch is not None:
        return _choice(SWITCHES[switch][0], None, vllm, f"the `{switch}` flag")
    sign = _file_sign(text)
    if sign is None:
        return None
    name, version, where, named_only = sign
    choice = _choice(name, version, vllm, where)
    if choice is None or not named_only:
        return choice
    return replace(choice, plugin=replace(choice.plugin, named_only=True))


def switched(words: Sequence[str], vllm: str) -> str | None:
    """The switch word (`--omni`) among a command line's words, where vLLM `vllm` hands
    such a start to a plugin; None: vLLM runs it itself."""
    for word, (_plugin, since, _line) in SWITCHES.items():
        if word in words and version_key(vllm)[:3] >= since:
            return word
    return None


@text_memo
def _file_sign(text: str) -> tuple[str, str | None, str, bool] | None:
    """What the file as a whole says of a plugin: (name, version, where, whether the file
    only names the package, the weakest sign). The same for every start of the file, so
    read once per text: a script of 2,500 starts scanned its whole text eight times per
    start (50 s per keystroke)."""
    head = text[:MAX_SCAN_CHARS]
    found = _IMAGE_RE.search(head)
    if found is not None:
        where = f"the image {found.group(0)} named in the file"
        return IMAGE_PLUGINS[found.group(1)], found.group(2), where, False
    pinned = _PIP_RE.search(head)
    if pinned is not None:
        where = f"`pip install {pinned.group(1)}=={pinned.group(2)}` in the file"
        return pinned.group(1), pinned.group(2), where, False
    for pattern, name in DEVICE_PLUGINS:
        device = pattern.search(head)
        if device is not None:
            what = device.group(0).strip().rstrip(":")
            return name, None, f"the device {what} the file asks for", False
    named = _NAMED_RE.search(head)
    if named is not None:
        return _spelled(named.group(1)), None, f"the file naming {named.group(1)}", True
    return None


def _choice(name: str, said: str | None, vllm: str, where: str) -> PluginChoice | None:
    if name not in catalogued():
        return None
    versioned = said is not None and minor_of(said) is not None
    release = _release_for(name, said) if versioned else _for_vllm(name, vllm)
    plugin = load_plugin(name, release) if release else None
    if plugin is None:
        return None
    if versioned and said is not None and said.lstrip("v") != plugin.version:
        why = f"{plugin.label} (for {said}), from {where}"
    else:
        why = f"{plugin.label}, from {where}"
    return PluginChoice(plugin, why, versioned, said if versioned else None)


#: The catalogue's value sets a plugin's registrations extend.
EXTENDS = {
    "quantization": "quantization_methods",
    "kv_connectors": "kv_connectors",
    "attention_backends": "attention_backends",
    "tool_parsers": "tool_parsers",
    "reasoning_parsers": "reasoning_parsers",
}


def with_plugin(
    catalogue: Catalogue, plugin: Plugin | None, switch: str | None = None
) -> Catalogue:
    """vLLM's catalogue with the plugin's registrations added to its value sets (a plugin
    quantization method is valid; a typo's suggestions include the plugin's names) and,
    where the command line's `switch` word hands the start to the plugin's own serve
    command, that command's flags (a flag vLLM has keeps vLLM's definition, as the
    plugin's `try: add_argument … except argparse.ArgumentError` does). The switch word
    itself never reaches argparse: it is a flag of the extended catalogue either way."""
    if plugin is None and switch is None:
        return catalogue
    return _extended(catalogue, plugin, switch)


def _switch_flags(plugin: Plugin | None, switch: str) -> dict[str, Any]:
    """The raw flags a switched start accepts beyond vLLM's: the plugin's serve flags, or,
    with no plugin for it, the switch word alone (its refusal is `VC252`'s)."""
    if plugin is not None and plugin.name == SWITCHES[switch][0] and plugin.serve_flags:
        return dict(plugin.serve_flags)
    name = switch.lstrip("-")
    line = SWITCHES[switch][2]
    return {name: {"options": [switch], "action": "store_true", "source": line}}


@lru_cache(maxsize=64)
def _extended(catalogue: Catalogue, plugin: Plugin | None, switch: str | None) -> Catalogue:
    extended = copy.copy(catalogue)  # shares what was read; its own value sets
    if switch is not None:
        raw = _switch_flags(plugin, switch)
        new = {name: entry for name, entry in raw.items() if name not in catalogue.flags}
        flags = {**catalogue.flags, **catalogue.flag_specs(new)}
        extended.__dict__["flags"] = flags
        for derived in ("option_index", "flags_by_class", "flags_by_field"):
            extended.__dict__.pop(derived, None)
    if plugin is None:
        return extended
    sets = dict(catalogue.value_sets)
    for kind, name in EXTENDS.items():
        known = sets.get(name)
        added = [n for n in plugin.registered(kind) if known is None or n not in known.values]
        if known is not None and added:
            sets[name] = replace(known, values=(*known.values, *added))
    extended.__dict__["value_sets"] = sets
    return extended
