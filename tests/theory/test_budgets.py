"""theory.budgets: the refusal message says what, how much, the budget and the keyword."""

import pytest

from theory.budgets import MEMORY_BUDGET, BudgetExceeded, check_budget, format_bytes
from theory.progress import Progress


def test_message_parts():
    with pytest.raises(BudgetExceeded) as e:
        check_budget(3e12, MEMORY_BUDGET, what="simulating 10^10 slots",
                     option="memory_budget", unit="bytes")
    msg = str(e.value)
    assert msg.startswith("simulating 10^10 slots would need about 2.73 TiB")
    assert "budget of 8 GiB" in msg and msg.endswith("raise it with memory_budget=")
    assert e.value.render("--max-memory").endswith("raise it with --max-memory")
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("need", [10**400, 2**80, 1e300, 10**20])
def test_huge_estimates_do_not_overflow(need):
    with pytest.raises(BudgetExceeded):
        check_budget(need, 1, what="x", option="memory_budget", unit="bytes")
    with pytest.raises(BudgetExceeded):
        check_budget(need, 1, what="x", option="max_types")


def test_within_budget_passes():
    check_budget(MEMORY_BUDGET, MEMORY_BUDGET, what="x", option="memory_budget")
    assert format_bytes(1536) == "1.5 KiB" and format_bytes(10) == "10 bytes"


def test_progress_is_silent_when_short_and_writes_to_the_stream(capsys):
    import io

    with Progress("quick", total=10) as p:
        p.update(10)
    assert capsys.readouterr() == ("", "")
    buf = io.StringIO()
    with Progress("slow", total=4, delay=0, every=0, stream=buf) as p:
        for i in range(4):
            p.update(i + 1)
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("packsched: slow: 1/4") and lines[-1].endswith("done")
