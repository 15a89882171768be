"""A game's sheet just after a deal saved: the sheet kept for the version before, followed by
that deal's row (two small queries), exactly the sheet built whole; anything else (another
change, L'escopette, a sheet read after more changes than its name says) builds it whole."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening, Game
from scorekeeper.reads.game_sheets import GameSheet, game_sheet
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.screens.table.evening_page import GameView, page_context
from tests.factories import deal_post
from tests.scorekeeper.season_factories import deal, fresh_memory, passed, stakes, tonight

pytestmark = pytest.mark.django_db


def built_whole(queries: list[dict[str, str]]) -> bool:
    """Whether these queries read a game's scores whole, as building its sheet does."""
    return any(
        'FROM "scorekeeper_dealscore"' in query["sql"]
        and 'WHERE "scorekeeper_deal"."game_id" =' in query["sql"]
        for query in queries
    )


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


def view_of(game: Game) -> GameView:
    """The game as the evening page shows it, read now (the evening at its version)."""
    evening = Evening.objects.get(pk=game.evening_id)
    context = page_context(RequestFactory().get("/"), evening, None, with_forms=False)
    return next(view for view in context["sheets"] if view.game.pk == game.pk)


def read(game: Game) -> tuple[GameSheet, bool]:
    """The game's sheet as the page reads it, and whether it was built whole."""
    view = view_of(game)
    with CaptureQueriesContext(connection) as captured:
        sheet = view.sheet
    return sheet, built_whole(captured.captured_queries)


def shown(sheet: GameSheet) -> dict[str, Any]:
    """Everything a sheet shows, by value."""
    return {
        "players": [player.pk for player in sheet.players],
        "present": [player.pk for player in sheet.present],
        "rows": [
            (
                row.deal.pk,
                row.deal.number,
                row.dealer.pk,
                row.taker.pk if row.taker else None,
                row.partner.pk if row.partner else None,
                row.outcome,
                row.result,
                row.scores,
                row.totals,
            )
            for row in sheet.rows
        ],
        "totals": sheet.totals,
        "winner": sheet.winner,
        "ended_after": sheet.ended_after,
        "problem": sheet.problem,
    }


def test_each_deal_saved_adds_its_row_to_the_sheet_of_the_version_before() -> None:
    night = tonight()
    five = night.five
    a, b, c, d, e = five
    _sheet, whole = read(night.game)
    assert whole  # nothing kept yet
    for inputs in [
        deal(five, c, "petite", 1, 40, partner=c),  # called himself: alone against four
        deal(five, d, "garde_sans", 2, 60, partner=e, petit_au_bout="defense"),
        passed(five),
        PaperDeal(
            seated=tuple(p.pk for p in five),
            scores={a.pk: 120, b.pk: -30, c.pk: -30, d.pk: -30, e.pk: -30},
        ),
        deal(five, e, "garde_contre", 3, 91, partner=d, chelem="announced"),
        deal(five, a, "garde", 2, 30, partner=c, poignees=("simple",)),
    ]:
        saved = services.deal_record(game=night.game, inputs=inputs)
        sheet, whole = read(night.game)
        assert not whole
        assert sheet.rows[-1].deal.pk == saved.pk
        assert shown(sheet) == shown(game_sheet(night.game))
    assert len(sheet.rows) == 7


def test_a_deal_at_another_game_of_the_evening_leaves_the_sheet_as_it_was() -> None:
    night = tonight()
    a, b, c, d, _e = night.five
    before, _whole = read(night.game)
    other = services.game_start(evening=night.evening, players=[a, b, c, d], first_dealer=b)
    read(night.game)  # the version of the new game
    services.deal_record(game=other, inputs=deal([a, b, c, d], b, "garde", 1, 60))
    sheet, whole = read(night.game)
    assert not whole
    assert shown(sheet) == shown(before) == shown(game_sheet(night.game))


def test_a_sheet_of_lescopette_is_built_whole_after_each_deal() -> None:
    night = tonight()
    a, b, c, d, _e = night.five
    escopette = services.game_start(
        evening=night.evening, players=[a, b, c, d], first_dealer=a, kind="escopette", target=100
    )
    read(escopette)
    services.deal_record(game=escopette, inputs=stakes({a: [1, 2, 3, 4, 5], b: [6, 7, 12, 20]}))
    sheet, whole = read(escopette)
    assert whole
    assert shown(sheet) == shown(game_sheet(escopette))


def test_a_sheet_read_after_the_deal_its_name_comes_before_is_built_whole() -> None:
    """A page that read the evening's version, then built its sheet once another phone had
    saved a deal, keeps under the version before a sheet that holds that deal."""
    night = tonight()
    a, b, *_ = night.five
    stale = view_of(night.game)
    services.deal_record(game=night.game, inputs=deal(night.five, b, "garde", 2, 70, partner=a))
    assert len(stale.sheet.rows) == 2  # named by the version before, holding the second deal
    sheet, whole = read(night.game)
    assert whole  # the second deal is not added again
    assert len(sheet.rows) == 2
    assert shown(sheet) == shown(game_sheet(night.game))


def test_any_other_change_builds_the_sheet_whole() -> None:
    night = tonight()
    a, b, c, *_ = night.five
    changes = [
        lambda: services.deal_update(
            deal=night.first, inputs=deal(night.five, a, "petite", 2, 40, partner=c)
        ),
        lambda: services.player_rename(player=b, name="Benoît"),
        # the version raised alone, the saved deal's marker left as it was
        lambda: Evening.objects.filter(pk=night.evening.pk).update(version=F("version") + 1),
    ]
    for change in changes:
        services.deal_record(game=night.game, inputs=deal(night.five, c, "garde", 1, 60, partner=a))
        read(night.game)  # kept for the deal's version
        change()
        sheet, whole = read(night.game)
        assert whole
        assert shown(sheet) == shown(game_sheet(night.game))


def test_the_save_answers_with_the_sheet_of_the_version_before_and_the_new_row() -> None:
    """The phone that saves a deal gets the totals with it: the sheet its save made, built
    from the one its page showed, not from every deal again."""
    night = tonight()
    _a, b, c, _d, e = night.five
    client = Client()
    client.force_login(night.evening.club.memberships.get(role="owner").user)
    url = reverse("deal_create", args=[night.evening.pk, night.game.pk])
    assert client.get(reverse("evening", args=[night.evening.pk])).status_code == 200
    post = deal_post(
        dealer=b.pk, taker=c.pk, contract="garde", bouts=2, points=61, partner=e.pk, number=2
    )
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(url, post, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert not built_whole(captured.captured_queries)
    fresh = game_sheet(night.game)
    assert len(fresh.rows) == 2
    totals = answer.context["sheets"][0].sheet.totals
    assert totals == fresh.totals and totals != [0] * 5
    assert shown(answer.context["sheets"][0].sheet) == shown(fresh)
