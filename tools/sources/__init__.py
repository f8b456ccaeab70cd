"""Where pages come from, underneath the catalog modules `tools.docs` and `tools.kb`.

Bottom up (tests/unit/tools/sources/test_layout.py holds each layer to importing only those
below it): the records every reader produces (records.py) and the source contract
(contract.py); the site profile and the rules a generator refines (site.py); the Markdown / MDX
core (markdown/), hidden-text cleaning (hidden/) and notebooks; one package per site generator
(generators/), listed once in registry.py; readers.py, where a file's text enters its reader;
corpus.py, a folder kept in a search index; live/, the sources read over HTTP (an llms.txt site,
a help-center API). What the tools show of a source lives beside them (tools/presentation/).
"""
