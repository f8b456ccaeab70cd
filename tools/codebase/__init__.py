"""The code backends underneath the catalog module `tools.code`.

`roots`: code roots and the one confinement rule every code tool applies; `search`: regex search
with ripgrep or the Python fallback; `symbols`: the index of defined names the offline model uses.
"""
