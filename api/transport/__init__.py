"""How answers travel: paging and cursors, Link headers, CSV, ETags and 304, compression, totals,
absolute URLs and the headers every answer carries."""
