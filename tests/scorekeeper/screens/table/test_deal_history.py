"""A deal's history and an evening's recently deleted deals.

Every change of a deal is kept (who, when, its inputs before and after) and shown on the
deal's edit page; the deleted deals of an evening are listed on a page of their own, each
with a restore, and all of them can be restored at once at their original numbers.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import DealChange, DeletedDeal
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, make_member, make_user, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def garde(players, taker: int = 0, points: str = "49") -> TarotDeal:
    seated = tuple(p.pk for p in players)
    return TarotDeal(seated=seated, taker=seated[taker], contract="garde", bouts=2, points=points)


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    owner = club.memberships.get().user
    evening, game = start_evening(club, players)
    client.force_login(owner)
    return client, owner, evening, game, players


def _edit(client, evening, deal, players, **fields):
    data = {
        "deal-dealer": deal.dealer_id,
        "deal-taker": players[0].pk,
        "deal-contract": "garde",
        "deal-bouts": "2",
        "deal-points": "49",
        "deal-points_for": "attack",
    }
    data.update({f"deal-{key}": value for key, value in fields.items()})
    return client.post(reverse("deal_edit", args=[evening.pk, deal.pk]), data, **EN)


def test_record_change_delete_and_restore_each_write_one_line_of_history(table) -> None:
    client, owner, evening, game, players = table
    deal = services.deal_record(game=game, inputs=garde(players), created_by=owner)
    assert _edit(client, evening, deal, players, points="56", taker=players[1].pk).status_code == (
        302
    )
    delete = client.post(reverse("deal_delete", args=[evening.pk, deal.pk]))
    deleted = DeletedDeal.objects.get()
    assert delete["Location"].endswith(f"?undo={deleted.pk}#undo")
    client.post(reverse("deal_restore", args=[evening.pk, deleted.pk]))
    back = game.deals.get()
    changes = list(DealChange.objects.filter(deal=back).order_by("pk"))
    assert [c.action for c in changes] == ["recorded", "changed", "deleted", "restored"]
    assert all(c.by == owner for c in changes)
    changed = changes[1]
    assert (changed.before["points"], changed.after["points"]) == ("49.0", "56.0")
    assert (changed.before["taker"], changed.after["taker"]) == (players[0].pk, players[1].pk)
    assert changes[2].before == changed.after and changes[2].after is None

    page = client.get(reverse("deal_edit", args=[evening.pk, back.pk]), **EN)
    history = page.text[page.text.index("History of this deal") :]
    assert "Recorded" in history and "Changed" in history
    assert "Deleted" in history and "Restored" in history
    assert "<del>49</del> → <ins>56</ins>" in history
    assert "<del>Ana</del> → <ins>Ben</ins>" in history


def test_an_edit_that_changes_nothing_adds_no_line(table) -> None:
    client, owner, evening, game, players = table
    deal = services.deal_record(game=game, inputs=garde(players), created_by=owner)
    assert _edit(client, evening, deal, players).status_code == 302
    assert list(deal.changes.values_list("action", flat=True)) == ["recorded"]


def test_a_refused_change_leaves_no_history(table) -> None:
    _client, owner, evening, game, players = table
    deal = services.deal_record(game=game, inputs=garde(players), created_by=owner)
    services.evening_close(evening=evening)
    with pytest.raises(services.ServiceError):
        services.deal_update(deal=deal, inputs=garde(players, points="60"), changed_by=owner)
    with pytest.raises(services.ServiceError):
        services.deal_delete(deal=deal, deleted_by=owner)
    assert DealChange.objects.count() == 1


def test_the_evening_links_to_its_recently_deleted_deals_with_a_restore(table) -> None:
    client, owner, evening, game, players = table
    for index in range(3):
        services.deal_record(game=game, inputs=garde(players, taker=index), created_by=owner)
    services.deal_delete(deal=game.deals.get(number=2), deleted_by=owner)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    url = reverse("deleted_deals", args=[evening.pk])
    assert f'href="{url}"' in page.text
    listing = client.get(url, **EN)
    assert listing.status_code == 200
    assert "Deal 2" in listing.text and "deleted by Ana" in listing.text
    assert "<dt>Taker</dt><dd>Ben</dd>" in listing.text  # the deleted deal's inputs
    deleted = DeletedDeal.objects.get()
    restore = reverse("deal_restore", args=[evening.pk, deleted.pk])
    assert f'action="{restore}"' in listing.text
    client.post(restore)
    assert game.deals.get(number=2).taker == players[1]
    assert "No deleted deal in this evening." in client.get(url, **EN).text


def test_restore_all_puts_every_deleted_deal_back_at_its_original_number(table) -> None:
    client, owner, evening, game, players = table
    for index in range(6):
        services.deal_record(
            game=game, inputs=garde(players, taker=index % 4, points=str(41 + index))
        )
    original = list(game.deals.order_by("number").values_list("points", flat=True))
    # Delete deals 2, then 5 (the original 6th), then 1: numbers change under each delete.
    for number in (2, 5, 1):
        services.deal_delete(deal=game.deals.get(number=number), deleted_by=owner)
    assert game.deals.count() == 3
    listing = client.get(reverse("deleted_deals", args=[evening.pk]), **EN)
    assert "Restore all 3 deals, in their original order" in listing.text
    response = client.post(reverse("deals_restore_all", args=[evening.pk]), follow=True, **EN)
    assert "3 deals are back at their numbers." in response.text
    assert list(game.deals.order_by("number").values_list("points", flat=True)) == original
    assert list(game.deals.order_by("number").values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert not DeletedDeal.objects.filter(restored_at__isnull=True).exists()


def test_the_undo_banner_still_restores_and_then_disappears(table) -> None:
    client, owner, evening, game, players = table
    services.deal_record(game=game, inputs=garde(players), created_by=owner)
    delete = client.post(reverse("deal_delete", args=[evening.pk, game.deals.get().pk]))
    banner = client.get(delete["Location"], **EN)
    assert "Deal 1 deleted." in banner.text
    deleted = DeletedDeal.objects.get()
    response = client.post(reverse("deal_restore", args=[evening.pk, deleted.pk]), follow=True)
    assert game.deals.count() == 1
    assert "Deal 1 deleted." not in client.get(delete["Location"], **EN).text
    assert response.status_code == 200


def looks_for_the_latest_deletion(queries: list[dict[str, str]]) -> bool:
    """Whether a deletion was read (its row: the games' query names each game's latest)."""
    return any(query["sql"].startswith('SELECT "scorekeeper_deleteddeal"') for query in queries)


def test_only_the_page_looks_for_a_deletion_to_undo_not_the_live_or_save_answers(table) -> None:
    """The undo banner is on the page alone: the answers that leave it where it is (the
    save's htmx answer, a live update) read no deletion."""
    client, owner, evening, game, players = table
    services.deal_record(game=game, inputs=garde(players), created_by=owner)
    client.post(reverse("deal_delete", args=[evening.pk, game.deals.get().pk]))
    post = {"deal-dealer": players[1].pk, "deal-taker": players[2].pk, "deal-contract": "garde"}
    post.update({"deal-bouts": 2, "deal-points": 60, "deal-points_for": "attack"})
    cache.clear()  # nothing remembered of the evening's versions
    with CaptureQueriesContext(connection) as saving:
        saved = client.post(
            reverse("deal_create", args=[evening.pk, game.pk]), post, HTTP_HX_REQUEST="true"
        )
    assert saved.status_code == 200 and game.deals.count() == 1
    cache.clear()
    with CaptureQueriesContext(connection) as following:
        live = client.get(reverse("evening_live", args=[evening.pk]), {"version": 0})
    assert live.status_code == 200
    assert not looks_for_the_latest_deletion(saving.captured_queries)
    assert not looks_for_the_latest_deletion(following.captured_queries)
    cache.clear()
    with CaptureQueriesContext(connection) as loading:
        page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert looks_for_the_latest_deletion(loading.captured_queries)
    # A deal saved since the deletion: undoing it would not put the sheet back, so the page
    # no longer offers it (come back to without a deal saved since, it does: e2e).
    assert "Deal 1 deleted." not in page.text


def test_only_members_see_deleted_deals_and_a_closed_evening_offers_no_restore(table) -> None:
    _client, owner, evening, game, players = table
    services.deal_record(game=game, inputs=garde(players), created_by=owner)
    services.deal_delete(deal=game.deals.get(), deleted_by=owner)
    url = reverse("deleted_deals", args=[evening.pk])
    stranger = Client()
    stranger.force_login(make_user("x@example.com", "X"))
    assert stranger.get(url).status_code == 404
    assert stranger.post(reverse("deals_restore_all", args=[evening.pk])).status_code == 404
    assert Client().get(url).status_code == 404
    member = Client()
    member.force_login(make_member(evening.club))
    assert "Restore deal 1" in member.get(url, **EN).text
    services.evening_close(evening=evening)
    closed = member.get(url, **EN)
    assert "Deal 1" in closed.text and "Restore deal 1" not in closed.text
    member.post(reverse("deals_restore_all", args=[evening.pk]))
    assert game.deals.count() == 0


@pytest.mark.parametrize("order", list(permutations(range(3))))
def test_deletions_undone_one_by_one_in_any_order_come_back_at_their_numbers(
    table, order: tuple[int, ...]
) -> None:
    client, owner, evening, game, players = table
    for index in range(6):
        services.deal_record(
            game=game, inputs=garde(players, taker=index % 4, points=str(41 + index))
        )
    original = list(game.deals.order_by("number").values_list("points", flat=True))
    deleted = [
        services.deal_delete(deal=game.deals.get(number=number), deleted_by=owner)
        for number in (4, 2, 3)  # the original 4th, then 2nd, then 5th
    ]
    for index in order:
        url = reverse("deal_restore", args=[evening.pk, deleted[index].pk])
        assert client.post(url).status_code == 302
    assert list(game.deals.order_by("number").values_list("points", flat=True)) == original
