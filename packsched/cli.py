"""The ``packsched`` command line: a dispatcher over :mod:`packsched.commands`.

Commands (``packsched COMMAND --help`` for each)::

    packsched rho-star   maximum supportable workload rho* (PG21 eq. (4)), its
                         certificate, Theorem 1 brackets and the VQS capacity
    packsched verify     run the registered checks of the papers' claims
    packsched errata     print the errata register
    packsched policies   list the registered scheduling policies
    packsched simulate   simulate a policy in the PG21 slotted model, judge stability
    packsched schedule   run an XLL21 policy on a finite job set (jobs and cluster files)
    packsched optimum    the offline optimum of a small job set (XLL21 P1, P2)

Each command only parses, calls the library and prints (docs/design.md, "Contracts"); the
argument types are in :mod:`packsched.arguments`, the output rules in
:mod:`packsched.output`, and :func:`packsched.errors.report` turns every error into the
one line ``packsched: error: ...`` with its exit status (0 ok, 1 a check violated, 2 bad
input or usage, 3 the computation failed).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Sequence

from packsched.arguments import Parser
from packsched.commands import COMMANDS
from packsched.errors import EXIT_OK, EXIT_USAGE, report
from packsched.output import PROG

__all__ = ["main", "build_parser"]


def build_parser() -> Parser:
    """The argument parser (imports nothing heavy, so ``--help`` is instant)."""
    p = Parser(
        prog=PROG,
        description="Compute and check the claims of the resource-packing scheduling papers "
                    "(PG21, PG18, XLL21, FL24).",
        epilog="exit status: 0 ok, 1 a check is violated, 2 bad input or usage, "
               "3 the computation failed")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return p


def _version() -> str:
    from packsched import __version__

    return __version__


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM (a batch system's stop) ends a run as Ctrl-C does


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``packsched`` console script; returns the exit status."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if in_main_thread else None
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except SystemExit as exc:  # --help and --version exit 0 through argparse
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): not an error; keep Python's exit-time flush
        # from failing on the closed pipe (the recipe of the signal module's docs)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is no file (a test's stream)
            pass
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - every error becomes one line and a status
        return report(exc)
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
