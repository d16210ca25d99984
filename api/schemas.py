"""JSON Schemas of every response body, referenced from the OpenAPI document."""

from __future__ import annotations

from typing import Any

from store.reference.news import CATEGORY_IDS, SENTIMENT_IDS, SOURCE_IDS

NUM_OR_NULL = {"type": ["number", "null"]}
SHARE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
COUNT = {"type": "integer", "minimum": 0}
SUBJECT = {"type": ["integer", "string", "null"], "description": "plate code, sector id, authority-type id or procedure id; null for overall"}
PERIOD = {"type": "string", "pattern": "^(20[1-9][0-9]|all)$"}


def obj(properties: dict[str, Any], *, optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": [k for k in properties if k not in optional]}


def envelope(item_ref: str) -> dict[str, Any]:
    return obj({
        "items": {"type": "array", "items": {"$ref": f"#/components/schemas/{item_ref}"}},
        "total": COUNT,
        "next_cursor": {"type": ["string", "null"]},
    })


INDEX_BASE = {"dimension": {"type": "string"}, "subject": SUBJECT, "subjectName": {"type": "string"},
              "subjectNameEn": {"type": "string"}, "period": PERIOD}

ITEMS: dict[str, dict[str, Any]] = {
    "CompetitionIndex": obj({**INDEX_BASE, "tenders": COUNT, "singleBidShare": SHARE, "singleBidShareSingleLot": SHARE,
                             "lotsWithBids": COUNT, "averageLots": NUM_OR_NULL, "averageDiscount": NUM_OR_NULL}),
    "ConcentrationIndex": obj({**INDEX_BASE, "contracts": COUNT, "firms": COUNT, "cr1": SHARE, "cr4": SHARE,
                               "cr10": SHARE, "hhi": {"type": ["number", "null"], "minimum": 0, "maximum": 10000}}),
    "DirectProcurementIndex": obj({**INDEX_BASE, "purchases": COUNT, "median": NUM_OR_NULL, "mean": NUM_OR_NULL,
                                   "total": NUM_OR_NULL, "p95": NUM_OR_NULL, "p99": NUM_OR_NULL, "max": NUM_OR_NULL,
                                   "largestShare": SHARE}),
    "LocalizationIndex": obj({**INDEX_BASE, "contracts": COUNT, "localShareCount": SHARE, "localShareValue": SHARE}),
    "ProvinceSector": obj({"province": COUNT, "provinceName": {"type": "string"}, "sector": COUNT,
                           "sectorName": {"type": "string"}, "sectorNameEn": {"type": "string"}, "tenders": COUNT,
                           "amount": NUM_OR_NULL, "localAmount": NUM_OR_NULL, "otherAmount": NUM_OR_NULL}),
    "SupplyFlow": obj({"buyerProvince": COUNT, "buyerProvinceName": {"type": "string"}, "supplierProvince": COUNT,
                       "supplierProvinceName": {"type": "string"}, "contracts": COUNT, "amount": {"type": "number"}}),
    "TopAuthority": obj({"rank": {"type": "integer", "minimum": 1, "maximum": 10}, "authorityId": {"type": "string"},
                         "name": {"type": "string"}, "authorityType": {"type": "string"}, "province": COUNT,
                         "amount": {"type": "number"}, "count": COUNT}),
    "TopContractor": obj({"rank": {"type": "integer", "minimum": 1, "maximum": 10}, "contractorId": {"type": "string"},
                          "name": {"type": "string"}, "province": {"type": ["integer", "null"]},
                          "amount": {"type": "number"}, "count": COUNT}),
    "Sector": obj({"id": COUNT, "nameTr": {"type": "string"}, "nameEn": {"type": "string"},
                   "cpvDivisions": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]{2}$"}}}),
    "AuthorityType": obj({"id": {"type": "string"}, "nameTr": {"type": "string"}, "nameEn": {"type": "string"}}),
    "Procedure": obj({"id": {"type": "string"}, "nameTr": {"type": "string"}, "nameEn": {"type": "string"},
                      "legalBasis": {"type": "string"}}),
    "Province": obj({"plate": {"type": "integer", "minimum": 1, "maximum": 81}, "name": {"type": "string"},
                     "asciiName": {"type": "string", "pattern": "^[a-z ]+$"}, "capital": {"type": "string"},
                     "latitude": {"type": "number", "minimum": 35, "maximum": 43},
                     "longitude": {"type": "number", "minimum": 25, "maximum": 45}}),
    "PriceIndex": obj({"year": {"type": "integer"}, "decemberIndex": {"type": "number", "exclusiveMinimum": 0},
                       "decemberChangePercent": {"type": "number"}}),
    "Company": obj({"name": {"type": "string"}, "ticker": {"type": ["string", "null"]}}),
    "NewsSource": obj({"id": {"type": "string"}, "name": {"type": "string"}, "nameTr": {"type": "string"},
                       "language": {"type": "string", "pattern": "^[a-z]{2}$"}, "homepage": {"type": "string", "format": "uri"},
                       "licence": {"type": "string"}, "articles": COUNT,
                       "latestAt": {"type": ["string", "null"], "format": "date-time"}}),
}

CATEGORIES, SENTIMENTS, SOURCES = list(CATEGORY_IDS), list(SENTIMENT_IDS), list(SOURCE_IDS)

ITEMS["NewsArticle"] = obj({
    "id": {"type": "string", "pattern": "^(fed|ecb|sec|rg)-[0-9a-f]{16}$"},
    "source": {"type": "string", "enum": SOURCES},
    "sourceName": {"type": "string"},
    "url": {"type": "string", "format": "uri"},
    "publishedAt": {"type": "string", "format": "date-time"},
    "language": {"type": "string", "enum": ["en", "tr"]},
    "originalTitle": {"type": "string"},
    "titleTr": {"type": "string"}, "titleEn": {"type": "string"},
    "summaryTr": {"type": "string"}, "summaryEn": {"type": "string"},
    "section": {"type": ["string", "null"]},
    "category": {"type": "string", "enum": CATEGORIES},
    "tags": {"type": "array", "items": {"type": "string"}},
    "companies": {"type": "array", "items": {"$ref": "#/components/schemas/Company"}},
    "countries": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{2}$"}},
    "sentiment": {"type": "string", "enum": SENTIMENTS},
    "importance": {"type": "integer", "minimum": 1, "maximum": 5},
    "confident": {"type": "boolean"},
    "filingItems": {"type": ["array", "null"], "items": {"type": "string"}},
    "model": {"type": "string"},
    "summarizedAt": {"type": "string", "format": "date-time"},
}, optional=("section", "filingItems"))

DATE_TIME_OR_NULL = {"type": ["string", "null"], "format": "date-time"}
ITEMS["Key"] = obj({
    "id": COUNT, "prefix": {"type": "string"}, "label": {"type": "string"},
    "apis": {"type": "array", "items": {"type": "string"}}, "credits": COUNT, "rate": {"type": "string"},
    "admin": {"type": "boolean"}, "createdAt": {"type": "string", "format": "date-time"},
    "expiresAt": DATE_TIME_OR_NULL, "revokedAt": DATE_TIME_OR_NULL,
})
ITEMS["Release"] = obj({
    "id": COUNT, "release": {"type": "string"}, "publishedAt": {"type": "string", "format": "date-time"},
    "loadedAt": {"type": "string", "format": "date-time"}, "synthetic": {"type": "boolean"},
    "rows": COUNT, "uploadedBy": {"type": "string"}, "active": {"type": "boolean"},
})

SCHEMAS: dict[str, dict[str, Any]] = dict(ITEMS)
for _name in list(ITEMS):
    if _name != "Company":
        SCHEMAS[f"{_name}Page"] = envelope(_name)

SCHEMAS["PriceIndexPage"]["properties"]["source"] = {"type": "string"}
SCHEMAS["PriceIndexPage"]["required"].append("source")
SCHEMAS["ProvinceBoundaries"] = obj({
    "type": {"type": "string", "enum": ["FeatureCollection"]},
    "attribution": {"type": "string"},
    "features": {"type": "array", "minItems": 81, "maxItems": 81, "items": obj({
        "type": {"type": "string", "enum": ["Feature"]},
        "properties": obj({"plate": {"type": "integer", "minimum": 1, "maximum": 81}, "name": {"type": "string"}}),
        "geometry": obj({"type": {"type": "string", "enum": ["Polygon", "MultiPolygon"]},
                         "coordinates": {"type": "array"}}),
    })},
})

SCHEMAS["Datasets"] = obj({
    "release": {"type": ["string", "null"]},
    "releaseId": {"type": ["integer", "null"]},
    "publishedAt": {"type": ["string", "null"], "format": "date-time"},
    "loadedAt": {"type": ["string", "null"], "format": "date-time"},
    "synthetic": {"type": ["boolean", "null"]},
    "latestYear": {"type": ["integer", "null"]},
    "completeYears": {"type": "object", "additionalProperties": obj({"from": {"type": "integer"},
                                                                     "to": {"type": "integer"}})},
    "datasets": {"type": "array", "items": obj({"name": {"type": "string"}, "file": {"type": "string"},
                                               "rows": COUNT, "citation": {"type": "string"},
                                               "url": {"type": "string"}})},
})

SCHEMAS["ReleaseUpload"] = obj({
    "id": {"type": "string"},
    "status": {"type": "string", "enum": ["running", "loaded", "refused", "failed"]},
    "stage": {"type": "string", "enum": ["receiving", "unpacking", "validating", "computing", "writing", "done"]},
    "itemsWritten": COUNT, "statusUrl": {"type": "string", "description": "Path of this upload's status, to poll"},
    "uploadedBy": {"type": "string"}, "createdAt": {"type": "string", "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"}, "finishedAt": DATE_TIME_OR_NULL,
    "release": {"oneOf": [{"$ref": "#/components/schemas/Release"}, {"type": "null"}],
                "description": "The release, once loaded (and served)"},
    "problem": {"oneOf": [{"$ref": "#/components/schemas/Problem"}, {"type": "null"}],
                "description": "Why the release was refused (400, every problem listed) or the load failed"},
})

SCHEMAS["KeyCreated"] = {"allOf": [{"$ref": "#/components/schemas/Key"},
                                   obj({"key": {"type": "string", "description": "Shown once; only its hash is kept."}})]}

SCHEMAS["Problem"] = {
    "type": "object",
    "required": ["type", "title", "status"],
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {
            "type": "object", "required": ["message"],
            "description": "A bad parameter or field (`parameter`), or a problem of an uploaded release "
                           "(`file`, `row` counting the header as 1, `column`).",
            "properties": {"parameter": {"type": "string"}, "message": {"type": "string"},
                           "file": {"type": "string"}, "row": {"type": ["integer", "null"]},
                           "column": {"type": ["string", "null"]}}}},
        "total": {"type": "integer", "description": "How many problems an uploaded release has in all."},
        "credits_required": {"type": "integer"},
        "upgrade_url": {"type": "string"},
        "retry_after": {"type": "integer", "minimum": 1},
    },
}

# Runtime additions (issue 12): the province's name in the rankings, the caller's account, health.
for _ranking, _null in (("TopAuthority", False), ("TopContractor", True)):
    SCHEMAS[_ranking]["properties"]["provinceName"] = {
        "type": ["string", "null"] if _null else "string",
        "description": "Official Turkish name of `province` (no unit)" + ("; null when it is null." if _null else ".")}
    SCHEMAS[_ranking]["required"].append("provinceName")
SCHEMAS["Account"] = obj({
    "keyId": {"type": "integer", "minimum": 1, "description": "The key's id (no unit); quote it to an administrator."},
    "prefix": {"type": "string", "description": "The first 10 characters of the key, to tell keys apart (the key "
               "itself is never stored)."},
    "apis": {"type": "array", "items": {"type": "string", "enum": ["finance-news", "public-procurement"]},
             "description": "The APIs the key may call."},
    "credits": {"type": "integer", "minimum": 0, "description": "Credits left, in credits (a paid call costs "
                "the `x-credits` of its operation)."},
    "rate": {"type": "string", "description": "The key's rate limit, requests per window, e.g. `60/minute`."},
    "expiresAt": {"type": ["string", "null"], "format": "date-time",
                  "description": "When the key stops working, UTC; null when it does not expire."},
})
