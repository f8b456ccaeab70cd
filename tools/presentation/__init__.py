"""What the tools show the model of a source: rendered pages and hits, site links, failure texts, corpus-language notes.

Beside the tool catalog (tools/docs.py, tools/kb.py), above the sources: the sources produce
records (tools/sources/records.py, tools/search/records.py); this package turns them into text.
"""
