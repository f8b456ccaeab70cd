"""VitePress: `.vitepress/config.*` read as text (never run); its routes, slug rule and Markdown extensions.

detect.py (the config), config.py (what it says), rewrites.py (`rewrites` patterns), profile.py
(the `Site`: pages, locales, navigation), rules.py (`VitePressRules`: routes), slug.py (its
anchors), snippets.py and regions.py (`<!--@include:-->`, `<<<`), syntax.py (containers, code
groups, alerts, `{{ }}`, emoji), home.py (home pages), reader.py (the reader).
"""

from tools.sources import slugs
from tools.sources.generator import Generator
from tools.sources.generators.vitepress.detect import config_files
from tools.sources.generators.vitepress.profile import vitepress_site
from tools.sources.generators.vitepress.reader import read_vitepress
from tools.sources.generators.vitepress.rules import VitePressRules
from tools.sources.generators.vitepress.slug import vitepress_slug

slugs.register("vitepress", vitepress_slug, "{}-{}")

GENERATOR = Generator(
    name="vitepress",
    profile=vitepress_site,
    rules=VitePressRules,
    config_files=config_files,
    readers={"vitepress": read_vitepress},
)
