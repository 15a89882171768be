"""``server.parsing``: ids and counts from requests, and the converters built on them."""

from __future__ import annotations

import pytest
from django.test import Client

from scorekeeper.server.parsing import MAX_ID, IdConverter, parse_count, parse_id


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0", 0), ("7", 7), ("007", 7), (str(MAX_ID), MAX_ID), ("9" * 19, None)],
)
def test_parse_count_reads_ascii_digits_up_to_the_largest_id(text: str, expected) -> None:
    assert parse_count(text) == expected


@pytest.mark.parametrize(
    "text", ["", " 7", "7 ", "-1", "+1", "1.0", "1e3", "²", "٣", "7\x00", "9" * 20, "0x10"]
)
def test_parse_count_refuses_anything_but_plain_digits(text: str) -> None:
    assert parse_count(text) is None


@pytest.mark.parametrize("value", [None, 7, 7.0, b"7", ["7"]])
def test_parse_count_refuses_values_that_are_not_text(value: object) -> None:
    assert parse_count(value) is None


def test_parse_count_honours_its_maximum() -> None:
    assert parse_count("21", maximum=21) == 21
    assert parse_count("22", maximum=21) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1", 1), (str(MAX_ID), MAX_ID), ("0", None), ("000", None), (str(MAX_ID + 1), None)],
)
def test_parse_id_takes_1_to_the_largest_id(text: str, expected) -> None:
    assert parse_id(text) == expected


def test_the_id_converter_refuses_zero_and_too_big_numbers() -> None:
    converter = IdConverter()
    assert converter.to_python("42") == 42
    for text in ("0", str(MAX_ID + 1)):
        with pytest.raises(ValueError):
            converter.to_python(text)


@pytest.mark.django_db
def test_a_path_holding_nul_is_answered_400_before_any_view() -> None:
    response = Client().get("/clubs/1\x00/")
    assert response.status_code == 400
