"""One render at a time in the process.

Renders share caches of pieces, masks and ids, and Pillow releases the GIL inside many
of its operations, so two renders in two threads could each see the other's work half
done: a threaded render came out different from the same render alone, about once in
a dozen test runs, and right when drawn again (``docs/testing.md``). The bot renders
in one thread (``cogs.renderqueue``): for it the lock is never contended; other
callers' threads take turns.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

RENDER_LOCK = threading.Lock()


def one_at_a_time(render: Callable[P, R]) -> Callable[P, R]:
    """``render`` under ``RENDER_LOCK`` (for the public render functions)."""

    @functools.wraps(render)
    def locked(*args: P.args, **kwargs: P.kwargs) -> R:
        with RENDER_LOCK:
            return render(*args, **kwargs)

    return locked
