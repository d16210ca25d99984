"""Hooks of the fuzz run in .ci/run (loaded through SCHEMATHESIS_HOOKS).

The run calls every operation with one admin key. A generated key_id that happens to be that key's
own id would revoke it, and every later request would then be a 401: the operations fuzzed after
that point would never reach their handlers. So a revocation aimed at the run's own key is aimed at
a key kept for it instead; every other generated key_id is sent as generated.
"""

import os

import schemathesis

OWN_KEY_ID = int(os.environ["GOSTERGE_FUZZ_KEY_ID"])
SPARE_KEY_ID = int(os.environ["GOSTERGE_FUZZ_SPARE_KEY_ID"])


def names_own_key(value) -> bool:
    """Whether the server would read the value as the run's own key id ("3", "03", 3 …)."""
    try:
        return int(str(value)) == OWN_KEY_ID
    except ValueError:
        return False


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.label != "POST /v1/admin/keys/{key_id}/revoke":
        return
    if names_own_key((case.path_parameters or {}).get("key_id")):
        case.path_parameters["key_id"] = SPARE_KEY_ID


@schemathesis.hook
def map_case(context, case):
    """A valid cursor is one the server signed for the same filters: no schema can describe it, so the
    cases generated as valid start from the first page. Invalid cases still send generated cursors,
    and each must be refused with 400."""
    if case.meta is not None and case.meta.generation.mode.is_positive and case.query:
        case.query.pop("cursor", None)
    return case
