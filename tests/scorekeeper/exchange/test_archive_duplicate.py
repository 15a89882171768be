"""A club archive carries its duplicate tournaments: kind, method, the movement with its
players, and the case each deal came from; restored, the results are the same."""

from __future__ import annotations

import json

import pytest

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.models import Deal, Tournament
from scorekeeper.reads import duplicate as reads
from scorekeeper.scoring.duplicate import duplicate_movement
from scorekeeper.scoring.errors import ScoringError
from tests.scorekeeper.screens.tournaments.test_duplicate_results import _duplicate

pytestmark = pytest.mark.django_db


def _with_movement() -> Tournament:
    tournament = _duplicate("mean")
    movement = duplicate_movement(players=12, rounds=2, deals_per_round=1)
    entrants = list(tournament.entrants.order_by("-pk").values_list("pk", flat=True))
    tournament.schedule = {"movement": movement.to_json(), "players": entrants}
    tournament.save(update_fields=["schedule"])
    return tournament


def test_a_duplicate_tournament_comes_back_with_its_movement_cases_and_results() -> None:
    tournament = _with_movement()
    owner = tournament.club.memberships.get(role="owner").user
    text = archive_write.dump_archive(tournament.club)
    [archived] = json.loads(text)["tournaments"]
    assert (archived["kind"], archived["method"]) == ("duplicate", "mean")
    assert archived["schedule"]["players"][0] == tournament.entrants.order_by("-pk")[0].player.name
    assert archived["played"][0]["tables"][0]["cases"] == [[1, 1]]
    club = services.archive_import(
        archive=archive_read.read_archive(text), owner=owner, restore_members=False
    )
    copy = club.tournaments.get()
    assert (copy.kind, copy.method) == ("duplicate", "mean")
    assert copy.schedule["movement"] == tournament.schedule["movement"]
    names = dict(copy.entrants.values_list("pk", "player__name"))
    old = dict(tournament.entrants.values_list("pk", "player__name"))
    assert [names[pk] for pk in copy.schedule["players"]] == [
        old[pk] for pk in tournament.schedule["players"]
    ]
    cases = sorted(
        Deal.objects.filter(game__evening__club=club).values_list("case_number", flat=True)
    )
    assert cases == [1, 1, 2, 2, 3, 3]
    lines = [(r.name, r.rank, r.figure) for r in reads.ranking(copy).rows]
    assert lines == [(r.name, r.rank, r.figure) for r in reads.ranking(tournament).rows]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t.update(kind="swiss"), "is not a kind of tournament"),
        (lambda t: t.update(method="imps"), "is not a kind of tournament"),
        (lambda t: t["schedule"]["movement"].update(seating=[[[0, 1]]]), "not a movement"),
        (lambda t: t["schedule"]["players"].pop(), "not a movement"),
        (lambda t: t["played"][0]["tables"][0].update(cases=[[1]]), "is not a deal and its case"),
        (lambda t: t["played"][0]["tables"][0].update(cases=[[1, 0]]), "0 is far too large"),
    ],
)
def test_a_bad_duplicate_tournament_in_an_archive_is_refused(change, expected) -> None:
    data = json.loads(archive_write.dump_archive(_with_movement().club))
    change(data["tournaments"][0])
    with pytest.raises(ScoringError) as caught:
        archive_read.read_archive(json.dumps(data))
    assert expected in str(caught.value)
