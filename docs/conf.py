"""Sphinx configuration of the packsched documentation site.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (README).
The gallery (``_ext/gallery.py``) reproduces every figure of ``packsched reproduce --list``
at quick scale into ``PACKSCHED_FIGURES_OUT`` (default ``docs/_build/figures``), so a
second build only redraws; the report (``_ext/report.py``) runs ``verify --quick``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))

import packsched  # noqa: E402

project = "packsched"
author = "the packsched developers"
copyright = "2026, the packsched developers"
release = version = packsched.__version__

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx-mathjax-offline",  # MathJax served from the site: no network needed
    "sphinx_copybutton",
    "sphinx_design",
    "gallery",
    "report",
    "background",
    "reference",
]

exclude_patterns = ["_build", "examples", "**.ipynb_checkpoints", "jupyter_execute",
                    "notebooks/README.md", "notebooks/figures"]
# .rst first: autosummary writes its stub pages (reStructuredText) with the first suffix
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# numpydoc renders the docstrings; autosummary writes one page per public object.
# the reference pages are written by _ext/reference.py before autosummary reads them
autosummary_generate = [f"reference/{page}.md" for page in
                        ("theory", "capacity", "policies", "proofs_checks")]
autosummary_imported_members = True
autodoc_typehints = "none"
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
# Tutorial and how-to pages run at build time; their outputs are cached between builds.
nb_execution_mode = "cache"
nb_execution_cache_path = os.environ.get("PACKSCHED_NB_CACHE",
                                         str(DOCS / "_build" / ".jupyter_cache"))
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_merge_streams = True

html_theme = "pydata_sphinx_theme"
html_title = f"packsched {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_show_sourcelink = False
# pages without sub-pages get the full width (no empty section navigation)
html_sidebars = {page: [] for page in ("index", "tutorial", "report", "benchmarks", "gallery/index",
                                       "design", "notebooks")}
# "light" rather than the theme's unset mode, which its script reports as a console error
html_context = {"default_mode": "light"}

# The notebooks (docs/notebooks links to ../notebooks) run at quick scale and reuse the
# gallery's figure stores, so they redraw without running.
os.environ.setdefault("PACKSCHED_NOTEBOOK_QUICK", "1")
os.environ.setdefault("PACKSCHED_FIGURES_OUT", str(DOCS / "_build" / "figures"))
