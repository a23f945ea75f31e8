"""vLLM started from Python with keyword arguments, and the GPUs a Modal function gets.

Offline inference and Python servers start vLLM without a command line: `LLM(model, **kw)`,
`EngineArgs(**kw)`, `AsyncEngineArgs(**kw)` (imported from `vllm`), and Ray Serve LLM's
`LLMConfig(model_loading_config=..., engine_kwargs=dict(...), accelerator_type="L40S")`
(imported from `ray.serve.llm`), whose `engine_kwargs` become `AsyncEngineArgs(**kw)`. Each
call is one start whose words are the command line that sets the same fields, as
`sources.engine_kwargs` writes a mapping: `max_model_len=4096` → `--max-model-len 4096`,
`enforce_eager=True` → the bare flag (spanning the whole keyword), `False`/`None` →
nothing (the default), a list of literals → one word per item, a dict (`{...}` or
`dict(...)` of literals) → its JSON. The first positional argument is `model`. Every flag
word carries its keyword as written (`Word.field`) and the invocation its constructor
(`Invocation.keywords_of`): the constructor's fields decide which names exist. What Python
computes (a name, a call, an f-string field, `**kw`) is an unresolved word, `**kw` a splat,
except a module-level dict literal nothing changes in place (`LLM(**ENGINE_KWARGS)`,
`engine_kwargs=ENGINE_KWARGS`), whose entries are read where the module writes them, and a
module-level string or number assigned once (`MODEL = "Qwen/Qwen3-8B"` … `LLM(model=MODEL)`)
where no function around the call binds its name, read where the module writes it.

Modal: `@app.function(gpu="H100:2")`, `gpu=modal.gpu.H100(count=2)` (and `@app.cls`) is
the GPU of every start inside the function or class; module-level string constants
(`GPU = "L40S"`, `f"{GPU}:{N}"`) are followed; a list of GPUs (`gpu=["H100", "A100"]`) is
alternatives, so no single target.

Only calls whose names the file imports from those packages are read (`LLM` is a common
name), and nothing is imported or executed.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, replace
from typing import Protocol

from vllm_config_lsp.sources.gpu_claims import RAY_ACCELERATOR
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation, ModelRef, Word
from vllm_config_lsp.sources.ray_serve import MODEL_ID_ORIGIN

__all__ = [
    "Strings",
    "bound_around",
    "literal_constants",
    "module_constants",
    "read",
    "with_gpus",
]

SOURCE = "python"
_KEY = "python-field"
_VALUE = "python-field-value"
#: Constructors of vLLM whose keywords are engine arguments, by the module they live in.
_VLLM_CLASSES = frozenset({"LLM", "EngineArgs", "AsyncEngineArgs"})
_RAY_CLASSES = frozenset({"LLMConfig"})
_MODAL_DECORATORS = frozenset({"function", "cls"})


class Strings(Protocol):
    """What the Python reader (`sources.python_argv`) knows of the file's text."""

    def span(self, node: ast.AST) -> tuple[int, int]: ...

    def string_word(self, node: ast.AST, quoting: str) -> Word | None:
        """A str literal or f-string with the document offset of each character."""

    def written(self, node: ast.AST) -> str: ...


@dataclass(frozen=True)
class _Imports:
    """Local names → the class they stand for, and the module aliases (`import vllm as v`)."""

    names: dict[str, str]
    modules: dict[str, str]

    def class_of(self, func: ast.AST) -> str | None:
        if isinstance(func, ast.Name):
            return self.names.get(func.id)
        if isinstance(func, ast.Attribute):
            head = func.value
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in self.modules:
                wanted = {"vllm": _VLLM_CLASSES, "ray": _RAY_CLASSES}.get(self.modules[head.id])
                return func.attr if wanted and func.attr in wanted else None
        return None


def _imports(nodes: list[ast.AST]) -> _Imports:
    names: dict[str, str] = {}
    modules: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            package = _package(node.module)
            if package == "modal":  # `from modal import App`: the decorators are Modal's
                modules.setdefault("modal", "modal")
            wanted = _VLLM_CLASSES if package == "vllm" else _RAY_CLASSES
            for alias in node.names:
                if package in ("vllm", "ray") and alias.name in wanted:
                    names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                package = _package(alias.name)
                if package is not None:
                    modules[alias.asname or alias.name.split(".", 1)[0]] = package
    return _Imports(names, modules)


def _package(module: str) -> str | None:
    if module == "vllm" or module.startswith("vllm."):
        return "vllm"
    if module.startswith(("ray.serve.llm", "ray.llm")):
        return "ray"
    if module == "modal":
        return "modal"
    return None


def read(
    tree: ast.Module, strings: Strings
) -> tuple[list[Invocation], list[tuple[int, int, GpuClaim]]]:
    """Every `LLM(...)`, `EngineArgs(...)`, `AsyncEngineArgs(...)` and `LLMConfig(...)` the
    file's imports make vLLM's or Ray Serve LLM's, and the Modal GPU scopes
    (`modal_gpus`); the tree is walked once."""
    nodes = list(ast.walk(tree))
    imports = _imports(nodes)
    if not imports.names and not imports.modules:
        return [], []
    calls = [(node, imports.class_of(node.func)) for node in nodes if isinstance(node, ast.Call)]
    found: list[Invocation] = []
    if any(name for _, name in calls):
        constants = _unchanged(nodes, module_constants(tree))
        shadowed = bound_around(tree)
        for node, name in calls:
            if name in _VLLM_CLASSES:
                scalars = literal_constants(constants, shadowed.get(id(node), frozenset()))
                found.append(_engine(node, name, strings, constants, scalars))
            elif name in _RAY_CLASSES:
                ray = _ray(node, strings, constants)
                if ray is not None:
                    found.append(ray)
    modal = "modal" in imports.modules.values()
    return found, modal_gpus(tree, nodes, strings) if modal else []


#: Methods that change a dict in place.
_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})


def _unchanged(nodes: list[ast.AST], constants: dict[str, ast.expr]) -> dict[str, ast.expr]:
    """The module constants nothing changes in place (`kw["x"] = 1`, `kw.update(...)`,
    `kw |= ...`, `del kw["x"]` anywhere): a dict of engine arguments read where it is
    written (`LLM(**ENGINE_KWARGS)`, `engine_kwargs=ENGINE_KWARGS`)."""
    changed: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name):
                changed.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name) and node.func.attr in _MUTATORS:
                changed.add(node.func.value.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            changed.add(node.target.id)
    return {name: value for name, value in constants.items() if name not in changed}


def literal_constants(
    constants: dict[str, ast.expr], shadowed: frozenset[str]
) -> dict[str, ast.expr]:
    """The module's string and number constants a call sees (its functions bind none of
    their names): `MODEL = "Qwen/Qwen3-8B"` … `LLM(model=MODEL)` is that model, read where
    the module writes it."""
    return {
        name: value
        for name, value in constants.items()
        if isinstance(value, ast.Constant)
        and isinstance(value.value, (str, int, float))
        and not isinstance(value.value, bool)
        and name not in shadowed
    }


def bound_around(
    tree: ast.Module, kinds: tuple[type[ast.AST], ...] = (ast.Call,)
) -> dict[int, frozenset[str]]:
    """`id(node)` → the names the functions (lambdas, comprehensions) around each node of
    `kinds` bind (parameters, assignments, loop targets, imports, `global` aside): there a
    module name is not the module's constant."""
    out: dict[int, frozenset[str]] = {}

    def visit(node: ast.AST, bound: frozenset[str]) -> None:
        scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
        if isinstance(node, (*scopes, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            bound = bound | _binds(node)
        if isinstance(node, kinds) and bound:
            out[id(node)] = bound
        for child in ast.iter_child_nodes(node):
            visit(child, bound)

    visit(tree, frozenset())
    return out


def _binds(scope: ast.AST) -> frozenset[str]:
    names: set[str] = set()
    declared_global: set[str] = set()
    arguments = getattr(scope, "args", None)
    if isinstance(arguments, ast.arguments):
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every.extend(arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)
        names.update(arg.arg for arg in every)
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Global):
            declared_global.update(node.names)
    return frozenset(names - declared_global)


def _engine(
    call: ast.Call,
    name: str,
    strings: Strings,
    constants: dict[str, ast.expr],
    scalars: dict[str, ast.expr],
) -> Invocation:
    words: list[Word] = []
    if call.args and not isinstance(call.args[0], ast.Starred):
        model = call.args[0]
        start, end = strings.span(model)
        words.extend(_entry("model", (start, end), _resolved(model, scalars), strings))
    for keyword in call.keywords:
        if keyword.arg is None:
            words.extend(_keyword(keyword, strings, constants))
        else:
            value = _resolved(keyword.value, scalars)
            words.extend(_entry(keyword.arg, _keyword_span(keyword, strings), value, strings))
    return _start(call, words, name, strings)


def _start(call: ast.Call, words: list[Word], keywords_of: str, strings: Strings) -> Invocation:
    """The start a constructor call makes: it spans the called name."""
    start, end = strings.span(call.func)
    insert_at = words[-1].end if words else end
    return Invocation(
        SOURCE, "serve", start, end, words, insert_at=insert_at, keywords_of=keywords_of
    )


def _ray(call: ast.Call, strings: Strings, constants: dict[str, ast.expr]) -> Invocation | None:
    """Ray Serve LLM's `LLMConfig`: `engine_kwargs` are `AsyncEngineArgs` keywords, the
    model is `model_loading_config`'s `model_source`, the GPU `accelerator_type`."""
    given = {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg}
    if "engine_kwargs" not in given and "model_loading_config" not in given:
        return None
    words: list[Word] = []
    kwargs = given.get("engine_kwargs")
    if kwargs is not None:
        words.extend(_spread(kwargs, strings, constants))
    invocation = _start(call, words, "AsyncEngineArgs", strings)
    loading_node = given.get("model_loading_config")
    loading = _mapping(_resolved(loading_node, constants)) if loading_node is not None else None
    entries = {key: value for _span, key, value in (loading(strings) if loading else ())}
    # `model_source` omitted: Ray loads `model_id` as a Hugging Face id
    key = "model_source" if "model_source" in entries else "model_id"
    origin = "Ray Serve `model_source`" if key == "model_source" else MODEL_ID_ORIGIN
    source = _str_value(entries[key]) if key in entries else None
    if source:
        start, end = strings.span(entries[key])
        invocation.model = ModelRef(source, start, end, origin)
    accelerator = given.get("accelerator_type")
    name = _str_value(accelerator) if accelerator is not None else None
    if accelerator is not None and name:
        start, end = strings.span(accelerator)
        invocation.gpus = (GpuClaim(RAY_ACCELERATOR, start, end, name=name),)
    return invocation


_Entries = list[tuple[tuple[int, int], str, ast.expr]]


class _EntriesOf(Protocol):
    def __call__(self, strings: Strings) -> _Entries: ...


def _mapping(node: ast.expr) -> _EntriesOf | None:
    """The entries of `{"k": v}` or `dict(k=v)`: (the key's span, the key, the value)."""
    if isinstance(node, ast.Dict):
        if not all(_is_str(key) for key in node.keys):
            return None

        def of_dict(strings: Strings) -> _Entries:
            return [
                (strings.span(key), _str_value(key) or "", value)
                for key, value in zip(node.keys, node.values, strict=True)
                if key is not None
            ]

        return of_dict
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        if node.args or any(keyword.arg is None for keyword in node.keywords):
            return None

        def of_call(strings: Strings) -> _Entries:
            return [
                (_keyword_span(keyword, strings), keyword.arg, keyword.value)
                for keyword in node.keywords
                if keyword.arg is not None
            ]

        return of_call
    return None


def _keyword_span(keyword: ast.keyword, strings: Strings) -> tuple[int, int]:
    start, _ = strings.span(keyword)
    return start, start + len(keyword.arg or "")


def _keyword(keyword: ast.keyword, strings: Strings, constants: dict[str, ast.expr]) -> list[Word]:
    if keyword.arg is None:  # **kwargs: a dict the module writes, else anything at all
        return _spread(keyword.value, strings, constants)
    return _entry(keyword.arg, _keyword_span(keyword, strings), keyword.value, strings)


def _resolved(node: ast.expr, constants: dict[str, ast.expr]) -> ast.expr:
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    return node


def _spread(node: ast.expr, strings: Strings, constants: dict[str, ast.expr]) -> list[Word]:
    """The keywords a dict expression holds (a literal, `dict(...)`, a module constant that
    nothing changes), or one splat word when Python computes it."""
    entries = _mapping(_resolved(node, constants))
    if entries is None:
        return [_unresolved(node, strings, splat=True)]
    words: list[Word] = []
    for key_span, key, value in entries(strings):
        words.extend(_entry(key, key_span, value, strings))
    return words


def _entry(name: str, key: tuple[int, int], value: ast.expr, strings: Strings) -> list[Word]:
    """The words of one keyword: the flag (spanning the keyword's name) and its values."""
    literal = _literal(value)
    if literal is None or literal is False:
        return []
    flag_text = "--" + name.replace("_", "-")
    start, end = key
    if literal is True:
        end = strings.span(value)[1]
    flag = _synthetic(flag_text, start, end, _KEY, field=name)
    if literal is True:
        return [flag]
    if literal is _UNKNOWN:
        return [flag, _unresolved(value, strings)]
    if isinstance(literal, str):
        word = strings.string_word(value, _VALUE)
        return [
            flag,
            word if word is not None else _synthetic(literal, *strings.span(value), _VALUE),
        ]
    if isinstance(literal, list) and not any(isinstance(item, (list, dict)) for item in literal):
        items = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else []
        return [flag, *(_scalar(item, strings) for item in items)]
    if isinstance(literal, (list, dict)):
        return [flag, _synthetic(json.dumps(literal), *strings.span(value), _VALUE)]
    return [flag, _synthetic(str(literal), *strings.span(value), _VALUE)]


#: A value Python computes at run time.
_UNKNOWN = object()


def _literal(node: ast.expr) -> object:
    """The value of a literal expression (`dict(...)` of literals included), `_UNKNOWN`
    for anything Python computes."""
    if isinstance(node, ast.JoinedStr):
        return "" if not node.values else _UNKNOWN if _has_fields(node) else _static(node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        if node.args or any(keyword.arg is None for keyword in node.keywords):
            return _UNKNOWN
        values = {keyword.arg: _literal(keyword.value) for keyword in node.keywords}
        return _UNKNOWN if any(item is _UNKNOWN for item in values.values()) else values
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_literal(item) for item in node.elts]
        return _UNKNOWN if any(item is _UNKNOWN for item in items) else items
    if isinstance(node, ast.Dict):
        if not all(_is_str(key) for key in node.keys):
            return _UNKNOWN
        entries = {
            key.value: _literal(value)
            for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant)
        }
        return _UNKNOWN if any(item is _UNKNOWN for item in entries.values()) else entries
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN
    return value if isinstance(value, (str, int, float, bool)) or value is None else _UNKNOWN


def _has_fields(node: ast.JoinedStr) -> bool:
    return any(isinstance(part, ast.FormattedValue) for part in node.values)


def _static(node: ast.JoinedStr) -> str:
    return "".join(str(part.value) for part in node.values if isinstance(part, ast.Constant))


def _is_str(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _str_value(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _scalar(node: ast.expr, strings: Strings) -> Word:
    if _is_str(node):
        word = strings.string_word(node, _VALUE)
        if word is not None:
            return word
    value = _literal(node)
    if value is _UNKNOWN:
        return _unresolved(node, strings)
    return _synthetic(str(value), *strings.span(node), _VALUE)


def _synthetic(text: str, start: int, end: int, quoting: str, *, field: str | None = None) -> Word:
    n = len(text)
    return Word(text, start, end, (start,) * n, (end,) * n, quoting=quoting, field=field)


def _unresolved(node: ast.expr, strings: Strings, *, splat: bool = False) -> Word:
    written = strings.written(node)
    start, end = strings.span(node)
    text = "{" + written + "}"
    n = len(text)
    return Word(
        text,
        start,
        end,
        (start,) * n,
        (end,) * n,
        unresolved=(written,),
        quoting=_VALUE,
        splat=splat,
    )


# -- Modal --------------------------------------------------------------------------------


def modal_gpus(
    tree: ast.Module, nodes: list[ast.AST], strings: Strings
) -> list[tuple[int, int, GpuClaim]]:
    """(start, end, claim) of each function or class a Modal `@app.function(gpu=...)` /
    `@app.cls(gpu=...)` decorates: the GPU the starts inside it run on."""
    constants = module_constants(tree)
    scopes: list[tuple[int, int, GpuClaim]] = []
    for node in nodes:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for decorator in node.decorator_list:
            claim = _modal_claim(decorator, constants, strings)
            if claim is not None:
                scopes.append((*strings.span(node), claim))
    return scopes


def module_constants(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names assigned exactly once (`GPU_TYPE = "H100"`): one assignment at
    the top level, and no other binding of the name anywhere in the module's own scope
    (under an `if`, a loop target, an import, `+=`, `del`, a walrus) nor a `global`
    declaration of it in any function (which could rebind it)."""
    seen: dict[str, list[ast.expr]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    seen.setdefault(target.id, []).append(statement.value)
        elif (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.value is not None
        ):
            seen.setdefault(statement.target.id, []).append(statement.value)
    bindings = _module_bindings(tree)
    declared = {
        name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names
    }
    return {
        name: values[0]
        for name, values in seen.items()
        if len(values) == 1 and bindings.get(name) == 1 and name not in declared
    }


def _module_bindings(tree: ast.Module) -> dict[str, int]:
    """How many times the module's own scope binds each name (function and class bodies,
    lambdas and comprehensions are scopes of their own; their names count, a walrus in
    any of them too)."""
    counts: dict[str, int] = {}
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.append(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.extend((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        if isinstance(node, (*scopes, *comprehensions)):
            pending.extend(
                inner.target
                for inner in ast.walk(node)
                if isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name)
            )
            continue
        pending.extend(ast.iter_child_nodes(node))
    return counts


def _modal_claim(
    decorator: ast.expr, constants: dict[str, ast.expr], strings: Strings
) -> GpuClaim | None:
    if not (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Attribute)
        and decorator.func.attr in _MODAL_DECORATORS
    ):
        return None
    value = next((k.value for k in decorator.keywords if k.arg == "gpu"), None)
    if value is None:
        return None
    start, end = strings.span(value)
    origin = f"Modal @{decorator.func.attr}(gpu=...)"
    text = _text(value, constants, 0)
    if text is not None:
        name, _, count = text.strip().rpartition(":")
        if not (count.isascii() and count.isdigit() and 0 < len(count) < 4):
            name, count = text.strip(), "1"
        if name.lower() == "any":
            return GpuClaim(origin, start, end, count=int(count))
        if not name or "," in name:
            return None
        return GpuClaim(origin, start, end, count=int(count), name=name)
    return _gpu_object(value, constants, origin, (start, end))


def _gpu_object(
    value: ast.expr, constants: dict[str, ast.expr], origin: str, span: tuple[int, int]
) -> GpuClaim | None:
    """`modal.gpu.H100(count=2)`, `modal.gpu.A100(size="80GB")` (Modal's older objects)."""
    if isinstance(value, ast.Name) and value.id in constants:
        value = constants[value.id]
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return None
    owner = value.func.value
    if not (isinstance(owner, ast.Attribute) and owner.attr == "gpu") or value.args:
        return None
    options = {keyword.arg: keyword.value for keyword in value.keywords}
    count_node = options.get("count")
    count = _literal(count_node) if count_node is not None else 1
    size = _literal(options["size"]) if "size" in options else None
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return None
    name = value.func.attr + (f"-{size}" if isinstance(size, str) and size else "")
    return GpuClaim(origin, *span, count=count, name=name)


def _text(node: ast.expr, constants: dict[str, ast.expr], depth: int) -> str | None:
    """The string a GPU value spells, following module constants; None when unknown."""
    if depth > 4:
        return None
    if isinstance(node, ast.Name) and node.id in constants:
        return _text(constants[node.id], constants, depth + 1)
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
        return None if isinstance(node.value, bool) else str(node.value)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                if part.format_spec is not None or part.conversion != -1:
                    return None
                text = _text(part.value, constants, depth + 1)
            else:
                text = _text(part, constants, depth + 1)
            if text is None:
                return None
            parts.append(text)
        return "".join(parts)
    return None


def with_gpus(
    invocations: list[Invocation], scopes: list[tuple[int, int, GpuClaim]]
) -> list[Invocation]:
    """Each start inside a Modal function gets that function's GPU after what the start
    says itself (the innermost scope wins)."""
    if not scopes:
        return invocations
    out = []
    for invocation in invocations:
        around = [s for s in scopes if s[0] <= invocation.start < s[1]]
        if around:
            claim = max(around, key=lambda scope: scope[0])[2]
            invocation = replace(invocation, gpus=(*invocation.gpus, claim))
        out.append(invocation)
    return out
