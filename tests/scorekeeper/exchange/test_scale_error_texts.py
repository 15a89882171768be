"""The evening points scale's errors have texts in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from scorekeeper.exchange.error_text import MESSAGES, error_text
from scorekeeper.scoring.club_figures import check_scale
from scorekeeper.scoring.errors import ScoringError


@pytest.mark.parametrize(
    ("scale", "code"),
    [
        ("10,6", "not_scale"),
        ((), "scale_length"),
        ((5, -1), "scale_whole"),
        ((3, 5), "scale_rising"),
    ],
)
def test_each_refused_scale_has_a_known_code_and_its_english_text(scale, code):
    with pytest.raises(ScoringError) as caught:
        check_scale(scale)
    assert caught.value.code == code
    assert code in MESSAGES
    with translation.override("en"):
        assert error_text(caught.value).startswith("points by place: ")
