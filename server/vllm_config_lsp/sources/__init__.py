"""Where a host document writes vLLM settings → positioned argv (`invocation.Word`).

One module per host: the `--config` YAML file (`config_file`), shell scripts, Kubernetes
manifests, compose files, Dockerfiles, Markdown, Python launchers. Each turns its host's
syntax into the words vLLM receives, with the offset of every character, and which
documents are vLLM documents at all (`association`, `files`).
"""
