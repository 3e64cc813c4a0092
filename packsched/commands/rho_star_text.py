"""The text report of ``packsched rho-star`` (``--json`` prints the same dict as JSON)."""

from __future__ import annotations

from typing import Any

from packsched.output import fmt

#: mixture configurations shown by the text report
TOP_CONFIGS = 5


def print_rho_star(out: dict[str, Any], res: Any) -> None:
    inp = out["input"]
    desc = {"sizes": f"{inp.get('types')} job types", "instance": f"BPPLIB {inp.get('path')}",
            "dist": f"distribution {inp.get('spec')}",
            "trace": f"trace {inp.get('path', inp.get('source'))}"}[inp["kind"]]
    print(f"input       {desc} (capacity {fmt(inp.get('capacity'))}), "
          f"servers L = {out['servers']}")
    kept = inp.get("kept_mass")
    if kept is not None:
        each = kept if isinstance(kept, list) else [kept]
        print("truncation  P(0 < X <= 1) = "
              + ", ".join("-" if m is None else fmt(m, 6) for m in each)
              + (" per component" if isinstance(kept, list) else "")
              + " of the law kept, renormalised (from_scipy)")
    status = "certified" if out["certified"] else "NOT certified"
    if "rho_star" in out:
        exact = out["lower_exact"] if out["lower_exact"] == out["upper_exact"] else None
        if out["rho_star"] is None:
            print(f"rho*        not proven ({out['status']}: the certificate's interval "
                  f"below is what is)")
        else:
            print(f"rho*        {fmt(out['rho_star'], 12)}"
                  + (f"  (= {exact})" if exact else ""))
        cert = out["certificate"]
        print(f"certificate {status}: {fmt(res.lower, 12)} <= rho* <= {fmt(res.upper, 12)} "
              f"({cert['message'] or 'no message'})")
        print(f"method      {out['method']} ({out['columns']} columns, "
              f"{out['iterations']} iterations, {fmt(out['seconds'], 3)} s)")
    else:
        print(f"rho*        in [{fmt(out['lower'], 12)}, {fmt(out['upper'], 12)}] "
              f"({status}; relative gap {fmt(out['relative_gap'], 3)})")
        if out.get("uncertified_reason"):
            print(f"            why: {out['uncertified_reason']}")
        if out.get("rtol") is not None:
            met = ("met" if out["rtol_met"] else
                   f"NOT met at level {out['level']} (raise --levels, or --max-types)")
            print(f"target      relative gap <= {out['rtol']:g}: {met}")
        if out.get("upper_from"):
            print(f"upper end   {out['upper_from']}")
        if "grid" in out:
            print(f"bracket     sizes rounded up / down to multiples of 1/{out['grid']} "
                  f"({out['types_rounded_up']} / {out['types_rounded_down']} types, "
                  f"{fmt(out['seconds'], 3)} s)")
        else:
            dflt = " (default)" if out["levels_default"] else ""
            print(f"brackets    quantile partitions X^(0..{out['level']}){dflt}:")
        for lv in out.get("levels", []):
            print(f"   n={lv['level']:<3d} cells {lv['cells']:<5d} "
                  f"[{fmt(lv['lower'], 10)}, {fmt(lv['upper'], 10)}]  "
                  f"gap {fmt(lv['relative_gap'], 3)}")
    if out.get("status") == "time_limit":
        print(f"status      time_limit: stopped at --time-limit {fmt(out['time_limit'])} s, "
              f"the interval is proven, not tightened further")
    lemma2 = out.get("lemma2_bound")
    if lemma2 is not None:
        print(f"lemma 2     rho* <= L / R-bar = {fmt(lemma2, 12)}")
    if "z_lp" in out:
        zl, zh = out["z_lp_bounds"]
        ul, uh = out["z_lp_unbounded_bounds"]
        print(f"z_LP        {_value(out['z_lp'])}  (Gilmore-Gomory, patterns within the "
              f"multiplicities; certified [{fmt(zl, 12)}, {fmt(zh, 12)}])")
        print(f"z_LP free   {_value(out['z_lp_unbounded'])}  (any pattern: items / rho*; "
              f"certified [{fmt(ul, 12)}, {fmt(uh, 12)}])")
        print(f"bins >=     {max(out['lp_bins'], out['l2'])}  (ceil(z_LP) = {out['lp_bins']}, "
              f"L2 = {out['l2']}, L1 = {out['l1']}; items {out['items']})")
    _print_mixture(out)
    if "vqs" in out:
        v = out["vqs"]
        lo, hi = v["ratio_bounds"]
        print(f"rho_VQS     {fmt(out['rho_vqs'], 12)} with J = {v['J']}  "
              f"(rho_VQS / rho* in [{fmt(lo, 6)}, {fmt(hi, 6)}]; PG21 Thm. 3 "
              f"guarantees >= 2/3 when all sizes exceed 1/2^J)")


def _value(x: Any) -> str:
    """A value, or ``not proven`` where its certificate does not prove it (null)."""
    return "not proven" if x is None else fmt(x, 12)


def _print_mixture(out: dict[str, Any]) -> None:
    mix = sorted(out["mixture"], key=lambda t: -t["weight"])
    if not mix:
        return
    label = "mixture" if "rho_star" in out else f"mixture ({out['mixture_of']})"
    print(f"{label}: {len(mix)} configuration(s), top {min(len(mix), TOP_CONFIGS)}:")
    for term in mix[:TOP_CONFIGS]:
        parts = [f"{fmt(s, 6)} x{k}" for s, k in term.get("sizes", [])]
        cls = f"class {term['server_class']} " if term["server_class"] else ""
        print(f"   weight {term['weight']:.6f}  {cls}{{{', '.join(parts)}}}")
