"""A silent HiGHS instance for every direct use of highspy in ``capacity``.

``output_flag`` must be off before any HiGHS call to keep the log out of stdout; HiGHS
1.16 prints its banner while constructing the first ``Highs`` of a process, before any
option can be set, which corrupted ``--json`` output on stdout. The first construction
therefore runs with file descriptor 1 sent to /dev/null (C stdio flushed on both sides,
so nothing buffered leaks out later).
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any

__all__ = ["new_highs"]

_quiet_once = False


def _flush_c_stdio() -> None:
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # no C library handle on this platform
        pass


def new_highs() -> Any:
    """A ``highspy.Highs`` with ``output_flag`` off and nothing printed."""
    global _quiet_once
    import highspy

    if _quiet_once:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        _flush_c_stdio()
        try:
            saved = os.dup(1)
        except OSError:  # no stdout to protect
            saved = -1
        try:
            if saved >= 0:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.close(devnull)
            h = highspy.Highs()
            h.setOptionValue("output_flag", False)
            _flush_c_stdio()
        finally:
            if saved >= 0:
                os.dup2(saved, 1)
                os.close(saved)
        _quiet_once = True
    h.setOptionValue("output_flag", False)
    return h
