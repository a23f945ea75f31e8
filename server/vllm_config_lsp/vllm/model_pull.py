"""Fetch a model's config files into the Hugging Face cache, when the user asks.

The model-aware checks read config.json offline (`model_files`); a user whose machine does
not have it runs `vllm-config-lsp models pull ORG/NAME` (or the VC600 code action), and
this downloads `config.json`, plus `model.safetensors.index.json` and `params.json` where
the repository has them (kilobytes, never weights), with huggingface_hub into the standard
cache (`HF_HUB_CACHE`, else `HF_HOME/hub`), where vLLM and transformers find them too.
huggingface_hub reads `HF_TOKEN`, `HF_ENDPOINT` and `HF_HUB_OFFLINE` itself. Nothing here
runs unless called: linting never fetches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vllm_config_lsp.vllm.model_files import CONFIG_JSON, hub_cache, is_revision, looks_like_path

#: What is fetched: config.json is required, the others are taken where present.
OPTIONAL_FILES = ("model.safetensors.index.json", "params.json")
INSTALL_HINT = "install huggingface_hub to fetch model files: pip install huggingface_hub"


@dataclass
class Pulled:
    """What one `pull` did: the files fetched into `folder`, or why nothing was."""

    model: str
    files: list[str] = field(default_factory=list)
    folder: Path | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def pull(model: str, revision: str | None = None) -> Pulled:
    """Download `model`'s config files (see the module docstring); never raises."""
    result = Pulled(model)
    if looks_like_path(model) or model.count("/") != 1 or not all(model.split("/")):
        result.problem = f"`{model}` is not a Hugging Face repository id (ORG/NAME)"
        return result
    if revision is not None and not is_revision(revision):
        result.problem = f"revision `{revision}` is not a commit hash or a ref name"
        return result
    try:
        import huggingface_hub
        from huggingface_hub import constants, errors
    except ImportError:
        result.problem = INSTALL_HINT
        return result
    if constants.HF_HUB_OFFLINE:
        result.problem = "HF_HUB_OFFLINE is set: nothing is downloaded (unset it to fetch)"
        return result
    cache = str(hub_cache())
    for name in (CONFIG_JSON, *OPTIONAL_FILES):
        try:
            path = huggingface_hub.hf_hub_download(model, name, revision=revision, cache_dir=cache)
        except errors.GatedRepoError:
            result.problem = (
                f"{model} is gated: accept its licence on the Hub, then set HF_TOKEN to a "
                "token of that account"
            )
        except errors.RepositoryNotFoundError:
            result.problem = (
                f"{model} was not found on the Hub (or is private: set HF_TOKEN to a token "
                "that can read it)"
            )
        except errors.RevisionNotFoundError:
            result.problem = f"{model} has no revision `{revision}`"
        except (errors.OfflineModeIsEnabled, errors.LocalEntryNotFoundError) as exc:
            result.problem = f"{model}: {name} could not be fetched ({_first_line(exc)})"
        except errors.EntryNotFoundError:  # the repository has no such file
            if name != CONFIG_JSON:
                continue
            result.problem = f"{model} has no {CONFIG_JSON}"
        except (errors.HfHubHTTPError, OSError, ValueError) as exc:
            result.problem = f"{model}: {name} could not be fetched ({_first_line(exc)})"
        else:
            result.files.append(name)
            result.folder = Path(path).parent
            continue
        if result.problem is not None:
            break
    if result.problem is not None:
        result.files = []
    return result


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
