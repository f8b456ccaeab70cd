"""JavaScript / TypeScript configs read as text (tools/sources/jsconfig): what is followed, what is not.

A config is never run; these cases pin how its values are read as data the way sites write them:
names, spreads, functions and modules of the config's own, wrappers, literal fallbacks, and the
JavaScript that must not confuse the scanner (regular expressions, comments, strings).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tools.sources.jsconfig import NOT_LITERAL, SPREAD, JsConfig


def config(tmp_path: Path, text: str, name: str = "config.ts") -> JsConfig:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), "utf-8")
    return JsConfig.read(path)


def test_names_shorthands_functions_and_wrappers_are_followed(tmp_path: Path) -> None:
    read = config(
        tmp_path,
        """\
        import { defineConfig } from 'vitepress'
        const siteUrl = 'https://x.dev'
        export const locales = { root: { lang: 'en-US' }, zh: { lang: 'zh' } }
        const extra = { cleanUrls: true }
        function sidebar() {
          // a comment with a } brace and a 'quote
          return [{ text: 'A', link: '/a' }, ...more()]
        }
        const more = () => [{ text: 'B', link: '/b' }]
        const config = defineConfig({
          ...extra,
          locales,
          sitemap: { hostname: siteUrl },
          themeConfig: { sidebar: sidebar() },
          rewrites: { 'en/:rest*': ':rest*' },
          count: 3,
          transformHead(ctx) { return ctx.page.replace(/^en\\//, '') },
        })
        export default extendConfig(config)
        """,
    )
    data = read.exported()
    assert data["cleanUrls"] is True and data["count"] == 3
    assert data["locales"] == {"root": {"lang": "en-US"}, "zh": {"lang": "zh"}}
    assert data["sitemap"] == {"hostname": "https://x.dev"}
    assert data["themeConfig"]["sidebar"] == [
        {"text": "A", "link": "/a"},
        {"text": "B", "link": "/b"},
    ]
    assert data["rewrites"] == {"en/:rest*": ":rest*"}
    assert "transformHead" not in data  # a method is code, not an option


def test_modules_the_config_imports_are_read_and_spread(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    config(
        tmp_path,
        "export const shared = { title: 'Shared', base: '/docs/' }\n",
        ".vitepress/shared.ts",
    )
    config(
        tmp_path,
        "export const en = defineConfig({ themeConfig: { nav: [{ link: '/guide/' }] } })\n",
        ".vitepress/config/en.ts",
    )
    config(tmp_path, "export default { secret: 'no' }\n", "../outside.ts")
    read = config(
        tmp_path,
        """\
        import { shared } from '../shared'
        import { en as english } from './en'
        import outside from '../../../outside'
        export default defineConfig({
          ...shared,
          base: '/v2/',
          locales: { root: { label: 'English', ...english } },
          other: outside,
        })
        """,
        ".vitepress/config/index.ts",
    )
    data = read.exported()
    assert data["title"] == "Shared" and data["base"] == "/v2/"  # its own key wins
    assert data["locales"]["root"]["themeConfig"] == {"nav": [{"link": "/guide/"}]}
    assert data["other"] is NOT_LITERAL  # outside the repository: never read


def test_a_config_exported_as_a_function_and_literal_fallbacks(tmp_path: Path) -> None:
    read = config(
        tmp_path,
        """\
        const site = process.env.PREVIEW_URL || 'https://x.dev/'
        export default ({ mode }) => {
          return withPwa(defineConfig({ site, base: process.env.BASE, title: `X ${mode}` }))
        }
        """,
    )
    data = read.exported()
    assert data["site"] == "https://x.dev/"
    assert data["base"] is NOT_LITERAL and data["title"] is NOT_LITERAL
    assert read.setting(data, "base", "/", "DOCS_AGENT_DOCS_BASE_URL") == "/"


def test_the_first_call_of_an_integration_gives_its_options(tmp_path: Path) -> None:
    read = config(
        tmp_path,
        """\
        import starlight from '@astrojs/starlight'
        const sidebar = [{ label: 'Guides', autogenerate: { directory: 'guides' } }]
        // starlight({ title: 'a comment, not a call' })
        export default defineConfig({
          integrations: [mdx(), starlight({ title: 'Docs', sidebar, ...computed() })],
        })
        """,
        "astro.config.mjs",
    )
    options = read.call_argument("starlight")
    assert options is not None
    assert options["title"] == "Docs"
    assert options["sidebar"] == [{"label": "Guides", "autogenerate": {"directory": "guides"}}]
    assert options[SPREAD] == "...computed()"  # what only running it tells is kept as written
