"""The standard library's own functions, also in a gevent worker, where gevent has patched them: for
the few things that must run on an OS thread of their own (the log writer, the store's checkpoints)
rather than as a greenlet that waits for the worker's only thread."""

from __future__ import annotations

import importlib
from typing import Any


def native(module: str, name: str) -> Any:
    """The standard library's own `module.name`, also where gevent has patched it."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover  (gevent is a dependency; kept for other servers)
        return getattr(importlib.import_module(module), name)
    return monkey.get_original(module, name)
