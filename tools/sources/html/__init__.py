"""Built HTML pages read as the site shows them: the shared core of every built-site generator.

`content` finds a page's main content by a generator's rules, `convert` turns it into sections,
`page` reads one page into a `Page`, `built` reads what a built folder says about itself (its
generator, sitemap, redirects, list pages). Generator packages (tools/sources/generators/) build
on it; nothing here names a generator.
"""
