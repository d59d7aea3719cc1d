"""Validating JSON against the shipped schemas (durak.schemas) with a real JSON Schema
validator: jsonschema, with every shipped schema in its registry so ``$ref`` between them
resolve. The library never imports this; only the tests do."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema
from referencing import Registry, Resource

from durak.schemas import NAMES, all_schemas, schema, schema_id


@cache
def registry() -> Registry[Any]:
    return Registry().with_resources(
        (uri, Resource.from_contents(contents)) for uri, contents in all_schemas().items()
    )


@cache
def validator(name: str, definition: str | None = None) -> jsonschema.Draft202012Validator:
    """A validator of the schema ``name`` (or of its ``$defs/definition``)."""
    target: dict[str, Any] = schema(name)
    if definition is not None:
        target = {"$ref": f"{schema_id(name)}#/$defs/{definition}"}
    jsonschema.Draft202012Validator.check_schema(schema(name))
    return jsonschema.Draft202012Validator(target, registry=registry())


def check(name: str, data: Any, definition: str | None = None) -> None:
    """Fail with the validator's best error if ``data`` is not valid against the schema."""
    error = jsonschema.exceptions.best_match(validator(name, definition).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise AssertionError(f"not a valid {name} ({definition or 'whole'}) at {where!r}: "
                             f"{error.message[:300]}")


def is_valid(name: str, data: Any, definition: str | None = None) -> bool:
    return validator(name, definition).is_valid(data)


__all__ = ["NAMES", "check", "is_valid", "registry", "validator"]
