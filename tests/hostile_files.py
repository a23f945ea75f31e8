"""Generated hostile files for the fuzzing suites (issue 30, "Done when"): where
`tests/mutants.py` puts a hostile change at a random place of a real file, these put one in
every place of its kind.

* `aliased`: every YAML document of the corpus's seeds (each host format written in YAML:
  compose, custom resources, manifests, workflows, Helm values, launcher configs, the
  YAML fences of Markdown, `--config` files) with the collections around its vLLM start
  aliased: each sequence item and mapping value on the way from the root to a scalar that
  names vLLM is referenced `ALIASES` times more (PyYAML writes the repeats as `*id`), so
  a reader that expands aliases reads `ALIASES ** depth` copies.
* `deep_json`: JSON nested `DEPTH` deep in every place that holds JSON: the value of each
  JSON-valued flag of the catalogue (a `--config` file's string, a shell argument, a
  Dockerfile `CMD` exec form, a compose `command` list), a whole Dockerfile `CMD` and a
  Triton `model.json`.
* `huge_numbers`: a `DIGITS`-digit number (past float's range: 400; past int()'s digit
  limit: 4,400) in every numeric flag of the catalogue, in a `--config` file and on a
  shell command line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath

import yaml
from mutants import seed_paths
from vllm_config_lsp.vllm.catalogue import load_catalogue

RELEASE = "0.33.0"
ALIASES = 40
DEPTH = 100_000
DIGITS = (400, 4_400)
#: Parsers whose values are JSON (objects of vLLM's config classes among them).
_JSON = re.compile(r"json|dict_or_str|dataclass:.*")
_NUMERIC = frozenset({"int", "float", "human_int", "human_int_or_auto"})
_YAML_FENCE = re.compile(r"```ya?ml\n(.*?)```", re.S)


def _flags(parses: re.Pattern[str] | frozenset[str]) -> list[str]:
    """The options of the catalogue's flags that take a value parsed so."""
    flags = load_catalogue(RELEASE).flags.values()
    return sorted(
        spec.options[0]
        for spec in flags
        if spec.action == "store"
        and spec.options
        and (
            spec.parse in parses
            if isinstance(parses, frozenset)
            else parses.fullmatch(spec.parse or "")
        )
    )


def json_flags(parses: re.Pattern[str] = _JSON) -> list[str]:
    return _flags(parses)


def numeric_flags(parses: frozenset[str] = _NUMERIC) -> list[str]:
    return _flags(parses)


def huge_numbers() -> dict[str, str]:
    """Relative path → text: each numeric flag given each huge number, in a `--config`
    file and on a shell command line."""
    files = {}
    for flag in numeric_flags():
        for digits in DIGITS:
            number = "9" * digits
            name = f"{flag.lstrip('-')}-{digits}"
            files[f"numbers/{name}.vllm.yaml"] = f"model: m\n{flag.lstrip('-')}: {number}\n"
            files[f"numbers/{name}.sh"] = f"#!/bin/bash\nvllm serve m {flag} {number}\n"
    return files


def deep_json() -> dict[str, str]:
    """Relative path → text: JSON nested `DEPTH` deep in every place that holds JSON."""
    deep = "[" * DEPTH + "1" + "]" * DEPTH
    files = {
        "json/Dockerfile": f"FROM vllm/vllm-openai:v0.33.0\nCMD {deep}\n",
        "json/model_repository/vllm_model/1/model.json": '{"model": "m", "x": ' + deep + "}\n",
    }
    for flag in json_flags():
        name = flag.lstrip("-")
        files[f"json/{name}.vllm.yaml"] = f"model: m\n{name}: '{deep}'\n"
        files[f"json/{name}.sh"] = f"#!/bin/bash\nvllm serve m {flag} '{deep}'\n"
        files[f"json/{name}/Dockerfile"] = (
            f'FROM vllm/vllm-openai:v0.33.0\nCMD ["vllm", "serve", "m", "{flag}", "{deep}"]\n'
        )
        files[f"json/{name}/compose.yaml"] = (
            "services:\n  v:\n    image: vllm/vllm-openai:v0.33.0\n"
            f"    command: [m, {flag}, '{deep}']\n"
        )
    return files


def aliased(aliases: int = ALIASES) -> dict[str, str]:
    """Relative path → text: each YAML seed (and each Markdown seed's YAML fences) with
    the collections around its vLLM start aliased `aliases` times (`_alias`); 0 gives the
    same files written by the same serializer without aliases, to compare with."""
    files = {}
    for number, (path, file) in enumerate(seed_paths()):
        text = file.read_text(encoding="utf-8")
        suffix = PurePosixPath(path).suffix
        if suffix in (".yaml", ".yml"):
            changed = _aliased_yaml(text, aliases)
        elif suffix == ".md":
            changed = _YAML_FENCE.sub(
                lambda fence: (
                    "```yaml\n" + (_aliased_yaml(fence.group(1), aliases) or fence.group(1)) + "```"
                ),
                text,
            )
            changed = None if changed == text else changed
        else:
            continue
        if changed is not None:
            files[f"a{number:03d}/{path}"] = changed
    return files


def _aliased_yaml(text: str, aliases: int) -> str | None:
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    changed = False
    for document in documents:
        if document is not None:
            changed = _alias(document, aliases) or changed
    if not changed:
        return None
    return yaml.serialize_all(documents, Dumper=yaml.SafeDumper)


def _alias(node: yaml.Node, aliases: int) -> bool:
    """Reference each collection on the way to the first scalar naming vLLM `aliases`
    times more in its parent; whether there was such a scalar."""
    path = next(_paths_to_vllm(node, []), None)
    if path is None:
        return False
    for parent, child in path:
        if isinstance(parent, yaml.SequenceNode):
            parent.value.extend([child] * aliases)
        else:
            key = parent.value[0][0] if parent.value else None
            tag = key.tag if isinstance(key, yaml.ScalarNode) else "tag:yaml.org,2002:str"
            parent.value.extend((yaml.ScalarNode(tag, f"alias{n}"), child) for n in range(aliases))
    return True


def _paths_to_vllm(
    node: yaml.Node, path: list[tuple[yaml.Node, yaml.Node]]
) -> Iterator[list[tuple[yaml.Node, yaml.Node]]]:
    """(parent, child) pairs from the root to each scalar naming vLLM, collections only."""
    if isinstance(node, yaml.ScalarNode):
        if "vllm" in str(node.value).lower():
            yield [(parent, child) for parent, child in path if child is not node]
        return
    children = node.value if isinstance(node, yaml.SequenceNode) else [v for _, v in node.value]
    for child in children:
        if isinstance(child, yaml.ScalarNode) and child.tag != "tag:yaml.org,2002:str":
            continue
        yield from _paths_to_vllm(child, [*path, (node, child)])
