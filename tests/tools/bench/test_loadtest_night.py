"""`manage.py loadtest`'s default load, a real night: clubs of 3 to 8 tables each with
players of their own, and a tournament; every kind of request it sends answers as the load
test expects (checked without wrk)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.models import Deal, Evening, Player
from tests.tools.bench.wrk_items import send
from tools.bench.load_night import CLUB_TABLES, build_night, club_sizes, night_kinds
from tools.bench.management.commands.loadtest import Command
from tools.bench.wrk import _write_script


def test_three_hundred_tables_are_sixty_clubs_of_three_to_eight_tables() -> None:
    sizes = club_sizes(300)
    assert len(sizes) == 60 and sum(sizes) == 300
    assert min(sizes) == 3 and max(sizes) == 8
    assert set(CLUB_TABLES) == set(range(3, 9))


def test_a_few_tables_are_the_first_clubs_the_last_one_taking_what_is_left() -> None:
    assert club_sizes(9) == [3, 4, 2]
    assert club_sizes(1) == [1]


@pytest.mark.django_db
def test_each_club_plays_its_own_tables_with_its_own_players_nobody_at_two() -> None:
    night = build_night(60, 9, settings.SECRET_KEY, tournament_tables=2)
    assert night.clubs == 3 and len(night.tables) == 9
    by_club: dict[int, list[int]] = {}
    for table in night.tables:
        by_club.setdefault(table.club_id, []).append(table.evening_id)
        clubs = set(Player.objects.filter(pk__in=table.present).values_list("club", flat=True))
        assert clubs == {table.club_id}
    assert sorted(len(evenings) for evenings in by_club.values()) == [2, 3, 4]
    seated = [set(table.present) for table in night.tables]
    assert sum(len(players) for players in seated) == len(set().union(*seated))
    for club, evenings in by_club.items():  # and its season's history before tonight
        assert Evening.objects.filter(club=club).exclude(pk__in=evenings).exists()
    assert night.tournament is not None and len(night.tournament.tables) == 2
    assert night.tournament.tables[0].club_id not in by_club


@pytest.mark.django_db
def test_every_request_of_the_night_answers_what_the_load_test_expects(tmp_path: Path) -> None:
    night = build_night(60, 3, settings.SECRET_KEY, tournament_tables=2)
    sent = night_kinds(night)
    names = [kind.name for kind in sent]
    assert {"live poll", "deal save", "tournament live poll", "tournament deal save"} <= set(names)
    assert names[-1] == "login page" and names.count("login page") == 1
    deals = Deal.objects.count()
    for kind in sent:
        answer = send(kind, kind.items[0])
        assert answer.status_code in kind.expect, (kind.name, answer.status_code)
        script = _write_script(kind, tmp_path).read_text()
        follows = 'local kind, method, mean_delay = "poll"' in script
        assert follows == kind.name.endswith("live poll"), kind.name
    assert Deal.objects.count() == deals + 2  # a club table's save and the tournament's
    by_name = {kind.name: kind for kind in sent}
    assert by_name["tournament deal save"].rate == pytest.approx(2 / 120)  # a table's pace


def test_the_night_is_the_default_and_the_one_club_load_a_choice() -> None:
    parser = Command().create_parser("manage.py", "loadtest")
    assert parser.parse_args([]).scenario == "night"
    assert parser.parse_args(["--scenario", "one-club"]).scenario == "one-club"
    with pytest.raises(CommandError, match="--tournament-tables"):
        call_command("loadtest", "--tournament-tables", "-1")
