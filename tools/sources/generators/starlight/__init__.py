"""Starlight (Astro): `astro.config.*` read as text (never run); its content collection, slugs, asides, components.

detect.py (an Astro config that uses Starlight, beside or above the docs), config.py (what it
says), profile.py (the `Site`: pages, locales, navigation), rules.py (`StarlightRules`: slugs),
components.py (asides, `<Aside>`, `<LinkCard>`, `<Code>`, … and Markdoc tags), reader.py (the
reader). Heading ids: github-slugger (tools/sources/slugs.py), the title's `_top`.
"""

from tools.sources.generator import Generator
from tools.sources.generators.starlight.detect import config_elsewhere, config_files
from tools.sources.generators.starlight.profile import starlight_site
from tools.sources.generators.starlight.reader import read_starlight
from tools.sources.generators.starlight.rules import StarlightRules

GENERATOR = Generator(
    name="starlight",
    profile=starlight_site,
    rules=StarlightRules,
    config_files=config_files,
    config_elsewhere=config_elsewhere,
    readers={"starlight": read_starlight},
)
