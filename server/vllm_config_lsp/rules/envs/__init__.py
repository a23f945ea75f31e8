"""Rules transcribed from vllm/envs.py (how each variable's getter parses its value) and
`Platform.validate_environ` (vllm/platforms/interface.py): the environment a host gives
a start of vLLM, read from the host (`Invocation.environ`)."""
