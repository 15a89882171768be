"""The club's rules page: each rule explained with a worked example; the owner changes them,
members read them; the owner's rescore of an open evening after its preview."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Club, DealScore, Evening
from scorekeeper.scoring.rules import FFT_RULES, RULE_KEYS, HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.screens.clubs.rules_examples import DEALS, PLAYERS
from tests.factories import make_club, make_member, make_user, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HOUSE_POST = {
    "rules-multipliers": "classic",
    "rules-poignees": "20-40-60",
    "rules-poignee_multiplied": "true",
    "rules-petit_au_bout": "deal_winner",
    "rules-misere": "10",
}
HOUSE = HouseRules(
    multipliers="classic",
    poignees="20-40-60",
    poignee_multiplied=True,
    petit_au_bout="deal_winner",
    misere=10,
)


@pytest.fixture
def club(client: Client):
    club, players = make_club()
    return club, players, club.memberships.get(role="owner").user


def _page(client: Client, club: Club):
    return client.get(reverse("club_rules", args=[club.pk]), **EN)


def test_the_owner_sees_each_rule_explained_with_its_choices(client: Client, club) -> None:
    club, _players, owner = club
    client.force_login(owner)
    response = _page(client, club)
    assert response.status_code == 200
    assert "FFT rules" in response.text
    for rule in RULE_KEYS:
        assert f'name="rules-{rule}"' in response.text
    assert "Save the rules" in response.text


def test_the_worked_examples_are_the_scoring_packages_numbers(client: Client, club) -> None:
    club, _players, owner = club
    client.force_login(owner)
    rules = _page(client, club).context["rules"]
    example = next(r["example"] for r in rules if r["key"] == "multipliers")
    classic = score_deal(DEALS["multipliers"], HouseRules(multipliers="classic"))
    assert [row.scores for row in example.rows] == [
        tuple(score_deal(DEALS["multipliers"])[p] for p in PLAYERS),
        tuple(classic[p] for p in PLAYERS),
    ]
    misere = next(r["example"] for r in rules if r["key"] == "misere")
    assert [row.label for row in misere.rows] == ["FFT: no misère", "10 points", "20 points"]
    assert misere.rows[0].current


def test_the_owner_changes_the_rules(client: Client, club) -> None:
    club, _players, owner = club
    client.force_login(owner)
    response = client.post(reverse("club_rules", args=[club.pk]), HOUSE_POST, **EN)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.house_rules == HOUSE
    page = client.get(response["Location"], **EN)
    assert "House rules: classic multipliers, poignées 20-40-60" in page.text
    assert "misère 10" in page.text


def test_a_choice_that_is_not_offered_is_refused_next_to_its_field(client: Client, club) -> None:
    club, _players, owner = club
    client.force_login(owner)
    response = client.post(
        reverse("club_rules", args=[club.pk]), HOUSE_POST | {"rules-misere": "15"}, **EN
    )
    assert response.status_code == 200
    assert response.context["form"].errors["misere"]
    club.refresh_from_db()
    assert club.rules == {}


def test_a_member_reads_the_rules_without_a_form(client: Client, club) -> None:
    club, _players, _owner = club
    services.club_rules_set(club=club, rules=HOUSE)
    client.force_login(make_member(club))
    response = _page(client, club)
    assert response.status_code == 200
    assert 'name="rules-misere"' not in response.text
    assert "This club: <strong>10 points</strong>" in response.text


def test_only_the_owner_changes_the_rules(client: Client, club) -> None:
    club, _players, _owner = club
    client.force_login(make_member(club))
    response = client.post(reverse("club_rules", args=[club.pk]), HOUSE_POST)
    assert response.status_code == 403
    club.refresh_from_db()
    assert club.rules == {}


def test_someone_outside_the_club_gets_404(client: Client, club) -> None:
    club, _players, _owner = club
    client.force_login(make_user("zoe@example.com", "Zoé"))
    assert _page(client, club).status_code == 404
    assert client.post(reverse("club_rules", args=[club.pk]), HOUSE_POST).status_code == 404
    client.logout()
    assert _page(client, club).status_code == 404


def _played_evening(club: Club, players) -> tuple[Evening, TarotDeal[int]]:
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    inputs = TarotDeal(
        seated=ids,
        taker=ids[0],
        contract="garde_sans",
        bouts=2,
        points=Decimal(50),
        poignees=("simple",),
        petit_au_bout="defense",
    )
    services.deal_record(game=game, inputs=inputs)
    return evening, inputs


def test_the_rescore_preview_shows_old_and_new_totals_then_the_owner_rescores(
    client: Client, club
) -> None:
    club, players, owner = club
    evening, inputs = _played_evening(club, players)
    services.club_rules_set(club=club, rules=HOUSE)
    client.force_login(owner)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert reverse("evening_rescore", args=[evening.pk]) in page.text
    url = reverse("evening_rescore", args=[evening.pk])
    preview = client.get(url, **EN)
    assert preview.status_code == 200
    new = score_deal(inputs, HOUSE)
    old = score_deal(inputs)
    lines = {line.player.pk: (line.before, line.after) for line in preview.context["preview"].lines}
    assert lines == {pk: (old[pk], new[pk]) for pk in old}
    assert "1 deal changes score." in preview.text
    assert dict(DealScore.objects.values_list("player_id", "score")) == old  # nothing written
    response = client.post(url, **EN)
    assert response.status_code == 302
    assert dict(DealScore.objects.values_list("player_id", "score")) == new
    evening.refresh_from_db()
    assert evening.house_rules == HOUSE


def test_only_the_owner_rescores_and_only_an_open_evening(client: Client, club) -> None:
    club, players, owner = club
    evening, inputs = _played_evening(club, players)
    services.club_rules_set(club=club, rules=HOUSE)
    url = reverse("evening_rescore", args=[evening.pk])
    client.force_login(make_member(club))
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    services.evening_close(evening=evening)
    client.force_login(owner)
    assert client.post(url).status_code == 409
    assert dict(DealScore.objects.values_list("player_id", "score")) == score_deal(inputs)


def test_a_rescore_the_rules_cannot_make_says_which_deal(client: Client, club) -> None:
    club, players, owner = club
    services.club_rules_set(club=club, rules=HOUSE)
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    services.deal_record(
        game=game,
        inputs=TarotDeal(
            seated=ids,
            taker=ids[0],
            contract="petite",
            bouts=1,
            points=Decimal(51),
            miseres=ids[:1],
        ),
    )
    services.club_rules_set(club=club, rules=FFT_RULES)
    client.force_login(owner)
    url = reverse("evening_rescore", args=[evening.pk])
    assert "deal 1" in client.get(url, **EN).text
    response = client.post(url, **EN)
    assert response.status_code == 422
    evening.refresh_from_db()
    assert evening.house_rules == HOUSE
