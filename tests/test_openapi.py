"""The served OpenAPI document is valid and lists every route the app has."""

from __future__ import annotations

import re

from openapi_spec_validator import validate


def test_document_validates_and_covers_every_route(app):
    doc = app.test_client().get("/v1/openapi.json").get_json()
    validate(doc)
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method) in documented, (path, method)


def test_every_parameter_rule_is_documented(app):
    from api.endpoint import REGISTRY

    doc = app.test_client().get("/v1/openapi.json").get_json()
    for spec in REGISTRY:
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", spec.path)
        operation = doc["paths"][path][spec.method.lower()]
        names = {p["name"] for p in operation["parameters"]}
        assert {p.name for p in spec.params} <= names
        assert operation["x-credits"] == spec.cost
