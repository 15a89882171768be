"""A deal's history and an evening's deleted deals in words ("Points: 49 → 56")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.models import (
    CHELEM_CHOICES,
    PETIT_AU_BOUT_CHOICES,
    POIGNEE_LABELS,
    Deal,
    DealChange,
    DeletedDeal,
    Evening,
    Game,
)
from scorekeeper.reads.club_figures import player_names
from scorekeeper.scoring.errors import show_points


def deleted_deals_url(evening: Evening) -> str:
    return reverse("deleted_deals", args=[evening.pk])


def _who(names: dict[int, str], player: object) -> str:
    if player is None:
        return "—"
    return names.get(player, "?") if isinstance(player, int) else str(player)


def _points(value: object) -> str:
    return "—" if value is None else show_points(Decimal(str(value)))


def describe(snapshot: dict[str, Any] | None, names: dict[int, str]) -> list[tuple[str, str]]:
    """A deal's inputs as (label, value) pairs, in the order the form asks for them."""
    if not snapshot:
        return []
    lines = [(_("Dealer"), _who(names, snapshot.get("dealer")))]
    stakes: dict[str, Any] = snapshot.get("stakes") or {}
    if stakes:  # L'escopette: who won which stake trumps
        won: dict[Any, list[int]] = {}
        for trump, player in stakes.items():
            won.setdefault(player, []).append(int(trump))
        for player, trumps in won.items():
            trumps.sort(reverse=True)
            lines.append(
                (
                    _who(names, player),
                    _("%(trumps)s (%(total)s)")
                    % {"trumps": ", ".join(map(str, trumps)), "total": sum(trumps)},
                )
            )
        return lines
    seated = ", ".join(_who(names, player) for player in snapshot.get("seated") or [])
    lines.append((_("At the table"), seated))
    if snapshot.get("passed"):
        lines.append((_("Contract"), _("Everyone passed")))
        return lines
    contracts = dict(Deal.Contract.choices)
    contract = snapshot.get("contract") or ""
    lines += [
        (_("Taker"), _who(names, snapshot.get("taker"))),
        (_("Contract"), str(contracts.get(contract, contract))),
        (_("Bouts"), str(snapshot.get("bouts"))),
        (_("Attack's points"), _points(snapshot.get("points"))),
    ]
    if snapshot.get("partner") is not None:
        lines.append((_("Partner"), _who(names, snapshot.get("partner"))))
    petit = snapshot.get("petit_au_bout") or ""
    lines.append((_("Petit au bout"), str(dict(PETIT_AU_BOUT_CHOICES).get(petit, petit))))
    poignees = snapshot.get("poignees") or []
    lines.append(
        (
            _("Poignées shown"),
            ", ".join(str(POIGNEE_LABELS.get(kind, kind)) for kind in poignees) or _("None"),
        )
    )
    chelem = snapshot.get("chelem") or ""
    lines.append((_("Chelem"), str(dict(CHELEM_CHOICES).get(chelem, chelem))))
    if snapshot.get("miseres"):  # only under house rules that score misères
        announced = ", ".join(_who(names, player) for player in snapshot["miseres"])
        lines.append((_("Misère announced by"), announced))
    return lines


@dataclass
class HistoryLine:
    change: DealChange
    who: str
    # (label, before, after): only what changed for a correction; all of it otherwise
    details: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def action(self) -> str:
        return str(self.change.get_action_display())


def _author(user: Any) -> str:
    """Who did it, as a history line says it."""
    return user.get_short_name() if user is not None else _("someone")


def history_lines(changes: Iterable[DealChange], names: dict[int, str]) -> list[HistoryLine]:
    lines = []
    for change in changes:
        before = dict(describe(change.before, names))
        after = describe(change.after, names)
        if change.action == DealChange.Action.CHANGED:
            labels = list(dict.fromkeys([*(label for label, _v in after), *before]))
            now = dict(after)
            details = [
                (label, before.get(label, "—"), now.get(label, "—"))
                for label in labels
                if before.get(label) != now.get(label)
            ]
        elif change.action == DealChange.Action.DELETED:
            details = [(label, value, "") for label, value in before.items()]
        else:
            details = [(label, "", value) for label, value in after]
        lines.append(HistoryLine(change=change, who=_author(change.by), details=details))
    return lines


def deal_history(deal: Deal) -> list[HistoryLine]:
    """What happened to this deal, first to last (a deletion and its undo included)."""
    changes = DealChange.objects.filter(deal=deal).select_related("by").order_by("at", "pk")
    return history_lines(changes, player_names(deal.game.evening.club_id))


@dataclass
class DeletedLine:
    deleted: DeletedDeal
    who: str
    details: list[tuple[str, str]]


@dataclass
class DeletedInGame:
    game: Game
    lines: list[DeletedLine]


def deleted_deals(evening: Evening) -> list[DeletedInGame]:
    """The evening's deletions not undone yet, game by game, the latest first."""
    names = player_names(evening.club_id)
    rows = (
        DeletedDeal.objects.filter(game__evening=evening, restored_at__isnull=True)
        .select_related("game", "deleted_by")
        .order_by("game__number", "-pk")
    )
    games: dict[int, DeletedInGame] = {}
    for row in rows:
        line = DeletedLine(
            deleted=row, who=_author(row.deleted_by), details=describe(row.snapshot, names)
        )
        games.setdefault(row.game_id, DeletedInGame(game=row.game, lines=[])).lines.append(line)
    return list(games.values())
