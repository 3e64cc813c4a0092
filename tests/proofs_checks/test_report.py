"""The catalogue as a static HTML report: well-formed, one entry per claim with its
verdict and evidence, every internal link resolving, the errata register linked to its
checks, text escaped; and ``verify --report`` writes it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from packsched.cli import main
from proofs_checks.errata import ERRATA
from proofs_checks.report import write_report

VOID = {"meta", "br", "hr", "img", "input", "link"}


class _Page(HTMLParser):
    """Tag balance, ids and internal links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']}")
            self.ids.add(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def _rows():
    base = {"paper": "PG21", "location": "PG21 Sec. V", "method": "exact", "params": {},
            "seed": None, "details": {}, "seconds": 0.5, "quantity": "the ratio"}
    return [
        {**base, "id": "PG21.Prop2", "statement": "rho < 4/3 & x > y", "verdict": "holds",
         "measured": "4/3", "bound": "4/3", "relation": "=="},
        {**base, "id": "PG21.Thm2", "statement": "BF-J/S supports 1/2", "verdict": "violated",
         "measured": 0.4, "bound": 0.5, "relation": ">=", "seed": 7,
         "details": {"runs": [{"load": 0.4, "verdict": "unstable"},
                              {"load": 0.5, "verdict": "stable"}], "note": "<b>bold</b>"}},
        {**base, "id": "FL24.Lemma6.7", "paper": "FL24", "statement": "a lemma",
         "verdict": "inconclusive", "measured": None, "bound": None, "relation": None,
         "details": {"no_bound": "structural check"}},
    ]


def test_the_report_is_well_formed_and_every_claim_and_link_is_there(tmp_path):
    path = write_report(_rows(), tmp_path, run={"command": "packsched verify"})
    text = path.read_text()
    page = _Page()
    page.feed(text)
    page.close()
    assert not page.errors and not page.stack, (page.errors, page.stack)
    for row in _rows():
        assert row["id"] in text
    assert {"claim-PG21-Prop2", "claim-PG21-Thm2", "claim-FL24-Lemma6-7", "paper-PG21",
            "paper-FL24", "errata", "environment"} <= page.ids
    assert not [link for link in page.links if link not in page.ids]
    # the verdicts, the comparison text of the terminal table, the evidence as a table
    assert "verdict violated" in text and "0.4 &gt;= 0.5" in text and "4/3 == 4/3" in text
    assert "<th>load</th>" in text and "structural check" in text
    # the paper's text and the evidence are escaped, never markup
    assert "rho &lt; 4/3 &amp; x &gt; y" in text and "<b>bold</b>" not in text
    for e in ERRATA:
        assert e.id in text
    assert "1 holds, 1 violated, 1 inconclusive" in text


def test_an_erratum_links_to_the_check_that_shows_it(tmp_path):
    text = write_report(_rows(), tmp_path).read_text()
    linked = [e for e in ERRATA if e.check == "PG21.Prop2"]
    assert linked and "href='#claim-PG21-Prop2'" in text


def test_verify_writes_the_report(capsys, tmp_path):
    out = tmp_path / "report"
    code = main(["verify", "--quick", "--claim", "PG21.Prop2", "--report", str(out)])
    _, err = capsys.readouterr()
    text = (out / "index.html").read_text()
    assert code == 0 and "report written to" in err
    assert re.search(r"PG21\.Prop2</a> <span class='verdict holds'>holds", text)


def test_a_report_needs_a_run(capsys, tmp_path):
    code = main(["verify", "--list", "--report", str(tmp_path / "r")])
    assert code == 2 and "does not go with --list" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()



def test_a_report_into_a_file_is_refused_before_any_check_runs(capsys, tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("mine\n")
    code = main(["verify", "--quick", "--claim", "PG21.Prop2", "--report", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and "not a folder" in err and "running" not in err
    assert target.read_text() == "mine\n"
