"""The answers of the awards, parties, benchmarks and red-flag endpoints (docs/awards-and-flags.md
holds every definition)."""

from __future__ import annotations

from typing import Any

from api.description.schema_types import (
    EMPTY_NULL,
    amount,
    count,
    envelope,
    obj,
    plate,
    prop,
    sector_id,
    share,
    text,
)
from store.reference.flags import FLAG_BITS
from store.reference.lists import authority_types, procedures

FEW = "fewer than 5 cases make a figure unsteady: read it with its count"
PERIOD = text("The year the figures cover, or `all` for every year pooled.", pattern="^(20[1-9][0-9]|all)$")
FLAG_IDS = list(FLAG_BITS)
PARTY_ID = text("The party's id in the release.")
AUTHORITY_TYPE = text("The authority's type (/authority-types).", enum=list(authority_types()))
DISCOUNT = ("1 − contract value / estimated cost: a fraction, at most 1, negative when the contract exceeded "
            "the estimate")


def _party(kind: str, *, typed: bool) -> dict[str, Any]:
    fields = {"id": PARTY_ID, "name": text(f"The {kind}'s name as recorded.")}
    if typed:
        fields["type"] = AUTHORITY_TYPE
    place = "the authority's province" if kind == "authority" else "the head office's province; null when unknown"
    fields["province"] = plate(f"Province: {place}", nullable=kind != "authority")
    return obj(fields, description=f"The {kind} of the award.")


def _rate(what: str, denominator: str) -> dict[str, Any]:
    return share(f"{what}; its denominator is `{denominator}` ({FEW})")


def _breakdown(key: str, key_schema: dict[str, Any], description: str) -> dict[str, Any]:
    return prop(description, type="array", items=obj({
        key: key_schema, "contracts": count("Awarded lots."), "value": amount("Their contract value", nullable=False)}))


def _counterparts(kind: str, share_of: str) -> dict[str, Any]:
    fields = {"id": PARTY_ID, "name": text(f"The {kind}'s name.")}
    if kind == "authority":
        fields["type"] = AUTHORITY_TYPE
    fields.update(province=plate("Its province", nullable=True), contracts=count("Awarded lots between the two."),
                  value=amount("Their contract value", nullable=False),
                  share=share(f"`value` as a share of {share_of}"))
    return prop(f"The ten {kind.replace('authority', 'authorities').replace('contractor', 'contractors')} with the "
                "most value, largest first, ties by id.", type="array", items=obj(fields))


def _profile(kind: str) -> dict[str, Any]:
    authority = kind == "authority"
    fields: dict[str, Any] = {"id": PARTY_ID, "name": text("The name as recorded.")}
    if authority:
        fields["type"] = AUTHORITY_TYPE
    fields.update(province=plate("The authority's province" if authority else
                                 "The head office's province; null when unknown", nullable=not authority),
                  period=PERIOD, contracts=count("Awarded lots."), value=amount("Their contract value"))
    if authority:
        fields["tenders"] = count("Tenders of the authority.")
    fields.update(
        singleBidShare=_rate("Among its awarded lots with a known number of valid bids, the share with one bid",
                             "lotsWithBids"),
        lotsWithBids=count("Awarded lots with a known number of bids."),
        averageDiscount=prop(f"Mean tender discount ({DISCOUNT}) over "
                             + ("its tenders with an estimate above 0 whose every lot was awarded"
                                if authority else "its awarded lots with a defined `discount`")
                             + f"; its count is `discountTenders` ({FEW}); {EMPTY_NULL}.",
                             type=["number", "null"], maximum=1),
        discountTenders=count("The count behind `averageDiscount`."),
        localShare=_rate("Share of its awarded lots whose contractor is from the authority's province, over lots "
                         "whose contractor has a known province", "localShareContracts"),
        localShareContracts=count("The denominator of `localShare`."))
    if authority:
        fields["hhi"] = prop(f"Herfindahl-Hirschman index of its suppliers' value shares, 0 to 10,000; {EMPTY_NULL}.",
                             type=["number", "null"], minimum=0, maximum=10000)
        fields["topContractors"] = _counterparts("contractor", "the authority's awarded value")
    else:
        fields["topAuthorities"] = _counterparts("authority", "the contractor's value won")
    fields.update(
        sectors=_breakdown("sector", sector_id("Sector"), "Its awarded lots by sector, largest value first."),
        provinces=_breakdown("province", plate("Province; null for contractors whose province is unknown",
                                               nullable=True), "Its awarded lots by the province of the "
                             + ("contractor (where known)" if authority else "buying authority")
                             + ", largest value first."),
        flags=prop("Awarded lots carrying each red flag (/red-flags).", type="array",
                   items=obj({"flag": text("Red-flag id.", enum=FLAG_IDS), "contracts": count("Flagged lots.")})),
        years=prop("Contracts and value year by year, every year the party has records of.", type="array",
                   items=obj({"period": PERIOD, "contracts": count("Awarded lots."),
                              "value": amount("Their contract value"),
                              **({"tenders": count("Tenders.")} if authority else {})})))
    return obj(fields, description=f"One {kind}'s profile for a period.")


def _match(kind: str) -> dict[str, Any]:
    authority = kind == "authority"
    fields: dict[str, Any] = {"id": PARTY_ID, "name": text("The name as recorded.")}
    if authority:
        fields["type"] = AUTHORITY_TYPE
    fields.update(province=plate("Province" if authority else "Head-office province; null when unknown",
                                 nullable=not authority),
                  contracts=count("Awarded lots, every year."), value=amount("Their contract value"))
    if authority:
        fields["tenders"] = count("Tenders, every year.")
    fields["match"] = text("How the name matched, best first: the whole name, its beginning, a run of its words, "
                           "or every word of the query at the start of a word.",
                           enum=["exact", "prefix", "phrase", "words"])
    return obj(fields, description=f"An {kind} whose name matches the query." if authority
               else f"A {kind} whose name matches the query.")


AWARD_ITEMS: dict[str, dict[str, Any]] = {
    "Award": obj({
        "tenderId": text("The tender's İKN (e.g. `2024/123456`): search it on EKAP to find the notice."),
        "tenderDate": text("The tender's date.", format="date"),
        "tenderName": text("The tender's name (İhale Adı), where the release has it."),
        "lot": prop("The lot's number, 1 to `lots`.", type="integer", minimum=1),
        "lots": prop("The tender's number of lots.", type="integer", minimum=1),
        "procedure": text("Procedure id (/procedures).", enum=list(procedures())),
        "sector": sector_id("The tender's sector"),
        "authority": _party("authority", typed=True),
        "contractor": _party("contractor", typed=False),
        "estimatedCost": amount("The tender's estimated cost where it is the lot's (a tender of one lot); null for "
                                "a tender of several lots or without an estimate", nullable=True),
        "contractValue": amount("The contract value", nullable=False),
        "bids": prop("Valid bids received; null when unknown.", type=["integer", "null"], minimum=0),
        "discount": prop(f"{DISCOUNT}; null where `estimatedCost` is null or 0.", type=["number", "null"], maximum=1),
        "flags": prop("The red flags the award carries (/red-flags), by id.", type="array",
                      items={"type": "string", "enum": FLAG_IDS}),
    }, optional=("tenderName",), description="One awarded lot (a contract)."),
    "AuthorityMatch": _match("authority"),
    "ContractorMatch": _match("contractor"),
    "DiscountBenchmark": obj({
        "sector": prop("Sector id; null when pooled.", type=["integer", "null"]),
        "procedure": prop("Procedure id; null when pooled.", type=["string", "null"]),
        "province": prop("The authorities' plate code; null when pooled.", type=["integer", "null"]),
        "period": PERIOD,
        "n": count("Tenders in the group: with an estimate above 0 and every lot awarded."),
        **{name: prop(f"{label} of the tender discount ({DISCOUNT}), linear interpolation; null when `n` < 5.",
                      type=["number", "null"], maximum=1)
           for name, label in (("p10", "10th percentile"), ("p25", "25th percentile"), ("median", "Median"),
                               ("p75", "75th percentile"), ("p90", "90th percentile"))},
        "mean": prop("Mean of the tender discount; null when `n` < 5.", type=["number", "null"], maximum=1),
    }, description="The distribution of the tender discount in one group."),
    "RedFlag": obj({
        "id": text("The flag's id, used in `flag` filters.", enum=FLAG_IDS),
        "nameTr": text("Turkish name."), "nameEn": text("English name."),
        "definitionTr": text("The rule, in Turkish."), "definitionEn": text("The rule, in English."),
        "anchor": text("Where the rule comes from (Cardinal, ProACT, the law)."),
        "threshold": prop("The rule's threshold where it has one (a ratio); null otherwise.",
                          type=["number", "null"]),
    }, description="A red flag an award can carry."),
}

AWARD_SCHEMAS: dict[str, dict[str, Any]] = {
    **AWARD_ITEMS,
    **{f"{name}Page": envelope(name) for name in AWARD_ITEMS},
    "AuthorityProfile": _profile("authority"),
    "ContractorProfile": _profile("contractor"),
}
