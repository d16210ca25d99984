"""Turning records saved from EKAP (tender details, bundles, search answers, result notices) into
a weekly release.

`inputs` finds the accepted shapes in files and folders and `records` reads one tender record;
`notice` reads a result notice's labelled rows (Markdown or HTML) and `values` its Turkish
amounts, counts and dates; `tenders` puts each İKN's records together into one picture;
`tables` maps a picture to release rows by the rules, with `mapping` (procedure, sector, tender
type), `names`, `places`, `authority_types` and `registry` (each authority and contractor once);
`base` reads the previous week's release and `frames` merges it with the new rows; `report` holds
what could not be mapped; `importer` runs the whole import. docs/ekap.md states every rule.
"""
