"""Hypothesis profiles: the default keeps the suite fast; ``HYPOTHESIS_PROFILE=long`` digs."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "long",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

#: Rules that mirror vLLM's environment escapes read them where they run (VC604, VC637):
#: the suite, and the servers and CLIs it starts, must not depend on the caller's shell.
for _escape in ("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "INKLING_MULTIMEM_AR"):
    os.environ.pop(_escape, None)
