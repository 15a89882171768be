"""A refusal with a reason says it in words, with its status, in the layout and with a way
back (issue 36, item 6); what someone may not know of stays a 404 that tells nothing."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal
from tests.factories import deal_post, make_club, make_member, make_user, start_evening
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def table():
    club, players = make_club()
    owner = club.memberships.get(role="owner").user
    member = make_member(club)
    evening, game = start_evening(club, players)
    return club, players, owner, member, evening, game


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def way_back(response, url: str, label: str) -> bool:
    return f'class="button button-primary way-back" href="{url}">{label}</a>' in text(response)


def in_the_layout(response) -> bool:
    return '<header class="site-header">' in text(response)


def test_a_new_game_in_an_evening_closed_meanwhile_says_the_evening_is_closed(table) -> None:
    _club, _players, _owner, member, evening, _game = table
    services.evening_close(evening=evening)
    client = signed_in(member)
    response = client.get(reverse("game_new", args=[evening.pk]), **EN)
    assert response.status_code == 409
    assert in_the_layout(response)
    assert '<h1 id="error-heading">This evening is closed.</h1>' in text(response)
    assert way_back(response, reverse("evening", args=[evening.pk]), "Back to the evening")
    assert "Cette soirée est clôturée." in text(
        client.get(reverse("game_new", args=[evening.pk]), **FR)
    )
    assert "Этот вечер закрыт." in text(client.post(reverse("game_new", args=[evening.pk]), **RU))


def test_the_seats_of_a_closed_evening_say_the_evening_is_closed(table) -> None:
    _club, _players, _owner, member, evening, game = table
    services.evening_close(evening=evening)
    response = signed_in(member).get(reverse("seat_join", args=[evening.pk, game.pk]), **EN)
    assert response.status_code == 409
    assert "This evening is closed." in text(response)


def test_a_correction_sent_to_a_closed_evening_is_refused_in_words(table) -> None:
    _club, players, owner, _member, evening, game = table
    ids = [p.pk for p in players]
    client = signed_in(owner)
    fields = dict(dealer=ids[0], taker=ids[0], contract="garde", bouts=2, points="49")
    client.post(reverse("deal_create", args=[evening.pk, game.pk]), deal_post(**fields))
    deal = Deal.objects.get(game=game)
    services.evening_close(evening=evening)
    fields.update(taker=ids[1], points="70")
    url = reverse("deal_edit", args=[evening.pk, deal.pk])
    response = client.post(url, deal_post(**fields), **EN)
    assert response.status_code == 409
    assert "This evening is closed." in text(response)
    assert way_back(response, reverse("evening", args=[evening.pk]), "Back to the evening")
    assert Deal.objects.get(pk=deal.pk).taker_id == ids[0]


def test_a_member_asking_for_the_owners_action_is_told_it_is_the_owners(table) -> None:
    _club, _players, _owner, member, evening, _game = table
    response = signed_in(member).post(reverse("evening_close", args=[evening.pk]), **EN)
    assert response.status_code == 403
    assert in_the_layout(response)
    assert "&amp;" not in response.content.decode()  # the words escaped once, not twice
    assert "Only the club's owner can do this." in text(response)
    assert way_back(response, reverse("evening", args=[evening.pk]), "Back to the evening")
    evening.refresh_from_db()
    assert not evening.is_closed


def test_a_member_renaming_the_club_is_sent_back_to_the_club(table) -> None:
    club, _players, _owner, member, _evening, _game = table
    url = reverse("club_rename", args=[club.pk])
    response = signed_in(member).post(url, {"club-name": "X"}, **FR)
    assert response.status_code == 403
    assert "Seul le propriétaire du club peut faire cela." in text(response)
    assert way_back(response, reverse("club", args=[club.pk]), "Retour au club")


def test_an_account_the_owner_removed_is_told_so(table) -> None:
    club, _players, _owner, member, evening, _game = table
    services.member_remove(membership=club.memberships.get(user=member))
    client = signed_in(member)
    for url in (reverse("club", args=[club.pk]), reverse("evening", args=[evening.pk])):
        response = client.get(url, **EN)
        assert response.status_code == 403
        assert "The owner removed you from this club. Ask them to invite you again." in text(
            response
        )
        assert way_back(response, reverse("home"), "Back to the home page")


def test_someone_who_never_was_a_member_still_gets_a_404_that_names_nothing(table) -> None:
    club, _players, _owner, _member, evening, _game = table
    client = signed_in(make_user("zoe@example.com", "Zoé"))
    for url in (reverse("club", args=[club.pk]), reverse("game_new", args=[evening.pk])):
        response = client.get(url, **EN)
        assert response.status_code == 404
        assert "Page not found" in text(response)
        assert club.name not in text(response)


def test_the_rescore_of_a_closed_evening_says_the_evening_is_closed(table) -> None:
    _club, _players, owner, _member, evening, _game = table
    services.evening_close(evening=evening)
    response = signed_in(owner).post(reverse("evening_rescore", args=[evening.pk]), **EN)
    assert response.status_code == 409
    assert "This evening is closed." in text(response)


def test_a_member_changing_the_rules_is_told_it_is_the_owners(table) -> None:
    club, _players, _owner, member, _evening, _game = table
    response = signed_in(member).post(reverse("club_rules", args=[club.pk]), **EN)
    assert response.status_code == 403
    assert way_back(response, reverse("club_rules", args=[club.pk]), "Back to the club's rules")


def test_a_member_revoking_the_rankings_link_is_told_who_may() -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    member = make_member(tournament.club, "zed@example.com", "Zed")
    url = reverse("tournament_public_link", args=[tournament.pk])
    response = signed_in(member).post(url, {"action": "revoke"}, **EN)
    assert response.status_code == 403
    assert "Only the club's owner or the tournament's organiser can do this." in text(response)
    assert way_back(response, reverse("tournament", args=[tournament.pk]), "Back to the tournament")


def test_a_tables_phone_after_its_round_closed_is_told_so_with_the_ranking() -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    started = services.round_start(tournament=tournament, created_by=owner)
    table = started.tables.first()
    services.tournament_public_link_create(tournament=tournament)
    tournament.refresh_from_db()
    client = Client()
    client.get(reverse("tournament_table", args=[table.token]))
    services.round_close(tournament_round=started, even_short=True)
    response = client.get(reverse("evening", args=[table.evening_id]), **RU)
    assert response.status_code == 410
    assert "закрыл тур 1" in text(response)
    public = reverse("tournament_public", args=[tournament.public_token])
    assert f'href="{public}"' in text(response)


def test_an_htmx_action_refused_reloads_the_page_which_then_says_why(table) -> None:
    _club, _players, _owner, member, evening, _game = table
    client = signed_in(member)
    url = reverse("evening_close", args=[evening.pk])
    response = client.post(url, HTTP_HX_REQUEST="true", **EN)
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Only the club's owner can do this." in text(page)


def test_a_refused_poll_leaves_no_message_behind(table) -> None:
    club, _players, _owner, member, evening, _game = table
    services.member_remove(membership=club.memberships.get(user=member))
    client = signed_in(member)
    for _poll in range(3):
        live = client.get(reverse("evening_live", args=[evening.pk]), HTTP_HX_REQUEST="true")
        assert live.status_code == 403
    home = client.get(reverse("home"), **EN)
    assert "The owner removed you" not in text(home)
