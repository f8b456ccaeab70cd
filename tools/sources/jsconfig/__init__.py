"""JavaScript / TypeScript config files (docusaurus.config.*, .vitepress/config.*, astro.config.*) read as text, never run.

A site's config is code: running it would need Node and the site's dependencies, and would run
whatever it does. literals.py reads values written as literals; config.py reads a whole file
(`JsConfig`): its bindings, the functions it calls, its default export.
"""

from tools.sources.jsconfig.config import JsConfig, literal_bindings, split_top_level, statement_end
from tools.sources.jsconfig.literals import (
    NOT_LITERAL,
    SPREAD,
    balanced_end,
    code_shape,
    const_objects,
    entries,
    literal,
    object_entries,
    top_level_consts,
    value_end,
)

__all__ = [
    "NOT_LITERAL",
    "SPREAD",
    "JsConfig",
    "balanced_end",
    "code_shape",
    "const_objects",
    "entries",
    "literal",
    "literal_bindings",
    "object_entries",
    "split_top_level",
    "statement_end",
    "top_level_consts",
    "value_end",
]
