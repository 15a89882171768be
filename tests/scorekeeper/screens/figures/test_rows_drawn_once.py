"""The figures pages draw again, after a save, only the rows whose figures moved: a
``{% memo %}`` block is kept per language and the values it names."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from scorekeeper.templatetags import drawn_once


@dataclass(frozen=True)
class Row:
    name: str
    value: int


TEMPLATE = Template(
    '{% load i18n drawn_once %}{% for row in rows %}{% memo "row" row %}'
    "<li>{% translate 'Player' %} {{ row.name }} {{ row.value }} {{ drawn.append }}</li>"
    "{% endmemo %}{% endfor %}"
)


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def append(self) -> str:
        self.count += 1
        return ""


def draw(rows: list[Row], counter: Counter) -> str:
    return TEMPLATE.render(Context({"rows": rows, "drawn": counter}))


@pytest.fixture(autouse=True)
def _nothing_kept() -> None:
    drawn_once._memos.clear()


def test_a_row_that_did_not_move_is_not_drawn_again() -> None:
    counter = Counter()
    with translation.override("en"):
        first = draw([Row("Ana", 10), Row("Ben", -10)], counter)
        assert counter.count == 2
        second = draw([Row("Ana", 10), Row("Ben", -12)], counter)
    assert counter.count == 3  # only Ben's row
    assert first.replace("-10", "-12") == second


def test_another_language_draws_its_own_rows() -> None:
    counter = Counter()
    with translation.override("en"):
        english = draw([Row("Ana", 10)], counter)
    with translation.override("fr"):
        french = draw([Row("Ana", 10)], counter)
    assert counter.count == 2
    assert "Player" in english and "Joueur" in french


def test_a_memo_without_values_is_refused() -> None:
    with pytest.raises(TemplateSyntaxError):
        Template("{% load drawn_once %}{% memo %}x{% endmemo %}")
