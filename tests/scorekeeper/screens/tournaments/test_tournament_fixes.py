from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, DealChange, Seat, Tournament, TournamentTable
from scorekeeper.reads.tournaments import ranking
from scorekeeper.scoring.seating import meetings, plan_following, repeated_meetings
from tests.factories import deal_post, make_member
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


def _started(n_players: int = 8, rounds: int = 2, deals: int = 2):
    _club, _players, tournament = make_tournament(n_players, rounds=rounds, deals=deals)
    started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    return tournament, started, list(started.tables.select_related("game", "evening"))


def _post(table: TournamentTable, points: str, key: str = "") -> dict[str, object]:
    seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
    return deal_post(
        dealer=table.game.first_dealer_id,
        taker=seated[0],
        contract="garde",
        bouts=2,
        points=points,
        idempotency_key=key,
    )


def _score_of_taker(table: TournamentTable, deal: Deal) -> int:
    taker = table.game.seats.order_by("position").first().player_id
    return deal.scores.get(player_id=taker).score


def test_the_organiser_corrects_a_tables_deal_after_the_round_is_closed(client: Client) -> None:
    tournament, started, tables = _started()
    table = tables[0]
    phone = Client()
    phone.get(reverse("tournament_table", args=[table.token]))
    phone.post(reverse("deal_create", args=[table.evening_id, table.game_id]), _post(table, "49"))
    deal = Deal.objects.get(game=table.game)
    services.round_close(tournament_round=started, even_short=True)
    table.evening.refresh_from_db()
    closed_at = table.evening.closed_at
    before = ranking(tournament).rows[0].total
    client.force_login(make_member(tournament.club, "member@example.com"))
    detail = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    url = reverse("tournament_table_deals", args=[tournament.pk, 1, table.number])
    assert url in detail.text
    page = client.get(url, **EN)
    correct = reverse("tournament_deal_correct", args=[tournament.pk, 1, table.number, deal.pk])
    assert correct in page.text and "The round is closed" in page.text
    assert "Save the correction" in client.get(correct, **EN).text
    response = client.post(correct, _post(table, "61"), **EN)
    assert response.status_code == 302
    deal.refresh_from_db()
    assert _score_of_taker(table, deal) > 0 and ranking(tournament).rows[0].total != before
    assert DealChange.objects.filter(deal=deal, action=DealChange.Action.CHANGED).exists()
    history = client.get(correct, **EN)
    assert "changed" in history.text.lower()
    # The evening stays closed, as it was, and the table's link stays shut.
    table.evening.refresh_from_db()
    assert table.evening.closed_at == closed_at
    assert phone.get(reverse("tournament_table", args=[table.token])).status_code == 410


def test_a_bad_correction_is_refused_next_to_the_form_and_nothing_changes(client: Client) -> None:
    tournament, started, tables = _started()
    table = tables[0]
    client.force_login(_owner(tournament))
    client.post(reverse("deal_create", args=[table.evening_id, table.game_id]), _post(table, "49"))
    deal = Deal.objects.get(game=table.game)
    services.round_close(tournament_round=started, even_short=True)
    correct = reverse("tournament_deal_correct", args=[tournament.pk, 1, table.number, deal.pk])
    response = client.post(correct, _post(table, "95"), **EN)
    assert response.status_code == 422
    deal.refresh_from_db()
    assert deal.points == 49


def test_people_outside_the_club_and_table_phones_cannot_correct(client: Client) -> None:
    tournament, _started_round, tables = _started()
    table = tables[0]
    client.get(reverse("tournament_table", args=[table.token]))
    client.post(reverse("deal_create", args=[table.evening_id, table.game_id]), _post(table, "49"))
    deal = Deal.objects.get(game=table.game)
    correct = reverse("tournament_deal_correct", args=[tournament.pk, 1, table.number, deal.pk])
    assert client.get(correct).status_code == 404
    assert client.post(correct, _post(table, "61")).status_code == 404
    assert (
        client.get(reverse("tournament_table_deals", args=[tournament.pk, 1, 1])).status_code == 404
    )
    assert (
        client.post(reverse("tournament_schedule_search", args=[tournament.pk])).status_code == 404
    )
    # Another table's deal through this table's address: 404 for the organiser too.
    client.force_login(_owner(tournament))
    other = reverse("tournament_deal_correct", args=[tournament.pk, 1, tables[1].number, deal.pk])
    assert client.get(other).status_code == 404


def test_another_seed_of_the_search_may_find_a_plan_with_fewer_repeats() -> None:
    players = list(range(20))
    costs = {
        seed: repeated_meetings(
            [
                [list(t.players) for t in r]
                for r in plan_following(players, 5, seed=seed, work=200_000)
            ]
        )
        for seed in range(3)
    }
    assert all(cost >= 0 for cost in costs.values())
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18, 19]]]
    following = plan_following(players, 1, meetings(history), seed=1)
    assert repeated_meetings([*history, [list(t.players) for t in following[0]]]) == 0


def test_the_search_keeps_the_better_plan_and_says_what_remains(client: Client) -> None:
    _club, _players, tournament = make_tournament(20, rounds=5)
    client.force_login(_owner(tournament))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "Search for a better seating" in page.text
    response = client.post(
        reverse("tournament_schedule_search", args=[tournament.pk]), follow=True, **EN
    )
    assert "repeated meeting" in response.text
    tournament.refresh_from_db()
    plan = tournament.schedule
    assert plan["searches"] == 1 and len(plan["rounds"]) == 5
    kept = repeated_meetings(plan["rounds"])
    assert f"{kept} repeated meeting" in response.text
    # A second search never makes it worse.
    before, after = services.tournament_schedule_search(
        tournament=tournament, by=_owner(tournament)
    )
    assert before == kept and after <= kept
    tournament.refresh_from_db()
    assert repeated_meetings(tournament.schedule["rounds"]) == after
    # The first round follows the plan kept.
    started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    seated = [
        sorted(Seat.objects.filter(game=t.game).values_list("player_id", flat=True))
        for t in started.tables.all()
    ]
    assert sorted(seated) == sorted(sorted(t) for t in tournament.schedule["rounds"][0])


def test_the_round_in_play_is_seated_again_only_while_no_deal_is_entered(client: Client) -> None:
    tournament, _round, tables = _started(8, rounds=3)
    client.force_login(_owner(tournament))
    for _ in range(2):
        services.tournament_schedule_search(tournament=tournament, by=_owner(tournament))
    tournament.refresh_from_db()
    plan_first = sorted(sorted(t) for t in tournament.schedule["rounds"][0])
    seated = sorted(
        sorted(Seat.objects.filter(game=t.game).values_list("player_id", flat=True)) for t in tables
    )
    assert seated == plan_first  # whatever was kept, the tables sit as the plan says
    client.post(
        reverse("deal_create", args=[tables[0].evening_id, tables[0].game_id]),
        _post(tables[0], "49"),
    )
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "Search for a better seating" in page.text  # rounds 2 and 3 remain to seat
    services.tournament_schedule_search(tournament=tournament, by=_owner(tournament))
    after = sorted(
        sorted(Seat.objects.filter(game=t.game).values_list("player_id", flat=True)) for t in tables
    )
    assert after == seated


def test_the_printable_results_page_ranks_everyone_and_prints_on_a4(client: Client) -> None:
    tournament, started, tables = _started()
    client.force_login(_owner(tournament))
    client.post(
        reverse("deal_create", args=[tables[0].evening_id, tables[0].game_id]),
        _post(tables[0], "49"),
    )
    services.round_close(tournament_round=started, even_short=True)
    url = reverse("tournament_results", args=[tournament.pk])
    assert url in client.get(reverse("tournament", args=[tournament.pk])).text
    page = client.get(url, **EN)
    assert page.status_code == 200
    assert "Results of Donnes libres" in page.text and "8 players" in page.text
    assert 'media="print"' in page.text and "print.css" in page.text
    assert page.text.count("<tr data-player=") == 8
    assert "not over yet" in page.text  # round 2 remains
    assert Client().get(url).status_code == 404


def test_a_table_phone_sees_only_links_it_can_open(client: Client) -> None:
    tournament, _round, tables = _started()
    table = tables[0]
    client.get(reverse("tournament_table", args=[table.token]))
    page = client.get(reverse("evening", args=[table.evening_id]), **EN)
    assert page.status_code == 200
    assert reverse("club", args=[tournament.club_id]) not in page.text
    assert reverse("game_new", args=[table.evening_id]) not in page.text
    assert "Export CSV" not in page.text
    links = set(re.findall(r'href="(/[^"#]*)', page.text)) - {"/"}
    links = {link for link in links if not link.startswith("/static/")}
    assert reverse("deleted_deals", args=[table.evening_id]) in links
    for link in links:
        assert client.get(link).status_code != 404, link
    # A member still sees the club and the new game on the same evening.
    member = Client()
    member.force_login(_owner(tournament))
    page = member.get(reverse("evening", args=[table.evening_id]), **EN)
    assert reverse("club", args=[tournament.club_id]) in page.text
    assert reverse("game_new", args=[table.evening_id]) in page.text
