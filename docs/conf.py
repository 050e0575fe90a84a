"""Sphinx configuration of the fedtheory documentation (``make docs``).

Built with warnings as errors::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The API reference's sources (``docs/api/``) are written here, before Sphinx reads anything, from
the public modules' ``__all__`` (``docs/_ext/api_pages.py``); the gallery (``examples/``) and the
tutorials' notebooks (``docs/tutorials/*.ipynb``) are executed during the build.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import api_pages  # noqa: E402  (docs/_ext is on the path only from here on)

import fedtheory  # noqa: E402

api_pages.write_api_pages(DOCS / "api")

# The bound explorer's two prebuilt pages (docs/explorer.md links them), generated from the
# registry's sympy bounds at every build and copied to the site's explorer/ folder as they are.
_EXPLORER = DOCS / "_build" / "explorer_pages"
runpy.run_path(str(DOCS / "explorer" / "pages.py"))["write_pages"](_EXPLORER / "explorer")

# -- project -------------------------------------------------------------------------------------

project = "fedtheory"
author = "fedtheory developers"
copyright = "fedtheory developers"
release = fedtheory.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
    "sphinx_gallery.gen_gallery",
    "api_pages",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "jupyter_execute",
    # the gallery's downloadable notebooks are not pages (the gallery's .rst pages are)
    "auto_examples/**.ipynb",
    "auto_examples/**.py",
    "auto_examples/**.zip",
    "**.ipynb_checkpoints",
]
templates_path = ["_templates"]

# -- API reference (autodoc, autosummary, numpydoc) ----------------------------------------------

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# Methods and attributes of classes are documented on the class page by the autosummary class
# template (docs/_templates/autosummary/class.rst), not by numpydoc's extra member tables.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- markdown and notebooks (myst-nb, which includes myst-parser) --------------------------------

myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3
# The tutorials are executed at build time: a notebook that raises fails the build.
nb_execution_mode = "cache"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_cache_path = str(DOCS / "_build" / ".jupyter_cache")
nb_merge_streams = True

# -- gallery (sphinx-gallery) --------------------------------------------------------------------


sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "within_subsection_order": "FileNameSortKey",
    "reset_modules": ("matplotlib", "gallery_reset.warnings_are_errors"),
    "reset_modules_order": "both",
    "remove_config_comments": True,
    "download_all_examples": False,
    "show_memory": False,
    "min_reported_time": 0,
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "default_thumb_file": None,
}

# -- HTML (pydata-sphinx-theme) ------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"fedtheory {release}"
html_static_path: list[str] = []
html_extra_path = [str(_EXPLORER)]
html_show_sourcelink = False
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    # the left sidebar shows the current section, two levels deep: resolving the API's tree of
    # ~600 object pages on every page was most of the writing time
    "collapse_navigation": True,
    "navigation_depth": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
html_context = {"default_mode": "light"}
# An object's page (one per public name) has no left sidebar: its module's page lists its
# siblings, and rendering the API tree next to each of ~600 pages doubled the build time.
html_sidebars = {"api/generated/*": []}
