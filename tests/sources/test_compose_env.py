"""A compose file's `${VAR}` filled from the `.env` file beside it, as `docker compose`
interpolates (compose-go's `dotenv` parser and `template` substitution), on the real files
of `data/compose-env/` (SOURCES.md) and on each rule of the syntax."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from source_support import texts
from vllm_config_lsp.sources import compose_env
from vllm_config_lsp.sources.compose import find_invocations
from vllm_config_lsp.sources.invocation import Invocation

DATA = Path(__file__).parent / "data" / "compose-env"


def _copy(tmp_path: Path, name: str) -> Path:
    """The real files in a folder of their own (`.env` beside the compose file)."""
    folder = tmp_path / name
    shutil.copytree(DATA / name, folder)
    return folder


def _read(folder: Path, compose: str) -> list[Invocation]:
    path = folder / compose
    return find_invocations(path.read_text(encoding="utf-8"), path)


def _line_of(path: Path, name: str) -> int:
    """The 0-based line of the `.env` file that sets `name`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))


# -- the real files -----------------------------------------------------------------------


def test_harbor_model_specifier_is_two_words_from_the_env_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "harbor")
    text = (folder / "compose.vllm.yml").read_text(encoding="utf-8")
    [invocation] = _read(folder, "compose.vllm.yml")
    # `${HARBOR_VLLM_MODEL_SPECIFIER}` is `--model microsoft/…`, split by compose;
    # `${HARBOR_VLLM_EXTRA_ARGS}` is "" and gives no word
    assert texts(invocation) == ["--model", "microsoft/Phi-3-mini-4k-instruct"]
    assert all(word.resolved for word in invocation.args)
    reference = "${HARBOR_VLLM_MODEL_SPECIFIER}"
    at = text.index(reference)
    for word in invocation.args:  # every character sits on the reference
        assert text[word.start : word.end] == reference
        assert set(word.starts) == {at} and set(word.ends) == {at + len(reference)}
    fills = {fill.name: fill for fill in invocation.fills}
    assert set(fills) == {
        "HARBOR_VLLM_MODEL_SPECIFIER",
        "HARBOR_VLLM_EXTRA_ARGS",
        "HARBOR_HF_HUB_TOKEN",
        "HARBOR_VLLM_ATTENTION_BACKEND",
    }
    place = fills["HARBOR_VLLM_MODEL_SPECIFIER"].place
    assert place is not None and Path(place.path) == folder / ".env"
    assert place.line == _line_of(folder / ".env", "HARBOR_VLLM_MODEL_SPECIFIER")
    assert place.line_text[place.start : place.end] == (
        'HARBOR_VLLM_MODEL_SPECIFIER="--model microsoft/Phi-3-mini-4k-instruct"'
    )
    environ = {var.name.text: var.value.text for var in invocation.environ if var.value}
    assert environ["VLLM_ATTENTION_BACKEND"] == "FLASH_ATTN"
    assert environ["HUGGING_FACE_HUB_TOKEN"] == ""  # `HARBOR_HF_HUB_TOKEN=""`


def test_aristote_command_takes_every_value_from_the_env_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "aristote")
    [invocation] = _read(folder, "docker-compose.yml")
    assert texts(invocation) == [
        "--env",
        "HUGGING_FACE_HUB_TOKEN=",  # `HF_TOKEN=` is empty: compose substitutes ""
        "--model",
        "teknium/OpenHermes-2.5-Mistral-7B",
        "--dtype",
        "float16",
        "--tensor-parallel-size",
        "2",
    ]
    assert all(word.resolved for word in invocation.args)
    lines = {fill.name: fill.place.line for fill in invocation.fills if fill.place}
    for name in ("HF_TOKEN", "MODEL_NAME", "DTYPE", "TENSOR_PARALLEL_SIZE"):
        assert lines[name] == _line_of(folder / ".env", name)


def test_without_the_env_file_the_references_stay_unresolved(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "aristote")
    (folder / ".env").rename(folder / "settings.env")  # `env_file:` names it: not used
    [invocation] = _read(folder, "docker-compose.yml")
    unresolved = [word.text for word in invocation.args if not word.resolved]
    assert unresolved == [
        "HUGGING_FACE_HUB_TOKEN=${HF_TOKEN}",
        "${MODEL_NAME}",
        "${DTYPE}",
        "${TENSOR_PARALLEL_SIZE}",
    ]
    assert invocation.fills == ()


def test_a_service_env_file_is_the_containers_not_interpolation(tmp_path: Path) -> None:
    (tmp_path / "vllm.env").write_text("MODEL=m\n", encoding="utf-8")
    text = (
        "services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n"
        "    env_file: vllm.env\n    command: --model ${MODEL}\n"
    )
    [invocation] = find_invocations(text, tmp_path / "compose.yaml")
    assert texts(invocation) == ["--model", "${MODEL}"]
    assert not invocation.args[1].resolved


# -- template.go: the forms of a reference ------------------------------------------------

ENV = "SET=v\nEMPTY=\nTAG=v0.10.1\n"
HEAD = "services:\n  llm:\n    image: vllm/vllm-openai"


@pytest.mark.parametrize(
    ("written", "argv"),
    [
        ("$SET", ["v"]),
        ("${SET}", ["v"]),
        ("${SET:-d}", ["v"]),
        ("${EMPTY:-d}", ["d"]),
        ("${EMPTY-d}", []),  # set, empty: no word
        ("${SET:?needed}", ["v"]),
        ("${EMPTY?needed}", []),
        ("${SET:+alt}", ["alt"]),
        ("${EMPTY:+alt}", []),
        ("${EMPTY+alt}", ["alt"]),
        ("${EMPTY:-${SET}}", ["v"]),  # a default is interpolated too
        ("x$${SET}", ["x${SET}"]),  # `$$` is a literal `$`, for the container
    ],
)
def test_each_form_resolves_as_compose_does(tmp_path: Path, written: str, argv: list[str]) -> None:
    (tmp_path / ".env").write_text(ENV, encoding="utf-8")
    text = f"{HEAD}:${{TAG}}\n    command: --model m {written}\n"
    [invocation] = find_invocations(text, tmp_path / "compose.yaml")
    assert texts(invocation) == ["--model", "m", *argv]
    assert all(word.resolved for word in invocation.args)
    assert invocation.image == "vllm/vllm-openai:v0.10.1"


@pytest.mark.parametrize(
    "written",
    ["$UNSET", "${UNSET:-d}", "${UNSET-d}", "${UNSET:+a}", "${EMPTY:?needed}", "${EMPTY:-$UNSET}"],
)
def test_what_the_shell_decides_stays_unresolved(tmp_path: Path, written: str) -> None:
    """A name the `.env` file does not set is the shell's, or compose's refusal
    (`${EMPTY:?…}` unless the shell sets it)."""
    (tmp_path / ".env").write_text(ENV, encoding="utf-8")
    text = f"{HEAD}:v0.10.1\n    command: --model m {written}\n"
    [invocation] = find_invocations(text, tmp_path / "compose.yaml")
    assert texts(invocation) == ["--model", "m", written]
    assert not invocation.args[-1].resolved and invocation.fills == ()


# -- dotenv/parser.go ---------------------------------------------------------------------


def _values(text: str) -> dict[str, str]:
    return {name: setting.value for name, setting in compose_env.parse(text, ".env").items()}


def test_dotenv_syntax() -> None:
    text = (
        "\ufeff# a comment\n"
        "PLAIN=value # inline comment\n"
        "HASH=a#b\n"
        "export EXPORTED=1\n"
        "EMPTY=\n"
        "SINGLE='lit $PLAIN \\n'\n"
        'DOUBLE="tab\\there $PLAIN \\"q\\""   # after the quote\n'
        'MULTI="one\ntwo"\n'
        "YAML: style\n"
        "SPACED = around  \n"
        "DOLLAR=\\$PLAIN $$PLAIN\n"
        "REF=${PLAIN}-x\n"
        "SHELL=${FROM_SHELL}\n"
        "INHERITED\n"
        "PLAIN2=$PLAIN\n"
    )
    values = _values(text)
    assert values == {
        "PLAIN": "value",
        "HASH": "a#b",
        "EXPORTED": "1",
        "EMPTY": "",
        "SINGLE": "lit $PLAIN \\n",
        "DOUBLE": 'tab\there value "q"',
        "MULTI": "one\ntwo",
        "YAML": "style",
        "SPACED": "around",
        "DOLLAR": "\\value $PLAIN",  # unquoted: no escapes, `$$` a literal `$`
        "REF": "value-x",
        "PLAIN2": "value",
        # SHELL reads the shell (unknown), INHERITED is the shell's: both left out
    }


def test_a_later_line_that_reads_the_shell_hides_the_earlier_value() -> None:
    assert _values("A=1\nA=${FROM_SHELL}\nB=2\n") == {"B": "2"}


@pytest.mark.parametrize(
    "text", ["A=1\nBAD KEY=1\n", 'A=1\nOPEN="never closed\n', "A=1\nWE!RD=1\n"]
)
def test_a_file_compose_refuses_gives_no_value(text: str) -> None:
    assert _values(text) == {}


def test_a_line_without_a_name_sets_nothing_a_reference_reads() -> None:
    assert _values("A=1\n=orphan\nNO-EQUALS-AT-END") == {"A": "1"}


def test_each_setting_knows_its_line() -> None:
    settings = compose_env.parse("# x\n\nexport A='1'  # c\nB=2\n", "/p/.env")
    a = settings["A"].place
    assert (a.path, a.line, a.line_text[a.start : a.end]) == ("/p/.env", 2, "A='1'")
    assert settings["B"].place.line == 3


def test_reads_only_the_env_file_beside_the_document(tmp_path: Path) -> None:
    compose = tmp_path / "compose.yaml"
    assert compose_env.reads(tmp_path / ".env", compose)
    assert not compose_env.reads(tmp_path / "sub" / ".env", compose)
    assert not compose_env.reads(tmp_path / "x.env", compose)
    (tmp_path / ".env").mkdir()  # not a regular file: nothing read
    assert compose_env.read(tmp_path) == {}


def test_a_link_out_of_the_folder_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secrets.env").write_text("MODEL=m\n", encoding="utf-8")
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / ".env").symlink_to(elsewhere / "secrets.env")
    assert compose_env.read(folder) == {}
    (folder / "local.env").write_text("MODEL=m\n", encoding="utf-8")
    (folder / ".env").unlink()
    (folder / ".env").symlink_to("local.env")  # a link inside the folder is compose's too
    assert compose_env.read(folder)["MODEL"].value == "m"
