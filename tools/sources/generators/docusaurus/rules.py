"""What Docusaurus decides beyond the common site fields: doc routes, its MDX loader, imported parts."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.generators.docusaurus.loader import docusaurus_source
from tools.sources.generators.docusaurus.routes import strip_number_prefix
from tools.sources.site import GeneratorRules


@dataclass(frozen=True)
class DocusaurusRules(GeneratorRules):
    """Docusaurus: `route_base` is the docs route (`docs`, with the version's segment)."""

    name: str = "docusaurus"
    route_base: str = ""

    readme_index: ClassVar[bool] = True
    separate_parts: ClassVar[bool] = True

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """A doc's route: front-matter `slug`, else folders and `id` (number prefixes gone)."""
        written, _, name = path.rpartition("/")
        folder = "/".join(strip_number_prefix(part) for part in written.split("/") if part)
        stem = strip_number_prefix(name.rsplit(".", 1)[0])
        # A category's index doc (`index`, `README`, or named as its folder, as written) is
        # served at the folder, whatever its `id` (plugin-content-docs `isCategoryIndex`).
        written_name = name.rsplit(".", 1)[0].lower()
        category_index = written_name in ("index", "readme") or (
            bool(written) and written_name == written.rsplit("/", 1)[-1].lower()
        )
        route = self.route_base.strip("/")
        slug = meta.get("slug")
        if isinstance(slug, str) and slug.strip():
            slug = slug.strip()
            joined = slug if slug.startswith("/") else posixpath.join("/" + folder, slug)
            doc = posixpath.normpath(joined).strip("/") + ("/" if slug.endswith("/") else "")
        else:
            doc_id = meta.get("id")
            stem = (
                str(doc_id).strip()
                if isinstance(doc_id, str | int) and str(doc_id).strip()
                else stem
            )
            if category_index:
                doc = folder + "/"
            else:
                doc = f"{folder}/{stem}" if folder else stem
        return "/".join(p for p in (route, doc.strip("/")) if p) + (
            "/" if doc.endswith("/") else ""
        )

    def loaded(self, text: str) -> str:
        """What Docusaurus' MDX loader does to a file before MDX reads it (`docusaurus_source`)."""
        return docusaurus_source(text)
