"""Rules transcribed from vllm/entrypoints/: the serve command and the API server's arguments."""
