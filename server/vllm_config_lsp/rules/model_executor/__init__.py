"""Rules transcribed from vllm/model_executor/: the model registry's architectures."""
