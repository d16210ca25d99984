"""The answers of the downloads endpoints: the served release's files and their bytes (docs/ocds.md)."""

from __future__ import annotations

from typing import Any

from api.description.schema_types import count, envelope, obj, prop, text

FILE_NAME = r"^gosterge-[0-9]{4}-W[0-9]{2}-(tables\.zip|ocds\.json\.gz)$"

DOWNLOAD_SCHEMAS: dict[str, dict[str, Any]] = {}
DOWNLOAD_SCHEMAS["Download"] = obj({
    "name": text("The file's name: the last part of its `url`, and the name it is saved under.", pattern=FILE_NAME),
    "kind": text("`tables`: the release's manifest and five CSV files as loaded, zipped (unzipped, they load "
                 "again as the same release); `ocds`: its OCDS 1.1 release package, one release per tender, "
                 "gzip-compressed.", enum=["tables", "ocds"]),
    "mediaType": text("The file's media type, also its `Content-Type`.", enum=["application/zip", "application/gzip"]),
    "size": count("The file's size in bytes: the `Content-Length` of its whole download."),
    "sha256": text("The SHA-256 of the file's bytes, in hex: also its download's `ETag`.", pattern="^[0-9a-f]{64}$"),
    "url": text("Where to download it (with a key).", format="uri"),
    "credits": prop("What downloading it costs, in credits: one per 200 rows of the release (its datasets' "
                    "rows added up, rounded up), the pages the same rows take at the largest page size. "
                    "Resuming it (a `Range` request) within 24 hours of paying is free.", type="integer", minimum=1),
    "citations": prop("The citation each of the release's source datasets asks for; the file's data keeps "
                      "their terms.", type="array", items=obj({
                          "dataset": text("The dataset's name, as in /datasets."),
                          "citation": text("The citation its publisher asks for."),
                          "url": text("Where the publisher describes it; empty when the manifest names none."),
                      }, description="One dataset's citation.")),
}, description="A file of the release served, built once when the release was loaded.")
DOWNLOAD_SCHEMAS["DownloadPage"] = envelope("Download")
DOWNLOAD_SCHEMAS["DownloadPage"]["properties"]["release"] = prop(
    "The ISO week of the release served; null before the first release, when the list is empty.",
    type=["string", "null"], pattern="^[0-9]{4}-W[0-9]{2}$")
DOWNLOAD_SCHEMAS["DownloadPage"]["required"].append("release")
DOWNLOAD_SCHEMAS["DownloadFile"] = prop("The file's bytes, or the range of them asked for.", type="string",
                                        format="binary")
