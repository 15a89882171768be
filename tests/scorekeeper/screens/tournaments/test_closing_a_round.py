"""A round that closes safely: the organiser is asked before closing with deals missing and
told which tables are short; a table's phone after the close is told in words and keeps
its deal as typed; the organiser adds the missing deal (in its history, as theirs); a table
stops at its planned deals unless the organiser allows one more; the close is dated."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scorekeeper import services
from scorekeeper.models import DealChange, Tournament, TournamentRound, TournamentTable
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import deal_post
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


def _started(deals: int = 4) -> tuple[Tournament, TournamentRound, list[TournamentTable]]:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=deals)
    started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    return tournament, started, list(started.tables.select_related("game", "evening"))


def _deal(table: TournamentTable, **options: object):
    seated = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    return services.deal_record(
        game=table.game,
        inputs=TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50),
        **options,
    )


def _phone_post(table: TournamentTable, points: str = "61") -> dict[str, object]:
    seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
    return deal_post(
        dealer=table.game.first_dealer_id,
        taker=seated[1],
        contract="garde",
        bouts=2,
        points=points,
        idempotency_key="phone-1",
        number=table.game.deals.count() + 1,
    )


def test_closing_with_deals_missing_names_the_short_tables_and_asks_first(client: Client) -> None:
    tournament, started, (first, second) = _started()
    for _n in range(4):
        _deal(first)
    for _n in range(2):
        _deal(second)
    client.force_login(_owner(tournament))
    url = reverse("round_close", args=[tournament.pk, 1])
    asked = client.post(url, **EN)
    started.refresh_from_db()
    assert asked.status_code == 200 and not started.is_closed
    assert "Table 2: 2 of 4 deals, 2 missing" in asked.text
    assert "Table 1:" not in asked.text
    assert 'name="even_short" value="1"' in asked.text  # a plain form: no script needed
    assert "Close round 1 anyway" in asked.text
    assert client.get(url, **EN).status_code == 200  # the same question, asked by a link
    closed = client.post(url, {"even_short": "1"}, **EN)
    started.refresh_from_db()
    assert closed.status_code == 302 and started.is_closed


def test_a_round_whose_tables_are_all_done_closes_in_one_tap(client: Client) -> None:
    tournament, started, tables = _started(deals=1)
    for table in tables:
        _deal(table)
    client.force_login(_owner(tournament))
    response = client.post(reverse("round_close", args=[tournament.pk, 1]))
    started.refresh_from_db()
    assert response.status_code == 302 and started.is_closed


def test_the_service_refuses_to_close_a_short_round_unless_told(client: Client) -> None:
    _tournament, started, (first, _second) = _started()
    _deal(first)
    with pytest.raises(services.RoundShort) as short:
        services.round_close(tournament_round=started)
    assert short.value.tables == [(1, 1, 4), (2, 0, 4)]
    services.round_close(tournament_round=started, even_short=True)
    started.refresh_from_db()
    assert started.is_closed


def test_a_closed_round_prints_when_it_closed(client: Client) -> None:
    tournament, started, _tables = _started()
    services.round_close(tournament_round=started, even_short=True)
    client.force_login(_owner(tournament))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    started.refresh_from_db()
    when = timezone.localtime(started.closed_at)
    badge = re.search(r'<span class="badge">(.*?)</span>', page).group(1)
    assert badge.startswith("closed on ") and f"{when.day}, {when.year} at " in badge
    french = client.get(reverse("tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    badge = re.search(r'<span class="badge">(.*?)</span>', french.text).group(1)
    assert f"{when.day} " in badge and f"{when:%H:%M}" in badge  # never "clôturée le" alone


def test_a_phones_save_after_the_close_is_worded_in_place_keeping_what_was_typed(
    client: Client,
) -> None:
    _tournament, started, (table, _other) = _started()
    client.get(reverse("tournament_table", args=[table.token]))  # the phone scans the card
    services.round_close(tournament_round=started, even_short=True)
    url = reverse("deal_create", args=[table.evening_id, table.game_id])
    answer = client.post(url, _phone_post(table, "61"), **HTMX, **EN)
    assert answer.status_code == 409  # swapped in place by the page's htmx
    assert "The organiser has closed round 1" in answer.text
    assert "This deal was not saved" in answer.text
    assert f'id="game-{table.game_id}"' in answer.text  # the entry section it replaces
    assert 'value="61"' in answer.text  # the points as typed
    assert "checked" in answer.text  # the taker, contract and bouts ticked
    assert "button-primary save-deal" not in answer.text and "Save the deal" not in answer.text
    assert "inert" in answer.text
    assert table.game.deals.count() == 0
    # Without script, the same words on a page of their own; the link is gone for good.
    page = client.post(url, _phone_post(table, "62"), **EN)
    assert page.status_code == 410 and 'value="62"' in page.text
    assert "button-primary save-deal" not in page.text
    evening = client.get(reverse("evening", args=[table.evening_id]), **EN)
    assert evening.status_code == 410 and "The organiser has closed round 1" in evening.text


def test_another_sessions_save_gets_the_plain_404(client: Client) -> None:
    _tournament, started, (table, _other) = _started()
    services.round_close(tournament_round=started, even_short=True)
    url = reverse("deal_create", args=[table.evening_id, table.game_id])
    assert client.post(url, _phone_post(table), **HTMX).status_code == 404  # never scanned


def test_the_organiser_adds_a_missing_deal_to_a_closed_round_in_its_history(
    client: Client,
) -> None:
    tournament, started, (table, _other) = _started()
    _deal(table)
    services.round_close(tournament_round=started, even_short=True)
    owner = _owner(tournament)
    client.force_login(owner)
    deals_page = client.get(
        reverse("tournament_table_deals", args=[tournament.pk, 1, 1]), **EN
    ).text
    assert "1 of 4 deals entered: 3 missing." in deals_page
    url = reverse("tournament_deal_add", args=[tournament.pk, 1, 1])
    assert "Add deal 2" in client.get(url, **EN).text
    response = client.post(url, _phone_post(table, "70"), **EN)
    assert response.status_code == 302
    added = table.game.deals.get(number=2)
    change = DealChange.objects.get(deal=added)
    assert change.action == DealChange.Action.RECORDED and change.by == owner
    table.evening.refresh_from_db()
    started.refresh_from_db()
    assert table.evening.is_closed and started.is_closed  # closed still
    summary = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    assert "closed with 2 of 4 deals: 2 missing" in summary
    assert "Add a missing deal" in summary


def test_a_table_cannot_enter_a_deal_past_the_plan_unless_the_organiser_allows_it(
    client: Client,
) -> None:
    tournament, _started_round, (table, _other) = _started(deals=2)
    _deal(table)
    _deal(table)
    with translation.override("en"), pytest.raises(services.ServiceError, match="2 deals planned"):
        _deal(table)
    client.force_login(_owner(tournament))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    assert "Allow one more deal" in page
    client.post(reverse("tournament_allow_more", args=[tournament.pk, 1, 1]))
    table.refresh_from_db()
    assert table.extra_deals == 1
    _deal(table)  # the third, allowed
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    assert "done: 3 deals, 2 planned" in page
    with pytest.raises(services.ServiceError):
        _deal(table)


def test_the_organisers_page_says_how_many_deals_each_table_has_to_go(client: Client) -> None:
    tournament, _round, (table, _other) = _started()
    _deal(table)
    client.force_login(_owner(tournament))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN).text
    assert "in progress: 1 of 4 deals, 3 to go" in page
