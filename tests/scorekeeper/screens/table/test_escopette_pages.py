from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Game
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal
from tests.factories import NAMES, make_club

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def stakes_to(players, winners: dict[int, int]) -> dict[str, object]:
    """POST data giving each stake to players[winners[stake]] (default: the first player)."""
    data: dict[str, object] = {"deal-dealer": players[0].pk}
    for stake in STAKE_TRUMPS:
        data[f"deal-stake_{stake}"] = players[winners.get(stake, 0)].pk
    return data


@pytest.fixture
def escopette(client: Client):
    club, players = make_club(players=NAMES[:4])
    owner = club.memberships.get().user
    evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=owner,
        kind=Game.Kind.ESCOPETTE,
        target=50,
    )
    client.force_login(owner)
    return client, evening, evening.games.get(), players


def test_an_evening_can_start_with_a_game_of_escopette_to_50_or_100(client: Client) -> None:
    club, players = make_club(players=NAMES[:5])
    client.force_login(club.memberships.get().user)
    form = {
        "date": "2026-11-28",
        "kind": "escopette",
        "target": "100",
        "first_dealer": "1",
        "five_mode": "five",
    }
    form.update({f"seat_{i + 1}": p.pk for i, p in enumerate(players)})
    refused = client.post(reverse("evening_new", args=[club.pk]), form, **EN)
    assert "exactly 4 players" in refused.text
    del form["seat_5"]
    assert client.post(reverse("evening_new", args=[club.pk]), form).status_code == 302
    game = club.evenings.get().games.get()
    assert (game.kind, game.target) == ("escopette", 100)


def test_the_escopette_form_needs_all_nine_stakes_and_adds_them_up(escopette) -> None:
    client, evening, game, players = escopette
    data = stakes_to(players, {12: 1, 20: 2})
    del data["deal-stake_20"]
    preview = client.post(
        reverse("deal_preview", args=[evening.pk, game.pk]), data, HTTP_HX_REQUEST="true", **EN
    )
    assert "Given so far: 40 of 60" in preview.text
    response = client.post(reverse("deal_create", args=[evening.pk, game.pk]), data, **EN)
    assert "Who won the 20?" in response.text
    assert not Deal.objects.exists()
    data["deal-stake_20"] = players[2].pk
    assert client.post(reverse("deal_create", args=[evening.pk, game.pk]), data).status_code == 302
    scores = {s.player.name: s.score for s in Deal.objects.get().scores.all()}
    assert scores == {"Ana": 28, "Ben": 12, "Chloé": 20, "Dan": 0}


def test_the_game_ends_with_a_winner_and_refuses_another_deal(escopette) -> None:
    client, evening, game, players = escopette
    url = reverse("deal_create", args=[evening.pk, game.pk])
    client.post(url, stakes_to(players, {20: 1}))  # Ana 40, Ben 20
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert page.context["sheets"][0].winner is None
    client.post(url, stakes_to(players, {}))  # Ana 100
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert page.context["sheets"][0].winner == players[0]
    assert "Ana wins the game with 100 points." in page.text
    assert page.context["sheets"][0].form is None
    response = client.post(url, stakes_to(players, {}), **EN)
    assert "This game has ended" in response.text
    assert Deal.objects.count() == 2


def test_a_tie_at_the_top_means_another_deal(escopette) -> None:
    client, evening, game, players = escopette
    url = reverse("deal_create", args=[evening.pk, game.pk])
    # Ana 1+2+3+4+5+6+7 = 28 and Ben 12+20 = 32, then the reverse: both 60.
    first = stakes_to(players, {12: 1, 20: 1})
    second = {**stakes_to(players, {s: 1 for s in (1, 2, 3, 4, 5, 6, 7)})}
    second.update({"deal-stake_12": players[0].pk, "deal-stake_20": players[0].pk})
    client.post(url, first)
    client.post(url, second)
    sheet = client.get(reverse("evening", args=[evening.pk])).context["sheets"][0]
    assert sheet.totals[:2] == [60, 60]
    assert sheet.winner is None and sheet.form is not None


def test_editing_a_deal_re_decides_the_end(escopette) -> None:
    client, evening, game, players = escopette
    url = reverse("deal_create", args=[evening.pk, game.pk])
    client.post(url, stakes_to(players, {}))  # Ana 60: ended
    deal = Deal.objects.get()
    assert client.get(reverse("evening", args=[evening.pk])).context["sheets"][0].winner
    edit = reverse("deal_edit", args=[evening.pk, deal.pk])
    page = client.get(edit, **EN)
    assert page.status_code == 200
    client.post(edit, stakes_to(players, {20: 1, 12: 2}))  # Ana 28, Ben 20, Chloé 12
    sheet = client.get(reverse("evening", args=[evening.pk])).context["sheets"][0]
    assert sheet.winner is None and sheet.form is not None


def test_an_edit_that_would_end_the_game_before_later_deals_is_refused(escopette) -> None:
    client, evening, game, players = escopette
    ids = [p.pk for p in players]
    services.deal_record(
        game=game,
        inputs=EscopetteDeal(
            stakes={s: ids[1] for s in STAKE_TRUMPS[:7]} | {12: ids[2], 20: ids[3]}
        ),
    )
    services.deal_record(
        game=game,
        inputs=EscopetteDeal(
            stakes={s: ids[1] for s in STAKE_TRUMPS[:7]} | {12: ids[2], 20: ids[3]}
        ),
    )
    first = game.deals.get(number=1)
    response = client.post(
        reverse("deal_edit", args=[evening.pk, first.pk]), stakes_to(players, {}), **EN
    )
    assert "later deals follow" in response.text
    assert {s.player.name: s.score for s in first.scores.all()}["Ana"] == 0


def test_another_game_can_follow_in_the_same_evening(escopette) -> None:
    client, evening, _game, players = escopette
    response = client.post(
        reverse("game_new", args=[evening.pk]),
        {
            "kind": "tarot",
            "first_dealer": "2",
            "five_mode": "five",
            **{f"seat_{i + 1}": p.pk for i, p in enumerate(players)},
        },
    )
    assert response.status_code == 302
    assert list(evening.games.values_list("number", "kind")) == [(1, "escopette"), (2, "tarot")]
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert len(page.context["sheets"]) == 2
    assert page.context["sheets"][1].form is not None


def test_the_rules_page_is_public_and_linked_from_the_deal_form(escopette) -> None:
    client, evening, _game, _players = escopette
    rules = reverse("rules_escopette")
    assert Client().get(rules, **EN).status_code == 200
    assert rules in client.get(reverse("evening", args=[evening.pk])).text
