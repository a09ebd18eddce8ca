"""What every game's reader gives the core: the log (the game's own model), the reader's findings
and the text it read; and the bases every game's event model is built on (where an event was
written, and the JSON form's constraints in a shape pydantic reads). Game-free: the core passes
a Parsed on without looking inside the log."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Annotated, Any, Self

from .findings import Finding


@dataclass
class Parsed:
    """The result of reading a log: the log (None if malformed) and the findings."""

    log: Any | None
    findings: list[Finding] = field(default_factory=list)
    malformed: bool = False
    text: str | None = None


def json_type_name(value: Any) -> str:
    """A JSON value's type as JSON names it (object, array, string, number, boolean, null), for
    messages: a client never sees Python's names (dict, list, str)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


# ---- the bases of a game's event model ------------------------------------------------------
# Plain classes, not pydantic models: reading a text log never pays for building validators, and
# nothing here imports pydantic; a game's JSON reader validates straight into its dataclasses.


class Constrained:
    """A constraint on a field (pattern, min_length, ge, ...) and its description.

    Pydantic reads it through ``__get_pydantic_core_schema__`` when the JSON form is
    validated; nothing here imports pydantic.
    """

    __slots__ = ("constraints", "description")

    def __init__(self, description: str | None = None, **constraints: Any) -> None:
        self.constraints = constraints
        self.description = description

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        schema = handler(source)
        schema.update(self.constraints)
        return schema

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        js = handler(core_schema)
        if self.description:
            js["description"] = self.description
        return js


class Tagged:
    """A union told apart by its `type` field (a discriminated union, for pydantic)."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic import Discriminator

        return handler.generate_schema(Annotated[source, Discriminator(self.key)])


class Located:
    """Base of every event model: where it was written, outside the log's fields.

    Positions (text line and column, or a JSON pointer) are plain instance attributes, not
    dataclass fields: never part of the JSON form, never compared, yet every finding can point
    back at what the client sent."""

    __pydantic_config__ = {"extra": "forbid"}  # a JSON event with a key the model lacks is refused
    _line: int | None = None
    _column: int | None = None
    _cols: dict[str, int | list[int]] = {}  # field name -> column (or list of columns, for card lists), where known
    _pointer: str | None = None

    def at(self, line: int | None, column: int | None = None, cols: dict[str, int | list[int]] | None = None) -> Self:
        self._line, self._column = line, column
        if cols:
            self._cols = cols
        return self

    def col(self, name: str, index: int | None = None) -> int | None:
        """The column of a field (of one card of a list), else the line's."""
        c = self._cols.get(name)
        if isinstance(c, list):
            c = c[index] if index is not None and 0 <= index < len(c) else None
        return c or self._column

    def to_dict(self) -> dict[str, Any]:
        """The fields, recursively (positions are not fields)."""
        out: dict[str, Any] = dataclasses.asdict(self)  # type: ignore[call-overload]  # every subclass is a dataclass
        return out
