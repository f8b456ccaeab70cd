"""JavaScript / TypeScript config files (docusaurus.config.*, .vitepress/config.*, astro.config.*) read as text, never run.

A site's config is code: running it would need Node and the site's dependencies, and would run
whatever it does. literals.py reads values written as literals; scope.py a module's top-level
statements, bindings, functions and imports; config.py a whole config (`JsConfig`): its values
as data, following its names, functions, imported modules and default export.
"""

from tools.sources.jsconfig.config import JsConfig
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
from tools.sources.jsconfig.scope import literal_bindings, split_top_level, statement_end

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
