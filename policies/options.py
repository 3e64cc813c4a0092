"""Which options a run of each policy accepts: one declaration, read by the CLI's
``simulate`` and ``schedule`` (and for sweep specs).

Which options a family accepts is declared once, and the CLI and sweep specs derive
from that declaration: an option is either used or refused, never ignored
(docs/design.md, "Policies and options"). An option is accepted for a policy when it is

* a run option of the policy's family (:data:`FAMILY_OPTIONS`: the workload, the
  cluster, the horizon, budgets), or
* one of the policy's own keywords (:attr:`policies.registry.PolicyInfo.keywords`);

and its :data:`RULES` hold (an option that refines another, such as the
hyperexponential ``scv``, needs that other option with the value it refines).
:func:`check_options` refuses anything else with one line naming the option in the
caller's spelling (``spell``: ``"scv" -> "--scv"`` for the CLI).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from policies.registry import FAMILIES, POLICIES

__all__ = ["FAMILY_OPTIONS", "Rule", "RULES", "accepted_options", "check_options"]

#: run options of each family, by keyword (the CLI flag is the keyword with '-' for '_')
FAMILY_OPTIONS: dict[str, tuple[str, ...]] = {
    "pg21-slotted": ("sizes", "probs", "counts", "dist", "trace", "servers", "capacity",
                     "mu", "deterministic", "workload", "intensity", "arrivals",
                     "traffic_scaling", "slots", "warmup", "seed", "max_memory"),
    "pg18-continuous": ("sizes", "servers", "capacity", "mu", "rates", "intensity", "time",
                        "warmup", "seed", "service", "scv", "pareto_alpha", "samples",
                        "engine", "max_memory", "max_configurations"),
    "xll21-preemptive": ("jobs", "cluster", "k", "memory", "max_slots", "allow_unfinished",
                         "max_memory"),
    "fl24-nonpreemptive": ("jobs", "cluster", "k", "max_memory"),
}

#: keywords of PG18 policies that run on Poisson clocks (``max_ticks`` bounds their ticks)
_CLOCKED = ("clock_rates",)


@dataclass(frozen=True)
class Rule:
    """``option`` is used only when ``needs`` is given, with one of ``values`` if set."""

    option: str
    needs: str
    values: tuple[str, ...] = ()
    families: tuple[str, ...] = tuple(FAMILIES)

    def broken_by(self, given: Mapping[str, object]) -> bool:
        if self.option not in given:
            return False
        if self.needs not in given:
            return True
        return bool(self.values) and str(given[self.needs]) not in self.values


RULES: tuple[Rule, ...] = (
    Rule("traffic_scaling", "trace"),
    Rule("levels", "dist"),
    Rule("scv", "service", ("hyperexponential",)),
    Rule("pareto_alpha", "service", ("pareto",)),
    Rule("b", "f", ("log-power",)),
    # PG18: the configurations enumerated to turn --intensity into arrival rates
    Rule("max_configurations", "intensity", families=("pg18-continuous",)),
)

#: options that exclude each other (the second would be ignored)
_CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("deterministic", "mu", "deterministic service has no departure probability"),
)


def accepted_options(policy: str) -> tuple[str, ...]:
    """Every option a run of ``policy`` accepts (family run options, then keywords)."""
    try:
        info = POLICIES[policy]
    except KeyError:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}") from None
    extra = ("max_ticks",) if any(k in info.keywords for k in _CLOCKED) else ()
    return FAMILY_OPTIONS[info.family] + extra + info.keywords


def check_options(policy: str, given: Mapping[str, object],
                  spell: Callable[[str], str] = str) -> None:
    """Refuse, with one ``ValueError`` naming each of them, the options in ``given``
    (keyword -> value, the options the caller set) that a run of ``policy`` would not
    use."""
    accepted = set(accepted_options(policy))
    family = POLICIES[policy].family
    unused = []
    for option in given:
        if option in accepted:
            continue
        users = [n for n in POLICIES if option in accepted_options(n)]
        if not users:
            where = "no policy uses it"
        elif all(POLICIES[n].family != family for n in users):
            fams = sorted({POLICIES[n].family for n in users})
            where = f"an option of the {', '.join(fams)} policies, not of {family}"
        else:
            mine = [n for n in users if POLICIES[n].family == family]
            where = f"used by {', '.join(mine)}"
        unused.append(f"{spell(option)}: {policy} does not use it ({where})")
    if unused:
        raise ValueError("; ".join(unused))
    for rule in RULES:
        if family in rule.families and rule.broken_by(given):
            want = f" {'/'.join(rule.values)}" if rule.values else ""
            got = (f", got {spell(rule.needs)} {given[rule.needs]}"
                   if rule.needs in given else "")
            raise ValueError(f"{spell(rule.option)} is used only with "
                             f"{spell(rule.needs)}{want}{got}")
    for a, b, why in _CONFLICTS:
        if a in given and b in given:
            raise ValueError(f"{spell(b)} cannot go with {spell(a)}: {why}")
