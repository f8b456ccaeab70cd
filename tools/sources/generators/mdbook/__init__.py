"""mdBook: book.toml and SUMMARY.md read into the book's chapters; chapters read as mdBook builds them.

detect.py (book.toml), config.py (its keys), summary.py (SUMMARY.md: the navigation and the
page list), profile.py (the `Site`), rules.py (`MdBookRules`), links.py (`{{#include}}` and
the other directives of the `links` preprocessor), code.py (hidden code lines), ids.py (the
`mdbook` slug rule), structure.py (headings, terms and admonitions as mdBook reads them),
reader.py (the reader).
"""

from tools.sources.generator import Generator
from tools.sources.generators.mdbook.detect import config_files
from tools.sources.generators.mdbook.profile import mdbook_site
from tools.sources.generators.mdbook.reader import read_mdbook
from tools.sources.generators.mdbook.rules import MdBookRules

GENERATOR = Generator(
    name="mdbook",
    profile=mdbook_site,
    rules=MdBookRules,
    config_files=config_files,
    readers={"mdbook": read_mdbook},
)
