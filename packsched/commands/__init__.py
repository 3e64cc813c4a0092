"""One module per command: each has ``NAME``, ``add_parser(subparsers)`` and ``run(args)``."""

from packsched.commands import (
    errata,
    optimum,
    policies,
    reproduce,
    rho_star,
    schedule,
    simulate,
    sweep,
    verify,
)

#: in the order ``packsched --help`` lists them
COMMANDS = (rho_star, verify, errata, policies, simulate, schedule, sweep, reproduce,
            optimum)
