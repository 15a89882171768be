"""Names in dictionary order whatever their accents and case, a label and its colon in the
page's language, counts with their plural forms, and months in lower case in French."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import formats, translation

from scorekeeper.server.wording import labelled, name_order, short_date_format


def test_names_sort_as_a_dictionary_does_accents_and_case_aside() -> None:
    names = ["Paul", "Élise", "zoé", "Emile", "Éa", "anne", "Ève", "eve"]
    assert sorted(names, key=name_order) == [
        "anne",
        "Éa",
        "Élise",
        "Emile",
        "eve",
        "Ève",
        "Paul",
        "zoé",
    ]


def test_two_names_equal_but_for_an_accent_keep_one_order_whatever_came_first() -> None:
    assert sorted(["Élise", "Elise"], key=name_order) == sorted(["Elise", "Élise"], key=name_order)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("fr", "Chelem\u202f: oui"), ("en", "Chelem: oui"), ("ru", "Chelem: oui")],
)
def test_a_label_takes_the_colon_of_the_language(language: str, expected: str) -> None:
    with translation.override(language):
        assert labelled("Chelem", "oui") == expected


@pytest.mark.parametrize(
    ("language", "expected"), [("fr", "1 déc."), ("en", "1 Dec"), ("ru", "1 дек")]
)
def test_the_short_month_is_in_lower_case_where_the_language_writes_it_so(
    language: str, expected: str
) -> None:
    with translation.override(language):
        assert formats.date_format(dt.date(2025, 12, 1), short_date_format()) == expected


PARTNERS = Template(
    "{% load i18n %}{% blocktranslate trimmed count counter=deals %}{{ counter }} deal"
    "{% plural %}{{ counter }} deals{% endblocktranslate %}, {% blocktranslate trimmed count"
    " counter=made %}{{ counter }} made{% plural %}{{ counter }} made{% endblocktranslate %}"
)


@pytest.mark.parametrize(
    ("language", "deals", "made", "expected"),
    [
        ("fr", 1, 1, "1 donne, 1 réussie"),
        ("fr", 3, 2, "3 donnes, 2 réussies"),
        ("ru", 1, 1, "1 раздача, 1 сыграна"),
        ("ru", 3, 2, "3 раздачи, 2 сыграны"),
        ("ru", 5, 5, "5 раздач, 5 сыграно"),
        ("en", 1, 1, "1 deal, 1 made"),
    ],
)
def test_each_count_takes_its_own_plural(
    language: str, deals: int, made: int, expected: str
) -> None:
    with translation.override(language):
        assert PARTNERS.render(Context({"deals": deals, "made": made})) == expected


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("fr", 1, "Après 1 soirée\u202f: x."),
        ("fr", 2, "Après 2 soirées\u202f: x."),
        ("en", 1, "After 1 evening: x."),
    ],
)
def test_the_chart_description_counts_its_evenings(
    language: str, count: int, expected: str
) -> None:
    with translation.override(language):
        text = translation.ngettext(
            "After %(count)s evening: %(figures)s.", "After %(count)s evenings: %(figures)s.", count
        )
        assert text % {"count": count, "figures": "x"} == expected
