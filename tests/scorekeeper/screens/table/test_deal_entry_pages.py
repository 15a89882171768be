from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, DeletedDeal
from scorekeeper.scoring.errors import ScoringError
from tests.factories import NAMES, deal_post, make_club, make_member, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    owner = club.memberships.get(role="owner").user
    evening, game = start_evening(club, players)
    client.force_login(owner)
    return client, evening, game, players


def save(client: Client, evening, game, **fields):
    return client.post(
        reverse("deal_create", args=[evening.pk, game.pk]), deal_post(**fields), **EN
    )


def test_the_evening_page_shows_the_form_ready_for_the_first_dealer(table) -> None:
    client, evening, _game, players = table
    response = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert response.status_code == 200
    assert "Next dealer: <strong>Ana</strong>" in response.text
    assert response.context["sheets"][0].form.initial["dealer"] == players[0].pk


def test_saving_a_deal_shows_it_with_the_new_totals_and_the_next_dealer(table) -> None:
    client, evening, game, players = table
    response = save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="49",
        idempotency_key="abc",
    )
    assert response.status_code == 302
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    sheet = page.context["sheets"][0]
    assert sheet.totals == [198, -66, -66, -66]
    assert "Next dealer: <strong>Ben</strong>" in page.text
    assert "Deal 1 saved." in page.text


def test_points_typed_for_the_defence_are_91_minus_the_attacks(table) -> None:
    client, evening, game, players = table
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[1].pk,
        contract="petite",
        bouts=1,
        points="40",
        points_for="defense",
    )
    deal = Deal.objects.get()
    assert deal.points == 51
    assert {s.player.name: s.score for s in deal.scores.all()}["Ben"] == 75


def test_a_double_tap_on_save_stores_one_deal(table) -> None:
    client, evening, game, players = table
    fields = dict(
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="49",
        idempotency_key="same-key",
    )
    save(client, evening, game, **fields)
    save(client, evening, game, **fields)
    assert Deal.objects.count() == 1


def test_invalid_input_shows_errors_next_to_the_fields_and_keeps_what_was_typed(table) -> None:
    client, evening, game, players = table
    response = save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[2].pk,
        contract="garde",
        bouts=3,
        points="10,5",
    )
    assert response.status_code == 422  # the deal-number check: a refusal is 422 with the form
    assert not Deal.objects.exists()
    form = response.context["sheets"][0].form
    assert "points" in form.errors
    assert 'value="10,5"' in response.text
    # The taker and the contract sent show as their cell of the grid, ticked.
    taker_radio = f'name="deal-bid" value="{players[2].pk}:garde"'
    assert taker_radio in response.text
    checked = response.text.split(taker_radio, 1)[1].split(">", 1)[0]
    assert "checked" in checked


def test_missing_fields_are_named_unless_everyone_passed(table) -> None:
    client, evening, game, players = table
    response = save(client, evening, game, dealer=players[0].pk)
    assert set(response.context["sheets"][0].form.errors) == {
        "taker",
        "contract",
        "bouts",
        "points",
    }
    save(client, evening, game, dealer=players[0].pk, passed="on")
    deal = Deal.objects.get()
    assert deal.passed and all(s.score == 0 for s in deal.scores.all())


def test_the_preview_shows_the_score_before_anything_is_saved(table) -> None:
    client, evening, game, players = table
    response = client.post(
        reverse("deal_preview", args=[evening.pk, game.pk]),
        deal_post(
            dealer=players[0].pk, taker=players[0].pk, contract="garde", bouts=2, points="49"
        ),
        HTTP_HX_REQUEST="true",
        **EN,
    )
    assert response.status_code == 200
    assert "Made by 8 (target 41)" in response.text
    assert "+198" in response.text and "-66" in response.text
    assert "<html" not in response.text
    assert not Deal.objects.exists()


def test_the_preview_without_javascript_renders_the_whole_page(table) -> None:
    client, evening, game, players = table
    response = client.post(
        reverse("deal_preview", args=[evening.pk, game.pk]),
        deal_post(
            dealer=players[0].pk, taker=players[0].pk, contract="garde", bouts=1, points="48"
        ),
        **EN,
    )
    assert "<html" in response.text
    assert "Failed by 3 (target 51)" in response.text


def test_with_five_seated_the_partner_is_asked_and_required(client: Client) -> None:
    club, players = make_club(players=NAMES[:5])
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get().user)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "called partner" in page.text and 'name="deal-partner"' in page.text
    response = save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="45.5",
    )
    assert "partner" in response.context["sheets"][0].form.errors
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="45.5",
        partner=players[1].pk,
        poignee_simple=1,
    )
    scores = {s.player.name: s.score for s in Deal.objects.get().scores.all()}
    assert scores == {"Ana": 160, "Ben": 80, "Chloé": -80, "Dan": -80, "Eve": -80}


def test_editing_a_deal_changes_its_scores(table) -> None:
    client, evening, game, players = table
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="49",
    )
    deal = Deal.objects.get()
    page = client.get(reverse("deal_edit", args=[evening.pk, deal.pk]), **EN)
    assert page.status_code == 200
    assert 'value="49"' in page.text
    client.post(
        reverse("deal_edit", args=[evening.pk, deal.pk]),
        deal_post(
            dealer=players[0].pk, taker=players[0].pk, contract="petite", bouts=1, points="51"
        ),
    )
    assert {s.player.name: s.score for s in deal.scores.all()}["Ana"] == 75


def test_deleting_a_deal_offers_an_undo(table) -> None:
    client, evening, game, players = table
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="49",
    )
    deal = Deal.objects.get()
    response = client.post(reverse("deal_delete", args=[evening.pk, deal.pk]), follow=True, **EN)
    assert "Deal 1 deleted." in response.text
    assert not Deal.objects.exists()
    deleted = DeletedDeal.objects.get()
    client.post(reverse("deal_restore", args=[evening.pk, deleted.pk]))
    assert Deal.objects.get().number == 1


def test_live_follow_answers_304_until_something_changes(table) -> None:
    client, evening, game, players = table
    url = reverse("evening_live", args=[evening.pk])
    evening.refresh_from_db()
    unchanged = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 304
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points="49",
    )
    changed = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert 'id="live-totals"' in changed.text
    assert f'data-sheet-tail="{game.pk}" data-from="1"' in changed.text  # the whole sheet
    assert "198" in changed.text
    evening.refresh_from_db()
    assert f'data-version="{evening.version}"' in changed.text


def test_a_member_who_is_not_the_owner_enters_deals_but_cannot_close(table) -> None:
    client, evening, game, players = table
    member = make_member(evening.club, "chloe@example.com", "Chloé")
    client.force_login(member)
    assert save(client, evening, game, dealer=players[0].pk, passed="on").status_code == 302
    assert client.post(reverse("evening_close", args=[evening.pk])).status_code == 403


def test_a_closed_evening_is_read_only(table) -> None:
    client, evening, game, players = table
    client.post(reverse("evening_close", args=[evening.pk]))
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Closed: read-only" in page.text
    assert page.context["sheets"][0].form is None
    response = save(client, evening, game, dealer=players[0].pk, passed="on")
    assert not Deal.objects.exists()
    assert response.status_code == 422
    client.post(reverse("evening_reopen", args=[evening.pk]))
    assert save(client, evening, game, dealer=players[0].pk, passed="on").status_code == 302


def test_a_share_link_shows_the_evening_read_only_until_revoked(table) -> None:
    client, evening, _game, _players = table
    client.post(reverse("share_create", args=[evening.pk]))
    evening.refresh_from_db()
    token = evening.share_token
    assert token and len(token) >= 30
    anonymous = Client()
    page = anonymous.get(reverse("evening_shared", args=[token]), **EN)
    assert page.status_code == 200
    assert "deal-form" not in page.text
    assert anonymous.get(reverse("evening_shared_live", args=[token])).status_code == 200
    client.post(reverse("share_revoke", args=[evening.pk]))
    assert anonymous.get(reverse("evening_shared", args=[token])).status_code == 404


def test_starting_an_evening_takes_players_in_seat_order_and_a_first_dealer(client: Client) -> None:
    club, players = make_club(players=NAMES[:5])
    client.force_login(club.memberships.get().user)
    response = client.post(
        reverse("evening_new", args=[club.pk]),
        {
            "date": "2026-11-28",
            "place": "Chez Ana",
            "five_mode": "four",
            "first_dealer": "2",
            "seat_1": players[3].pk,
            "seat_2": players[1].pk,
            "seat_3": players[0].pk,
            "seat_5": players[4].pk,
            "seat_6": players[2].pk,
        },
    )
    assert response.status_code == 302
    evening = club.evenings.get()
    game = evening.games.get()
    assert [s.player.name for s in game.seats.order_by("position")] == [
        "Dan",
        "Ben",
        "Ana",
        "Eve",
        "Chloé",
    ]
    assert game.first_dealer.name == "Ben"
    assert game.five_mode == "four"
    assert str(evening.date) == "2026-11-28"


def test_starting_an_evening_with_too_few_players_keeps_the_form(client: Client) -> None:
    club, players = make_club()
    client.force_login(club.memberships.get().user)
    response = client.post(
        reverse("evening_new", args=[club.pk]),
        {
            "date": "2026-11-28",
            "place": "Chez Ana",
            "five_mode": "five",
            "first_dealer": "1",
            "seat_1": players[0].pk,
            "seat_2": players[1].pk,
        },
        **EN,
    )
    assert response.status_code == 200
    assert "Choose 3 to 6 players" in response.text
    assert 'value="Chez Ana"' in response.text
    assert not club.evenings.exists()


def test_the_counter_round_trip_brings_points_and_bouts_back_into_the_form(table) -> None:
    client, evening, _game, players = table
    page = client.get(
        reverse("evening", args=[evening.pk]),
        {
            "deal-taker": players[2].pk,
            "deal-contract": "garde",
            "deal-points": "45.5",
            "deal-bouts": "2",
            "deal-points_for": "attack",
        },
        follow=True,
    )
    # The address forgets the answers at once; the page shows them this one time.
    assert page.redirect_chain == [(reverse("evening", args=[evening.pk]), 302)]
    form = page.context["sheets"][0].form
    assert form["taker"].value() == str(players[2].pk)
    assert form["points"].value() == "45.5"
    assert form["bouts"].value() == "2"
    again = client.get(reverse("evening", args=[evening.pk])).context["sheets"][0].form
    assert again["points"].value() is None


def test_with_six_present_the_form_shows_that_the_dealer_sits_out(client: Client) -> None:
    club, players = make_club(players=NAMES)
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get().user)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Dealer: Ana · sitting out: Ana" in page.text
    response = save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        sitting_out=[players[0].pk, players[1].pk],
        taker=players[2].pk,
        contract="petite",
        bouts=1,
        points="51",
    )
    assert response.status_code == 302
    scores = {s.player.name: (s.seated, s.score) for s in Deal.objects.get().scores.all()}
    assert scores["Ana"] == (False, 0) and scores["Ben"] == (False, 0)
    assert scores["Chloé"] == (True, 75)


def test_the_edit_preview_uses_the_players_of_that_deal_even_after_one_left(client: Client) -> None:
    from scorekeeper import services

    club, players = make_club(players=NAMES[:5])
    evening, game = start_evening(club, players[:4])
    services.seat_join(game=game, player=players[4])
    client.force_login(club.memberships.get().user)
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[4].pk,
        contract="garde",
        bouts=2,
        points="45.5",
        partner=players[4].pk,
    )
    deal = Deal.objects.get()
    services.seat_leave(game=game, player=players[4])
    page = client.get(reverse("deal_edit", args=[evening.pk, deal.pk]), **EN)
    preview_url = page.context["preview_url"]
    assert preview_url.endswith(f"?deal={deal.pk}")
    response = client.post(
        preview_url,
        deal_post(
            dealer=players[0].pk,
            taker=players[4].pk,
            contract="garde",
            bouts=2,
            points="45.5",
            partner=players[4].pk,
        ),
        HTTP_HX_REQUEST="true",
        **EN,
    )
    assert "Made by 5 (target 41)" in response.text
    assert "+240" in response.text  # alone at 5: 4 × (25 + 5) × 2


def test_a_renamed_player_shows_under_the_new_name_on_a_sheet_seen_before(table) -> None:
    from scorekeeper import services

    client, evening, game, players = table
    save(
        client,
        evening,
        game,
        dealer=players[0].pk,
        taker=players[1].pk,
        contract="garde",
        bouts=2,
        points="49",
    )
    before = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Benoît" not in before.text
    services.player_rename(player=players[1], name="Benoît")
    after = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert after.text.count("Benoît") >= 3  # the totals, the sheet's header and its row


def test_live_refreshes_keep_a_members_edit_links_and_a_share_link_has_none(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, dealer=players[0].pk, passed="on")
    deal = Deal.objects.get()
    edit = reverse("deal_edit", args=[evening.pk, deal.pk])
    member_view = client.get(reverse("evening_live", args=[evening.pk]), {"version": 0})
    assert edit in member_view.text
    client.post(reverse("share_create", args=[evening.pk]))
    evening.refresh_from_db()
    shared = Client().get(reverse("evening_shared_live", args=[evening.share_token]))
    assert shared.status_code == 200
    assert edit not in shared.text


def test_the_table_page_lets_a_player_join_after_a_seat_and_another_leave(client: Client) -> None:
    club, players = make_club(players=NAMES[:5])
    evening, game = start_evening(club, players[:4])
    client.force_login(club.memberships.get().user)
    url = reverse("seat_join", args=[evening.pk, game.pk])
    page = client.get(url, **EN)
    assert page.status_code == 200
    assert "Eve" in page.text
    joined = client.post(url, {"player": players[4].pk, "after": players[0].pk})
    assert joined.status_code == 302
    client.post(reverse("seat_leave", args=[evening.pk, game.pk, players[2].pk]))
    from scorekeeper import services

    assert [p.name for p in services.present_players(game)] == ["Ana", "Eve", "Ben", "Dan"]
    evening_page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Who is at the table: 4 players" in evening_page.text


def test_the_cached_sheet_speaks_each_readers_language(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, dealer=players[0].pk, passed="on")
    url = reverse("evening", args=[evening.pk])
    assert "Feuille de marque" in client.get(url, HTTP_ACCEPT_LANGUAGE="fr").text
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").text
    assert "Score sheet" in english and "Feuille de marque" not in english
    live = client.get(reverse("evening_live", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Feuille de marque" not in live.text and "Score sheet" not in live.text


def test_a_scoring_refusal_at_save_reads_in_the_readers_language(table, monkeypatch) -> None:
    """What the scoring service refuses after the form passed is said in French too."""
    client, evening, game, players = table

    def refuse(**kwargs):
        raise ScoringError.coded("points", "points_over", "%(points)s is more than 91", points="93")

    monkeypatch.setattr(services, "deal_record", refuse)
    response = client.post(
        reverse("deal_create", args=[evening.pk, game.pk]),
        deal_post(
            dealer=players[0].pk, taker=players[0].pk, contract="garde", bouts=2, points="49"
        ),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 422
    assert "93 dépasse 91" in response.text
    assert "is more than 91" not in response.text
