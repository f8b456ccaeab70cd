"""One package per site generator: how it is detected, its profile (config → `Site`), its readers, routes and slugs.

The registry (tools/sources/registry.py) lists them; nothing outside a generator's package
branches on its name. docs/sources.md says how to add one.
"""
