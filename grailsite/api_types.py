"""What every router of the JSON API shares: bounded ids and counts, text without a NUL,
free-form JSON as the parser takes it, the strict base of request bodies and the one shape
of a refusal. The games, decks, push and recap routers and each game's own router use these,
so a client built from the OpenAPI document finds the same rules everywhere."""
from __future__ import annotations

from typing import Annotated, Union

from ninja import Field, Path, Schema
from pydantic import ConfigDict, field_validator
from typing_extensions import TypeAliasType

from grailsite.api_auth import MaybeViewer

PUBLIC = MaybeViewer()

# Bounds shared by several operations. Ids stay inside PostgreSQL's bigint; counts and
# versions inside a 32-bit integer, far beyond any real game.
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]
Count = Annotated[int, Field(ge=0, le=2**31 - 1)]
# The body parser refuses a NUL anywhere (PostgreSQL cannot store one, grailsite/api_auth.py):
# every string of the document says so, so a client built from it never sends one.
NO_NUL = r"^[^\x00]*$"
Text = Annotated[str, Field(pattern=NO_NUL)]
Username = Annotated[str, Field(min_length=1, max_length=150, pattern=NO_NUL)]
# Free-form JSON (moves, options, choices) as the parser takes it: any depth (the parser
# stops at 16 levels and 5,000 values), every string and key without a NUL.
NO_NUL_KEYS = {"propertyNames": {"pattern": NO_NUL}}
JsonValue = TypeAliasType("JsonValue", Union[
    Text, int, float, bool, None, list["JsonValue"],
    Annotated[dict[str, "JsonValue"], Field(json_schema_extra=NO_NUL_KEYS)]])
JsonObject = Annotated[dict[str, JsonValue], Field(max_length=64, json_schema_extra=NO_NUL_KEYS)]
# The documented path names the match {id}; the views call it match_id.
MatchId = Annotated[int, Path(alias="id", ge=1, le=2**63 - 1)]


def other_keys(schema: dict) -> None:
    # Keys a body does not name are taken and ignored (see In), but pass the parser first.
    schema["propertyNames"] = {"pattern": NO_NUL}


class In(Schema):
    """Request bodies are strict: a quantity sent as "3" or 3.5 is refused, not guessed at.
    3.0 is taken as 3: in the document's own terms (JSON Schema) it is the integer 3, and a
    client built from the document may well send it so."""
    model_config = ConfigDict(strict=True, extra="allow", json_schema_extra=other_keys)
    # Keys a body does not name are ignored, as before, but the document says what they may
    # hold (what the parser lets through), so a client built from it and the server agree.
    __pydantic_extra__: dict[str, JsonValue]

    @field_validator("*", mode="before")
    @classmethod
    def _whole_numbers(cls, value):
        return _whole(value)


def _whole(value):
    """``value`` with every float that is a whole number an int (bounds are checked after)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


class ErrorDetail(Schema):
    code: str
    message: str


class ErrorOut(Schema):
    error: ErrorDetail


ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut}
