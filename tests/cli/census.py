"""Census of bad and edge inputs per command: how many are handled.

    python tests/cli/census.py --examples 300

draws command lines from the fuzz grammar of ``tests/cli/test_fuzz.py`` (extreme and
malformed numbers, empty list entries, every flag against every family, files with
times past float resolution or unread columns), runs each in-process and counts per
command those handled -- a documented exit status, one ``packsched: error:`` line and
nothing on stdout on failure, one JSON document on success, no internal error, no
traceback, no stopped run printed as an answer, within the fuzz's time limit -- and
lists the others. The same seed gives the same command lines.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import tempfile
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

COMMANDS = ("schedule", "optimum", "simulate", "rho-star")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=300, help="command lines drawn")
    ap.add_argument("--seed", type=int, default=39)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import test_fuzz as fuzz  # noqa: E402 - the grammar lives with the fuzz tests
    from hypothesis import HealthCheck, given, seed, settings

    files = pathlib.Path(tempfile.mkdtemp(prefix="census"))
    for name, content in fuzz.FILE_CONTENTS.items():
        (files / name).write_bytes(content)
    fuzz.FILES_DIR = files
    fuzz._warm()
    tried: collections.Counter[str] = collections.Counter()
    exits: collections.Counter[tuple[str, int]] = collections.Counter()
    bad: list[tuple[str, str]] = []
    run = fuzz.main

    def recorded(argv: list[str]) -> int:
        code = run(argv)
        exits[argv[0], code] += 1
        return code

    fuzz.main = recorded  # check_command_line calls it: count the exit statuses too

    @seed(args.seed)
    @settings(max_examples=args.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(fuzz.command_lines())
    def draw(argv: list[str]) -> None:
        if argv[0] not in COMMANDS:
            return
        tried[argv[0]] += 1
        try:
            fuzz.check_command_line(argv)
        except BaseException as e:  # noqa: BLE001 - a timeout is a BaseException
            bad.append((argv[0], f"{' '.join(argv)}\n    {str(e).splitlines()[0][:300]}"))

    draw()
    print(f"{'command':<10} {'tried':>6} {'handled':>8}   exit 0 (answer) / 2 (refused) / "
          f"3 (failed)")
    for c in COMMANDS:
        n = tried[c]
        print(f"{c:<10} {n:>6} {n - sum(1 for k, _ in bad if k == c):>8}   "
              f"{exits[c, 0]} / {exits[c, 2]} / {exits[c, 3]}")
    for _, line in bad:
        print("NOT HANDLED:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
