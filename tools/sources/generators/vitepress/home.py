"""A VitePress home page (`layout: home`): its hero and features, from front matter, as text.

The default theme draws the hero (`name`, `text`, `tagline`, `actions`) and the feature cards
(`title`, `details`, `link`) from the page's front matter; the Markdown below them follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def home_text(meta: Mapping[str, Any]) -> str:
    """The hero and features of a home page's front matter as Markdown ("" when it has none)."""
    hero = meta.get("hero") if isinstance(meta.get("hero"), Mapping) else {}
    assert isinstance(hero, Mapping)
    lines: list[str] = []
    name, text = _text(hero.get("name")), _text(hero.get("text"))
    if name or text:
        lines.append(" ".join(p for p in (f"**{name}**" if name else "", text) if p))
    if _text(hero.get("tagline")):
        lines.append(_text(hero.get("tagline")))
    actions = hero.get("actions")
    actions = actions if isinstance(actions, list) else []
    links = [
        f"[{_text(a.get('text'))}]({_text(a.get('link'))})"
        if _text(a.get("link"))
        else _text(a.get("text"))
        for a in actions
        if isinstance(a, Mapping) and _text(a.get("text"))
    ]
    if links:
        lines.append(" · ".join(links))
    features = meta.get("features")
    features = features if isinstance(features, list) else []
    for feature in features:
        if not isinstance(feature, Mapping):
            continue
        title, details = _text(feature.get("title")), _text(feature.get("details"))
        if title or details:
            lines.append(
                f"- **{title}**: {details}" if title and details else f"- {title or details}"
            )
    return "\n\n".join(lines)


def home_title(meta: Mapping[str, Any]) -> str:
    """A home page's title when its front matter names none: the hero's name (and text)."""
    hero = meta.get("hero") if isinstance(meta.get("hero"), Mapping) else {}
    assert isinstance(hero, Mapping)
    return _text(hero.get("name")) or _text(hero.get("text"))
