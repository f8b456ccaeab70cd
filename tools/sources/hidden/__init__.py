"""Hidden-text cleaning: what no reader of the rendered page sees is dropped before a reader parses it (strip.py)."""
