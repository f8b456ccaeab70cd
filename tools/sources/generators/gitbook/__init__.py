"""GitBook: .gitbook.yaml (or GitBook 3's book.json) and SUMMARY.md read into the space's pages.

detect.py (the config, or a SUMMARY.md + README.md layout), config.py (root, structure,
redirects), summary.py (SUMMARY.md: the navigation and the page list; LANGS.md), profile.py
(the `Site`), rules.py (`GitBookRules`: the readme at the root, pages without `.md`),
anchors.py (the `gitbook` slug rule and what GitBook's documentation settles of it),
blocks.py (hints, tabs, code titles, embeds, content-refs, includes), reader.py (the reader).
"""

from tools.sources.generator import Generator
from tools.sources.generators.gitbook.detect import config_files, looks_like_a_space
from tools.sources.generators.gitbook.profile import gitbook_site
from tools.sources.generators.gitbook.reader import read_gitbook
from tools.sources.generators.gitbook.rules import GitBookRules

GENERATOR = Generator(
    name="gitbook",
    profile=gitbook_site,
    rules=GitBookRules,
    config_files=config_files,
    detect=looks_like_a_space,
    readers={"gitbook": read_gitbook},
)
