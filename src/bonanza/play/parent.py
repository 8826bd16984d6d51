"""Child processes that end with their parent, even when it is killed (Linux only)."""

from __future__ import annotations

import os
import signal
import sys
from typing import Final

PR_SET_PDEATHSIG: Final = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent ends."""
ORPHANS_PARENT: Final = 1
"""The parent of a process whose parent has ended (init)."""


def end_with_parent() -> None:
    """Have the kernel stop this process (SIGTERM) when its parent ends, even by
    SIGKILL, so that it is never left working on its own. (The kernel counts the
    parent as ended when the thread that started this process ends.)"""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() == ORPHANS_PARENT:  # the parent ended before the line above
        os.kill(os.getpid(), signal.SIGTERM)
