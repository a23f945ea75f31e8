"""A `$NAME` of a shell command line takes the value the script itself assigns, where that
value is certain at the use (issues 28/29: hosts read as their interpreter reads them); every
other reference stays unknown, never wrong. Through the CLI, on real scripts
(data/shell-values/SOURCES.md, and tests/sources/data/shell_built/SOURCES.md for
myHypotheSAEs' serve.sh) and on the shapes that keep a value uncertain.

A fix never writes a literal over a filled `$NAME`: a finding on one has no fix (its related
information points at the assignment), while removing whole words, the reference with them,
stays offered and applies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import REPO, cli

DATA = REPO / "tests" / "cli" / "data" / "shell-values"


def _argv(path: Path) -> list[list[str]]:
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    return [entry["argv"] for entry in json.loads(done.stdout)]


def _check(path: Path, *options: str) -> list[dict[str, object]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.33.0", *options, str(path))
    assert done.returncode in (0, 1), done.stderr
    findings: list[dict[str, object]] = json.loads(done.stdout)
    return findings


def _applied(text: str, edits: list[dict[str, object]]) -> str:
    """`text` with the CLI's edits (1-based lines and columns) applied, last first."""
    starts = [0, *(at + 1 for at, char in enumerate(text) if char == "\n")]

    def offset(line: object, column: object) -> int:
        assert isinstance(line, int) and isinstance(column, int)
        return starts[line - 1] + column - 1

    for edit in sorted(edits, key=lambda e: offset(e["line"], e["column"]), reverse=True):
        start = offset(edit["line"], edit["column"])
        end = offset(edit["end_line"], edit["end_column"])
        text = text[:start] + str(edit["new_text"]) + text[end:]
    return text


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "start.sh"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        (
            "smurfs-vllm_server.sh",
            ["--model", "Your/Model/Name", "--dtype=half", "--tensor-parallel-size", "4"],
        ),
        (
            "lifesim-run_user_model.sh",
            [
                "/remote-home/share/LLM_CKPT/huggingface_models/Qwen3-32B",
                *("--host", "0.0.0.0", "--port", "8000", "--dtype", "auto"),
                *("--tensor-parallel-size", "4", "--gpu-memory-utilization", "0.9"),
                *("--max-model-len", "16384", "--api-key", "123"),
            ],
        ),
        # `eval "${CMD}"` of `CMD="vllm serve ${MODEL} …"`: expanded where CMD is assigned;
        # `--max-model-len ${MAX_MODEL_LEN}` is appended under `if [ -n "${MAX_MODEL_LEN}" ]`
        # (the value is empty there: the test decides whether that arm runs)
        (
            "../../../sources/data/shell_built/Lhongpei__myHypotheSAEs__serve.sh",
            [
                "Qwen/Qwen3-32B",
                *("--host", "0.0.0.0", "--port", "1212", "--tensor-parallel-size", "4"),
                *("--max-model-len", "${MAX_MODEL_LEN}"),
            ],
        ),
        (
            "SkyRL-launch_qwen2.5_32b_coder.sh",
            [
                "Qwen/Qwen2.5-Coder-32B-Instruct",
                *("--host", "0.0.0.0", "--port", "8000", "--rope-scaling"),
                '{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}',
                *("--max-model-len", "131072"),
                *("--served-model-name", "Qwen/Qwen2.5-Coder-32B-Instruct"),
                *("--gpu-memory-utilization", "0.95"),
            ],
        ),
        # a shell-form ENTRYPOINT: the container's shell expands the stage's `ENV`s
        (
            "julep-model-serving.Dockerfile",
            [
                *("--model", "julep-ai/Hermes-2-Theta-Llama-3-8B", "--tensor-parallel-size"),
                *("1", "--enforce-eager", "--gpu-memory-utilization", "0.95"),
                *("--max-model-len", "8192", "--max-num-seqs", "1", "--dtype", "bfloat16"),
                *("--trust-remote-code", "--api_key=myauthkey"),
            ],
        ),
        # `MODEL_PATH=${MODEL_PATH:-/models/my_model}`: the caller may set it
        (
            "llm_env-entrypoint.sh",
            [
                "$MODEL_PATH",
                *("--host", "0.0.0.0", "--port", "8000", "--tensor-parallel-size", "1"),
                *("--dtype", "bfloat16", "--max-model-len", "4096"),
            ],
        ),
    ],
)
def test_real_scripts_words_take_the_values_the_script_sets(name: str, argv: list[str]) -> None:
    assert _argv(DATA / name) == [argv]


def test_a_model_named_through_a_variable_reaches_the_model_rules(tmp_path: Path) -> None:
    """The brief's case: VC601 fires as it does with the model written literally, and its
    fix edits the literal size."""
    path = _script(
        tmp_path,
        "MODEL=meta-llama/Llama-3.1-8B-Instruct\nvllm serve $MODEL --tensor-parallel-size 3\n",
    )
    [found] = [f for f in _check(path) if f["code"] == "VC601"]
    assert "(3)" in str(found["message"]) and found["line"] == 2
    fix = found["fix"]
    assert isinstance(fix, dict) and fix["edits"][0]["new_text"] == "2"


def test_a_bad_value_is_reported_on_the_reference_with_the_assignment(tmp_path: Path) -> None:
    path = _script(tmp_path, "#!/bin/bash\nMAX=abc\nvllm serve m --max-model-len=$MAX\n")
    [found] = _check(path)
    assert found["code"] == "VC201" and "'abc'" in str(found["message"])
    assert (found["line"], found["column"]) == (3, 14)
    assert found["related"] == [{"line": 2, "column": 5, "message": "`$MAX` takes its value here"}]
    assert found["fix"] is None


def test_no_fix_writes_a_literal_over_a_filled_reference(tmp_path: Path) -> None:
    """`--dtype Half` written literally gets "Replace with `half`"; through `$D` it does not
    (it would replace `$D`), and `check --fix` leaves the file as it is."""
    literal = _script(tmp_path, "vllm serve m --dtype Half\n")
    [offered] = _check(literal)
    assert offered["code"] == "VC202" and offered["fix"] is not None
    text = "#!/bin/bash\nD=Half\nvllm serve m --dtype $D\n"
    path = _script(tmp_path, text)
    [found] = _check(path)
    assert found["code"] == "VC202" and found["fix"] is None
    assert found["related"] == [{"line": 2, "column": 3, "message": "`$D` takes its value here"}]
    cli("check", "--fix", "--vllm-version", "0.33.0", str(path))
    assert path.read_text(encoding="utf-8") == text


def test_removing_a_flag_with_a_filled_value_applies(tmp_path: Path) -> None:
    """A removed flag whose value is `$SWAP`: the fix deletes both words; the file stays
    valid shell and the finding is gone."""
    path = _script(tmp_path, "SWAP=4\nvllm serve m \\\n  --swap-space $SWAP \\\n  --port 8000\n")
    [found] = _check(path)
    assert found["code"] == "VC101"
    fix = found["fix"]
    assert isinstance(fix, dict)
    path.write_text(_applied(path.read_text(encoding="utf-8"), fix["edits"]), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == "SWAP=4\nvllm serve m \\\n  --port 8000\n"
    assert _check(path) == []
    assert _argv(path) == [["m", "--port", "8000"]]


@pytest.mark.parametrize(
    "script",
    [
        "if [ -f x ]; then MAX=abc; fi\n",  # an arm that may not run
        "f() { MAX=abc; }\nMAX=8192\nf\n",  # a function may change it
        "MAX=abc\nsource ./env.sh\n",  # a sourced file may
        "MAX=abc\n. ./env.sh\n",
        'MAX=abc\neval "$SETUP"\n',
        "MAX=abc\nread -r MAX\n",
        "MAX=abc\nx && MAX=8192\n",  # `&&`: maybe
        "MAX=abc\n: ${MAX:=8192}\n",
        "MAX=${MAX:-abc}\n",  # the caller may set it
        "MAX=$(cat len)\n",
        "declare -i MAX=8+8\n",  # arithmetic: 16
        "MAX=abc\nunset MAX\n",
        "for MAX in abc 8192; do :; done\n",
    ],
)
def test_uncertain_values_stay_unknown(tmp_path: Path, script: str) -> None:
    path = _script(tmp_path, script + "vllm serve m --max-model-len $MAX\n")
    assert _check(path) == []
    [[_m, _flag, value]] = _argv(path)
    assert value == "$MAX"


@pytest.mark.parametrize(
    "script",
    [
        # a loop may reassign it after the first round
        "MAX=abc\nwhile true; do vllm serve m --max-model-len $MAX; MAX=8192; done\n",
        # a function runs with what its caller set then
        "run() { vllm serve m --max-model-len $MAX; }\nMAX=abc\nrun\n",
        # the use runs only when a test of the value passes
        'MAX=abc\nif [ "$MAX" != abc ]; then vllm serve m --max-model-len $MAX; fi\n',
        # unquoted, a value with a blank splits; IFS changes where it splits
        'MAX="8 k"\nvllm serve m --max-model-len $MAX\n',
        "MAX=8192\nIFS=1\nvllm serve m --max-model-len $MAX\n",
    ],
)
def test_uses_whose_value_is_not_certain_stay_unknown(tmp_path: Path, script: str) -> None:
    path = _script(tmp_path, script)
    assert _check(path) == []


@pytest.mark.parametrize(
    "script",
    [
        "MAX=abc\n",
        'MAX="abc"\n',
        "export MAX=abc\n",
        "MAX=8192\nMAX=abc\n",  # the later assignment wins
        "source ./env.sh\nMAX=abc\n",  # sourced before it is assigned
        "MAX=abc\n(MAX=8192)\n",  # a subshell keeps its own
        "MAX=abc\nMAX=8192 true\n",  # a command's prefix is its own
    ],
)
def test_certain_values_are_checked(tmp_path: Path, script: str) -> None:
    uses = ("$MAX", '"$MAX"', "${MAX}", "${MAX:-8192}")
    path = _script(tmp_path, script + "".join(f"vllm serve m --max-model-len {u}\n" for u in uses))
    assert [f["code"] for f in _check(path)] == ["VC201"] * len(uses)


def test_the_value_at_the_use_not_a_later_one(tmp_path: Path) -> None:
    """A value assigned after the command line does not reach it; an array or a string
    built before the value is assigned holds the reference's old value."""
    path = _script(
        tmp_path,
        "MAX=8192\nvllm serve m --max-model-len $MAX\nMAX=abc\n"
        'ARGS=(vllm serve m --max-model-len "$LEN")\nLEN=abc\n"${ARGS[@]}"\n',
    )
    assert _check(path) == []
    assert _argv(path) == [["m", "--max-model-len", "8192"], ["m", "--max-model-len", "$LEN"]]


def test_the_brief_start_script(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        'MODEL_PATH="./models/Qwen/x"\nMAX_MODEL_LEN=8192\n'
        'vllm serve "$MODEL_PATH" --max-model-len="$MAX_MODEL_LEN" $LORA_ARG\n',
    )
    assert _argv(path) == [["./models/Qwen/x", "--max-model-len=8192", "$LORA_ARG"]]


def test_a_dockerfile_env_fills_its_shell_form_command_and_an_arg_does_not(
    tmp_path: Path,
) -> None:
    """`ENV` is the container's environment when its shell runs the command line; an `ARG`
    is gone by then, and a name the script assigns itself is the script's."""
    path = tmp_path / "Dockerfile"
    path.write_text(
        "FROM vllm/vllm-openai:v0.10.1\nARG TP=abc\nENV LEN=abc PORT=1\n"
        "CMD vllm serve m --max-model-len $LEN --tensor-parallel-size $TP\n"
        "FROM vllm/vllm-openai:v0.10.1\nENV LEN=abc\n"
        "CMD LEN=8192; vllm serve m --max-model-len $LEN --port $PORT\n",
        encoding="utf-8",
    )
    assert _argv(path) == [
        ["m", "--max-model-len", "abc", "--tensor-parallel-size", "$TP"],
        ["m", "--max-model-len", "8192", "--port", "$PORT"],
    ]
    [found] = _check(path)
    assert (found["code"], found["line"], found["fix"]) == ("VC201", 4, None)
