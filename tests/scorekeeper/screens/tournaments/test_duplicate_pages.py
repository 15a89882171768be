from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Tournament, TournamentTable
from scorekeeper.scoring.duplicate import Movement
from tests.factories import deal_post
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


def _organiser(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(_owner(tournament))
    return client


def _started(n_players: int = 12, rounds: int = 3, deals: int = 2):
    _club, _players, tournament = make_tournament(
        n_players, rounds=rounds, deals=deals, kind="duplicate"
    )
    started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    tournament.refresh_from_db()
    return tournament, started, Movement.from_json(tournament.schedule["movement"])


def _post(table: TournamentTable, case: object) -> dict[str, object]:
    seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
    return deal_post(
        dealer=seated[0], taker=seated[0], contract="garde", bouts=2, points="56", case_number=case
    )


def test_the_organiser_creates_a_duplicate_tournament_ranked_against_the_mean() -> None:
    _club, _players, free = make_tournament(4)
    client = _organiser(free)
    url = reverse("tournaments", args=[free.club_id])
    page = client.get(url, **EN)
    assert "Duplicate: each deal is dealt once" in page.text and "Match points" in page.text
    data = {
        "tournament-name": "Duplicate night",
        "tournament-date": "2026-12-04",
        "tournament-rounds": "4",
        "tournament-deals_per_round": "3",
        "tournament-kind": "duplicate",
        "tournament-method": "mean",
    }
    assert client.post(url, data, **EN).status_code == 302
    made = Tournament.objects.get(name="Duplicate night")
    assert (made.kind, made.method) == ("duplicate", "mean")
    wrong = client.post(url, {**data, "tournament-kind": "howell"}, **EN)
    assert wrong.status_code == 200 and "field-error" in wrong.text
    assert Tournament.objects.filter(name="Duplicate night").count() == 1


def test_the_case_labels_give_each_case_its_hands_and_the_tables_it_goes_to() -> None:
    _club, _players, tournament = make_tournament(12, rounds=3, deals=2, kind="duplicate")
    client = _organiser(tournament)
    url = reverse("tournament_cases", args=[tournament.pk])
    before = client.get(url, **EN)  # drawn from the players present, before round 1
    services.round_start(tournament=tournament, created_by=_owner(tournament))
    tournament.refresh_from_db()
    movement = Movement.from_json(tournament.schedule["movement"])
    page = client.get(url, **EN)
    assert (
        page.text.count('class="case-label"')
        == movement.sets * 2
        == before.text.count('class="case-label"')
    )
    label = re.search(r'id="case-3">(.*?)</article>', page.text, re.S).group(1)
    assert "seat 1: N" in label and "seat 4: W" in label
    for round_index, sets in enumerate(movement.set_at):
        table = sets.index(1) + 1  # case 3 is in set 1 (2 deals a set)
        assert f"round {round_index + 1}, table {table}" in label
    _club, _players, free = make_tournament(8, email="free@example.com")
    assert _organiser(free).get(reverse("tournament_cases", args=[free.pk])).status_code == 404
    assert _organiser(free).get(url).status_code == 404  # another club's: nothing says it exists


def test_too_few_players_for_the_case_labels_are_told_in_words() -> None:
    _club, _players, tournament = make_tournament(8, kind="duplicate")
    page = _organiser(tournament).get(reverse("tournament_cases", args=[tournament.pk]), **EN)
    assert "needs 12 to 60 players: 8 are present" in page.text


def test_each_table_card_and_the_seats_show_the_cases_and_who_sits_out() -> None:
    tournament, _started_round, movement = _started(13)
    client = _organiser(tournament)
    cards = client.get(reverse("tournament_cards", args=[tournament.pk, 1]), **EN)
    for table in range(1, 4):
        card = re.search(rf'id="table-{table}">(.*?)</article>', cards.text, re.S).group(1)
        cases = ", ".join(str(case) for case in movement.cases(0, table - 1))
        assert f"Cases {cases}" in card
        assert f"round 2: {', '.join(str(c) for c in movement.cases(1, table - 1))}" in card
    seats = client.get(reverse("tournament_seats", args=[tournament.pk, 1]), **EN)
    out = tournament.entrants.get(pk=tournament.schedule["players"][movement.sitting_out(0)[0]])
    assert f"Sitting out this round: {out.player.name}" in seats.text


def test_the_phone_enters_the_next_case_and_is_refused_a_case_not_its_own() -> None:
    _tournament, started, movement = _started()
    table = started.tables.select_related("game").get(number=1)
    cases = movement.cases(0, 0)
    phone = Client()
    phone.get(reverse("tournament_table", args=[table.token]))
    page = phone.get(reverse("evening", args=[table.evening_id]), **EN)
    field = re.search(r'<input type="number" name="deal-case_number"[^>]*>', page.text).group(0)
    assert f'value="{cases[0]}"' in field
    save = reverse("deal_create", args=[table.evening_id, table.game_id])
    other = next(case for case in range(1, 30) if case not in cases)
    for wrong, words in ((other, "is not played at this table"), ("", "Give the case number")):
        refused = phone.post(save, _post(table, wrong), **EN)
        assert refused.status_code == 422
        error = re.search(
            r'case-field field-error">.*?class="errorlist[^>]*>(.*?)</ul>', refused.text, re.S
        )
        assert error is not None and words in error.group(1)
    assert not Deal.objects.filter(game=table.game).exists()
    assert phone.post(save, _post(table, cases[0]), **EN).status_code == 302
    assert Deal.objects.get(game=table.game).case_number == cases[0]
    again = phone.get(reverse("evening", args=[table.evening_id]), **EN)
    assert re.search(rf'name="deal-case_number"[^>]*value="{cases[1]}"', again.text)


def test_the_organiser_adds_a_missing_deal_with_its_case_once_the_round_is_closed() -> None:
    tournament, started, movement = _started()
    services.round_close(tournament_round=started, even_short=True)
    table = started.tables.get(number=2)
    client = _organiser(tournament)
    url = reverse("tournament_deal_add", args=[tournament.pk, 1, 2])
    case = movement.cases(0, 1)[1]
    assert client.post(url, _post(table, case), **EN).status_code == 302
    assert Deal.objects.get(game=table.game).case_number == case
    assert client.post(url, _post(table, case), **EN).status_code == 422


def test_the_organisers_page_of_a_tables_deals_shows_each_deals_case() -> None:
    tournament, started, movement = _started()
    table = started.tables.select_related("game").get(number=2)
    client = _organiser(tournament)
    case = movement.cases(0, 1)[1]  # entered first: deal 1 is not case 1
    save = reverse("deal_create", args=[table.evening_id, table.game_id])
    assert client.post(save, _post(table, case), **EN).status_code == 302
    page = client.get(reverse("tournament_table_deals", args=[tournament.pk, 1, 2]), **EN)
    assert re.search(r"<thead>.*?</thead>", page.text, re.S).group(0).count(">Case</th>") == 1
    assert f'<th scope="row">1</th><td>{case}</td>' in page.text


def test_seating_too_few_players_is_refused_on_the_players_page() -> None:
    _club, _players, tournament = make_tournament(8, kind="duplicate")
    client = _organiser(tournament)
    answer = client.post(reverse("round_start", args=[tournament.pk]), follow=True, **EN)
    assert answer.redirect_chain[-1][0] == reverse("tournament_players", args=[tournament.pk])
    assert "needs 12 to 60 players: 8 are present" in answer.text
    assert not tournament.tournament_rounds.exists()
