"""One evening's figures per player: each group of scores counted once, both games apart,
stored by the writes in real columns and read back as they were counted."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scorekeeper.models import EveningFigures, PlayerEvening
from scorekeeper.models.figures import ESCOPETTE, TAROT, Tally, tally_of
from scorekeeper.services.figures import (
    DEFENCE,
    OUT,
    PARTNER,
    PASSED,
    TAKER,
    count_line,
    refresh_figures,
)
from tests.scorekeeper.season_factories import (
    deal,
    make_world,
    passed,
    play_escopette,
    play_evening,
    stakes,
)


def group(role: str, n: int, points: int, *, made: bool = True, **deal: Any) -> dict[str, Any]:
    """One line of the aggregation: ``n`` scores of the same kind of deal."""
    line = {"contract": "garde", "petit_au_bout": "", "chelem": "", "poignees": []}
    line.update(deal)
    return {"role": role, "n": n, "points": points, "made": made, **line}


def test_a_takers_deals_count_by_contract_made_or_not() -> None:
    tally = Tally()
    count_line(tally, group(TAKER, 2, 300, contract="garde"))
    count_line(tally, group(TAKER, 1, -56, made=False, contract="petite"))
    assert (tally.total, tally.deals, tally.takes, tally.made) == (244, 3, 3, 2)
    assert tally.contracts == {"garde": [2, 2, 300], "petite": [1, 0, -56]}


def test_the_called_partner_counts_apart_from_the_taker() -> None:
    tally = Tally()
    count_line(tally, group(PARTNER, 3, 90, made=True))
    count_line(tally, group(PARTNER, 1, -40, made=False))
    assert (tally.called, tally.called_made, tally.called_points) == (4, 3, 50)
    assert (tally.takes, tally.deals) == (0, 4)


def test_bonuses_go_to_the_players_side_or_against_it() -> None:
    attack, defence = Tally(), Tally()
    bonuses = {"petit_au_bout": "attack", "chelem": "announced", "poignees": ["simple", "double"]}
    count_line(attack, group(TAKER, 1, 500, **bonuses))
    count_line(defence, group(DEFENCE, 1, -500, **bonuses))
    assert (attack.petit_won, attack.petit_lost) == (1, 0)
    assert (defence.petit_won, defence.petit_lost) == (0, 1)
    assert (attack.chelem_won, defence.chelem_lost) == (1, 1)
    assert attack.poignees == {"simple": [1, 0], "double": [1, 0]}
    assert defence.poignees == {"simple": [0, 1], "double": [0, 1]}


def test_a_poignee_goes_to_the_side_that_wins_the_deal_whoever_showed_it() -> None:
    taker = Tally()
    count_line(taker, group(TAKER, 1, -120, made=False, poignees=["simple"]))
    assert taker.poignees == {"simple": [0, 1]}
    failed = Tally()
    count_line(failed, group(TAKER, 1, -700, made=False, chelem="announced_failed"))
    assert (failed.chelem_failed, failed.chelem_won, failed.chelem_lost) == (1, 0, 0)


def test_passed_deals_and_deals_sat_out_add_points_but_no_deal() -> None:
    tally = Tally()
    count_line(tally, group(PASSED, 4, 0))
    count_line(tally, group(OUT, 2, 0))
    count_line(tally, group(PASSED, 1, 30))  # a paper deal: in the totals, not in the figures
    assert (tally.total, tally.deals, tally.takes) == (30, 0, 0)


def test_adding_tallies_adds_every_figure() -> None:
    one, two = Tally(), Tally()
    count_line(one, group(TAKER, 1, 100, contract="garde", poignees=["simple"]))
    count_line(
        two, group(TAKER, 2, 200, contract="garde", poignees=["simple"], petit_au_bout="attack")
    )
    count_line(two, group(PARTNER, 1, 50, contract="petite"))
    one.add(two)
    assert (one.total, one.deals, one.takes, one.made, one.called) == (350, 4, 3, 3, 1)
    assert one.contracts == {"garde": [3, 3, 300]}
    assert one.poignees == {"simple": [3, 0]}
    assert one.petit_won == 2
    assert two.contracts == {"garde": [2, 2, 200]}  # the one added is left as it was


def _stored(kind: str) -> dict[int, Tally]:
    rows = PlayerEvening.objects.filter(kind=kind).values()
    return {row["player_id"]: tally_of(row) for row in rows}


@pytest.mark.django_db
def test_an_evening_of_french_tarot_is_stored_by_the_deals_saved() -> None:
    world = make_world()
    table = list(world.players.values())[:4]
    ana, ben = table[0], table[1]
    evening = play_evening(
        world,
        dt.date(2025, 1, 10),
        table,
        [deal(table, ana, "garde", 2, 45), passed(table), deal(table, ben, "petite", 1, 48)],
    )
    counts = EveningFigures.objects.get(evening=evening, kind=TAROT)
    assert counts.played == 2  # the passed deal is not played
    stored = _stored(TAROT)
    figures = {pid: (t.total, t.deals, t.takes, t.made) for pid, t in stored.items()}
    assert figures[ana.pk] == (202, 2, 1, 1)
    assert figures[ben.pk] == (-142, 2, 1, 0)
    assert stored[ana.pk].contracts == {"garde": [1, 1, 174]}
    assert not PlayerEvening.objects.filter(kind=ESCOPETTE).exists()  # none of its games
    refresh_figures([evening.pk])  # computed again: the same rows
    assert _stored(TAROT) == stored


@pytest.mark.django_db
def test_an_evening_of_lescopette_counts_games_played_and_won() -> None:
    world = make_world()
    ana, ben, chloe, dan = list(world.players.values())[:4]
    game = play_escopette(
        world,
        dt.date(2025, 2, 7),
        [ana, ben, chloe, dan],
        50,
        [stakes({ana: (20, 12, 7, 6, 5), ben: (4, 3, 2, 1)})],
    )
    counts = EveningFigures.objects.get(evening=game.evening, kind=ESCOPETTE)
    assert (counts.played, counts.games, counts.unreplayable) == (1, 1, 0)
    won = {pid: (t.total, t.games, t.won) for pid, t in _stored(ESCOPETTE).items()}
    assert won[ana.pk] == (50, 1, 1)
    assert won[ben.pk] == (10, 1, 0)
    assert not PlayerEvening.objects.filter(kind=TAROT).exists()
