from __future__ import annotations

import pickle
from decimal import Decimal

import pytest

from scorekeeper.scoring.duplicate import DuplicateError
from scorekeeper.scoring.errors import ScoringError, to_points


def test_an_error_without_a_deal_reads_field_then_message():
    error = ScoringError("points", "93 is more than 91")
    assert str(error) == "points: 93 is more than 91"
    assert (error.field, error.message, error.deal) == ("points", "93 is more than 91", None)


def test_an_error_with_a_deal_names_the_deal_first():
    assert (
        str(ScoringError("points", "93 is more than 91", 3)) == "deal 3: points: 93 is more than 91"
    )


def test_with_deal_returns_a_copy_naming_the_deal():
    error = ScoringError("taker", "Zoe is not seated")
    copy = error.with_deal(2)
    assert str(copy) == "deal 2: taker: Zoe is not seated"
    assert error.deal is None
    assert isinstance(copy, ScoringError)


def test_a_coded_error_survives_a_pickle_with_its_kind_code_and_params():
    error = DuplicateError.coded("rounds", "many", "%(n)s rounds", deal=4, n=9)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is DuplicateError and str(back) == str(error)
    assert (back.field, back.deal, back.code, back.params) == ("rounds", 4, "many", {"n": 9})


def test_a_scoring_error_is_a_value_error():
    assert issubclass(ScoringError, ValueError)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (45, Decimal("45.0")),
        (45.5, Decimal("45.5")),
        ("45.5", Decimal("45.5")),
        ("45,5", Decimal("45.5")),
        (Decimal("91"), Decimal("91.0")),
        (0, Decimal("0.0")),
    ],
)
def test_to_points_gives_a_decimal_with_one_decimal_place(given, expected):
    points = to_points(given)
    assert points == expected
    assert points.as_tuple().exponent == -1


@pytest.mark.parametrize(
    "given",
    [True, False, None, "abc", "", [45], float("nan"), float("inf"), "NaN", 45.3, "45.25", 1e30],
)
def test_to_points_refuses_what_is_not_a_half_point(given):
    with pytest.raises(ScoringError) as caught:
        to_points(given)
    assert caught.value.field == "points"


def test_to_points_names_the_field_it_is_given():
    with pytest.raises(ScoringError) as caught:
        to_points("x", field="attack")
    assert caught.value.field == "attack"
