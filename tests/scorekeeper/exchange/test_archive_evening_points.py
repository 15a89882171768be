"""The club archive carries the club's evening ranking points: on or off, and their scale."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.models import Club, default_points_scale
from scorekeeper.scoring.errors import ScoringError
from tests.scorekeeper.season_factories import deal, make_world, play_evening

pytestmark = pytest.mark.django_db


def a_club_with_evening_points(enabled: bool = True, scale: tuple[int, ...] = (8, 5, 3, 1)):
    world = make_world()
    table = list(world.players.values())[:4]
    play_evening(world, dt.date(2025, 1, 10), table, [deal(table, table[0], "garde", 2, 45)])
    services.club_set_evening_points(club=world.club, enabled=enabled, scale=scale)
    return world


def restored(data: dict, owner) -> Club:
    archive = archive_read.read_archive(json.dumps(data))
    return services.archive_import(archive=archive, owner=owner, restore_members=False)


def test_the_archive_writes_the_evening_points_and_their_scale() -> None:
    world = a_club_with_evening_points()
    club = json.loads(archive_write.dump_archive(world.club))["club"]
    assert club["evening_points"] is True
    assert club["evening_points_scale"] == [8, 5, 3, 1]


def test_a_restored_club_keeps_its_evening_points_and_their_scale() -> None:
    world = a_club_with_evening_points()
    data = json.loads(archive_write.dump_archive(world.club))
    club = restored(data, world.owner)
    assert club.pk != world.club.pk
    assert club.evening_points is True
    assert club.evening_points_scale == [8, 5, 3, 1]
    # And out again: the same setting in the new club's archive.
    again = json.loads(archive_write.dump_archive(club))["club"]
    assert (again["evening_points"], again["evening_points_scale"]) == (True, [8, 5, 3, 1])


def test_a_scale_kept_while_the_points_are_off_comes_back_off_with_its_scale() -> None:
    world = a_club_with_evening_points(enabled=False, scale=(3, 2, 1))
    club = restored(json.loads(archive_write.dump_archive(world.club)), world.owner)
    assert club.evening_points is False
    assert club.evening_points_scale == [3, 2, 1]


def test_an_archive_written_before_the_setting_existed_restores_it_off() -> None:
    world = a_club_with_evening_points()
    data = json.loads(archive_write.dump_archive(world.club))
    del data["club"]["evening_points"], data["club"]["evening_points_scale"]
    club = restored(data, world.owner)
    assert club.evening_points is False
    assert club.evening_points_scale == default_points_scale()


@pytest.mark.parametrize(
    "scale, expected",
    [
        ([1, 5], "a place cannot give more points than the one before"),
        ("10, 6", "is not a list of points by place"),
        ([], "give the points of 1 to"),
    ],
)
def test_a_bad_scale_in_the_archive_is_refused_and_nothing_is_saved(scale, expected) -> None:
    world = a_club_with_evening_points()
    data = json.loads(archive_write.dump_archive(world.club))
    data["club"]["evening_points_scale"] = scale
    clubs = Club.objects.count()
    with pytest.raises(ScoringError) as caught:
        restored(data, world.owner)
    with translation.override("en"):
        assert expected in archive_read.refusal_text(caught.value)
    assert Club.objects.count() == clubs
