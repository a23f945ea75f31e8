"""Platform plugins (issue 32), through the CLI: a start that runs with vllm-ascend is
checked with what the plugin registers (its catalogue in `schemas/plugins/`), and the same
flags on stock vLLM's image are still errors. The files are real public deployments
(`tests/corpus/plugins/SOURCES.md`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import CORPUS, apply_json_fix, cli

ASCEND_FILES = (
    CORPUS / "real" / "recipes-qwen3.8-27b-ascend-w8a8.yaml",
    CORPUS
    / "deployments/files/launcher-config"
    / (
        "vllm-project__vllm-ascend__tests__e2e__nightly__multi_node__external_dp__config__"
        "GLM5_1-W8A8-EP-external.yaml"
    ),
    CORPUS
    / "deployments/files/markdown"
    / "vllm-project__vllm-ascend__docs__source__tutorials__models__Qwen3.5-27B-Qwen3.6-27B.md",
)
AIBRIX = CORPUS / "plugins" / "aibrix-samples-vllm-ascend-job.yaml"
#: The plugin's own names the stock checks refused (VC303 quantization, VC361 connector).
PLUGIN_NAME_CODES = {"VC303", "VC361"}


def _findings(path: Path, *args: str) -> list[dict]:
    done = cli("check", "--format", "json", "--exit-zero", *args, str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _codes(path: Path, *args: str) -> list[str]:
    return [found["code"] for found in _findings(path, *args)]


@pytest.mark.parametrize("path", ASCEND_FILES, ids=lambda p: p.name[:40])
def test_what_vllm_ascend_registers_is_no_error(path: Path) -> None:
    """13 false errors before: `--quantization ascend` (8) and `MooncakeConnectorV1` (5)."""
    assert not PLUGIN_NAME_CODES & set(_codes(path))


def test_argv_says_which_plugin_and_why() -> None:
    done = cli("argv", str(AIBRIX))
    assert done.returncode == 0, done.stderr
    assert (
        "vLLM 0.11.2: vLLM 0.11.2, the release vllm-ascend v0.11.0rc1-a3 is built for; "
        "plugin vllm-ascend 0.11.0 (for v0.11.0rc1-a3), from the image "
        "quay.io/ascend/vllm-ascend:v0.11.0rc1-a3"
    ) in done.stdout


def _with(text: str, image: str, tmp_path: Path) -> Path:
    """The aibrix job with `--quantization ascend` and a MooncakeConnectorV1 added, on
    another image."""
    changed = text.replace("quay.io/ascend/vllm-ascend:v0.11.0rc1-a3", image).replace(
        "--max-model-len 32768",
        "--max-model-len 32768 --quantization ascend \\\n"
        "                      --kv-transfer-config "
        '\'{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_producer"}\'',
    )
    path = tmp_path / "job.yaml"
    path.write_text(changed, encoding="utf-8")
    return path


def test_the_same_flags_on_stock_vllm_are_errors(tmp_path: Path) -> None:
    text = AIBRIX.read_text(encoding="utf-8")
    ascend = _with(text, "quay.io/ascend/vllm-ascend:v0.23.0rc1", tmp_path)
    assert not PLUGIN_NAME_CODES & set(_codes(ascend))
    stock = _with(text, "vllm/vllm-openai:v0.23.0", tmp_path)  # Ascend resources stay
    assert set(_codes(stock)) >= PLUGIN_NAME_CODES


def test_the_marker_names_the_plugin_and_a_typo_lists_its_names(tmp_path: Path) -> None:
    path = tmp_path / "serve.yaml"
    marker = "# vllm-config: plugin=vllm-ascend@0.23.0\n"
    path.write_text(f"{marker}model: Qwen/Qwen3-8B\nquantization: ascend\n", encoding="utf-8")
    assert "VC303" not in _codes(path)
    path.write_text(f"{marker}model: Qwen/Qwen3-8B\nquantization: ascendd\n", encoding="utf-8")
    [typo] = [f for f in _findings(path) if f["code"] == "VC303"]
    assert "Did you mean `ascend`?" in typo["message"]
    path.write_text("model: Qwen/Qwen3-8B\nquantization: ascend\n", encoding="utf-8")
    assert "VC303" in _codes(path)  # no sign: stock vLLM


def test_additional_config_is_read_as_the_plugin_reads_it(tmp_path: Path) -> None:
    """VC250: a key AscendConfig ignores is a warning, one `eplb_config` refuses an error,
    as the plugin's code does; the real files' keys are all known."""
    path = tmp_path / "serve.yaml"
    config = '{"enable_cpu_bindng": true, "eplb_config": {"dynamic_eplbb": true}}'
    path.write_text(
        f"# vllm-config: plugin=vllm-ascend@0.23.0\nmodel: Qwen/Qwen3-8B\n"
        f"additional-config: '{config}'\n",
        encoding="utf-8",
    )
    found = {f["message"].split("`")[3]: f for f in _findings(path) if f["code"] == "VC250"}
    assert found["enable_cpu_bindng"]["severity"] == "warning"
    assert "Did you mean `enable_cpu_binding`?" in found["enable_cpu_bindng"]["message"]
    assert found["dynamic_eplbb"]["severity"] == "error"
    for real in ASCEND_FILES:
        assert "VC250" not in _codes(real)


def test_the_plugin_platform_refuses_a_method_stock_vllm_accepts(tmp_path: Path) -> None:
    """VC251: vllm-ascend 0.18.0's platform supports `ascend` and `compressed-tensors`;
    `fp8` is refused there and fine on stock vLLM."""
    path = tmp_path / "serve.yaml"
    body = "model: Qwen/Qwen3-8B-FP8\nquantization: fp8\n"
    path.write_text(f"# vllm-config: plugin=vllm-ascend@0.18.0\n{body}", encoding="utf-8")
    [refused] = [f for f in _findings(path) if f["code"] == "VC251"]
    assert refused["severity"] == "error"
    assert refused["message"].startswith("fp8 quantization is currently not supported in npu.")
    assert "vllm_ascend/platform.py:103" in refused["message"]
    path.write_text(body, encoding="utf-8")
    assert "VC251" not in _codes(path)


def test_a_file_that_only_names_the_package_gets_no_plugin_error(tmp_path: Path) -> None:
    """The weakest sign (the file names vllm-ascend) accepts the plugin's names but says
    nothing the plugin would refuse with an error: the start may run stock vLLM."""
    path = tmp_path / "serve.yaml"
    config = '{"eplb_config": {"dynamic_eplbb": true}}'
    path.write_text(
        "# also runs with vllm-ascend\nmodel: Qwen/Qwen3-8B-FP8\nquantization: fp8\n"
        f"additional-config: '{config}'\n",
        encoding="utf-8",
    )
    found = [f for f in _findings(path) if f["code"].startswith("VC25")]
    assert [(f["code"], f["severity"]) for f in found] == [("VC250", "warning")]


TPU_FILES = (
    CORPUS / "plugins" / "tpu-recipes-ironwood-gemma4-server.yaml",
    CORPUS / "plugins" / "tpu-recipes-ironwood-qwen3_5-server.yaml",
    CORPUS / "plugins" / "tpu-recipes-ironwood-gpt-oss-README-gcs.md",
    CORPUS / "plugins" / "tpu-recipes-trillium-qwen3-README.md",
    CORPUS / "plugins" / "tpu-inference-examples-disagg-run_disagg_single_host.sh",
)


@pytest.mark.parametrize("path", TPU_FILES, ids=lambda p: p.name[12:40])
def test_real_tpu_deployments_get_no_error(path: Path) -> None:
    """Google's own TPU recipes (GKE manifests on `vllm/vllm-tpu` images, a Markdown
    recipe): every start is found, and none gets an error."""
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout), "no start found"
    assert "error" not in {f["severity"] for f in _findings(path)}


def test_a_variable_the_tpu_plugin_reads_is_information_not_a_warning(tmp_path: Path) -> None:
    """`VLLM_MOE_CHUNK_SIZE` is not vLLM's (vLLM logs "Unknown vLLM environment variable
    detected") but tpu-inference reads it (`tpu_inference/envs.py`): on the TPU image it
    takes effect; on stock vLLM's image it does nothing."""
    real = CORPUS / "plugins" / "tpu-recipes-ironwood-qwen3_5-server.yaml"
    by_var = {
        f["message"].split(": ")[1].split(" ")[0]: f
        for f in _findings(real)
        if f["code"] == "VC240"
    }
    plugin_var = by_var["VLLM_MOE_CHUNK_SIZE"]
    assert plugin_var["code"] == "VC240" and plugin_var["severity"] == "info"
    assert "tpu-inference 0.32.0 reads it (tpu_inference/envs.py:" in plugin_var["message"]
    assert by_var["VLLM_TORCH_COMPILE_CACHE_DIR"]["severity"] == "warning"  # nobody reads it
    stock = tmp_path / "stock.yaml"
    text = real.read_text(encoding="utf-8")
    stock.write_text(
        text.replace("vllm/vllm-tpu:nightly-20260626-c539adc-cc79815", "vllm/vllm-openai:v0.33.0")
        .replace("google.com/tpu", "nvidia.com/gpu")
        .replace("gke-tpu-accelerator: tpu7x", "gke-accelerator: nvidia-h100-80gb"),
        encoding="utf-8",
    )
    found = _findings(stock)
    [on_stock] = [f for f in found if "VLLM_MOE_CHUNK_SIZE" in f["message"]]
    assert on_stock["severity"] == "warning"


OMNI_FILES = (
    CORPUS / "plugins" / "vllm-omni-examples-text_to_image-run_server.sh",
    CORPUS / "plugins" / "vllm-omni-examples-image_to_image-run_server.sh",
)


@pytest.mark.parametrize("path", OMNI_FILES, ids=lambda p: p.name[19:33])
def test_omni_starts_run_vllm_omni(path: Path) -> None:
    """vllm-omni's own launchers (`vllm serve "$MODEL" --omni --port "$PORT"`): the `--omni`
    word hands the start to vllm-omni (vLLM 0.30.0 on), and nothing is refused."""
    done = cli("argv", str(path))
    assert done.returncode == 0, done.stderr
    assert "plugin vllm-omni 0.30.0, from the `--omni` flag" in done.stdout
    assert _findings(path) == []


def test_omni_flags_need_the_switch_on_the_command_line(tmp_path: Path) -> None:
    """vllm-omni's serve flags (`--cache-backend`, `--deploy-config`) are flags only where
    `--omni` is a word of the command line: vLLM looks for it in `sys.argv` before it reads
    a `--config` file, so there `omni: true` is an unknown flag even with vllm-omni."""
    script = tmp_path / "serve.sh"
    line = "vllm serve Qwen/Qwen-Image{omni} --cache-backend tea_cache --deploy-config d.yaml\n"
    script.write_text(line.format(omni=" --omni"), encoding="utf-8")
    assert _codes(script) == []
    script.write_text(line.format(omni=""), encoding="utf-8")
    assert _codes(script) == ["VC101", "VC101"]
    config = tmp_path / "serve.vllm.yaml"
    config.write_text(
        "# vllm-config: plugin=vllm-omni\nmodel: Qwen/Qwen-Image\nomni: true\n", encoding="utf-8"
    )
    [unknown] = _findings(config)
    assert unknown["code"] == "VC101" and unknown["message"].startswith(
        "unrecognized arguments: --omni"
    )


def test_omni_on_stock_vllm_is_refused_with_vllms_words(tmp_path: Path) -> None:
    """VC252: a start on `vllm/vllm-openai` has no vllm-omni; vLLM exits with its own
    message. The fix removes the word, and the file then gets nothing."""
    compose = tmp_path / "compose.yaml"
    text = (
        "services:\n  omni:\n    image: vllm/vllm-openai:v0.33.0  # stock\n"
        '    command: ["Qwen/Qwen2.5-Omni-7B", "--omni", "--port", "8091"]\n'
    )
    compose.write_text(text, encoding="utf-8")
    [refused] = _findings(compose)
    assert refused["code"] == "VC252" and refused["severity"] == "error"
    assert refused["message"].startswith(
        "--omni flag requires a valid instance of vllm-omni to be installed."
    )
    fixed = apply_json_fix(text, refused["fix"])
    assert fixed.splitlines()[3] == '    command: ["Qwen/Qwen2.5-Omni-7B", "--port", "8091"]'
    assert fixed.splitlines()[2].endswith("# stock")
    compose.write_text(fixed, encoding="utf-8")
    assert _findings(compose) == []
    # Before vLLM 0.30.0 vLLM never hands `--omni` on: an unknown flag there.
    compose.write_text(text.replace("v0.33.0", "v0.28.0"), encoding="utf-8")
    assert _codes(compose) == ["VC101"]


def test_ascend_balance_scheduling_on_a_disaggregated_node_is_refused(tmp_path: Path) -> None:
    """VC253: vllm-ascend 0.23.0's platform refuses `enable_balance_scheduling` with a
    producer or consumer `kv_role` (vllm_ascend/platform.py:681), from the key or from the
    deprecated variable it falls back to; PD-mixed, or a release without the check, is
    fine."""
    config = tmp_path / "serve.vllm.yaml"
    body = (
        "model: Qwen/Qwen3-8B\nadditional-config:\n  enable_balance_scheduling: true\n"
        "kv-transfer-config:\n  kv_connector: MooncakeConnectorV1\n  kv_role: {role}\n"
    )
    marker = "# vllm-config: plugin=vllm-ascend@{release}\n"
    config.write_text(marker.format(release="0.23.0") + body.format(role="kv_producer"))
    [refused] = [f for f in _findings(config) if f["code"] == "VC253"]
    assert refused["severity"] == "error" and refused["line"] == 4
    assert refused["message"].startswith("enable_balance_scheduling only supports PD-mixed mode")
    assert refused["related"][0]["message"] == "kv_role is 'kv_producer'"
    config.write_text(marker.format(release="0.23.0") + body.format(role="kv_both"))
    assert "VC253" not in _codes(config)
    config.write_text(marker.format(release="0.18.0") + body.format(role="kv_producer"))
    assert "VC253" not in _codes(config)
    script = tmp_path / "serve.sh"
    transfer = '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_consumer"}'
    script.write_text(
        marker.format(release="0.23.0")
        + "VLLM_ASCEND_BALANCE_SCHEDULING=1 vllm serve Qwen/Qwen3-8B "
        + f"--kv-transfer-config '{transfer}'\n"
    )
    assert "VC253" in _codes(script)
    script.write_text(script.read_text().replace("SCHEDULING=1", "SCHEDULING=0"))
    assert "VC253" not in _codes(script)


def test_a_gpu_kv_connector_on_tpu_is_refused(tmp_path: Path) -> None:
    """VC254: tpu-inference 0.32.0's platform accepts only its own connectors
    (tpu_inference/platforms/tpu_platform.py:526-533). tpu-inference's own disaggregated
    launcher (`TPUConnector` with its module path) is fine; the same script with
    `NixlConnector`, a connector stock vLLM registers for GPUs, is refused where the
    plugin is stated, and only there."""
    real = CORPUS / "plugins" / "tpu-inference-examples-disagg-run_disagg_single_host.sh"
    assert "VC254" not in _codes(real)
    script = tmp_path / "run_disagg.sh"
    text = real.read_text(encoding="utf-8")
    # Naming `tpu_inference` is the weakest sign (its names become valid, its refusals
    # are not said); the marker states the plugin.
    marker = "# vllm-config: plugin=tpu-inference@0.32.0\n"
    script.write_text(
        marker + text.replace('\\"TPUConnector\\"', '\\"NixlConnector\\"'), encoding="utf-8"
    )
    refused = [f for f in _findings(script) if f["code"] == "VC254"]
    assert [f["severity"] for f in refused] == ["error", "error"]
    assert refused[0]["message"].startswith(
        "Unsupported kv_connector 'NixlConnector' for the TPU platform. Expected one of "
        "('TPUConnector', 'TPUConnectorHMA', 'TPUOffloadConnector', 'RaidenOffloadConnector')."
    )
    lines = script.read_text(encoding="utf-8").splitlines()
    assert all("NixlConnector" in lines[f["line"] - 1] for f in refused)
    # without tpu-inference (nothing names it, no TPU image): stock vLLM runs Nixl
    stock = tmp_path / "stock.sh"
    stock.write_text(
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config "
        """'{"kv_connector":"NixlConnector","kv_role":"kv_both"}'\n""",
        encoding="utf-8",
    )
    assert "VC254" not in _codes(stock)
