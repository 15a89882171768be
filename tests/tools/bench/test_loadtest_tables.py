"""`manage.py loadtest` (the tables of a club night): every kind of request it sends answers
as the load test expects, the club's figures pages among them (``--figures``); checked
without wrk."""

from __future__ import annotations

import gzip

import pytest
from django.conf import settings

from scorekeeper.models import Deal
from tests.tools.bench.wrk_items import send
from tools.bench import load_club
from tools.bench.load_scenarios import FIGURES_PAGES, kinds

pytestmark = pytest.mark.django_db


def test_every_request_of_a_club_night_answers_what_the_load_test_expects() -> None:
    _built, seats = load_club.build_tables(100, 3, settings.SECRET_KEY)
    deals = Deal.objects.count()
    for kind in kinds(seats, figures=True):
        for item in kind.items[: len(FIGURES_PAGES)]:
            answer = send(kind, item)
            assert answer.status_code in kind.expect, (kind.name, item["path"])
    assert Deal.objects.count() == deals + len(FIGURES_PAGES)  # each save stored its deal


def test_with_figures_the_club_figures_are_looked_at_in_turn_as_often_as_the_season() -> None:
    built, seats = load_club.build_tables(100, 3, settings.SECRET_KEY)
    assert "club figures" not in {kind.name for kind in kinds(seats)}  # the default
    by_name = {kind.name: kind for kind in kinds(seats, figures=True)}
    figures = by_name["club figures"]
    assert figures.rate == by_name["season standings"].rate
    paths = [item["path"] for item in figures.items]
    assert [path.split("/")[3] for path in paths] == list(FIGURES_PAGES)
    assert all(path.endswith(f"?season={built.season_id}") for path in paths)
    answer = send(figures, figures.items[0])  # asked gzipped, as the phones ask
    assert answer.status_code == 200
    page = gzip.decompress(answer.content).decode()
    assert "<h1>Niveaux</h1>" in page  # the ratings page, in French (the default)
