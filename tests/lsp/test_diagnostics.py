"""Diagnostics: pushed on open and after edits with the document version, never stale, with
code, documentation link, source and fixes; positions in the negotiated encoding; only for
documents that are vLLM configs (never for the other YAML files of a repository)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import (
    TIMEOUT,
    Doc,
    change_doc,
    diagnostics_for,
    document_info,
    encoding,
    open_doc,
    position_of,
    published,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

DOCS = "https://github.com/vllm-config-lsp/vllm-config-lsp/blob/main/docs/rules/"


async def test_open_publishes_at_once_with_everything(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/d/open.vllm.yaml", "model: Qwen/Qwen3-8B\nswap-space: 16\n")
    [diag] = await doc.diagnostics()
    assert diag.code == "VC101"
    assert diag.source == "vllm-config"
    assert diag.severity == types.DiagnosticSeverity.Error
    assert diag.code_description is not None
    assert diag.code_description.href == DOCS + "VC101.md"
    assert diag.range == types.Range(
        start=types.Position(line=1, character=0), end=types.Position(line=1, character=10)
    )
    assert isinstance(diag.data, dict)
    assert diag.data["version"] == 1
    assert [fix["title"] for fix in diag.data["fixes"]] == ["Remove `swap-space`"]
    assert diag.data["disable"]["newText"] == "  # vllm-config: disable=VC101"


async def test_edits_republish_with_versions_and_never_stale(client: LanguageClient) -> None:
    uri = "file:///work/d/edits.vllm.yaml"
    doc = Doc(client, uri, "model: Qwen/Qwen3-8B\n")
    assert await doc.diagnostics() == []
    # an incremental edit: append a line
    doc.version = 2
    change_doc(
        client,
        uri,
        2,
        "max-num-seqs: many\n",
        types.Range(
            start=types.Position(line=1, character=0), end=types.Position(line=1, character=0)
        ),
    )
    [diag] = await diagnostics_for(client, uri, 2)
    assert diag.code == "VC201"
    assert diag.range.start.line == 1
    # a burst of edits inside the debounce window: only the last version is checked
    for version, value in ((3, "1"), (4, "2"), (5, "3"), (6, "oops")):
        change_doc(
            client,
            uri,
            version,
            value,
            types.Range(
                start=types.Position(line=1, character=14),
                end=types.Position(line=1, character=14 + len("many" if version == 3 else "1")),
            ),
        )
    [diag] = await diagnostics_for(client, uri, 6)
    assert diag.code == "VC201" and "oops" in diag.message
    versions = [p.version or 0 for p in published(client, uri)]
    assert versions == sorted(versions), versions  # never an older version after a newer one
    assert not {3, 4, 5} & set(versions)


async def test_close_clears(client: LanguageClient) -> None:
    uri = "file:///work/d/close.vllm.yaml"
    doc = Doc(client, uri, "swap-space: 16\n")
    assert await doc.diagnostics()
    doc.close()
    await asyncio.wait_for(_cleared(client, uri), TIMEOUT)


async def _cleared(client: LanguageClient, uri: str) -> None:
    while not (published(client, uri) and published(client, uri)[-1].diagnostics == []):
        await asyncio.sleep(0.005)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
async def test_positions_after_emoji_and_cjk(client: LanguageClient, newline: str) -> None:
    """UTF-16 columns count 😀 as 2 and 模 as 1; UTF-32 (Emacs) counts both as 1."""
    lines = [
        "# 配置 😀 comment",
        "served-model-name: 模型😀",
        "model: Qwen/Qwen3-8B  # 😀😀",
        "dtype: 'bfloat😀'",
        "max-num-seqs: 😀",
    ]
    text = newline.join(lines) + newline
    uri = f"file:///work/d/unicode-{len(newline)}.vllm.yaml"
    doc = Doc(client, uri, text)
    found = {str(d.code): d for d in await doc.diagnostics()}
    enc = encoding(client)
    choice = text.index("bfloat😀")  # what vLLM receives: inside the quotes (issue 34)
    assert found["VC202"].range.start == position_of(text, choice, enc)
    assert found["VC202"].range.end == position_of(text, choice + len("bfloat😀"), enc)
    value = text.index("😀", text.index("max-num-seqs"))
    assert found["VC201"].range.start == position_of(text, value, enc)
    assert found["VC201"].range.end.line == 4
    if enc == "utf-16":
        assert found["VC202"].range.end.character == len("dtype: 'bfloat😀") + 1


async def test_nothing_a_document_contains_silences_the_server(client: LanguageClient) -> None:
    nasty = [
        "",
        "\x00\x01binary",
        "a: &a [*a, *a]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c, *c, *c]\n",
        "[" * 2000,
        "key: {{ .Values.x }}\n\ttab: 1\n",
        "--- !!python/object:os.system\nx: 1\n",
        "model: " + "x" * 20_000 + "\n",
        'compilation-config: \'{"mode": ' + "[" * 1000 + "'\n",
        "\ufeffmodel: a\n\u2028x: 1\x85y: 2\n",
    ]
    for number, text in enumerate(nasty):
        uri = f"file:///work/d/nasty-{number}.vllm.yaml"
        # a marker says "a config", which content no longer need say (keys that are no
        # flags make no config, issue 27): the text goes through the whole check
        Doc(client, uri, text + "\n# vllm-config\n" if text else text)
        await diagnostics_for(client, uri, 1)
    # and the server still answers normally
    doc = Doc(client, "file:///work/d/after-nasty.vllm.yaml", "swap-space: 1\n")
    assert [d.code for d in await doc.diagnostics()] == ["VC101"]


# -- which documents are checked (fixtures in tests/fixtures/association) --------------------

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "association"
NEGATIVE = sorted((FIXTURES / "negative").iterdir())
POSITIVE = sorted((FIXTURES / "positive").iterdir())
#: Manifests, compose files and workflows that start vLLM: checked as command lines.
COMMAND_LINES = sorted((FIXTURES / "command-lines").iterdir())


async def test_only_vllm_configs_get_diagnostics(client: LanguageClient) -> None:
    for path in NEGATIVE:
        open_doc(client, path.as_uri(), path.read_text(encoding="utf-8"))
    docs = [Doc(client, path.as_uri(), path.read_text(encoding="utf-8")) for path in POSITIVE]
    for doc in docs:
        await doc.diagnostics()  # published (possibly empty): the document is checked
    # a negative named like a config is checked: half its keys are flags...
    settings = (FIXTURES / "negative" / "app-settings.yaml").read_text(encoding="utf-8")
    named = Doc(client, "file:///work/a/app.vllm.yaml", settings)
    assert await named.diagnostics()
    # ...as a config with a typo in one of its two keys is, which vLLM refuses
    typo = Doc(client, "file:///work/a/typo.vllm.yaml", "model: m\nmax-nun: 4\n")
    assert [d.code for d in await typo.diagnostics()] == ["VC101"]
    # ...but a Kubernetes manifest never is a `--config` file, whatever its name (issue 13)
    manifest = (FIXTURES / "command-lines" / "k8s-deployment.yaml").read_text(encoding="utf-8")
    open_doc(client, "file:///work/a/k8s.vllm.yaml", manifest)
    # checks run in order on one thread: by now every negative was decided, silently
    await asyncio.sleep(0.05)
    for path in NEGATIVE:
        assert published(client, path.as_uri()) == [], path.name
    misread = [
        d.code
        for p in published(client, "file:///work/a/k8s.vllm.yaml")
        for d in p.diagnostics
        if d.code in ("VC101", "VC102")
    ]
    assert misread == []
    # files that start vLLM are checked (published, here clean), never read as configs
    for path in COMMAND_LINES:
        doc = Doc(client, path.as_uri(), path.read_text(encoding="utf-8"))
        assert await doc.diagnostics() == [], path.name


NOT_CONFIG = Path(__file__).resolve().parent.parent / "sources" / "data" / "not-config"


async def test_a_skypilot_task_named_vllm_gets_no_diagnostics(client: LanguageClient) -> None:
    """SkyPilot's own `llm/vllm/vllm.sky.yaml` (tests/sources/data/not-config): its keys
    (`envs`, `resources`, `setup`, `run`, `service`) are no flags, so it is no `--config`
    file whatever its name says: it is a SkyPilot task, whose `run:` start is checked and
    correct (an empty list, never `--name`/`--resources` misread); Baseten's `config.yaml`
    opened as `vllm.yaml` is nothing to check (nothing published)."""
    sky = NOT_CONFIG / "skypilot" / "skypilot" / "vllm.sky.yaml"
    truss = NOT_CONFIG / "baseten" / "truss-examples" / "config.yaml"
    open_doc(client, "file:///work/s/vllm.sky.yaml", sky.read_text(encoding="utf-8"))
    open_doc(client, "file:///work/s/vllm.yaml", truss.read_text(encoding="utf-8"))
    # Checks of different documents run on a pool of threads, in no set order: wait until
    # the Baseten file's check is over (documentInfo answers from its finished check) and
    # for the SkyPilot task's publication, then for a later document's.
    await document_info(client, "file:///work/s/vllm.yaml")
    assert await diagnostics_for(client, "file:///work/s/vllm.sky.yaml", 1) == []
    await Doc(client, "file:///work/s/after.vllm.yaml", "max-num-seqs: 4\n").diagnostics()
    assert [p.diagnostics for p in published(client, "file:///work/s/vllm.sky.yaml")] == [[]]
    assert published(client, "file:///work/s/vllm.yaml") == []


async def test_a_document_becomes_a_config_while_typed(client: LanguageClient) -> None:
    doc = Doc(client, "untitled:Untitled-1", "")
    await asyncio.sleep(0.1)
    assert published(client, doc.uri) == []
    diagnostics = await doc.replace("tensor-parallel-size: 2\nmax-num-seqs: many\n")
    assert [d.code for d in diagnostics] == ["VC201"]
    # and stops being one: its diagnostics are cleared once
    assert await doc.replace("apiVersion: v1\nkind: Pod\n") == []


async def test_a_warning_points_at_the_setting_that_causes_it(client: LanguageClient) -> None:
    """VC376 sits on the overridden setting; `enforce-eager` is its related information,
    at its own range in the same document."""
    uri = "file:///work/d/related.vllm.yaml"
    text = (
        "model: Qwen/Qwen3-8B\nenforce-eager: true\ncompilation-config:\n  cudagraph_mode: FULL\n"
    )
    [diag] = await Doc(client, uri, text).diagnostics()
    assert diag.code == "VC376"
    assert diag.severity == types.DiagnosticSeverity.Warning
    assert diag.range.start.line == 3
    assert diag.related_information is not None
    [related] = diag.related_information
    assert related.location.uri == uri
    assert related.location.range == types.Range(
        start=types.Position(line=1, character=0), end=types.Position(line=1, character=19)
    )
    assert related.message == "'enforce-eager' is set here"
