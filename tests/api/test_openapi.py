"""The served OpenAPI document is valid and lists every route the app has."""

from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate


def test_document_validates_and_covers_every_route(app):
    doc = app.test_client().get("/v1/openapi.json").get_json()
    validate(doc)
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    from api.routes.meta import UNDOCUMENTED_PATHS

    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.rule in UNDOCUMENTED_PATHS:
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method) in documented, (path, method)


def test_every_parameter_rule_is_documented(app):
    from api.operations import app_operations

    doc = app.test_client().get("/v1/openapi.json").get_json()
    for spec in app_operations(app):
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", spec.path)
        operation = doc["paths"][path][spec.method.lower()]
        names = {p["name"] for p in operation.get("parameters", [])}
        assert {p.name for p in spec.params} <= names
        if not spec.public:
            if spec.cost_rule:  # a cost that depends on what is asked for is stated, not a number
                assert operation["x-credits-rule"] == spec.cost_rule and spec.cost_rule in operation["description"]
            else:
                assert operation["x-credits"] == spec.cost


def _document(app) -> dict:  # noqa: ANN001
    return app.test_client().get("/v1/openapi.json").get_json()


def _properties(node, where: str = "#"):  # noqa: ANN001, ANN202
    """Every (location, property name, property schema) anywhere in the document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict) and node.get("type") in ("object", None):
                for name, schema in value.items():
                    yield f"{where}/properties/{name}", name, schema
                    yield from _properties(schema, f"{where}/properties/{name}")
            else:
                yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{where}/{i}")


def test_openapi_every_schema_property_has_a_description(app):
    missing = [where for where, _, schema in _properties(_document(app)) if not schema.get("description")]
    assert missing == []


@pytest.mark.parametrize(("schema", "field", "low", "high"), [
    ("CompetitionIndex", "singleBidShare", 0, 1), ("ConcentrationIndex", "cr4", 0, 1),
    ("ConcentrationIndex", "hhi", 0, 10000), ("LocalizationIndex", "localShareValue", 0, 1),
    ("DirectProcurementIndex", "largestShare", 0, 1), ("DirectProcurementIndex", "purchases", 0, None),
    ("ProvinceSector", "amount", 0, None), ("SupplyFlow", "contracts", 0, None),
])
def test_openapi_ranges_and_units_are_stated(app, schema, field, low, high):
    prop = _document(app)["components"]["schemas"][schema]["properties"][field]
    assert prop.get("minimum") == low and prop.get("maximum") == high
    if "amount" in field.lower() or schema == "DirectProcurementIndex" and field in ("median", "total"):
        assert "nominal Turkish lira (TRY" in prop["description"]


def test_openapi_amounts_say_nominal_try(app):
    schemas = _document(app)["components"]["schemas"]
    amounts = [(name, field) for name in ("ProvinceSector", "SupplyFlow", "TopAuthority", "TopContractor")
               for field in schemas[name]["properties"] if "amount" in field.lower()]
    amounts += [("DirectProcurementIndex", f) for f in ("median", "mean", "total", "p95", "p99", "max")]
    assert len(amounts) == 12
    for name, field in amounts:
        assert "nominal Turkish lira (TRY" in schemas[name]["properties"][field]["description"], (name, field)


def test_openapi_info_tags_contact_and_licence(app):
    doc = _document(app)
    assert doc["info"]["title"] == "Gösterge API"  # the product's name as written; generators get a package name
    assert doc["info"]["contact"]["url"] and doc["info"]["license"]["url"]
    described = {t["name"] for t in doc["tags"] if t.get("description")}
    used = {tag for ops in doc["paths"].values() for op in ops.values() for tag in op.get("tags", [])}
    assert used <= described


@pytest.mark.parametrize(("status", "fields"), [("400", {"errors"}), ("402", {"credits_required", "upgrade_url"}),
                                                ("429", {"retry_after", "upgrade_url"})])
def test_openapi_problem_of_each_status_requires_its_fields(app, status, fields):
    doc = _document(app)
    refs = {op["responses"][status]["content"]["application/problem+json"]["schema"]["$ref"]
            for ops in doc["paths"].values() for op in ops.values()
            if "application/problem+json" in op["responses"].get(status, {}).get("content", {})}
    assert len(refs) == 1
    schema = doc["components"]["schemas"][refs.pop().rsplit("/", 1)[1]]
    required = {field for part in schema["allOf"] for field in part.get("required", [])}
    assert fields <= required


def _examples(doc):  # noqa: ANN001, ANN202
    """(where, example value, schema) of every example in the document."""
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                for media, content in response.get("content", {}).items():
                    for name, example in content.get("examples", {}).items():
                        yield f"{method.upper()} {path} {status} {media} {name}", example["value"], content["schema"]


def test_openapi_examples_fit_their_schemas(app):
    from jsonschema import Draft202012Validator, FormatChecker

    doc = _document(app)
    checked = 0
    for where, value, schema in _examples(doc):
        validator = Draft202012Validator({**schema, "components": doc["components"]}, format_checker=FormatChecker())
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)]
        assert errors == [], where
        checked += 1
    assert checked > 40


def test_openapi_every_answer_and_problem_has_an_example(app):
    """An operation added or changed since docs/openapi_examples.py last ran has none: run it again."""
    doc = _document(app)
    missing = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                for media, content in response.get("content", {}).items():
                    schema = content["schema"]
                    says_what = "$ref" in schema or "properties" in schema
                    if media.endswith("json") and says_what and not content.get("examples"):
                        missing.append(f"{method.upper()} {path} {status} {media}")
    assert missing == []


def test_openapi_problem_examples_name_this_servers_problem_base(make_app):
    doc = _document(make_app(PROBLEM_BASE="https://errors.test/p"))
    example = doc["paths"]["/v1/finance-news/articles"]["get"]["responses"]["401"]["content"][
        "application/problem+json"]["examples"]["unauthorized"]["value"]
    assert example["type"] == "https://errors.test/p/unauthorized"


def _parameter_schema(doc, path: str, name: str) -> dict:  # noqa: ANN001
    operation = doc["paths"][path]["get"]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)


def test_openapi_period_lists_the_years_of_the_release_served(app, demo_release):
    from loaders.procurement.load import load_release

    path = "/v1/public-procurement/competition-indices"
    assert _parameter_schema(_document(app), path, "period")["enum"] == ["2019", "all"]
    from store.db import session_scope
    from store.releases import get_active_release

    load_release(demo_release, app.extensions["gosterge.sessions"])
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        latest = get_active_release(session).latest_year
    years = _parameter_schema(_document(app), path, "period")["enum"]
    assert years == [str(y) for y in range(2019, latest + 1)] + ["all"]


def test_openapi_listed_values_are_all_accepted(loaded_app, auth):
    """What positive_data_acceptance in .ci/run relies on: every value the schema lists is answered 200,
    and the first year after the release is not listed (it is a 400)."""
    from api.routes.release_params import PROVINCE_VALUES, SECTOR_VALUES

    client = loaded_app.test_client()
    doc = _document(loaded_app)
    periods = _parameter_schema(doc, "/v1/public-procurement/competition-indices", "period")["enum"]
    cases = [("/v1/public-procurement/province-sectors", "province", PROVINCE_VALUES),
             ("/v1/public-procurement/province-sectors", "sector", SECTOR_VALUES),
             ("/v1/public-procurement/supply-flows", "supplierProvince", PROVINCE_VALUES),
             ("/v1/public-procurement/competition-indices", "period", periods)]
    for path, name, values in cases:
        schema = _parameter_schema(doc, path, name)
        if "pattern" in schema:  # the pattern's alternatives are exactly the listed values
            assert all(re.fullmatch(schema["pattern"], v) for v in values)
            assert not any(re.fullmatch(schema["pattern"], v) for v in ("0", "82", "Ankarax", "x"))
        for value in values:
            response = client.get(path, query_string={name: value, "limit": 1}, headers=auth)
            assert response.status_code == 200, (path, name, value, response.get_json())
    after = str(int(periods[-2]) + 1)
    assert after not in periods
    assert client.get(f"/v1/public-procurement/competition-indices?period={after}", headers=auth).status_code == 400


@pytest.mark.parametrize(("path", "name", "good", "bad"), [
    ("/v1/finance-news/articles", "source", "fed,resmi-gazete", "fed,,ecb"),
    ("/v1/finance-news/articles", "country", "US,tr", "USA"),
    ("/v1/finance-news/articles", "cursor", "abc_-9", "abc="),
])
def test_openapi_patterns_describe_the_documented_forms(app, path, name, good, bad):
    pattern = re.compile(_parameter_schema(_document(app), path, name)["pattern"])
    assert pattern.search(good) and not pattern.search(bad)


def test_openapi_document_is_served_while_the_store_is_away(tmp_path):
    from api import create_app

    # No schema in the database: reading the release served fails, the document does not.
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'empty.db'}"})
    response = app.test_client().get("/v1/openapi.json")
    assert response.status_code == 200
    period = _parameter_schema(response.get_json(), "/v1/public-procurement/competition-indices", "period")
    assert period["pattern"] == "^([0-9]{4}|all)$"
