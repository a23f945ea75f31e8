"""Named lists of built-in values that vLLM checks imperatively (``x-vllm.value_sets``).

Some values are not argparse ``choices`` or pydantic ``Literal`` fields but are looked up
by hand later (``if self.quantization not in QUANTIZATION_METHODS: raise ...``), and some
of those lists grow at runtime when a plugin calls a ``register_*`` hook. The table below
only names *where* each list lives and which hooks extend it; the values themselves are
read from the wheel with ``ast`` (literal aliases, list/tuple constants, ``get_args``,
``dict`` keys, enum member names), so nothing here goes stale when vLLM changes a list.
A registry that is filled by calls instead of a literal (``KVConnectorFactory.register_connector
("NixlConnector", …)`` at module level) is read from those calls' first arguments, and one
filled by class decorators (``@ToolParserManager.register_module("hermes")`` in each module
a package imports, as vLLM did before its lazy registries) from the decorators' names.
A set that moved between releases has one spec per place, newest first: each wheel gets
its set from the first place it has.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Literal

from .classes import ClassExtractor
from .modules import Ref, SourceIndex
from .typetree import TypeResolver
from .values import NotConstant, const_eval

_SEQ_CALLS = {
    "builtins.list",
    "builtins.tuple",
    "builtins.set",
    "builtins.frozenset",
    "builtins.sorted",
}
_GET_ARGS = {"typing.get_args", "typing_extensions.get_args"}


@dataclass(frozen=True)
class ValueSetSpec:
    """Where one value set lives: a module-level symbol and the hooks that extend it."""

    name: str
    module: str
    symbol: str
    #: Functions (dotted, as seen from ``module``) through which plugins add members at
    #: runtime. The set is ``open`` when one of them exists in the wheel.
    hooks: tuple[str, ...] = ()
    doc: str = ""
    #: How ``symbol`` names the members: it is their ``value``; or it is a registering
    #: function (``Class.method``) and they are the first arguments of its module-level
    #: ``calls`` in ``module``, or the names given to it as class ``decorators`` in the
    #: modules the package ``module`` imports (registered as vLLM imports them).
    read: Literal["value", "calls", "decorators"] = "value"


SPECS: tuple[ValueSetSpec, ...] = (
    ValueSetSpec(
        "quantization_methods",
        "vllm.model_executor.layers.quantization",
        "QUANTIZATION_METHODS",
        ("register_quantization_config",),
        "`--quantization` values ModelConfig._verify_quantization accepts",
    ),
    ValueSetSpec(
        "deprecated_quantization_methods",
        "vllm.model_executor.layers.quantization",
        "DEPRECATED_QUANTIZATION_METHODS",
        (),
        "quantization methods refused unless `--allow-deprecated-quantization`",
    ),
    ValueSetSpec(
        "online_quantization_shorthands",
        "vllm.config.quantization",
        "ONLINE_QUANT_SHORTHAND_NAMES",
        (),
        "`--quantization` names that desugar into a quantization_config",
    ),
    ValueSetSpec(
        "quant_key_names",
        "vllm.config.quantization",
        "QUANT_KEY_NAMES",
        (),
        "names accepted for quantization-config weight/activation keys",
    ),
    ValueSetSpec(
        "speculative_methods",
        "vllm.config.speculative",
        "SpeculativeMethod",
        (),
        "speculative-config.method values",
    ),
    ValueSetSpec(
        "mtp_model_types",
        "vllm.config.speculative",
        "MTPModelTypes",
        (),
        "speculative methods SpeculativeConfig rewrites to `mtp`",
    ),
    ValueSetSpec(
        "kv_cache_dtypes",
        "vllm.config.cache",
        "KV_CACHE_DTYPES",
        ("register_kv_cache_dtype",),
        "`--kv-cache-dtype` values",
    ),
    ValueSetSpec(
        "load_formats",
        "vllm.model_executor.model_loader",
        "LoadFormats",
        ("register_model_loader",),
        "`--load-format` values with a built-in model loader",
    ),
    ValueSetSpec(
        "attention_backends",
        "vllm.v1.attention.backends.registry",
        "AttentionBackendEnum",
        ("register_backend", "AttentionBackendEnum.register"),
        "AttentionBackendEnum member names (`--attention-backend`)",
    ),
    ValueSetSpec(
        "mamba_attention_backends",
        "vllm.v1.attention.backends.registry",
        "MambaAttentionBackendEnum",
        ("register_backend", "MambaAttentionBackendEnum.register"),
        "MambaAttentionBackendEnum member names",
    ),
    ValueSetSpec(
        "mla_prefill_backends",
        "vllm.v1.attention.backends.mla.prefill.registry",
        "MLAPrefillBackendEnum",
        ("register_mla_prefill_backend", "MLAPrefillBackendEnum.register"),
        "MLAPrefillBackendEnum member names",
    ),
    ValueSetSpec(
        "kv_cache_spec_kinds",
        "vllm.v1.kv_cache_interface",
        "KVCacheSpecKind",
        (),
        "KVCacheSpecKind member names (attention-config backend_per_kind keys)",
    ),
    ValueSetSpec(
        "pooling_tasks",
        "vllm.tasks",
        "POOLING_TASKS",
        (),
        "pooling tasks",
    ),
    ValueSetSpec(
        "reasoning_efforts",
        "vllm.renderers.params",
        "ReasoningEffort",
        (),
        "reasoning effort levels",
    ),
    ValueSetSpec(
        "histogram_bucket_families",
        "vllm.v1.metrics.buckets",
        "BUCKET_FAMILY_KEYS",
        (),
        "histogram bucket family keys (`--custom-histogram-buckets`)",
    ),
    ValueSetSpec(
        "config_formats",
        "vllm.transformers_utils.config",
        "_CONFIG_FORMAT_TO_CONFIG_PARSER",
        ("register_config_parser",),
        "`--config-format` values get_config_parser knows (besides `auto`)",
    ),
    ValueSetSpec(
        "reasoning_parsers",
        "vllm.reasoning",
        "_REASONING_PARSERS_TO_REGISTER",
        ("ReasoningParserManager.register_module", "ReasoningParserManager.register_lazy_module"),
        "built-in `--reasoning-parser` names (plus `--reasoning-parser-plugin`)",
    ),
    ValueSetSpec(  # up to 0.10: each parser module registers its class on import
        "reasoning_parsers",
        "vllm.reasoning",
        "ReasoningParserManager.register_module",
        ("ReasoningParserManager.register_module",),
        "built-in `--reasoning-parser` names (plus `--reasoning-parser-plugin`)",
        read="decorators",
    ),
    ValueSetSpec(  # 0.7: the parsers lived under the OpenAI entry point
        "reasoning_parsers",
        "vllm.entrypoints.openai.reasoning_parsers",
        "ReasoningParserManager.register_module",
        ("ReasoningParserManager.register_module",),
        "built-in `--reasoning-parser` names (plus `--reasoning-parser-plugin`)",
        read="decorators",
    ),
    ValueSetSpec(
        "tool_parsers",
        "vllm.tool_parsers",
        "_TOOL_PARSERS_TO_REGISTER",
        ("ToolParserManager.register_module", "ToolParserManager.register_lazy_module"),
        "built-in `--tool-call-parser` names (plus `--tool-parser-plugin`)",
    ),
    ValueSetSpec(  # 0.11 and 0.12: the same lazy registry under the OpenAI entry point
        "tool_parsers",
        "vllm.entrypoints.openai.tool_parsers",
        "_TOOL_PARSERS_TO_REGISTER",
        ("ToolParserManager.register_module", "ToolParserManager.register_lazy_module"),
        "built-in `--tool-call-parser` names (plus `--tool-parser-plugin`)",
    ),
    ValueSetSpec(  # up to 0.10: each parser module registers its class on import
        "tool_parsers",
        "vllm.entrypoints.openai.tool_parsers",
        "ToolParserManager.register_module",
        ("ToolParserManager.register_module",),
        "built-in `--tool-call-parser` names (plus `--tool-parser-plugin`)",
        read="decorators",
    ),
    ValueSetSpec(
        "kv_connectors",
        "vllm.distributed.kv_transfer.kv_connector.factory",
        "KVConnectorFactory.register_connector",
        ("KVConnectorFactory.register_connector",),
        "`kv-transfer-config.kv_connector` names KVConnectorFactory registers",
        read="calls",
    ),
)


class NotAValueSet(Exception):
    """The symbol's value is not a statically known sequence of constants."""


class ValueSetReader:
    def __init__(self, index: SourceIndex, types: TypeResolver, extractor: ClassExtractor):
        self.index = index
        self.types = types
        self.extractor = extractor

    # -- public -------------------------------------------------------------------
    def read(self, spec: ValueSetSpec) -> dict[str, Any]:
        if spec.read == "calls":
            return self._registered(spec)
        if spec.read == "decorators":
            return self._decorated(spec)
        ref = self.index.resolve(spec.module, spec.symbol)
        if ref.kind not in ("value", "class") or ref.node is None:
            raise RuntimeError(f"value set {spec.name}: {spec.module}.{spec.symbol} not found")
        values = self._values(ref)
        hooks = [h for h in (self._hook(spec.module, name) for name in spec.hooks) if h]
        return {
            "values": values,
            "source": self.index.source_of(ref.module, ref.node),
            "open": bool(hooks),
            "extended_by": hooks,
            "symbol": ref.qualname,
            "doc": spec.doc,
        }

    def _registered(self, spec: ValueSetSpec) -> dict[str, Any]:
        """Members named by module-level calls of ``spec.symbol`` (``register_x("name", …)``)."""
        tree = self.index.src.tree(spec.module)
        if tree is None:
            raise RuntimeError(f"value set {spec.name}: module {spec.module} not found")
        calls = [
            statement.value
            for statement in tree.body
            if isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Call)
            and ast.unparse(statement.value.func) == spec.symbol
            and statement.value.args
        ]
        if not calls:
            raise NotAValueSet(f"no call of {spec.symbol} in {spec.module}")
        values = _unique([self._scalar(spec.module, call.args[0], 0) for call in calls])
        return self._by_function(spec, values, spec.module, calls[0])

    def _decorated(self, spec: ValueSetSpec) -> dict[str, Any]:
        """Names given to ``@spec.symbol(...)`` on the classes of the modules the package
        ``spec.module`` imports, in the order vLLM registers them: module by module as
        imported, a class's decorators from the innermost out."""
        info = self.index.info(spec.module)
        if info is None:
            raise RuntimeError(f"value set {spec.name}: module {spec.module} not found")
        imported = _unique(
            [
                b.target
                for b in info.runtime.values()
                if b.kind == "from" and b.target.startswith(spec.module + ".")
            ]
        )
        values: list[Any] = []
        first: tuple[str, ast.AST] | None = None
        for module in imported:
            tree = self.index.src.tree(module)
            classes = [s for s in tree.body if isinstance(s, ast.ClassDef)] if tree else []
            for cls in classes:
                for decorator in reversed(cls.decorator_list):
                    names = self._decorator_names(module, decorator, spec.symbol)
                    if names:
                        values += names
                        first = first or (module, decorator)
        if first is None:
            raise NotAValueSet(f"no class decorated with {spec.symbol} under {spec.module}")
        return self._by_function(spec, _unique(values), *first)

    def _decorator_names(self, module: str, decorator: ast.expr, function: str) -> list[Any]:
        """The names ``@function("a")`` / ``@function(["a", "b"])`` / ``name=`` registers."""
        if not isinstance(decorator, ast.Call) or ast.unparse(decorator.func) != function:
            return []
        given = decorator.args[0] if decorator.args else None
        given = given or next((k.value for k in decorator.keywords if k.arg == "name"), None)
        if given is None:
            return []
        value = self._scalar(module, given, 0)
        return list(value) if isinstance(value, list) else [value]

    def _by_function(
        self, spec: ValueSetSpec, values: list[Any], module: str, first: ast.AST
    ) -> dict[str, Any]:
        hooks = [h for h in (self._hook(spec.module, name) for name in spec.hooks) if h]
        return {
            "values": values,
            "source": self.index.source_of(module, first),
            "open": bool(hooks),
            "extended_by": hooks,
            "symbol": f"{spec.module}.{spec.symbol}",
            "doc": spec.doc,
        }

    # -- evaluation ---------------------------------------------------------------
    def _values(self, ref: Ref) -> list[Any]:
        if ref.kind == "class":
            if not self.types.is_enum(ref):
                raise NotAValueSet(f"{ref.qualname} is a class but not an enum")
            return list(self.extractor.extract_enum(ref).members)
        assert isinstance(ref.node, ast.expr)
        return self._seq(ref.module, ref.node, 0)

    def _seq(self, module: str, node: ast.expr, depth: int) -> list[Any]:
        """Evaluate an expression that denotes a sequence of constants."""
        if depth > 30:
            raise NotAValueSet("too deep")
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out: list[Any] = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    out += self._seq(module, elt.value, depth + 1)
                elif isinstance(elt, ast.Constant):
                    out.append(elt.value)
                else:
                    out += [self._scalar(module, elt, depth + 1)]
            return _unique(out)
        if isinstance(node, ast.Dict):  # iterating a dict: its keys
            if any(k is None for k in node.keys):
                raise NotAValueSet("dict unpacking")
            return _unique([self._scalar(module, k, depth + 1) for k in node.keys if k])
        if isinstance(node, ast.Subscript):  # Literal[...] (possibly nested aliases)
            tree = self.types.resolve(module, node)
            if tree["kind"] != "literal":
                raise NotAValueSet(ast.unparse(node))
            return list(tree["values"])
        if isinstance(node, (ast.Name, ast.Attribute)):
            ref = self.index.resolve_expr(module, node)
            if ref is None or ref.node is None or ref.kind not in ("value", "class"):
                raise NotAValueSet(ast.unparse(node))
            return self._values(ref)
        if isinstance(node, ast.Call):
            func = self.index.resolve_expr(module, node.func)
            qual = func.qualname if func else ""
            if qual in _SEQ_CALLS and len(node.args) == 1 and not node.keywords:
                return self._seq(module, node.args[0], depth + 1)
            if qual in _GET_ARGS and len(node.args) == 1:
                tree = self.types.resolve(module, node.args[0])
                if tree["kind"] != "literal":
                    raise NotAValueSet(ast.unparse(node))
                return list(tree["values"])
            if isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and not node.args:
                return self._seq(module, node.func.value, depth + 1)
        raise NotAValueSet(ast.unparse(node))

    def _scalar(self, module: str, node: ast.expr, depth: int) -> Any:
        try:
            return const_eval(self.index, module, node)
        except NotConstant as exc:
            raise NotAValueSet(ast.unparse(node)) from exc

    def _hook(self, module: str, dotted: str) -> str | None:
        """``path:line name`` of a hook function when the wheel defines it."""
        expr = ast.parse(dotted, mode="eval").body
        ref = self.index.resolve_expr(module, expr)
        if ref is None or ref.kind != "func" or ref.node is None:
            return None
        return f"{self.index.source_of(ref.module, ref.node)} {dotted}"


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def value_sets(
    index: SourceIndex, types: TypeResolver, extractor: ClassExtractor
) -> dict[str, dict[str, Any]]:
    """Every set of ``SPECS`` the wheel defines; older releases lack some symbols (or keep
    them in another shape), and a set that cannot be read is left out rather than guessed,
    so the engine treats the value as unchecked. Of a set's places the first one the wheel
    has wins."""
    reader = ValueSetReader(index, types, extractor)
    out: dict[str, dict[str, Any]] = {}
    for spec in SPECS:
        if spec.name in out:
            continue
        try:
            out[spec.name] = reader.read(spec)
        except (RuntimeError, NotAValueSet):
            continue
    return out
