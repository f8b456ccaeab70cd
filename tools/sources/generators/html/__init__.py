"""A built HTML site: a folder of `.html` pages (any generator's output), their main content read."""

from tools.sources.generator import Generator
from tools.sources.generators.html.detect import is_built_site
from tools.sources.generators.html.profile import html_site
from tools.sources.generators.html.reader import read_html
from tools.sources.generators.html.rules import HtmlRules

GENERATOR = Generator(
    name="html",
    profile=html_site,
    rules=HtmlRules,
    detect=is_built_site,
    readers={"html": read_html},
)
