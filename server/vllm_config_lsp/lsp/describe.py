"""How hover and completion describe flags, config fields and values, from the catalogue.

One place renders types, defaults, choices and deprecations, so a completion item's
documentation and the hover on the same key say the same thing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.vllm.catalogue import Catalogue, ClassSpec, FieldSpec, FlagSpec

_PARSE_TYPES = {
    "int": "int",
    "float": "float",
    "str": "string",
    "json": "JSON object",
    "dict_or_str": "JSON object or string",
    "human_int": "int (accepts 1k, 2M, …)",
    "human_int_or_auto": "int (accepts 1k, 2M, …, -1 or auto)",
    "bool_or_str": "true or a string",
    "custom": "string",
}


def flag_for_key(catalogue: Catalogue, key: str) -> tuple[FlagSpec | None, bool]:
    """The flag a top-level key names (either spelling, `no-`/`disable-` negatives) and
    whether the key is a negative form. Dotted keys name their head flag."""
    head = key.split(".", 1)[0].replace("_", "-").lstrip("-")
    spec = catalogue.option_index.get("--" + head)
    if spec is None or spec.positional:
        return None, False
    return spec, "--" + head in spec.negatives


def flag_type(spec: FlagSpec) -> str:
    if spec.action == "boolean_optional":
        return "boolean"
    if spec.action in ("store_true", "store_false", "store_const"):
        return "flag (true only)"
    if spec.parse.startswith("dataclass:"):
        text = f"{spec.parse.split(':', 1)[1]} (JSON object)"
    else:
        text = _PARSE_TYPES.get(spec.parse, spec.parse)
    if spec.nargs in ("+", "*") or isinstance(spec.nargs, int) or spec.action == "append":
        text = f"list of {text}"
    if spec.optional:
        text += " or None"
    return text


def render_default(value: Any) -> str | None:
    """A schema default as a reader expects it; None when there is nothing to show."""
    if isinstance(value, dict) and ("factory" in value or "expr" in value):
        if "value" in value:
            return render_default(value["value"])
        text = str(value.get("factory") or value.get("expr"))
        return None if "SUPPRESS" in text else f"{text}()" if "factory" in value else text
    if value is None:
        return None
    return json.dumps(value)


def choices(spec: FlagSpec) -> list[Any]:
    values = spec.choices or spec.suggested or ()
    return [value for value in values if value is not None]


def flag_detail(spec: FlagSpec) -> str:
    default = render_default(spec.default)
    return flag_type(spec) + (f" · default {default}" if default else "")


def flag_doc(spec: FlagSpec, version_note: str, *, command_line: bool = False) -> str:
    """A flag's documentation: its first sentence, type and default, choices, then the rest
    of vLLM's help under "More" and the release note; how to turn it off is said in the
    document's syntax: a `--config` file's `no-x: true`, a command line's `--no-x`."""
    first, rest = split_help(spec.help)
    lines = [f"**{' / '.join(spec.options)}**", "", first or "(no help text)", ""]
    lines.append(f"Type: `{flag_detail(spec)}`")
    if spec.negatives:
        if command_line:
            negatives = ", ".join(f"`{n}`" for n in spec.negatives)
        else:
            negatives = ", ".join(f"`{n.lstrip('-')}: true`" for n in spec.negatives)
        lines.append(f"Turn off with {negatives}")
    values = choices(spec)
    if values:
        kind = "Choices" if spec.choices else "Known values (not enforced)"
        lines.append(f"{kind}: " + ", ".join(f"`{v}`" for v in values))
    if spec.deprecated:
        lines += ["", f"**Deprecated:** {spec.deprecated}"]
    if rest:
        lines += ["", "**More**", "", rest]
    lines += ["", version_note]
    return "\n".join(lines)


#: reStructuredText's inline literal (``x``), which Markdown shows as written.
_RST_LITERAL = re.compile(r"``([^`\n]+)``")
#: The end of a first sentence: a full stop (not of `e.g.`, `1.5`, `vs.`) before a space.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\betc)\.(?=\s)")


def clean_help(text: str) -> str:
    """vLLM's help as Markdown: ``literals`` as `literals`, and each line said once (a
    flag's help and its parse function's docstring list the same examples)."""
    text = _RST_LITERAL.sub(r"`\1`", text.strip())
    seen: set[str] = set()
    kept: list[str] = []
    for line in text.splitlines():
        key = re.sub(r"[\s'\",`]", "", line).lower()
        if len(key) > 3 and key in seen:
            continue
        seen.add(key)
        kept.append(line)
    out: list[str] = []
    for index, line in enumerate(kept):  # a heading left without its list
        following = next((k for k in kept[index + 1 :] if k.strip()), "")
        heading = line.strip().endswith(":") and line.strip().lower().startswith("example")
        if heading and not following.lstrip().startswith(("-", "*")):
            continue
        out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def split_help(text: str) -> tuple[str, str]:
    """(the first sentence, the rest) of vLLM's help, cleaned (`clean_help`)."""
    text = clean_help(text or "")
    if not text:
        return "", ""
    head, _, tail = text.partition("\n\n")
    match = _SENTENCE_END.search(head)
    if match is None or "\n-" in head[: match.end()]:
        return " ".join(head.split()), tail.strip()
    first = " ".join(head[: match.end()].split())
    rest = head[match.end() :].strip()
    return first, "\n\n".join(part for part in (rest, tail.strip()) if part)


def class_of_type(catalogue: Catalogue, tree: dict[str, Any]) -> ClassSpec | None:
    """The config class a field's type holds (through `X | None` unions)."""
    if tree.get("kind") == "class":
        return catalogue.classes.get(str(tree.get("name")))
    for option in tree.get("options") or ():
        found = class_of_type(catalogue, option)
        if found is not None:
            return found
    return None


def class_at(catalogue: Catalogue, spec: FlagSpec, path: list[str]) -> ClassSpec | None:
    """The config class whose fields are valid at `path` inside a JSON-valued flag."""
    name = spec.dataclass_name
    current = catalogue.classes.get(name) if name else None
    for key in path:
        if current is None:
            return None
        field = current.fields.get(key)
        current = class_of_type(catalogue, field.type) if field else None
    return current


def settable_fields(cls: ClassSpec) -> Iterator[FieldSpec]:
    return (f for f in cls.fields.values() if f.init and not f.name.startswith("_"))


def field_detail(field: FieldSpec) -> str:
    default = render_default(field.default)
    return field.annotation + (f" · default {default}" if default else "")


def field_doc(cls: ClassSpec, field: FieldSpec, where: str, version_note: str) -> str:
    """A config field's documentation, laid out as `flag_doc`'s."""
    first, rest = split_help(field.doc)
    lines = [f"**{where}** ({cls.name}.{field.name})", "", first or "(no documentation)", ""]
    lines.append(f"Type: `{field_detail(field)}`")
    constraints = ", ".join(f"{k} {v}" for k, v in field.constraints.items())
    if constraints:
        lines.append(f"Constraints: {constraints}")
    if field.required:
        lines.append("Required.")
    if rest:
        lines += ["", "**More**", "", rest]
    lines += ["", version_note]
    return "\n".join(lines)


def type_values(catalogue: Catalogue, tree: dict[str, Any]) -> list[tuple[Any, str]]:
    """Values a field of this type can take when they are few: (value, what it is)."""
    kind = tree.get("kind")
    if kind == "bool":
        return [(True, "bool"), (False, "bool")]
    if kind == "literal":
        return [(value, "literal") for value in tree.get("values") or ()]
    if kind == "enum":
        name = str(tree.get("name"))
        members = catalogue.enums.get(name, {})
        return [(member, f"{name}.{member} = {value}") for member, value in members.items()]
    if kind == "none":
        return [(None, "None")]
    if kind == "union":
        out: list[tuple[Any, str]] = []
        for option in tree.get("options") or ():
            out.extend(v for v in type_values(catalogue, option) if v not in out)
        return out
    return []


#: Where vLLM's help describes one value: a bullet (`- "auto" will use…`, `- NONE, no…`), a
#: line opening with the value quoted (`'throughput' favors…`), or a paragraph opening with
#: it (`FULL mode: Capture…`).
_BULLET = re.compile(r"\s*[-*]\s+[`\"']*(?P<value>[\w.+-]+)")
_QUOTED = re.compile(r"[`\"']+(?P<value>[\w.+-]+)[`\"']+")  # not indented: not a continuation
_PARAGRAPH = re.compile(r"(?P<value>[\w.+-]+)(?: mode)?:?\s")


def choice_doc(help_text: str, value: Any) -> str | None:
    """What vLLM's help (a flag's, a field's) says about one of its values, or None."""
    wanted = "true" if value is True else "false" if value is False else str(value)
    lines = help_text.splitlines()
    found: list[str] = []
    item: list[str] | None = None
    for number, line in enumerate(lines):
        starts = _BULLET.match(line) or _QUOTED.match(line)
        if starts is None and (number == 0 or not lines[number - 1].strip()):
            starts = _PARAGRAPH.match(line)
        if starts is not None:
            item = [line.strip().lstrip("-* ")] if starts.group("value") == wanted else None
            if item is not None:
                found.append("")
        elif not line.strip():
            item = None
        elif item is not None:
            item.append(line.strip())
        if item is not None:
            found[-1] = " ".join(item)
    described = [text for text in found if text.strip(" .,`\"'") != wanted]
    return "\n\n".join(described) or None


def version_text(version: str, source: str) -> str:
    """Which release and why, as one phrase: `versions.choose_version` reasons name the
    release ("vLLM 0.33.0, from …") except the fallback ("newest known release …")."""
    if source.startswith("vLLM "):
        return source
    return f"vLLM {version}: {source}" if source else f"vLLM {version}"


def version_note(version: str, source: str) -> str:
    """The line hovers and completion items end with: the release and why, in italics."""
    return f"_{version_text(version, source)}_"
