"""Live sources read over HTTP: an llms.txt docs site, a help-center KB, and the fetch helpers they share.

Each keeps a local copy (the same search index as a folder) and says what it could not fetch
(`SourceUnavailable`, status notes) instead of failing the tool call.
"""
