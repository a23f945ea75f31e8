"""Differential fuzzing: generated `vllm serve --config` files, judged by the real vLLM and by us.

The contract is that an error means vLLM refuses to start. Hand-written cases only test what
someone thought of, so this tool generates configs from the schema (every flag and every field
of the config classes, with the value shapes vLLM's loader can receive) and from the accepted
corpus, asks the CPU oracle (vLLM 0.33.0 in batch mode) and the engine about each, and groups
the disagreements by cause:

* false error: the engine reports an error, vLLM starts (the worst kind: fix these first);
* missed refusal: vLLM refuses, the engine reports no error;
* artefact: the verdict reflects the oracle's stub model or the CPU platform, not the file;
* warning mismatch (counted apart, on files both accept): vLLM logs a start-up warning that
  no finding of the engine quotes.

Besides one-setting mutations, `siblings` sets together the keys that one vLLM check reads
(each refusal's and start-up warning's keys in docs/catalogue/vllm-rules-VERSION.json and
vllm-warnings-VERSION.json, sometimes with a check that shares one of them), with the
extreme numbers a limit meets and a YAML null beside the fields of a config object.

Run a new seed (the oracle is the team's recipe, shared/recipes/oracle/):

    python tools/differential_fuzz.py --seed 3 --count 1500 --oracle-dir DIR --out /tmp/fuzz3

`--version 0.28.0` (with that release's oracle, shared/recipes/oracle-releases/) generates from
that release's catalogue and marks each case `# vllm-config: version=0.28.0`.

It writes OUT/cases/*.yaml, OUT/verdicts.jsonl (one line per case: both verdicts and the class)
and OUT/report.md, whose first line is `seed S: N configs, agree X (P %), false errors F,
missed M, artefacts A; warning mismatches W` (P is taken over the configs that are not
artefacts). A seed always generates the same files (with the same generator: the
`siblings` mutation, added after seed 24, changed which mutation each case number gets).
`--export tests/fidelity/cases/fuzz` then copies
agreeing cases of every class (each refusal cause and artefact once, `2 x --per-class`
accepted files per mutation kind; `--also OUT2` adds another seed's run) into the fidelity
suite with their `# phrase:`/`#!` marks, checked against the engine before they are written;
record their verdicts with tools/record_vllm_verdicts.py.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from vllm_config_lsp.document.text_index import TextIndex  # noqa: E402
from vllm_config_lsp.engine import lint  # noqa: E402
from vllm_config_lsp.findings import Severity  # noqa: E402
from vllm_config_lsp.vllm.catalogue import Catalogue, FieldSpec, FlagSpec, load_catalogue  # noqa: E402

CORPUS = Path("/work/shared/corpus/real")
VERSION = "0.33.0"
#: How YAML can say "nothing" (all load as None except the quoted forms, which are strings).
NULLS = ("", "null", "~", "Null", "NULL", "'None'", "None", "'null'")
#: YAML 1.1 words and number forms PyYAML reads differently from what they look like.
SPELLINGS = (
    "yes",
    "no",
    "on",
    "off",
    "True",
    "FALSE",
    "y",
    "0x10",
    "0o17",
    "017",
    "1_000",
    "1e3",
    "1.0e+3",
    ".inf",
    "-.inf",
    ".nan",
    "+1",
    "2k",
    "4K",
    "1M",
    "'1'",
    "0.0",
)
#: Words in a refusal that only the stub model or the CPU platform produced.
PLATFORM = re.compile(
    r"cuda|gpu|device|platform|\bcpu\b|nvidia|rocm|triton|flash_?infer|Model Runner V", re.I
)
#: Files and modules the configs name that this machine does not have, and settings of the
#: serving host's environment that a config file cannot hold (`VLLM_USE_RUST_FRONTEND` for
#: `grpc-port`: VC508 warns; the gRPC server's package).
ENVIRONMENT = re.compile(
    r"does not exist|doesn't exist|No module named|_OpNamespace|"
    r"requires VLLM_USE_RUST_FRONTEND|requires smg-grpc-servicer",
    re.I,
)
STUB = re.compile(
    r"max_position_embeddings|config\.json|num_attention_heads|attention heads|architecture|"
    r"num_hidden_layers|hidden_size|tokenizer|model's|derived max_model_len|"
    r"Repository Not Found|does not appear to have|repository ID|experts in the model|Non-MoE|"
    r"mistral|Engram|Cannot find the config file|non multimodal|not a multimodal|"
    r"Unsupported speculative method",
    re.I,
)


#: Rules whose refusal comes after the step where the oracle stops (oracle.md section 7), or
#: in a step the CPU platform skips.
BEYOND_ORACLE = {
    "VC529": "setup_server's socket bind (vllm/entrypoints/launchers/launcher.py:378)",
    "VC407": "post_init_cudagraph_sizes, which asserts on CUDA and never runs without CUDA graphs "
    "(vllm/config/compilation.py:1147; tests/fidelity/cases/model/compile-sizes-bad-word.yaml)",
}


@dataclass
class Case:
    name: str
    kind: str
    text: str


# --- generation ------------------------------------------------------------------------------


def _scalar(value: object) -> str:
    """`value` as one line of flow YAML."""
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 2:
        return word + "x"
    i = rng.randrange(len(word))
    return rng.choice([word[:i] + word[i + 1 :], word[:i] + "x" + word[i:], word[::-1]])


def _case_variants(rng: random.Random, word: str) -> list[str]:
    return [
        word.upper(),
        word.title(),
        word.replace("_", "-"),
        word.replace("-", "_"),
        _typo(rng, word),
        " " + word,
    ]


def _number_values(rng: random.Random, kind: str, constraints: dict[str, Any]) -> list[Any]:
    step = 1 if kind == "int" else 0.01
    values: list[Any] = [0, -1, 1, 2, 65536, 2**31, 2**63, 1.5, "1k", "abc", True, [1, 2], [8]]
    for op in ("ge", "gt", "le", "lt"):
        if op in constraints:
            bound = constraints[op]
            values += [bound, bound - step, bound + step]
    if kind == "float":
        values += [0.5, 0.95, 1.0, 1.01, -0.1, 1e-9]
    return [round(v, 6) if isinstance(v, float) else v for v in values]


class Generator:
    """Seeded configs: one mutation (or a pair of settings) on a corpus file or on `model: m`."""

    def __init__(self, catalogue: Catalogue, corpus: list[dict[str, Any]]) -> None:
        self.cat = catalogue
        #: An older release's cases say so (the marker the engine and the recorder read).
        self.marker = (
            "" if catalogue.version == VERSION else f"# vllm-config: version={catalogue.version}\n"
        )
        self.corpus = corpus
        self.flags = [
            f for f in catalogue.flags.values() if not f.positional and f.action != "help"
        ]
        self.class_flags = [f for f in self.flags if f.dataclass_name in catalogue.classes]
        self.mutations: dict[str, Callable[[random.Random], tuple[dict[str, Any], list[str]]]] = {
            "null": self._null,
            "empty": self._empty,
            "boundary": self._boundary,
            "yaml-spelling": self._spelling,
            "enum-case": self._enum_case,
            "list-shape": self._list_shape,
            "json-form": self._json_form,
            "nested-value": self._nested_value,
            "duplicate": self._duplicate,
            "prefix": self._prefix,
            "unknown-key": self._unknown_key,
            "negative-flag": self._negative,
            "pair": self._pair,
            "siblings": self._siblings,
        }
        #: Settings vLLM checks against each other: the keys each refusal of the release's
        #: rule catalogue reads (docs/catalogue/vllm-rules-VERSION.json: `data-parallel-size-local`
        #: with `data-parallel-size`), else the flags of each config class that has several.
        self.siblings = _checked_together(catalogue, self.flags)

    def generate(self, seed: int, count: int) -> Iterator[Case]:
        kinds = sorted(self.mutations)
        for n in range(count):
            rng = random.Random(f"{seed}:{n}")
            kind = kinds[n % len(kinds)]
            base: dict[str, Any] = dict(rng.choice(self.corpus)) if rng.random() < 0.4 else {}
            changes, lines = self.mutations[kind](rng)
            for key in changes:
                for spelling in (key, key.replace("-", "_"), key.replace("_", "-")):
                    base.pop(spelling, None)
            base.update({k: v for k, v in changes.items() if v is not _RAW})
            body = {"model": "m", **base} if "model" not in base else base
            text = yaml.safe_dump(body, sort_keys=False, width=10_000, allow_unicode=True)
            raw = "".join(f"{line}\n" for line in lines)
            yield Case(f"s{seed}-{n:05d}-{kind}", kind, self.marker + text + raw)

    # a mutation returns (keys to set or to clear in the base, raw lines to append)

    def _flag(self, rng: random.Random, where: Callable[[FlagSpec], bool] = bool) -> FlagSpec:
        return rng.choice([f for f in self.flags if where(f)])

    def _null(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        if rng.random() < 0.5:
            flag = self._flag(rng)
            return {flag.name: _RAW}, [f"{flag.name}: {rng.choice(NULLS)}".rstrip()]
        flag, field = self._class_field(rng)
        spelling = rng.choice(NULLS)
        if rng.random() < 0.5:
            return {flag.name: _RAW}, [f"{flag.name}.{field.name}: {spelling}".rstrip()]
        return {flag.name: _RAW}, [f"{flag.name}:", f"  {field.name}: {spelling}".rstrip()]

    def _empty(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng)
        return {flag.name: rng.choice(["", [], {}, [""], [None], "{}", " "])}, []

    def _boundary(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        if rng.random() < 0.5:
            flag = self._flag(rng, lambda f: f.parse in ("int", "float", "human_int"))
            kind = "float" if flag.parse == "float" else "int"
            field = self._field_of(flag)
            constraints = field.constraints if field else {}
            return {flag.name: rng.choice(_number_values(rng, kind, constraints))}, []
        flag, field = self._class_field(rng, lambda s: _kind(s) in ("int", "float"))
        value = rng.choice(_number_values(rng, _kind(field), field.constraints))
        return {flag.name: {field.name: value}}, []

    def _spelling(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng)
        if rng.random() < 0.3:
            flag, field = self._class_field(rng)
            return {flag.name: _RAW}, [f"{flag.name}:", f"  {field.name}: {rng.choice(SPELLINGS)}"]
        return {flag.name: _RAW}, [f"{flag.name}: {rng.choice(SPELLINGS)}"]

    def _enum_case(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        if rng.random() < 0.5:
            flag = self._flag(rng, lambda f: bool(f.choices))
            word = str(rng.choice(flag.choices or ("",)))
            return {flag.name: rng.choice([word, *_case_variants(rng, word)])}, []
        flag, field = self._class_field(rng, lambda s: _kind(s) in ("literal", "enum"))
        words = self._words(field)
        word = rng.choice(words) if words else "x"
        return {flag.name: {field.name: rng.choice([word, *_case_variants(rng, word)])}}, []

    def _list_shape(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng)
        if flag.nargs == "+" or rng.random() < 0.3:
            flag = self._flag(rng, lambda f: f.nargs == "+")
            item = str(rng.choice(flag.choices or ("a", "b", "1", "8")))
            shapes: list[Any] = [
                [item],
                [item, item],
                f"{item} {item}",
                f"{item},{item}",
                [item, ""],
                [item, None],
                [[item]],
                item,
                [1, 2],
            ]
            return {flag.name: rng.choice(shapes)}, []
        value = self._value_for_flag(rng, flag)
        return {flag.name: rng.choice([[value], [value, value], [value, "x"]])}, []

    def _json_form(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag, field = self._class_field(rng)
        value = self._value_for_field(rng, field, valid=rng.random() < 0.7)
        form = rng.choice(["mapping", "json", "dotted", "dotted-list"])
        if form == "mapping":
            return {flag.name: {field.name: value}}, []
        if form == "json":
            return {flag.name: json.dumps({field.name: value})}, []
        key = f"{flag.name}.{field.name}"
        return {flag.name: _RAW, key: [value] if form == "dotted-list" else value}, []

    def _nested_value(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag, field = self._class_field(rng)
        mapping = {field.name: self._value_for_field(rng, field, valid=rng.random() < 0.4)}
        if rng.random() < 0.2:
            mapping[_typo(rng, field.name)] = 1
        if rng.random() < 0.3:
            other = rng.choice(list(self.cat.classes[flag.dataclass_name or ""].fields.values()))
            mapping[other.name] = self._value_for_field(rng, other, valid=True)
        return {flag.name: mapping}, []

    def _duplicate(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng, lambda f: f.takes_value)
        first, second = self._value_for_flag(rng, flag), self._value_for_flag(rng, flag)
        spelling = rng.choice([flag.name, flag.name.replace("-", "_")])
        return {flag.name: _RAW}, [
            f"{flag.name}: {_scalar(first)}",
            f"{spelling}: {_scalar(second)}",
        ]

    def _prefix(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng, lambda f: len(f.name) > 4)
        short = flag.name[: rng.randrange(3, len(flag.name))]
        value = self._value_for_flag(rng, flag) if flag.takes_value else True
        return {short: value}, []

    def _unknown_key(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng)
        key = rng.choice([_typo(rng, flag.name), "config", flag.name + "s", "x-" + flag.name])
        return {key: rng.choice([True, False, 1, "x", [], None])}, []

    def _negative(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        flag = self._flag(rng, lambda f: f.action in ("boolean_optional", "store_true"))
        key = rng.choice([f"no-{flag.name}", flag.name])
        return {key: rng.choice([True, False, "true", "false", "yes", 1, 0, "on"])}, []

    def _pair(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        changes: dict[str, Any] = {}
        for flag in rng.sample(self.flags, rng.choice([2, 2, 3])):
            changes[flag.name] = self._value_for_flag(rng, flag, plausible=True)
        return changes, []

    def _siblings(self, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
        """Settings that vLLM checks against each other, which a pair drawn from the whole
        catalogue rarely hits: the keys of one refusal (sometimes of two), with the extreme
        numbers a limit can meet, and sometimes a YAML null in another field of a config
        object they set (a null next to the fields that decide)."""
        keys = list(rng.choice(self.siblings))
        if rng.random() < 0.4:
            # a check that shares a setting with this one (the pooling hook that turns
            # chunked prefill off, then the check of max-num-batched-tokens against
            # max-model-len that only applies with it off)
            linked = [g for g in self.siblings if set(g) & set(keys) and set(g) - set(keys)]
            if linked:
                keys += [k for k in rng.choice(linked) if k not in keys]
        changes: dict[str, Any] = {}
        for key in keys:
            flag_name, _, field_name = key.partition(".")
            flag = self.cat.flags.get(flag_name)
            if flag is None:
                continue
            spec = self.cat.classes.get(flag.dataclass_name or "")
            if not field_name and spec is None:
                changes[flag.name] = self._sibling_value(rng, flag)
                continue
            mapping = changes.setdefault(flag.name, {})
            if not isinstance(mapping, dict):
                continue
            fields = spec.fields if spec else {}
            field = fields.get(field_name.split(".", 1)[0]) or (
                None if field_name else rng.choice(list(fields.values()) or [None])
            )
            if field is not None:
                mapping[field.name] = self._value_for_field(rng, field, valid=rng.random() < 0.8)
            if rng.random() < 0.5:
                others = [f for f in fields.values() if f.init and f.name not in mapping]
                if others:
                    mapping[rng.choice(others).name] = None
        return changes, []

    def _sibling_value(self, rng: random.Random, flag: FlagSpec) -> Any:
        if flag.parse in ("int", "human_int", "human_int_or_auto") and rng.random() < 0.5:
            return rng.choice([0, 1, 2, 3, 4, 8, 2**31, 2**63])
        return self._value_for_flag(rng, flag, plausible=True)

    # values

    def _class_field(
        self, rng: random.Random, where: Callable[[FieldSpec], bool] = bool
    ) -> tuple[FlagSpec, FieldSpec]:
        pairs = [
            (flag, field)
            for flag in self.class_flags
            for field in self.cat.classes[flag.dataclass_name or ""].fields.values()
            if field.init and where(field)
        ]
        return rng.choice(pairs)

    def _field_of(self, flag: FlagSpec) -> FieldSpec | None:
        if not flag.field or "." not in flag.field:
            return None
        cls, name = flag.field.split(".", 1)
        spec = self.cat.classes.get(cls)
        return spec.fields.get(name) if spec else None

    def _words(self, field: FieldSpec) -> list[str]:
        spec = _unwrap(field.type)
        if spec.get("kind") == "literal":
            return [str(v) for v in spec.get("values", [])]
        members = self.cat.enums.get(spec.get("name", ""), {})
        return [*members, *(str(v) for v in members.values() if not isinstance(v, list))]

    def _value_for_flag(
        self, rng: random.Random, flag: FlagSpec, *, plausible: bool = False
    ) -> Any:
        if flag.choices:
            return rng.choice(flag.choices)
        if not flag.takes_value:
            return rng.choice([True, True, False] if plausible else [True, False, "yes", 1, None])
        field = self._field_of(flag)
        if flag.parse in ("int", "human_int", "human_int_or_auto"):
            low = (field.constraints.get("ge", 1) if field else 1) or 1
            return rng.choice(
                [low, low + 1, 2, 4, 8, 16, 4096, 32768] if plausible else [0, -1, 1, 8]
            )
        if flag.parse == "float":
            return rng.choice([0.5, 0.9, 1.0] if plausible else [0, -1.0, 0.5, 2.0])
        if flag.nargs == "+":
            return ["a"] if plausible else rng.choice([["a"], "a", ["a", "b"]])
        if field is not None:
            return self._value_for_field(rng, field, valid=plausible)
        return rng.choice(["x", "auto", "1", "none"])

    def _value_for_field(self, rng: random.Random, field: FieldSpec, *, valid: bool) -> Any:
        spec = _unwrap(field.type) if valid else field.type
        return self._value_of(rng, spec, field.constraints, valid, depth=0)

    def _value_of(
        self,
        rng: random.Random,
        spec: dict[str, Any],
        constraints: dict[str, Any],
        valid: bool,
        depth: int,
    ) -> Any:
        kind = spec.get("kind")
        wrong: list[Any] = [None, "", "x", 1, 1.5, True, [], {}, [None]]
        if not valid and rng.random() < 0.5:
            return rng.choice(wrong)
        if kind == "union":
            options = spec.get("options") or [{"kind": "any"}]
            return self._value_of(rng, rng.choice(options), constraints, valid, depth)
        if kind == "none":
            return None
        if kind == "bool":
            return rng.choice([True, False])
        if kind in ("int", "float"):
            if valid:
                low = constraints.get("ge", constraints.get("gt", 0))
                return low + (1 if kind == "int" or "gt" in constraints else 0)
            return rng.choice(_number_values(rng, kind, constraints))
        if kind in ("literal", "enum"):
            words = self._words(_as_field(spec))
            return rng.choice(words) if words else "x"
        if kind in ("list", "set"):
            item = self._value_of(rng, spec.get("item") or {"kind": "str"}, {}, valid, depth + 1)
            return rng.choice([[item], [item, item], []])
        if kind == "dict":
            value = self._value_of(rng, spec.get("value") or {"kind": "str"}, {}, valid, depth + 1)
            return {rng.choice(["image", "video", "a"]): value}
        if kind == "class" and depth < 2:
            cls = self.cat.classes.get(spec.get("name", ""))
            if cls and cls.fields:
                field = rng.choice(list(cls.fields.values()))
                return {
                    field.name: self._value_of(
                        rng, _unwrap(field.type), field.constraints, valid, depth + 1
                    )
                }
            return {}
        if kind == "str":
            return rng.choice(["x", "auto", "a,b"])
        return rng.choice(["x", 1, {}])


#: Marks a key the mutation writes itself as raw lines (so the base must not keep it).
_RAW = object()


def _unwrap(spec: dict[str, Any]) -> dict[str, Any]:
    """The first non-None member of an `X | None` union."""
    if spec.get("kind") == "union":
        options = [o for o in spec.get("options", []) if o.get("kind") != "none"]
        if options:
            return _unwrap(options[0])
    return spec


def _kind(field: FieldSpec) -> str:
    return str(_unwrap(field.type).get("kind"))


def _as_field(spec: dict[str, Any]) -> FieldSpec:
    return FieldSpec("", "", spec, None, False, True, {}, "", None)


def _checked_together(catalogue: Catalogue, flags: list[FlagSpec]) -> list[tuple[str, ...]]:
    """Groups of keys (`max-num-seqs`, `pooler-config.pooling_type`) that vLLM reads in one
    check: each refusal's keys in the release's rule catalogue, else the flags each config
    class owns (for a release without one)."""
    folder = ROOT / "docs" / "catalogue"
    rules = folder / f"vllm-rules-{catalogue.version}.json"
    if rules.exists():
        groups = {tuple(e["fields"]) for e in json.loads(rules.read_text(encoding="utf-8"))}
        warnings = folder / f"vllm-warnings-{catalogue.version}.json"
        if warnings.exists():
            sites = json.loads(warnings.read_text(encoding="utf-8"))["warnings"]
            groups |= {tuple(w["settings"] or ()) for w in sites}
        return sorted(
            g for g in groups if g and all(k.split(".", 1)[0] in catalogue.flags for k in g)
        )
    owners: dict[str, list[str]] = collections.defaultdict(list)
    for flag in flags:
        target = flag.field or (flag.passed_to[0] if flag.passed_to else "")
        if "." in target:
            owners[target.split(".", 1)[0]].append(flag.name)
    return [tuple(group) for _, group in sorted(owners.items()) if len(group) > 1]


def load_corpus(folder: Path) -> list[dict[str, Any]]:
    """The corpus files as mappings (their comments, which may name an older release, dropped)."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and data and all(isinstance(k, str) for k in data):
            out.append(data)
    return out


# --- judging ---------------------------------------------------------------------------------


def ask_oracle(
    oracle_dir: Path, files: list[Path], jobs: int, out: Path
) -> dict[str, dict[str, Any]]:
    """One oracle batch process per job, each on a slice of the files, each writing its own
    OUT/oracle-N.jsonl (a pipe would stall the others while one is read)."""
    python = oracle_dir / "venv" / "bin" / "python"
    env = {**os.environ, "VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"}
    running = []
    for part in range(jobs):
        chunk = files[part::jobs]
        if chunk:
            command = [str(python), str(oracle_dir / "oracle.py"), "--batch", *map(str, chunk)]
            sink = out / f"oracle-{part}.jsonl"
            with sink.open("w", encoding="utf-8") as handle:
                running.append(
                    (
                        sink,
                        subprocess.Popen(
                            command, stdout=handle, stderr=subprocess.DEVNULL, env=env
                        ),
                    )
                )
    rows: dict[str, dict[str, Any]] = {}
    for sink, proc in running:
        proc.wait()
        for line in sink.read_text(encoding="utf-8").splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                rows[Path(row["file"]).name] = row
    return rows


def product_findings(text: str, path: Path) -> list[dict[str, Any]]:
    """Every finding of the engine on one case (a crash is one finding, `CRASH`)."""
    try:
        result = lint(text, path=path)
    except Exception as exc:  # a crash is a finding of the fuzzer, not its end
        return [{"code": "CRASH", "line": 0, "message": repr(exc), "severity": "error"}]
    index = TextIndex(text)
    return [
        {
            "code": f.code,
            "line": index.line_col(f.start)[0],
            "message": f.message,
            "severity": "error" if f.severity == Severity.ERROR else "note",
        }
        for f in result.findings
    ]


def product_errors(text: str, path: Path) -> list[dict[str, Any]]:
    return [f for f in product_findings(text, path) if f["severity"] == "error"]


def unquoted_warnings(verdict: dict[str, Any], notes: list[dict[str, Any]]) -> list[str]:
    """vLLM's start-up warnings on a file it accepts that no finding of the engine quotes (the
    oracle sees the warnings of vLLM's loggers up to where it stops; oracle.md section 7)."""
    if not verdict["vllm_ok"]:
        return []
    return [
        warning
        for warning in verdict.get("vllm_warnings") or []
        if not any(len(_phrase(warning, n["message"])) >= MIN_PHRASE for n in notes)
    ]


def normalize(message: str) -> str:
    """A vLLM message without the values of this case: what a class of cases shares."""
    text = re.sub(r"For further information visit \S+", "", message)
    text = re.sub(r",? ?input_(value|type)=[^\]]*", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"-?\d+(\.\d+)?(e[+-]?\d+)?", "N", text)
    text = re.sub(r"\(choose from [^)]*\)", "(choose from …)", text)
    return re.sub(r"\s+", " ", text).strip()[:160]


def classify(verdict: dict[str, Any]) -> tuple[str, str]:
    """(outcome, cause) of one verdict: outcome is agree, false-error, missed or artefact."""
    message = verdict["vllm_message"] or ""
    refused = not verdict["vllm_ok"]
    errors = verdict["product_errors"]
    codes = ",".join(sorted({e["code"] for e in errors}))
    if verdict.get("inconclusive") or verdict.get("error_type") == "OracleCrash":
        return "artefact", "oracle inconclusive: " + normalize(message)
    if "CRASH" in codes:
        return "false-error", "product crash"
    if refused == bool(errors):
        return "agree", normalize(message) if refused else "accepted"
    if refused and verdict["model_substituted"] and STUB.search(message):
        return "artefact", "stub model: " + normalize(message)
    if refused and ENVIRONMENT.search(message):
        return "artefact", "environment: " + normalize(message)
    if refused and verdict["stage"] != "argparse" and PLATFORM.search(message):
        return "artefact", "CPU platform: " + normalize(message)
    if not refused and any("positional model" in n for n in verdict["oracle_notes"]):
        return "artefact", "stray value taken as the (stubbed) model: " + codes
    if not refused and {e["code"] for e in errors} <= BEYOND_ORACLE.keys():
        return "artefact", "refused where the oracle stops short: " + codes
    if refused:
        return "missed", normalize(message)
    return "false-error", codes + ": " + normalize(errors[0]["message"])


def judge(cases: list[Case], out: Path, oracle_dir: Path, jobs: int) -> list[dict[str, Any]]:
    folder = out / "cases"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in cases:
        path = folder / f"{case.name}.yaml"
        path.write_text(case.text, encoding="utf-8")
        paths.append(path)
    oracle = ask_oracle(oracle_dir, paths, jobs, out)
    verdicts = []
    for case, path in zip(cases, paths, strict=True):
        missing = {"ok": False, "error_type": "OracleCrash", "message": "no verdict"}
        row = oracle.get(path.name, missing)
        verdicts.append(
            {
                "case": path.name,
                "kind": case.kind,
                "vllm_ok": bool(row.get("ok")),
                "vllm_message": row.get("message"),
                "stage": row.get("stage"),
                "error_type": row.get("error_type"),
                "inconclusive": row.get("inconclusive"),
                "oracle_notes": row.get("oracle_notes") or [],
                "model_substituted": bool((row.get("model") or {}).get("substituted")),
                "cli_args": row.get("cli_args"),
                "vllm_warnings": row.get("warnings") or [],
            }
        )
    return rejudge(verdicts, out)


def rejudge(verdicts: list[dict[str, Any]], out: Path) -> list[dict[str, Any]]:
    """The engine's side of every verdict, afresh (after a fix, no need to ask vLLM again)."""
    for verdict in verdicts:
        path = out / "cases" / verdict["case"]
        findings = product_findings(path.read_text(encoding="utf-8"), path)
        verdict["product_errors"] = [f for f in findings if f["severity"] == "error"]
        verdict["outcome"], verdict["cause"] = classify(verdict)
        verdict["unquoted_warnings"] = (
            unquoted_warnings(verdict, findings) if verdict["outcome"] == "agree" else []
        )
    with (out / "verdicts.jsonl").open("w", encoding="utf-8") as handle:
        for verdict in verdicts:
            handle.write(json.dumps(verdict, default=str) + "\n")
    return verdicts


def agreement_line(seed: int, verdicts: list[dict[str, Any]]) -> str:
    count = collections.Counter(v["outcome"] for v in verdicts)
    judged = len(verdicts) - count["artefact"]
    percent = 100.0 * count["agree"] / judged if judged else 100.0
    unquoted = sum(bool(v.get("unquoted_warnings")) for v in verdicts)
    return (
        f"seed {seed}: {len(verdicts)} configs, agree {count['agree']} ({percent:.1f} %), "
        f"false errors {count['false-error']}, missed {count['missed']}, "
        f"artefacts {count['artefact']}; warning mismatches {unquoted}"
    )


def report(seed: int, verdicts: list[dict[str, Any]], out: Path) -> str:
    line = agreement_line(seed, verdicts)
    lines = [
        line,
        "",
        "| outcome | cause | count | example | vLLM | product |",
        "|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = collections.defaultdict(list)
    for verdict in verdicts:
        if verdict["outcome"] != "agree":
            groups[(verdict["outcome"], verdict["cause"])].append(verdict)
    order = {"false-error": 0, "missed": 1, "artefact": 2}
    for (outcome, cause), members in sorted(
        groups.items(), key=lambda g: (order[g[0][0]], -len(g[1]))
    ):
        first = members[0]
        vllm_said = "ok" if first["vllm_ok"] else (first["vllm_message"] or "")[:200]
        ours = (
            "; ".join(f"{e['code']} {e['message'][:120]}" for e in first["product_errors"])
            or "no error"
        )
        cells = [outcome, cause, str(len(members)), first["case"], vllm_said, ours]
        lines.append(
            "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
        )
    warned: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for verdict in verdicts:
        for warning in verdict.get("unquoted_warnings") or []:
            warned[normalize(warning)].append(verdict)
    lines += [
        "",
        "| vLLM warning no finding quotes (vLLM starts) | count | example |",
        "|---|---|---|",
    ]
    for warning, members in sorted(warned.items(), key=lambda w: -len(w[1])):
        cells = [warning, str(len(members)), members[0]["case"]]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    kinds = collections.Counter((v["kind"], v["outcome"]) for v in verdicts)
    lines += ["", "| mutation | agree | false error | missed | artefact |", "|---|---|---|---|---|"]
    for kind in sorted({v["kind"] for v in verdicts}):
        row = [str(kinds[(kind, o)]) for o in ("agree", "false-error", "missed", "artefact")]
        lines.append(f"| {kind} | " + " | ".join(row) + " |")
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return line


# --- export to the fidelity suite ------------------------------------------------------------


#: A shorter common text ("the model") would let a refusal for another reason pass as agreement.
MIN_PHRASE = 16


def _phrase(vllm_message: str, ours: str) -> str:
    match = SequenceMatcher(None, vllm_message, ours, autojunk=False).find_longest_match()
    return vllm_message[match.a : match.a + match.size].strip()


def _exported_text(verdict: dict[str, Any], body: str, path: Path) -> str | None:
    """The case with its fidelity header, or None when the engine's error shares no phrase
    with vLLM's message (agreeing on the verdict, not on the reason)."""
    head = f"# Differential fuzz case {verdict['case']} ({verdict['kind']}).\n"
    if verdict["outcome"] == "artefact":
        return head + f"# exclude: {verdict['cause'][:100]}\n" + body
    if verdict["vllm_ok"]:
        return head + body
    message = verdict["vllm_message"] or ""
    for error in product_errors(body, path):
        phrase = _phrase(message, error["message"])
        if len(phrase) < MIN_PHRASE or "\n" in phrase:
            continue
        lines = (head + f"# phrase: {phrase}\n" + body).splitlines()
        target = error["line"] + 2
        if "#" in lines[target]:
            continue
        lines[target] += "  #!"
        text = "\n".join(lines) + "\n"
        if yaml.safe_load(text) == yaml.safe_load(body) and _passes(text, path, phrase, target + 1):
            return text
    return None


def _passes(text: str, path: Path, phrase: str, line: int) -> bool:
    return any(e["line"] + 1 == line and phrase in e["message"] for e in product_errors(text, path))


#: Artefact cases exported (excluded in CI: they document what the oracle cannot judge).
MAX_ARTEFACT_CASES = 10


def _cell(verdict: dict[str, Any]) -> tuple[int, str]:
    """What an exported case stands for (and its turn): the accepted files of each mutation
    kind, the most frequent artefact causes, then each cause of a refusal once."""
    if verdict["outcome"] == "artefact":
        return 1, verdict["cause"]
    if verdict["vllm_ok"]:
        return 0, verdict["kind"]
    return 2, verdict["cause"]


def export(outs: list[Path], dest: Path, per_class: int, limit: int) -> int:
    """Agreeing cases (and a few artefacts, excluded) of every class into `dest`."""
    cells: dict[tuple[int, str], list[tuple[Path, dict[str, Any]]]] = collections.defaultdict(list)
    for out in outs:
        for line in (out / "verdicts.jsonl").open(encoding="utf-8"):
            verdict = json.loads(line)
            if verdict["outcome"] in ("agree", "artefact"):
                cells[_cell(verdict)].append((out, verdict))
    dest.mkdir(parents=True, exist_ok=True)
    written = 0
    artefacts = 0
    for key, members in sorted(cells.items(), key=lambda c: (c[0][0], -len(c[1]), c[0][1])):
        quota = per_class * 2 if key[0] == 0 else 1
        artefacts += key[0] == 1
        if key[0] == 1 and artefacts > MAX_ARTEFACT_CASES:
            continue
        taken = 0
        for out, verdict in members:
            if taken >= quota or written >= limit:
                break
            body = (out / "cases" / verdict["case"]).read_text(encoding="utf-8")
            target = dest / verdict["case"]
            text = _exported_text(verdict, body, target)
            if text is not None:
                target.write_text(text, encoding="utf-8")
                taken += 1
                written += 1
    print(f"exported {written} cases to {dest}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument(
        "--version",
        default=VERSION,
        help="the release to generate for (its catalogue); the oracle must run that release",
    )
    parser.add_argument("--oracle-dir", type=Path, default=os.environ.get("VLLM_ORACLE_DIR"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--jobs", type=int, default=2, help="oracle batch processes")
    parser.add_argument("--export", type=Path, help="copy agreeing cases of OUT into this folder")
    parser.add_argument(
        "--rejudge", action="store_true", help="re-run only the engine on OUT's cases and verdicts"
    )
    parser.add_argument(
        "--also", type=Path, action="append", default=[], help="more OUTs to export"
    )
    parser.add_argument("--per-class", type=int, default=2)
    parser.add_argument("--limit", type=int, default=200)
    args = parser.parse_args(argv)
    if args.export:
        return export([args.out, *args.also], args.export, args.per_class, args.limit)
    if args.rejudge:
        verdicts = [json.loads(line) for line in (args.out / "verdicts.jsonl").open()]
        # the run's own seed, which its case names carry (`s2-00017-null.yaml`)
        named = re.match(r"s(\d+)-", verdicts[0]["case"]) if verdicts else None
        seed = int(named.group(1)) if named else args.seed
        print(report(seed, rejudge(verdicts, args.out), args.out))
        return 0
    if args.oracle_dir is None:
        parser.error("--oracle-dir (or VLLM_ORACLE_DIR) is required")
    generator = Generator(load_catalogue(args.version), load_corpus(args.corpus))
    cases = list(generator.generate(args.seed, args.count))
    verdicts = judge(cases, args.out, args.oracle_dir.resolve(), args.jobs)
    print(report(args.seed, verdicts, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
