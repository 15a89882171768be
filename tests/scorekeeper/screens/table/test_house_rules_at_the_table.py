"""The deal form under the evening's house rules: a misère field only when they score
misères; the preview and the sheet say which rules are in force."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.reads.deal_history import deal_history
from scorekeeper.scoring.rules import HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.screens.table.deal_forms import TarotDealForm
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HOUSE = HouseRules(poignees="20-40-60", misere=10)


def _table(client: Client, rules: HouseRules | None = None):
    club, players = make_club()
    if rules is not None:
        services.club_rules_set(club=club, rules=rules)
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return evening, game, players


def test_the_form_has_no_misere_field_when_the_rules_score_none(client: Client) -> None:
    evening, game, players = _table(client)
    form = TarotDealForm(game=game, present=players)
    assert "miseres" not in form.fields
    assert form.misere_field is None
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert 'name="deal-miseres"' not in page.text
    assert "Misère announced by" not in page.text


def test_the_form_asks_who_announced_a_misere_when_the_rules_score_it(client: Client) -> None:
    evening, game, players = _table(client, HOUSE)
    form = TarotDealForm(game=game, present=players)
    assert [label for _pk, label in form.fields["miseres"].choices] == [p.name for p in players]
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert page.text.count('name="deal-miseres"') == len(players)
    assert "Misère announced by" in page.text


def test_a_deal_with_a_misere_and_a_poignee_is_saved_by_the_house_rules(client: Client) -> None:
    evening, game, players = _table(client, HOUSE)
    data = deal_post(
        dealer=players[0].pk,
        taker=players[1].pk,
        contract="garde",
        bouts=2,
        points="45",
        poignee_double=1,
    )
    data["deal-miseres"] = [players[3].pk]
    response = client.post(reverse("deal_create", args=[evening.pk, game.pk]), data, **EN)
    assert response.status_code == 302
    deal = Deal.objects.get()
    ids = tuple(p.pk for p in players)
    expected = score_deal(
        TarotDeal(
            seated=ids,
            taker=ids[1],
            contract="garde",
            bouts=2,
            points=Decimal(45),
            poignees=("double",),
            miseres=(ids[3],),
        ),
        HOUSE,
    )
    assert {row.player_id: row.score for row in deal.scores.all()} == expected
    assert deal.miseres == [ids[3]]
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "House rules: poignées 20-40-60, misère 10" in page.text
    assert f"Misère: {players[3].name}" in page.text
    assert page.context["sheets"][0].totals == [expected[pk] for pk in ids]


def test_a_misere_sent_when_the_rules_score_none_is_not_counted(client: Client) -> None:
    evening, game, players = _table(client)
    data = deal_post(
        dealer=players[0].pk, taker=players[1].pk, contract="petite", bouts=1, points="51"
    )
    data["deal-miseres"] = [players[3].pk]
    client.post(reverse("deal_create", args=[evening.pk, game.pk]), data, **EN)
    deal = Deal.objects.get()
    assert deal.miseres == []
    assert sum(abs(row.score) for row in deal.scores.all()) == 150  # 25 x 3, both ways


def test_the_form_and_its_preview_say_which_house_rules_score_the_deal(client: Client) -> None:
    evening, game, players = _table(client, HOUSE)
    data = deal_post(
        dealer=players[0].pk, taker=players[1].pk, contract="petite", bouts=1, points="51"
    )
    data["deal-miseres"] = [players[2].pk]
    url = reverse("deal_preview", args=[evening.pk, game.pk])
    ids = tuple(p.pk for p in players)
    inputs = TarotDeal(
        seated=ids, taker=ids[1], contract="petite", bouts=1, points=Decimal(51), miseres=ids[2:3]
    )
    chloe = score_deal(inputs, HOUSE)[ids[2]]
    assert chloe == -25 + 30
    live = client.post(url, data, HTTP_HX_REQUEST="true", **EN)
    assert f'<span>Chloé</span> <strong class="positive">+{chloe}</strong>' in live.text
    without_js = client.post(url, data, **EN)  # the whole page, the preview in the form
    assert "House rules: poignées 20-40-60, misère 10" in without_js.text
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    form_html = page.text[page.text.index("deal-form") :]
    assert "House rules: poignées 20-40-60, misère 10" in form_html


def test_under_the_fft_rules_the_form_says_nothing_more_and_the_sheet_says_fft(
    client: Client,
) -> None:
    evening, game, players = _table(client)
    data = deal_post(
        dealer=players[0].pk, taker=players[1].pk, contract="petite", bouts=1, points="51"
    )
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "rules-in-force" not in page.text[page.text.index("deal-form") :].split("</form>")[0]
    client.post(reverse("deal_create", args=[evening.pk, game.pk]), data, **EN)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "FFT rules" in page.text


def test_a_sitting_out_player_cannot_announce_a_misere(client: Client) -> None:
    club, players = make_club(players=("Ana", "Ben", "Chloé", "Dan", "Eve", "Fay"))
    services.club_rules_set(club=club, rules=HOUSE)
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    data = deal_post(
        dealer=players[0].pk,
        sitting_out=[players[0].pk],
        taker=players[1].pk,
        contract="petite",
        bouts=1,
        points="51",
        partner=players[2].pk,
    )
    data["deal-miseres"] = [players[0].pk]
    response = client.post(reverse("deal_create", args=[evening.pk, game.pk]), data, **EN)
    assert response.status_code == 422
    assert response.context["sheets"][0].form.errors["miseres"]
    assert not Deal.objects.exists()


def test_a_deals_history_shows_a_misere_added_by_a_correction(client: Client) -> None:
    _evening, game, players = _table(client, HOUSE)
    ids = tuple(p.pk for p in players)
    inputs = TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=Decimal(45))
    deal = services.deal_record(game=game, inputs=inputs)
    services.deal_update(deal=deal, inputs=replace(inputs, miseres=ids[3:]))
    with translation.override("en"):
        change = deal_history(deal)[-1]
    assert ("Misère announced by", "—", players[3].name) in change.details


def test_the_misere_ticked_comes_back_from_the_counter_page(client: Client) -> None:
    evening, _game, players = _table(client, HOUSE)
    url = reverse("evening", args=[evening.pk])
    query = f"?deal-miseres={players[1].pk}&deal-miseres={players[2].pk}&deal-points=40"
    page = client.get(url + query, follow=True, **EN)  # kept, then the plain address
    assert page.redirect_chain == [(url, 302)]
    form = page.context["sheets"][0].form
    assert form.initial["miseres"] == [str(players[1].pk), str(players[2].pk)]
    assert [str(v) for v in form["miseres"].value()] == [str(players[1].pk), str(players[2].pk)]
