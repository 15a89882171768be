"""A duplicate tournament's results page: the ranking by the tournament's method, read from
deals entered through the services with their case number, live, printable and as CSV."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Player, Tournament, TournamentRound, TournamentTable
from scorekeeper.reads import duplicate as reads
from scorekeeper.scoring.paper import PaperDeal
from tests.factories import make_club, make_user
from tests.scoring.test_duplicate_ranking import DEALS

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NAMES = dict(zip("ABCDEFGHIJKL", ["Ada", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal",
                                  "Ivy", "Joe", "Kim", "Lou"], strict=True))  # fmt: skip


def _duplicate(method: str = "match_points", rounds: int = 2, email: str = "a@b.fr") -> Tournament:
    """The 12 players of the hand-checked case (tests/scoring/test_duplicate_ranking.py),
    seated as it has them, each table's deal entered with its case number."""
    club, players = make_club(make_user(email), players=list(NAMES.values()))
    by_letter = dict(zip(NAMES, players, strict=True))
    Player.objects.filter(pk=by_letter["K"].pk).update(licence="FFT123")
    owner = club.memberships.get(role="owner").user
    tournament = services.tournament_create(
        club=club, created_by=owner, name="Duplicate", rounds=2, deals_per_round=1
    )
    Tournament.objects.filter(pk=tournament.pk).update(kind="duplicate", method=method)
    tournament.refresh_from_db()
    for player in players:
        services.tournament_register(tournament=tournament, player=player)
    for number in range(1, rounds + 1):
        tournament_round = TournamentRound.objects.create(tournament=tournament, number=number)
        for case, table, letters, scores in DEALS[3 * number - 3 : 3 * number]:
            seated = [by_letter[letter] for letter in letters]
            evening = services.evening_start(
                club=club, players=seated, first_dealer=seated[0], created_by=owner
            )
            game = evening.games.get()
            TournamentTable.objects.create(
                round=tournament_round, number=table, evening=evening, game=game
            )
            ids = tuple(p.pk for p in seated)
            deal = services.deal_record(
                game=game, inputs=PaperDeal(ids, dict(zip(ids, scores, strict=True)))
            )
            Deal.objects.filter(pk=deal.pk).update(case_number=case)
    return tournament


def _rows(page: str) -> list[tuple[str, str, str]]:
    """(rank, player, figure) of each line of the ranking on the page."""
    found = re.findall(
        r'<tr data-player="(\w+)">\s*<td class="rank">(\d+)</td>.*?<td class="total"><strong>'
        r"([-\d.,]+)</strong>",
        page,
        re.DOTALL,
    )
    return [(rank, name, figure) for name, rank, figure in found]


def test_the_page_agrees_with_the_match_points_worked_by_hand(client: Client) -> None:
    tournament = _duplicate("match_points")
    client.force_login(tournament.club.memberships.get(role="owner").user)
    page = client.get(reverse("tournament_results", args=[tournament.pk]), **EN).text
    assert _rows(page) == [
        ("1", "Kim", "100.00"), ("2", "Fay", "75.00"), ("3", "Ivy", "75.00"),
        ("4", "Ada", "75.00"), ("5", "Joe", "75.00"), ("6", "Hal", "75.00"),
        ("7", "Lou", "50.00"), ("8", "Bob", "25.00"), ("9", "Eve", "25.00"),
        ("10", "Gus", "25.00"), ("11", "Cyd", "0.00"), ("11", "Dan", "0.00"),
    ]  # fmt: skip
    assert "It earns 2 for each one it beats" in page
    assert '<th scope="row">Kim <span class="muted licence">licence FFT123</span></th>' in page
    public = client.get(reverse("tournament_public", args=[tournament.public_token]), **EN).text
    assert _rows(public) == _rows(page)


def test_the_page_agrees_with_the_scores_against_the_mean_worked_by_hand(client: Client) -> None:
    tournament = _duplicate("mean")
    client.force_login(tournament.club.memberships.get(role="owner").user)
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    assert _rows(page) == [
        ("1", "Fay", "288.00"), ("2", "Ada", "180.00"), ("3", "Kim", "156.00"),
        ("4", "Ivy", "96.00"), ("5", "Joe", "96.00"), ("6", "Hal", "60.00"),
        ("7", "Bob", "-60.00"), ("8", "Eve", "-96.00"), ("9", "Cyd", "-156.00"),
        ("9", "Dan", "-156.00"), ("11", "Gus", "-180.00"),
        ("12", "Lou", "-228.00"),
    ]  # fmt: skip
    assert "30 − (10 + 10 − 20) / 3 = 30" in page


def test_each_case_shows_who_held_each_seat_and_how_the_score_compared() -> None:
    cases = reads.ranking(_duplicate("mean")).cases
    assert sorted(cases) == [1, 2, 3]
    # Case 3, seat 4: Lou (round 1, table 3) -168, Fay (round 2, table 2) 120.
    assert [(r.round, r.table, r.name, r.score, r.figure) for r in cases[3] if r.seat == 4] == [
        (1, 3, "Lou", -168, Decimal("-288.00")),
        (2, 2, "Fay", 120, Decimal("288.00")),
    ]


def test_the_ranking_reads_the_same_few_queries_whatever_the_deals(
    django_assert_num_queries,
) -> None:
    one_round = _duplicate(rounds=1)
    two_rounds = _duplicate(rounds=2, email="b@b.fr")
    with django_assert_num_queries(5) as first:
        reads.ranking(one_round)
    with django_assert_num_queries(len(first.captured_queries)):
        reads.ranking(two_rounds)


def test_a_deal_saved_changes_the_rankings_key_for_the_live_poll() -> None:
    tournament = _duplicate(rounds=1)
    before = reads.ranking(tournament)
    table = TournamentTable.objects.filter(round__tournament=tournament).first()
    ids = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    deal = services.deal_record(
        game=table.game,
        inputs=PaperDeal(ids, dict(zip(ids, (30, -10, -10, -10), strict=True))),
        past_plan=True,
    )
    Deal.objects.filter(pk=deal.pk).update(case_number=4)
    after = reads.ranking(tournament)
    assert after.key != before.key and 4 in after.cases


def test_a_poll_of_an_unchanged_tournament_computes_its_ranking_once(
    django_assert_num_queries,
) -> None:
    tournament = _duplicate(rounds=1)
    first = reads.ranking_for(tournament)
    with django_assert_num_queries(2):  # the key's versions; the scores are not read again
        again = reads.ranking_for(tournament)
    assert again == first
    table = TournamentTable.objects.filter(round__tournament=tournament).first()
    ids = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_record(
        game=table.game,
        inputs=PaperDeal(ids, dict(zip(ids, (30, -10, -10, -10), strict=True))),
        past_plan=True,
    )
    assert reads.ranking_for(tournament).key != first.key


def test_the_csv_carries_the_method_figure_and_the_licence(client: Client) -> None:
    tournament = _duplicate("match_points")
    client.force_login(tournament.club.memberships.get(role="owner").user)
    text = client.get(reverse("tournament_csv", args=[tournament.pk]), **EN).content.decode()
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0] == "Rank,Player,Licence,Match points (out of 100),Total,Deals,Deals best"
    assert lines[1] == "1,Kim,FFT123,100.00,91,2,2"
    french = client.get(reverse("tournament_csv", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "1;Kim;FFT123;100,00;91;2;2" in french.content.decode()


def test_a_free_tournament_keeps_its_ranking(client: Client) -> None:
    tournament = _duplicate()
    Tournament.objects.filter(pk=tournament.pk).update(kind="free")
    tournament.refresh_from_db()
    assert not isinstance(reads.ranking_for(tournament), reads.DuplicateRanking)
