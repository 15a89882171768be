"""Eight registrations of one guest's name at once: one player, and a clear refusal for each
of the others (never an IntegrityError). The threads need PostgreSQL (the second pass of
.ci/run); the lost race itself is also played on any database, one step at a time."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Player, Tournament, TournamentPlayer
from scorekeeper.services import ServiceError
from scorekeeper.services import tournaments as tournament_services
from tests.scorekeeper.tournament_factories import make_tournament

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_registrations_of_one_guest_at_once_make_one_player_and_seven_refusals() -> None:
    _club, _players, tournament = make_tournament(4, rounds=1)
    requests = 8
    barrier = threading.Barrier(requests)
    answers: list[str] = []
    errors: list[BaseException] = []

    def register() -> None:
        try:
            barrier.wait()
            with translation.override("en"):
                services.tournament_register(
                    tournament=Tournament.objects.select_related("club").get(pk=tournament.pk),
                    guest_name="Zoé Invitée",
                )
            answers.append("registered")
        except ServiceError as refusal:
            answers.append(refusal.message)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=register) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert answers.count("registered") == 1
    assert sorted(set(answers) - {"registered"}) == ["Zoé Invitée is already registered."]
    guest = Player.objects.get(club=tournament.club, name="Zoé Invitée")
    assert TournamentPlayer.objects.filter(tournament=tournament, player=guest).count() == 1


@pytest.mark.django_db
def test_a_guest_made_by_another_request_a_moment_ago_is_a_clear_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lost race: the name was free when this request looked, and taken when it wrote."""
    _club, _players, tournament = make_tournament(4, rounds=1)
    services.tournament_register(tournament=tournament, guest_name="Zoé Invitée")
    looked = []

    def not_yet_there(club, name, **kwargs):  # the first look misses the other's player
        looked.append(name)
        return None if len(looked) == 1 else Player.objects.get(club=club, name=name)

    monkeypatch.setattr(tournament_services, "player_named", not_yet_there)
    with translation.override("en"), pytest.raises(ServiceError) as refusal:
        services.tournament_register(tournament=tournament, guest_name="Zoé Invitée")
    assert refusal.value.message == "Zoé Invitée is already registered."
    assert refusal.value.field == "guest_name"
    assert Player.objects.filter(club=tournament.club, name="Zoé Invitée").count() == 1


@pytest.mark.django_db
def test_two_adds_of_one_player_name_at_once_give_the_second_a_clear_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _club, _players, tournament = make_tournament(4, rounds=1)
    from scorekeeper.services import clubs

    monkeypatch.setattr(clubs, "player_named", lambda club, name, **kwargs: None)
    with translation.override("en"), pytest.raises(ServiceError) as refusal:
        services.player_add(club=tournament.club, name="player 01")
    assert refusal.value.message == "player 01 is already a player of this club."
