"""What Mintlify decides beyond the common site fields: nothing (plain Markdown/MDX routes)."""

from __future__ import annotations

from dataclasses import dataclass

from tools.sources.site import GeneratorRules


@dataclass(frozen=True)
class MintlifyRules(GeneratorRules):
    """Mintlify: MDX pages at their path without suffix, `X/index.mdx` at `X`."""

    name: str = "mintlify"
