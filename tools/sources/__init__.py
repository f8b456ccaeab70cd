"""Where pages come from, underneath the catalog modules `tools.docs` and `tools.kb`.

Markdown folders and llms.txt sites (docs), folders and help-center APIs (KB), how MDX is parsed,
how a page is rendered for the model, and the note about the corpus language.
"""
