"""JSON Schemas of every response body, referenced from the OpenAPI document. Each property carries
its description here, with its unit and its definition from procurement-statistics.md and the
finance-news document: the one place a field is explained (tests/api/test_openapi.py requires one)."""

from __future__ import annotations

from typing import Any

from api.description.award_schemas import AWARD_SCHEMAS
from api.description.download_schemas import DOWNLOAD_SCHEMAS
from api.description.schema_types import (
    EMPTY_NULL,
    amount,
    count,
    envelope,
    instant,
    obj,
    plate,
    prop,
    sector_id,
    share,
    text,
)
from api.description.watchlist_schemas import WATCHLIST_SCHEMAS
from store.reference.apis import APIS
from store.reference.dimensions import INDEX_DIMENSIONS
from store.reference.lists import authority_types, procedures
from store.reference.news import CATEGORY_IDS, SENTIMENT_IDS, SOURCE_IDS

AUTHORITY_TYPES = list(authority_types())
PROCEDURES = list(procedures())
CATEGORIES, SENTIMENTS, SOURCES = list(CATEGORY_IDS), list(SENTIMENT_IDS), list(SOURCE_IDS)


def index_base(kind: str) -> dict[str, Any]:
    """The fields every index item starts with (procurement-statistics.md, "Index endpoints")."""
    return {
        "dimension": text("What the statistics are broken down by.", enum=INDEX_DIMENSIONS[kind]),
        "subject": prop("The subject's id: a plate code (province) or sector id (sector), both integers; an "
                        "authority-type or procedure id (string); null for `overall`.",
                        type=["integer", "string", "null"]),
        "subjectName": text("The subject's Turkish name; `Türkiye` for `overall`."),
        "subjectNameEn": text("The subject's English name; `Türkiye` for `overall`."),
        "period": text("The tender (or purchase) year the item covers, or `all` for every year pooled.",
                       pattern="^(20[1-9][0-9]|all)$"),
    }


ITEMS: dict[str, dict[str, Any]] = {
    "CompetitionIndex": obj({
        **index_base("competition"),
        "tenders": count("Number of tenders."),
        "singleBidShare": share("Among awarded lots with a known number of valid bids, the share with exactly one "
                                "bid"),
        "singleBidShareSingleLot": share("The same share, over the lots of tenders with a single lot only"),
        "lotsWithBids": count("The denominator of `singleBidShare`: awarded lots with a known number of bids."),
        "averageLots": prop(f"Mean number of lots per tender; {EMPTY_NULL}.", type=["number", "null"], minimum=1),
        "averageDiscount": prop("Over tenders with an estimated cost above 0 whose every lot was awarded: the mean of "
                                "1 − (sum of their contract values) / estimated cost. A fraction, at most 1; negative "
                                f"when contracts exceeded the estimate; {EMPTY_NULL}.",
                                type=["number", "null"], maximum=1),
    }, description="Competition statistics of one subject and period."),
    "ConcentrationIndex": obj({
        **index_base("concentration"),
        "contracts": count("Number of awarded lots (contracts)."),
        "firms": count("Distinct contractors among them."),
        "cr1": share("Share of the total contract value won by the contractor with the most value (1 when there "
                     "is one firm)"),
        "cr4": share("Share of the total contract value won by the 4 contractors with the most value (1 when there "
                     "are fewer firms)"),
        "cr10": share("Share of the total contract value won by the 10 contractors with the most value (1 when "
                      "there are fewer firms)"),
        "hhi": prop("Herfindahl-Hirschman index: Σ (100 × value share of each contractor)², from 0 to 10,000 (one "
                    f"firm); {EMPTY_NULL}.", type=["number", "null"], minimum=0, maximum=10000),
    }, description="Concentration of contract winners in one subject and period."),
    "DirectProcurementIndex": obj({
        **index_base("direct"),
        "purchases": count("Number of direct purchases (doğrudan temin)."),
        "median": amount("Median purchase amount (linear interpolation)"),
        "mean": amount("Mean purchase amount"),
        "total": amount("Sum of the purchase amounts"),
        "p95": amount("95th percentile of the purchase amounts (linear interpolation)"),
        "p99": amount("99th percentile of the purchase amounts (linear interpolation)"),
        "max": amount("Largest purchase amount"),
        "largestShare": share("`max / total`: the largest purchase's share of the total"),
    }, description="Distribution of direct-purchase amounts in one subject and period."),
    "LocalizationIndex": obj({
        **index_base("localization"),
        "contracts": count("Awarded lots whose contractor has a known head-office province."),
        "localShareCount": share("Share of them won by a contractor from the authority's own province (local)"),
        "localShareValue": share("Share of their contract value that is local"),
    }, description="Share of contracts won by suppliers from the authority's own province."),
    "ProvinceSector": obj({
        "province": plate("Province of the buying authorities"),
        "provinceName": text("The province's official Turkish name."),
        "sector": sector_id("Sector of the tenders"),
        "sectorName": text("The sector's Turkish name."),
        "sectorNameEn": text("The sector's English name."),
        "tenders": count("Number of tenders, every year pooled."),
        "amount": amount("Total value of the tenders' awarded lots, `localAmount + otherAmount`"),
        "localAmount": amount("The part won by contractors from the same province"),
        "otherAmount": amount("The part won by contractors from another or an unknown province"),
    }, description="Tender volume of one province and sector, every year pooled."),
    "SupplyFlow": obj({
        "buyerProvince": plate("Province of the buying authorities"),
        "buyerProvinceName": text("The buyers' province, official Turkish name."),
        "supplierProvince": plate("Head-office province of the contractors"),
        "supplierProvinceName": text("The suppliers' province, official Turkish name."),
        "contracts": count("Awarded lots from those authorities to those contractors, every year pooled."),
        "amount": amount("Their total contract value", nullable=False),
    }, description="Contracts from authorities of one province to contractors of another or the same province."),
    "TopAuthority": obj({
        "rank": prop("Place in the ranking, 1 to 10, by `amount` descending, ties by id.", type="integer",
                     minimum=1, maximum=10),
        "authorityId": text("The authority's id in the release.", minLength=1),
        "name": text("The authority's name as recorded."),
        "authorityType": text("The authority's type (/authority-types).", enum=AUTHORITY_TYPES),
        "province": plate("The authority's province"),
        "provinceName": text("Official Turkish name of `province`."),
        "amount": amount("Value of its awarded lots (`tender`) or of its direct purchases (`direct`)", nullable=False),
        "count": count("Number of contracts or purchases behind `amount`."),
    }, description="One of the ten authorities that awarded the most by value."),
    "TopContractor": obj({
        "rank": prop("Place in the ranking, 1 to 10, by `amount` descending, ties by id.", type="integer",
                     minimum=1, maximum=10),
        "contractorId": text("The contractor's id in the release.", minLength=1),
        "name": text("The contractor's legal name as recorded in the source platform (no tax number)."),
        "province": plate("Head-office province of the contractor; null when unknown or abroad", nullable=True),
        "provinceName": prop("Official Turkish name of `province`; null when it is null.", type=["string", "null"]),
        "amount": amount("Value won: awarded lots (`tender`, `headquartered` also direct purchases) or direct "
                         "purchases (`direct`)", nullable=False),
        "count": count("Number of contracts or purchases behind `amount`."),
    }, description="One of the ten contractors with the most value."),
    "Sector": obj({
        "id": sector_id("Stable id, used in `sector` and `subject` parameters"),
        "nameTr": text("Turkish name."), "nameEn": text("English name."),
        "cpvDivisions": prop("The CPV divisions (two-digit codes of the Common Procurement Vocabulary) the sector "
                             "covers.", type="array", items={"type": "string", "pattern": "^[0-9]{2}$"}),
    }, description="One of the 43 sectors tenders are classified into."),
    "AuthorityType": obj({"id": text("Stable id, used as `subject` with `dimension=authority-type`.",
                                     enum=AUTHORITY_TYPES),
                          "nameTr": text("Turkish name."), "nameEn": text("English name.")},
                         description="A kind of buying authority."),
    "Procedure": obj({"id": text("Stable id, used as `subject` with `dimension=procedure`.", enum=PROCEDURES),
                      "nameTr": text("Turkish name."), "nameEn": text("English name."),
                      "legalBasis": text("The article of Law 4734 the procedure rests on.")},
                     description="A tender procedure, or an award under a Law 4734 article-3 exception."),
    "Province": obj({
        "plate": plate("Plate code"),
        "name": text("Official Turkish name."),
        "asciiName": text("Lower-case ASCII form of the name, for matching.", pattern="^[a-z ]+$"),
        "capital": text("The provincial capital."),
        "latitude": prop("Latitude of a representative point inside the province, in degrees (WGS 84).",
                         type="number", minimum=35, maximum=43),
        "longitude": prop("Longitude of that point, in degrees (WGS 84).", type="number", minimum=25, maximum=45),
    }, description="One of the 81 provinces."),
    "PriceIndex": obj({
        "year": prop("Calendar year.", type="integer", minimum=2003),
        "decemberIndex": prop("Consumer price index of December of that year, 2003 = 100.", type="number",
                              exclusiveMinimum=0),
        "decemberChangePercent": prop("Change from December of the year before, in percent.", type="number"),
    }, description="Türkiye's consumer price index in December of one year."),
    "Company": obj({"name": text("Company name as the document gives it."),
                    "ticker": prop("US ticker, set only for the filer of an 8-K, from the regulator's own list "
                                   "(never inferred); otherwise null.", type=["string", "null"])},
                   description="A company the article is about."),
    "NewsSource": obj({
        "id": text("Source id, used in the `source` filter.", enum=SOURCES),
        "name": text("English name."), "nameTr": text("Turkish name."),
        "language": text("Language of the source's documents (ISO 639-1).", pattern="^[a-z]{2}$"),
        "homepage": text("The source's home page (absolute URL).", format="uri"),
        "licence": text("The source's own licence or acknowledgement terms."),
        "articles": count("Number of summarised articles from the source."),
        "latestAt": instant("Publication time of the source's latest article; null when it has none",
                            nullable=True),
    }, description="A news source and its terms."),
}

ITEMS["NewsArticle"] = obj({
    "id": text("Article identifier, `<source prefix>-<16 lowercase hex>` from a hash of the document's canonical "
               "URL: the same document always gets the same id.", pattern="^(fed|ecb|sec|rg)-[0-9a-f]{16}$"),
    "source": text("Source id (/sources).", enum=SOURCES),
    "sourceName": text("Display name of the source."),
    "url": text("Link to the original document, which is authoritative.", format="uri"),
    "publishedAt": instant("Publication time of the original document"),
    "language": text("Language of the original document (ISO 639-1).", enum=["en", "tr"]),
    "originalTitle": text("Title of the original document."),
    "titleTr": text("Generated Turkish headline (machine-written; may contain errors)."),
    "titleEn": text("Generated English headline (machine-written; may contain errors)."),
    "summaryTr": text("Generated Turkish summary, 2 to 4 sentences, from the document only."),
    "summaryEn": text("Generated English summary, 2 to 4 sentences, from the document only."),
    "section": prop("The source's own section, e.g. a gazette heading or a central-bank release type.",
                    type=["string", "null"]),
    "category": text("Topic of the document.", enum=CATEGORIES),
    "tags": prop("Keywords, lower case.", type="array", items={"type": "string"}),
    "companies": prop("Companies the article is about.", type="array", items={"$ref": "#/components/schemas/Company"}),
    "countries": prop("Countries concerned, ISO 3166-1 alpha-2 codes.", type="array",
                      items={"type": "string", "pattern": "^[A-Z]{2}$"}),
    "sentiment": text("Tone of the news for the markets concerned.", enum=SENTIMENTS),
    "importance": prop("1 (routine) to 5 (market-moving).", type="integer", minimum=1, maximum=5),
    "confident": prop("False when the document was unclear or a number in the summary could not be found in it.",
                      type="boolean"),
    "filingItems": prop("8-K items, each an item number followed by its title; only for SEC filings.",
                        type=["array", "null"], items={"type": "string"}),
    "model": text("The model that wrote the summary."),
    "summarizedAt": instant("When the summary was written"),
}, optional=("section", "filingItems"), description="A news article summarised from one official document.")

ITEMS["Key"] = obj({
    "id": prop("Key id.", type="integer", minimum=1),
    "prefix": text("The first characters of the key, to recognise it (the key itself is never shown again)."),
    "label": text("Free text the admin gave the key."),
    "apis": prop("The APIs the key may call.", type="array", items={"type": "string", "enum": list(APIS)}),
    "credits": count("Credits left; a paid answer costs 1."),
    "rate": text("Rate limit of the key, e.g. `60/minute`."),
    "admin": prop("Whether the key may call /v1/admin.", type="boolean"),
    "createdAt": instant("When the key was created"),
    "expiresAt": instant("When the key stops working; null for never", nullable=True),
    "revokedAt": instant("When the key was revoked; null while it is not", nullable=True),
}, description="An API key as the admin sees it.")
ITEMS["Release"] = obj({
    "id": prop("Release id, for /v1/admin/releases/{release_id}/activate.", type="integer", minimum=1),
    "release": text("The ISO week of the release, e.g. `2026-W47`.", pattern="^[0-9]{4}-W[0-9]{2}$"),
    "publishedAt": instant("When the publisher released it (its manifest)"),
    "loadedAt": instant("When it was loaded"),
    "synthetic": prop("True for generated demo data, not real procurement records.", type="boolean"),
    "rows": count("Data rows of all its files together."),
    "uploadedBy": text("Who loaded it: `key:<id>` for an upload, otherwise the command that loaded it."),
    "active": prop("Whether it is the release served.", type="boolean"),
    "pruned": prop("Whether retention pruned it: its data was removed and it cannot be served again "
                   "(activating it is a 409).", type="boolean"),
    "prunedAt": instant("When it was pruned; null while it is kept", nullable=True),
}, description="A loaded weekly release.")

SCHEMAS: dict[str, dict[str, Any]] = dict(ITEMS)
SCHEMAS.update(AWARD_SCHEMAS)
SCHEMAS.update(DOWNLOAD_SCHEMAS)
SCHEMAS.update(WATCHLIST_SCHEMAS)
for _name in list(ITEMS):
    if _name != "Company":
        SCHEMAS[f"{_name}Page"] = envelope(_name)

SCHEMAS["PriceIndexPage"]["properties"]["source"] = text("The publisher's series the index is taken from.")
SCHEMAS["PriceIndexPage"]["required"].append("source")
SCHEMAS["PriceIndexPage"]["properties"]["coversThrough"] = prop(
    "The last month the index covers (`YYYY-MM`, December of its last year); amounts of later years have no "
    "value in real terms until the next December is added.", type="string", pattern=r"^\d{4}-12$",
    examples=["2025-12"])
SCHEMAS["PriceIndexPage"]["required"].append("coversThrough")
POSITION = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
POLYGON = {"type": "array", "items": {"type": "array", "items": POSITION, "minItems": 4}}
SCHEMAS["ProvinceBoundaries"] = obj({
    "type": text("GeoJSON object type.", enum=["FeatureCollection"]),
    "attribution": text("The credit to show with a map drawn from these boundaries."),
    "features": prop("One feature per province.", type="array", minItems=81, maxItems=81, items=obj({
        "type": text("GeoJSON object type.", enum=["Feature"]),
        "properties": prop("The province the feature outlines.", obj({
            "plate": plate("Plate code"), "name": text("Official Turkish name.")})),
        "geometry": prop("The province's outline, longitude-latitude pairs in degrees (WGS 84).", obj({
            "type": text("GeoJSON geometry type.", enum=["Polygon", "MultiPolygon"]),
            "coordinates": prop("Rings of [longitude, latitude] positions (Polygon), or a list of such polygons "
                                "(MultiPolygon); exterior rings run clockwise.",
                                oneOf=[POLYGON, {"type": "array", "items": POLYGON}])})),
    }, description="One province's boundary.")),
}, description="The provinces' boundaries as a GeoJSON FeatureCollection.")

def _covered(description: str) -> dict[str, Any]:
    return obj({"count": count("How many."),
                "share": prop("Their share of `awardedLots`, 0 to 1; null when there is none.",
                              type=["number", "null"], minimum=0, maximum=1)}, description=description)


SCHEMAS["Datasets"] = obj({
    "release": prop("The ISO week of the release served; null before the first release is loaded.",
                    type=["string", "null"], pattern="^[0-9]{4}-W[0-9]{2}$"),
    "releaseId": prop("Its id; null before the first release.", type=["integer", "null"], minimum=1),
    "publishedAt": instant("When the publisher released it; null before the first release", nullable=True),
    "loadedAt": instant("When it was loaded; null before the first release", nullable=True),
    "synthetic": prop("True for generated demo data, not real procurement records; null before the first release.",
                      type=["boolean", "null"]),
    "latestYear": prop("The latest tender or purchase year in the release: the last `period` the index endpoints "
                       "accept; null before the first release.", type=["integer", "null"], minimum=2019),
    "completeYears": prop("Per index endpoint (`competition`, `concentration`, `localization`, `direct`), the years "
                          "the source covers completely; other years are partial and should not be compared with "
                          "complete ones. This describes the source (KİK's records), not the release served: a "
                          "release may hold no record of a complete year, which its `coverage` says.", type="object", additionalProperties=obj({
                              "from": prop("First complete year.", type="integer", minimum=2019),
                              "to": prop("Last complete year.", type="integer", minimum=2019)})),
    "coverage": prop("What the release itself holds, as loaded (the source's completeness is `completeYears`); "
                     "null before the first release, and for a release loaded before this was computed.",
                     type=["object", "null"], required=["years", "awardedLots", "withEstimate", "withBids",
                                                        "withContractorProvince"],
                     additionalProperties=False, properties={
        "years": prop("Every year from the first any statistic covers completely (2019) to `latestYear`, and any "
                      "other year with a tender or a direct purchase in the release, oldest first. A year the release "
                      "has no record of has every count at 0 (\"no records\"), whether or not `completeYears` calls "
                      "it complete in the source.", type="array",
                      items=obj({
                          "year": prop("Tender or purchase year.", type="integer", minimum=1900),
                          "tenders": count("Tenders of that year."),
                          "lots": count("Their lots (rows of `awards.csv`), awarded or not."),
                          "awardedLots": count("Their awarded lots (with a contractor)."),
                          "purchases": count("Direct purchases of that year.")})),
        "awardedLots": count("Awarded lots over every year: the ground of the three shares below."),
        "withEstimate": _covered("Awarded lots whose tender gives an estimated cost (`averageDiscount` rests on them)."),
        "withBids": _covered("Awarded lots with a known count of valid bids (the single-bid shares rest on them)."),
        "withContractorProvince": _covered("Awarded lots whose contractor has a known province (local shares, "
                                           "supply flows).")}),
    "datasets": prop("The release's source datasets.", type="array", items=obj({
        "name": text("Dataset name, e.g. `tenders`."), "file": text("Its file in the release."),
        "rows": count("Its number of data rows."),
        "citation": text("The citation its publisher asks users to give."),
        "url": text("Where it came from.")})),
}, description="The release served and its source datasets.")

SCHEMAS["ReleaseUpload"] = obj({
    "id": text("Upload id.", pattern="^[0-9a-f]{16}$"),
    "status": text("`running`, then `loaded` (and served), `refused` (see `problem`) or `failed`.",
                   enum=["running", "loaded", "refused", "failed"]),
    "stage": text("The step the load has reached.",
                  enum=["receiving", "unpacking", "validating", "computing", "writing", "done"]),
    "itemsWritten": count("Statistics items written so far."),
    "statusUrl": text("Path of this upload's status, to poll."),
    "uploadedBy": text("The key that uploaded it, `key:<id>`."),
    "createdAt": instant("When the upload was received"),
    "updatedAt": instant("The last change of status or stage"),
    "finishedAt": instant("When the load ended; null while running", nullable=True),
    "release": prop("The release, once loaded (and served); otherwise null.",
                    oneOf=[{"$ref": "#/components/schemas/Release"}, {"type": "null"}]),
    "problem": prop("Why the release was refused (400, every problem listed) or the load failed; otherwise null.",
                    oneOf=[{"$ref": "#/components/schemas/Problem"}, {"type": "null"}]),
}, description="An uploaded release and the state of its load.")

SCHEMAS["KeyCreated"] = {"allOf": [{"$ref": "#/components/schemas/Key"},
                                   obj({"key": text("The key itself: shown this once, only its hash is kept.")})],
                         "description": "A new key, with the key itself."}

PROBLEM_ERROR = obj({
    "parameter": text("The query parameter, path parameter or body field at fault (`body` for the body as a "
                      "whole)."),
    "message": text("What is wrong with it."),
    "file": text("The release file at fault (an uploaded release)."),
    "row": prop("Its row, counting the header as 1; null for the file as a whole.", type=["integer", "null"],
                minimum=1),
    "column": prop("Its column; null for the row or file as a whole.", type=["string", "null"]),
}, optional=("parameter", "file", "row", "column"),
    description="A bad parameter or field (`parameter`), or a problem of an uploaded release (`file`, `row`, `column`).")

SCHEMAS["Problem"] = obj({
    "type": text("URL naming the kind of problem: the problem base followed by its slug (decisions.md).",
                 format="uri"),
    "title": text("Short summary of the kind of problem."),
    "status": prop("The HTTP status code.", type="integer", minimum=400, maximum=599),
    "detail": text("What went wrong in this request."),
    "errors": prop("Every bad parameter or field, all at once (400).", type="array", minItems=1, items=PROBLEM_ERROR),
    "total": count("How many problems an uploaded release has in all (`errors` lists at most the first ones)."),
    "credits_required": prop("Credits the call costs (402).", type="integer", minimum=1),
    "upgrade_url": text("Where to buy credits or a larger plan (402, 429).", format="uri"),
    "retry_after": prop("Whole seconds to wait before retrying, as in `Retry-After` (429).", type="integer",
                        minimum=1),
    "uploadId": text("The upload still loading, which a new upload waits for (409)."),
    "statusUrl": text("Where the upload still loading reports its stage and outcome (409).", format="uri-reference"),
}, optional=("detail", "errors", "total", "credits_required", "upgrade_url", "retry_after", "uploadId", "statusUrl"),
    description="An RFC 9457 problem document.")


def _problem_with(description: str, required: list[str]) -> dict[str, Any]:
    # No `const` on `status`: client generators cannot merge it with the integer of Problem.
    return {"allOf": [{"$ref": "#/components/schemas/Problem"}, {"type": "object", "required": required}],
            "description": description}


# The problems whose extra fields are always there (decisions.md, "400 body", "402 body", "429 body").
STATUS_PROBLEMS = {
    400: ("InvalidParametersProblem", _problem_with("400: `errors` lists every bad parameter.", ["errors"])),
    402: ("PaymentRequiredProblem", _problem_with("402: the cost and where to buy credits.",
                                                  ["credits_required", "upgrade_url"])),
    429: ("RateLimitedProblem", _problem_with("429: how long to wait, and a larger plan.",
                                              ["retry_after", "upgrade_url"])),
}
for _name, _schema in STATUS_PROBLEMS.values():
    SCHEMAS[_name] = _schema


def problem_schema_name(status: int) -> str:
    """The component describing the problem body of this status."""
    return STATUS_PROBLEMS[status][0] if status in STATUS_PROBLEMS else "Problem"

SCHEMAS["Account"] = obj({
    "keyId": prop("The key's id; quote it to an administrator.", type="integer", minimum=1),
    "prefix": text("The first 10 characters of the key, to tell keys apart (the key itself is never stored)."),
    "apis": prop("The APIs the key may call.", type="array", items={"type": "string", "enum": list(APIS)}),
    "credits": count("Credits left (a paid call costs the `x-credits` of its operation)."),
    "rate": text("The key's rate limit, requests per window, e.g. `60/minute`."),
    "expiresAt": instant("When the key stops working; null when it does not expire", nullable=True),
}, description="The caller's own key.")
