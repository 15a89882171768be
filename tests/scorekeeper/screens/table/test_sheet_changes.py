"""What a save and the live poll send back: the sheet's rows that changed since the page's
moment (not the whole sheet), and a deal kept offline under another account is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Deal
from tests.factories import deal_post, make_club, make_member, start_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return client, evening, game, players


def answers(players, number: int, **extra):
    return deal_post(
        dealer=players[0].pk,
        taker=players[1].pk,
        contract="garde",
        bouts=2,
        points=50,
        number=number,
        idempotency_key=f"key-{number}",
        **extra,
    )


def tail_of(text: str) -> str:
    return text.split("<template data-sheet-tail", 1)[1].split("</template>", 1)[0]


def rows_sent(text: str) -> int:
    return tail_of(text).count('<tr id="deal-')


def saved_minutes_ago(client: Client, url: str, players, count: int) -> None:
    """Deals 1 to ``count`` saved, as if some minutes ago (before the page's moment)."""
    for number in range(1, count + 1):
        client.post(url, answers(players, number))
    Deal.objects.update(updated_at=timezone.now() - timedelta(minutes=5))


def test_a_save_sends_only_the_new_row_when_the_page_is_recent(table) -> None:
    client, evening, game, players = table
    url = reverse("deal_create", args=[evening.pk, game.pk])
    saved_minutes_ago(client, url, players, 3)
    as_of = client.get(reverse("evening", args=[evening.pk])).context["as_of"]
    response = client.post(
        url, {**answers(players, 4), "sheet-since": str(as_of)}, HTTP_HX_REQUEST="true"
    )
    assert f'data-sheet-tail="{game.pk}" data-from="4"' in response.text
    assert rows_sent(response.text) == 1


def test_the_live_poll_sends_the_rows_from_a_corrected_deal_on(table) -> None:
    client, evening, game, players = table
    url = reverse("deal_create", args=[evening.pk, game.pk])
    saved_minutes_ago(client, url, players, 4)
    page = client.get(reverse("evening", args=[evening.pk]))
    as_of, version = page.context["as_of"], page.context["evening"].version
    services.deal_delete(deal=game.deals.get(number=2))
    live = client.get(
        reverse("evening_live", args=[evening.pk]),
        {"version": version, "since": as_of},
        HTTP_HX_REQUEST="true",
    )
    assert f'data-sheet-tail="{game.pk}" data-from="2"' in live.text
    assert rows_sent(live.text) == 2  # deals 3 and 4, now numbered 2 and 3
    full = client.get(reverse("evening_live", args=[evening.pk]), HTTP_HX_REQUEST="true")
    assert rows_sent(full.text) == 3  # no moment given: the whole sheet


def test_a_deal_kept_offline_by_another_account_is_refused_and_not_stored(table) -> None:
    client, evening, game, players = table
    other = make_member(evening.club, "zoe@example.com", "Zoé")
    response = client.post(
        reverse("deal_create", args=[evening.pk, game.pk]),
        answers(players, 1),
        HTTP_HX_REQUEST="true",
        HTTP_X_DEAL_ACCOUNT=str(other.pk),
    )
    assert response.status_code == 403
    assert response["X-Deal-Account-Mismatch"] == "1"
    assert not Deal.objects.exists()
    mine = client.post(
        reverse("deal_create", args=[evening.pk, game.pk]),
        answers(players, 1),
        HTTP_HX_REQUEST="true",
        HTTP_X_DEAL_ACCOUNT=str(evening.club.memberships.get(role="owner").user.pk),
    )
    assert mine.status_code == 200
    assert Deal.objects.count() == 1


def test_the_other_phones_get_the_rows_the_save_drew_and_else_read_the_sheet_in_one_query(
    table,
) -> None:
    client, evening, game, players = table
    url = reverse("deal_create", args=[evening.pk, game.pk])
    saved_minutes_ago(client, url, players, 3)
    page = client.get(reverse("evening", args=[evening.pk]))
    as_of, version = page.context["as_of"], page.context["evening"].version
    saved = client.post(
        url, {**answers(players, 4), "sheet-since": str(as_of)}, HTTP_HX_REQUEST="true"
    )
    other = Client()
    other.force_login(make_member(evening.club, "zoe@example.com", "Zoé"))
    live_url = reverse("evening_live", args=[evening.pk])
    asked = {"version": version, "since": as_of}

    def score_queries(queries: CaptureQueriesContext) -> int:
        return len([q for q in queries.captured_queries if "dealscore" in q["sql"].lower()])

    with CaptureQueriesContext(connection) as queries:
        live = other.get(live_url, asked, HTTP_HX_REQUEST="true")
    assert tail_of(live.text) == tail_of(saved.text)
    assert rows_sent(live.text) == 1
    assert score_queries(queries) == 0  # the rows as the save drew them, at this version
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        drawn = other.get(live_url, asked, HTTP_HX_REQUEST="true")
    assert tail_of(drawn.text) == tail_of(saved.text)
    # The deals, their scores and running totals as stored: one query, whatever the deals.
    assert score_queries(queries) == 1
