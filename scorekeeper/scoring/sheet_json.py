"""Reading a deal sheet's JSON: the text decoded strictly, and the errors a bad value gets."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from scorekeeper.scoring.errors import ScoringError


def show(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def not_names(field: str, value: object) -> ScoringError:
    return ScoringError.coded(
        field, "not_names", "%(value)s is not a list of names", value=show(value)
    )


def not_object(field: str, value: object) -> ScoringError:
    return ScoringError.coded(
        field, "not_object", "%(value)s is not a JSON object", value=show(value)
    )


def twice(field: str, name: str) -> ScoringError:
    return ScoringError.coded(field, "listed_twice", "%(name)s is listed twice", name=name)


def not_a_player(field: str, name: object) -> ScoringError:
    return ScoringError.coded(
        field, "not_a_player", "%(name)s is not one of the players", name=name
    )


def json_error(error: json.JSONDecodeError, field: str = "sheet") -> ScoringError:
    """Text that is not JSON, said with its line and column (no Python wording)."""
    return ScoringError.coded(
        field,
        "not_json",
        "not valid JSON: line %(line)s, column %(column)s",
        line=error.lineno,
        column=error.colno,
    )


def check_keys(data: dict[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise ScoringError.coded(
                str(key),
                "unknown_key",
                "not a key of %(where)s (expected %(keys)s)",
                where=where,
                keys=", ".join(allowed),
            )


def required(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise ScoringError.coded(key, "missing", "missing")
    return data[key]


def as_whole(value: object, field: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError.coded(
            field, "not_whole", "%(value)s is not a whole number", value=show(value)
        )
    return value


def as_text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise ScoringError.coded(field, "not_text", "%(value)s is not a string", value=show(value))
    return value


def optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return None if value is None else as_text(value, key)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ScoringError.coded(
                "sheet",
                "json_key_twice",
                "not valid JSON: the key %(key)s appears twice",
                key=show(key),
            )
        data[key] = value
    return data


def _no_constants(name: str) -> Any:
    raise ScoringError.coded(
        "sheet", "json_constant", "not valid JSON: %(value)s is not a number", value=name
    )


def load_json(source: str | bytes, field: str = "sheet") -> Any:
    """The decoded JSON of a sheet's or an archive's text (UTF-8, a byte order mark allowed),
    its refusals naming ``field``."""
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError:
            raise ScoringError.coded(field, "not_utf8", "not valid UTF-8 text") from None
    if not isinstance(source, str):
        raise ScoringError(field, f"{source!r} is not text")
    source = source.removeprefix("\ufeff")
    try:
        return json.loads(source, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except ScoringError as error:  # a key twice, NaN: said by the hooks
        raise ScoringError(field, error.message, code=error.code, params=error.params) from None
    except RecursionError:
        raise ScoringError.coded(field, "json_deep", "not valid JSON: nested too deeply") from None
    except json.JSONDecodeError as error:
        raise json_error(error, field) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise ScoringError.coded(
            field,
            "json_number",
            "not valid JSON: a number has more than %(digits)s digits",
            digits=sys.get_int_max_str_digits(),
        ) from None
