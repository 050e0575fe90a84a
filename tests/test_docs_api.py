"""The API reference lists every public name: ``docs/_ext/api_pages.py`` against the snapshot.

``make docs`` writes one page per public module from its ``__all__`` (``docs/conf.py`` calls
the generator before Sphinx reads anything). These tests run the generator without Sphinx and
compare what the pages list with ``tests/public_api.json``, the snapshot of the public API: a
module or a name can be missing from the reference only if it is missing from the API.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import fedtheory.errors

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "tests" / "public_api.json"


@pytest.fixture(scope="module")
def api_pages() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_pages", ROOT / "docs/_ext/api_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["api_pages"] = module  # dataclasses resolve their module by name
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules["api_pages"]


@pytest.fixture(scope="module")
def written(api_pages: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    outdir = tmp_path_factory.mktemp("api")
    return outdir, api_pages.write_api_pages(outdir)


def test_every_module_page_lists_exactly_its_public_names(written: tuple[Path, dict]) -> None:
    outdir, listed = written
    snapshot = json.loads(SNAPSHOT.read_text())
    assert sorted(listed) == sorted(snapshot)
    for module, names in snapshot.items():
        assert listed[module] == sorted(names), module
        assert (outdir / f"{module}.rst").is_file()


def test_the_index_links_every_module_page(written: tuple[Path, dict]) -> None:
    outdir, listed = written
    index = (outdir / "index.rst").read_text()
    entries = re.findall(r"^   (fedtheory[\w.]*)$", index, flags=re.MULTILINE)
    assert sorted(entries) == sorted(listed)


def test_every_object_is_documented_once_on_a_page_that_lists_it(api_pages: ModuleType) -> None:
    pages = api_pages.entries()
    homes: dict[str, str] = {}
    for module, rows in pages.items():
        for row in rows:
            if row.documented_here:
                assert row.home not in homes, f"{row.home} documented on {homes[row.home]} too"
                homes[row.home] = module
    # a module has its own page, never a second one among the objects' pages
    assert not set(homes) & set(pages)
    for module, rows in pages.items():
        for row in rows:
            if row.kind == "module":
                assert row.home in pages, f"{module} lists {row.home}, which has no page"
            else:
                assert row.home in homes, f"{module}.{row.name} links to {row.home}: no page"
    # a re-export links to its defining module's page (fedtheory.verify.Claim)
    claim = next(r for r in pages["fedtheory.verify"] if r.name == "Claim")
    assert claim.home == "fedtheory.verify.claim.Claim" and not claim.documented_here


def test_a_new_public_name_is_listed_without_editing_a_page(
    api_pages: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    class BrandNewError(fedtheory.errors.FedTheoryError):
        """A name added to ``fedtheory.errors.__all__`` after the pages were written."""

    BrandNewError.__module__ = "fedtheory.errors"
    monkeypatch.setattr(fedtheory.errors, "BrandNewError", BrandNewError, raising=False)
    monkeypatch.setattr(fedtheory.errors, "__all__", [*fedtheory.errors.__all__, "BrandNewError"])
    listed = api_pages.write_api_pages(tmp_path)
    assert "BrandNewError" in listed["fedtheory.errors"]
    page = (tmp_path / "fedtheory.errors.rst").read_text()
    assert re.search(r"^   BrandNewError$", page, flags=re.MULTILINE)
