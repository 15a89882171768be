from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Tournament, TournamentTable
from scorekeeper.reads.tournaments import progress, ranking
from tests.factories import deal_post, make_member, make_user
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


def _started(n_players: int = 8, rounds: int = 2, deals: int = 2, email: str = "ana@example.com"):
    _club, _players, tournament = make_tournament(
        n_players, rounds=rounds, deals=deals, email=email
    )
    started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    return tournament, started, list(started.tables.select_related("game", "evening"))


def _save(client: Client, table: TournamentTable, key: str = "k1"):
    seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
    dealer = table.game.first_dealer_id
    return client.post(
        reverse("deal_create", args=[table.evening_id, table.game_id]),
        deal_post(
            dealer=dealer,
            taker=seated[0],
            contract="garde",
            bouts=2,
            points="49",
            idempotency_key=key,
        ),
        **EN,
    )


def test_the_organiser_creates_a_tournament_and_registers_a_player_and_a_guest(
    client: Client,
) -> None:
    club, players, _tournament = make_tournament(4, rounds=1)
    client.force_login(_owner(_tournament))
    response = client.post(
        reverse("tournaments", args=[club.pk]),
        {
            "tournament-name": "Spring cup",
            "tournament-date": "2026-04-01",
            "tournament-rounds": "3",
            "tournament-deals_per_round": "6",
        },
    )
    tournament = Tournament.objects.get(name="Spring cup")
    assert response.status_code == 302 and tournament.rounds == 3
    url = reverse("tournament_players", args=[tournament.pk])
    client.post(url, {"register-player": players[0].pk})
    client.post(url, {"register-guest_name": "Zoé"})
    page = client.get(url, **EN)
    assert [e.player.name for e in page.context["entrants"]] == ["Player 01", "Zoé"]
    assert "guest" in page.text


def test_bad_input_is_named_next_to_the_field_and_nothing_is_saved(client: Client) -> None:
    club, _players, tournament = make_tournament(4, rounds=1)
    client.force_login(_owner(tournament))
    response = client.post(
        reverse("tournaments", args=[club.pk]),
        {"tournament-name": "X", "tournament-date": "no", "tournament-rounds": "99"},
        **EN,
    )
    assert response.status_code == 200
    assert set(response.context["form"].errors) >= {"date", "rounds", "deals_per_round"}
    page = client.post(reverse("tournament_players", args=[tournament.pk]), {}, **EN)
    assert "Choose a player or give a guest" in page.text
    assert Tournament.objects.count() == 1


def test_people_outside_the_club_get_404_on_every_organiser_page(client: Client) -> None:
    tournament, started, _tables = _started()
    client.force_login(make_user("stranger@example.com", "Stranger"))
    for name, args in [
        ("tournament", [tournament.pk]),
        ("tournament_players", [tournament.pk]),
        ("tournament_cards", [tournament.pk, 1]),
        ("tournament_seats", [tournament.pk, 1]),
        ("tournament_csv", [tournament.pk]),
        ("tournaments", [tournament.club_id]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404, name
    assert client.post(reverse("round_close", args=[tournament.pk, 1])).status_code == 404
    started.refresh_from_db()
    assert not started.is_closed


def test_a_table_link_lets_a_phone_score_that_table_only_until_the_round_closes(
    client: Client,
) -> None:
    _tournament, started, tables = _started()
    mine, other = tables
    response = client.get(reverse("tournament_table", args=[mine.token]))
    assert response.status_code == 302
    assert response["Location"] == reverse("evening", args=[mine.evening_id])
    assert client.get(response["Location"], **EN).status_code == 200
    assert _save(client, mine).status_code == 302
    assert Deal.objects.filter(game=mine.game).count() == 1
    # Not the other table, nor the evening's owner actions.
    assert client.get(reverse("evening", args=[other.evening_id])).status_code == 404
    assert _save(client, other).status_code == 404
    assert client.post(reverse("evening_close", args=[mine.evening_id])).status_code == 404
    # The round closes: the link and the grant stop, and the phone is told why (410).
    services.round_close(tournament_round=started)
    assert _save(client, mine, "k2").status_code == 410
    closed = client.get(reverse("evening", args=[mine.evening_id]), **EN)
    assert closed.status_code == 410
    assert "Round 1 is closed: this table&#x27;s link scores no more." in closed.text
    assert client.get(reverse("tournament_table", args=[mine.token])).status_code == 410
    assert Deal.objects.filter(game=mine.game).count() == 1


def test_the_organiser_page_shows_each_tables_progress_and_closes_the_round(
    client: Client,
) -> None:
    tournament, _started_round, tables = _started(deals=1)
    phone = Client()
    phone.get(reverse("tournament_table", args=[tables[0].token]))
    _save(phone, tables[0])
    client.force_login(make_member(tournament.club, "member@example.com"))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "1 table of 2 done" in page.text
    assert "not started" in page.text
    assert "0 pairs met again so far" in page.text
    client.post(reverse("round_close", args=[tournament.pk, 1]))
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "Start the next round" in page.text
    client.post(reverse("round_start", args=[tournament.pk]))
    assert tournament.tournament_rounds.count() == 2


def test_the_table_cards_show_seats_first_dealer_and_a_qr_of_the_tables_link(
    client: Client,
) -> None:
    tournament, _round, tables = _started()
    client.force_login(_owner(tournament))
    page = client.get(reverse("tournament_cards", args=[tournament.pk, 1]), **EN)
    assert page.text.count('class="qr-code"') == 2
    for table in tables:
        assert f"http://testserver/t/{table.token}/" in page.text
    assert page.text.count("deals first") == 2
    seats = client.get(reverse("tournament_seats", args=[tournament.pk, 1]), **EN)
    assert seats.text.count("<tr>") == 9  # the header and 8 players


def test_the_public_ranking_and_the_csv_give_the_same_sums(client: Client) -> None:
    tournament, started, tables = _started()
    phone = Client()
    phone.get(reverse("tournament_table", args=[tables[0].token]))
    _save(phone, tables[0])
    services.round_close(tournament_round=started)
    public = Client().get(reverse("tournament_public", args=[tournament.public_token]), **EN)
    assert public.status_code == 200
    assert "Ties: more rounds won at the table" in public.text
    client.force_login(_owner(tournament))
    text = client.get(reverse("tournament_csv", args=[tournament.pk]), **EN).content.decode()
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0][:3] == ["Rank", "Player", "Round 1"]
    totals = sorted((int(row[-3]) for row in rows[1:]), reverse=True)
    assert totals == [198, 0, 0, 0, 0, -66, -66, -66]
    assert Client().get(reverse("tournament_public", args=["nope" * 8])).status_code == 404


def test_the_reads_take_the_same_queries_for_a_small_and_a_big_tournament() -> None:
    counts = []
    for n_players in (8, 40):
        tournament, _round, _tables = _started(n_players, email=f"o{n_players}@example.com")
        with CaptureQueriesContext(connection) as queries:
            progress(tournament)
            ranking(tournament)
        counts.append(len(queries))
        with CaptureQueriesContext(connection) as cached:
            ranking(tournament)
        assert len(cached) == 2  # the versions; the ranking itself comes from the cache
    assert counts[0] == counts[1]


def test_while_playing_the_pages_follow_the_ranking_by_polling_a_part_of_themselves(
    client: Client,
) -> None:
    tournament, _round, _tables = _started()
    client.force_login(_owner(tournament))
    for url in (
        reverse("tournament", args=[tournament.pk]),
        reverse("tournament_public", args=[tournament.public_token]),
    ):
        page = client.get(url, **EN)
        assert 'hx-trigger="every 20s"' in page.text and "<html" in page.text
        part = client.get(url, HTTP_HX_REQUEST="true", **EN)
        assert part.text.lstrip().startswith('<div id="tournament-live"')
        assert "Ranking" in part.text


def test_a_table_phone_owns_the_deals_it_kept_offline_and_sends_them_signed_out(
    client: Client,
) -> None:
    _tournament, _started_round, tables = _started()
    mine, other = tables
    client.get(reverse("tournament_table", args=[mine.token]))
    page = client.get(reverse("evening", args=[mine.evening_id]), **EN)
    block = re.search(r'<script id="sk-pwa" type="application/json">(.*?)</script>', page.text)
    owner = json.loads(block.group(1))["userId"]
    assert isinstance(owner, str) and owner.startswith("table-")
    assert mine.token not in owner
    # Kept by this table's phone: sent under its own name, stored once.
    sent = client.post(
        reverse("deal_create", args=[mine.evening_id, mine.game_id]),
        _answers(mine),
        HTTP_X_DEAL_ACCOUNT=owner,
        **EN,
    )
    assert sent.status_code == 302
    # Kept by another phone's session (another table, or an account): refused, kept waiting.
    stranger = Client()
    stranger.get(reverse("tournament_table", args=[other.token]))
    refused = stranger.post(
        reverse("deal_create", args=[other.evening_id, other.game_id]),
        _answers(other),
        HTTP_X_DEAL_ACCOUNT=owner,
        **EN,
    )
    assert refused.status_code == 403
    assert Deal.objects.filter(game__in=[mine.game, other.game]).count() == 1


def _answers(table: TournamentTable) -> dict[str, object]:
    seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
    return deal_post(
        dealer=table.game.first_dealer_id,
        taker=seated[0],
        contract="garde",
        bouts=2,
        points="49",
        idempotency_key=f"kept-{table.pk}",
    )
