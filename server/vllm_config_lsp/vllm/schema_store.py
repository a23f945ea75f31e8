"""The compact on-disk form of every release's `x-vllm` catalogue (docs/schema-format.md).

Consecutive vLLM releases share almost every flag, config field and enum verbatim; only the
`file:line` they were read from moves. So each definition is stored once, in
`schemas/catalogue-shared.json` (content hash → definition without its `source`), and each
release has a small `schemas/catalogue-<version>.json` naming, per flag / field / enum /
value set / class, the hash and the source line. `split` (used by the generator) and `join`
(used by `catalogue.load_catalogue`) are exact inverses: joining a release reproduces the
`x-vllm` object the generator built, key for key.
"""

from __future__ import annotations

import json
from typing import Any

#: x-vllm sections whose values are definitions shared across releases.
SECTIONS = ("flags", "enums", "value_sets")
#: Keys kept per release rather than in the shared definition (they change every release).
VOLATILE = "source"
HASH_CHARS = 12

Shared = dict[str, Any]


def digest(definition: Any) -> str:
    """Content hash of a definition (canonical JSON), the key of the shared dictionary."""
    import hashlib  # the generator's alone: loading a catalogue hashes nothing

    text = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def _put(definition: dict[str, Any], shared: Shared) -> list[Any]:
    body = {k: v for k, v in definition.items() if k != VOLATILE}
    key = digest(body)
    shared[key] = body
    return [key, definition.get(VOLATILE)]


def _get(ref: list[Any], shared: Shared) -> dict[str, Any]:
    key, source = ref
    out = dict(shared[key])
    if source is not None:
        out[VOLATILE] = source
    return out


def split(xv: dict[str, Any], shared: Shared) -> dict[str, Any]:
    """One release's entry; its definitions are added to ``shared`` (mutated)."""
    entry: dict[str, Any] = {}
    for name, value in xv.items():
        if name in SECTIONS:
            entry[name] = {k: _put(v, shared) for k, v in value.items()}
        elif name == "classes":
            entry[name] = {
                cname: {
                    "class": _put({k: v for k, v in c.items() if k != "fields"}, shared),
                    "fields": {f: _put(fv, shared) for f, fv in c["fields"].items()},
                }
                for cname, c in value.items()
            }
        else:
            entry[name] = value
    return entry


def join(entry: dict[str, Any], shared: Shared) -> dict[str, Any]:
    """The `x-vllm` object of one release from its entry and the shared definitions."""
    xv: dict[str, Any] = {}
    for name, value in entry.items():
        if name in SECTIONS:
            xv[name] = {k: _get(ref, shared) for k, ref in value.items()}
        elif name == "classes":
            xv[name] = {
                cname: {
                    **_get(c["class"], shared),
                    "fields": {f: _get(ref, shared) for f, ref in c["fields"].items()},
                }
                for cname, c in value.items()
            }
        else:
            xv[name] = value
    return xv


def referenced(entry: dict[str, Any]) -> set[str]:
    """Hashes an entry uses (the generator drops shared definitions no release uses)."""
    keys: set[str] = set()
    for name in SECTIONS:
        keys.update(ref[0] for ref in entry.get(name, {}).values())
    for c in entry.get("classes", {}).values():
        keys.add(c["class"][0])
        keys.update(ref[0] for ref in c["fields"].values())
    return keys
