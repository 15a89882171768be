"""A tournament night counts once in the season: each player's tables and rounds are one
evening (the sum of his tables), one line of the recent evenings, one point on the charts."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.db.models import Sum
from django.test import Client
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import DealScore, Evening, Season, Tournament
from scorekeeper.models.figures import TAROT
from scorekeeper.reads import (
    charts,
    club_figures,
    figures_records,
    player_figures,
    standings,
    tournaments,
)
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.screens.standings import season_rules_in_force
from tests.scorekeeper.season_factories import season_stats_by_kind
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db


def _played(rounds: int = 3) -> Tournament:
    """Eight players, two tables a round, two deals at each table of each round."""
    _club, _players, tournament = make_tournament(8, rounds=rounds, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    for _number in range(rounds):
        started = services.round_start(tournament=tournament, created_by=owner)
        for table in started.tables.select_related("game"):
            for n in range(2):
                seated = tuple(p.pk for p in services.present_players(table.game))
                inputs = TarotDeal(
                    seated=seated, taker=seated[n], contract="garde", bouts=n + 1, points=30 + n
                )
                services.deal_record(game=table.game, inputs=inputs, created_by=owner)
        services.round_close(tournament_round=started)
    return tournament


def _totals(tournament: Tournament) -> dict[int, int]:
    scores = DealScore.objects.filter(deal__game__tournament_table__round__tournament=tournament)
    return dict(scores.values("player_id").annotate(s=Sum("score")).values_list("player_id", "s"))


def test_a_three_round_tournament_is_one_evening_for_each_player_and_for_the_club() -> None:
    tournament = _played()
    assert Evening.objects.filter(club=tournament.club).count() == 6
    stats = season_stats_by_kind(tournament.club)[TAROT]
    assert [(e.date, e.tournament_id, e.place) for e in stats.evenings] == [
        (tournament.date, tournament.pk, "Donnes libres")
    ]
    totals = _totals(tournament)
    assert {row.player_id: (row.evenings, row.total) for row in stats.rows} == {
        player_id: (1, total) for player_id, total in totals.items()
    }
    night = stats.evenings[0].evening_id
    assert stats.points == {(night, player_id): total for player_id, total in totals.items()}


def test_a_players_page_shows_his_tournament_as_one_evening_and_one_point() -> None:
    tournament = _played()
    entrant = tournament.entrants.select_related("player").first()
    figures, _escopette = player_figures.player_sections(entrant.player)
    assert figures.summary.evenings == 1
    assert [(e.tournament_id, e.total) for e in figures.evenings] == [
        (tournament.pk, _totals(tournament)[entrant.player_id])
    ]
    with translation.override("en"):
        assert len(charts.player_chart(figures).x_labels) == 2  # the start, then the night


def test_the_season_page_counts_the_night_once_and_links_it_to_the_tournament() -> None:
    tournament = _played()
    season = Season.objects.get(club=tournament.club)
    client = Client()
    client.force_login(tournament.club.memberships.get(role="owner").user)
    response = client.get(f"/clubs/{tournament.club.pk}/seasons/{season.pk}/")
    assert len(response.context["shown"]["evenings"]) == 1
    html = re.sub(r"\s+", " ", response.content.decode())
    recent = re.search(r'<ul class="season-evenings">(.*?)</ul>', html).group(1)
    assert recent.count("<li>") == 1
    assert f'href="/tournaments/{tournament.pk}/"' in recent


def test_a_table_moved_to_the_next_day_still_counts_once_when_the_night_is_settled() -> None:
    tournament = _played()
    table = tournament.tournament_rounds.get(number=3).tables.first()
    later = tournament.date + dt.timedelta(days=1)
    moved = Evening.objects.filter(pk=table.evening_id)  # as a restored archive may hold it
    moved.update(date=later)
    moved.touch()
    joined = season_stats_by_kind(tournament.club)[TAROT]  # the settled day, the latest
    cache.clear()
    whole = standings._added_up(("tarot",), "", evening__club_id=tournament.club.pk)["tarot"]
    assert len(joined.evenings) == len(whole.evenings) == 1
    assert joined.points == whole.points
    assert [(r.player_id, r.evenings, r.total) for r in joined.rows] == [
        (r.player_id, r.evenings, r.total) for r in whole.rows
    ]
    assert {r.evenings for r in joined.rows} == {1}


def test_the_records_best_evening_is_a_players_tournament_night_and_the_best_deal_one_deal() -> (
    None
):
    tournament = _played()
    club_id = tournament.club_id
    page = figures_records.records_page(
        club_figures.club_figures(club_id), club_figures.player_names(club_id)
    )
    win, _lost, best, worst = page.deals.facts
    totals = _totals(tournament)
    assert (best.value, worst.value) == (max(totals.values()), min(totals.values()))
    assert (best.tournament_id, best.date) == (tournament.pk, tournament.date)
    scores = DealScore.objects.filter(deal__game__evening__club_id=club_id)
    assert win.value == max(scores.values_list("score", flat=True))
    client = Client()
    client.force_login(tournament.club.memberships.get(role="owner").user)
    html = client.get(f"/clubs/{club_id}/records/").content.decode()
    assert html.count(f'href="/tournaments/{tournament.pk}/"') == 2  # the best and worst


def test_the_club_page_lists_the_tournament_as_one_evening_linked_to_it() -> None:
    tournament = _played()
    club = tournament.club
    owner = club.memberships.get(role="owner").user
    four = list(club.players.order_by("pk")[:4])
    day_before = tournament.date - dt.timedelta(days=1)
    evening = services.evening_start(
        club=club, players=four, first_dealer=four[0], created_by=owner, date=day_before
    )
    first_table = Evening.objects.filter(club=club).exclude(pk=evening.pk).order_by("pk").first()
    assert tournaments.club_nights(club.pk) == [
        tournaments.Night(first_table.pk, tournament.date, "Donnes libres", False, tournament.pk),
        tournaments.Night(evening.pk, day_before, "", True),
    ]
    client = Client()
    client.force_login(owner)
    html = re.sub(r"\s+", " ", client.get(f"/clubs/{club.pk}/").content.decode())
    listed = re.search(r'<section id="evenings".*?</section>', html).group(0)
    assert listed.count("<li>") == 2
    assert f'href="/tournaments/{tournament.pk}/"' in listed


def test_the_rules_note_counts_a_tournament_as_one_evening() -> None:
    tournament = _played()
    stats = season_stats_by_kind(tournament.club)[TAROT]
    assert Evening.objects.filter(club=tournament.club).count() == 6
    assert [entry.evenings for entry in season_rules_in_force(stats)] == [1]
