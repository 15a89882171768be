"""Deals: their inputs, each player's score, their history and deletions, and the words
for their bonuses; ``stored_inputs`` turns a stored deal back into the rules' inputs."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.clubs import Player
from scorekeeper.models.evenings import Game
from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.sheet_write import map_players
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal

#: The words for a deal's bonuses, once for the whole site (the deal form's choices, the
#: sheet's marks, a deal's history, the statistics). Stored values are the keys.
PETIT_AU_BOUT_CHOICES = [("", _("No")), ("attack", _("Attack")), ("defense", _("Defence"))]


CHELEM_CHOICES = [
    ("", _("No")),
    ("announced", _("Announced and made")),
    ("unannounced", _("Made, not announced")),
    ("announced_failed", _("Announced and failed")),
    ("defense", _("Taken by the defence")),
]


POIGNEE_KINDS = ("simple", "double", "triple")


POIGNEE_LABELS = {
    "simple": _("Simple poignée"),
    "double": _("Double poignée"),
    "triple": _("Triple poignée"),
}


class Deal(models.Model):
    """One deal: its inputs as entered, and (in DealScore) what each player scored."""

    class Contract(models.TextChoices):
        """The four bids of French Tarot, in the words of the table."""

        PETITE = "petite", _("Petite")
        GARDE = "garde", _("Garde")
        GARDE_SANS = "garde_sans", _("Garde sans")
        GARDE_CONTRE = "garde_contre", _("Garde contre")

    #: Not stored: True on the deal services.deal_record answers when it stored nothing this
    #: time (the very same deal sent again with its one-time key): no one may say "saved".
    already_stored = False

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.IntegerField(_("deal"))  # briefly negative while renumbering
    dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("dealer")
    )
    passed = models.BooleanField(_("everyone passed"), default=False)
    taker = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    contract = models.CharField(_("contract"), max_length=12, blank=True)
    bouts = models.PositiveSmallIntegerField(_("bouts"), null=True, blank=True)
    points = models.DecimalField(
        _("attack's points"), max_digits=3, decimal_places=1, null=True, blank=True
    )
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # PETIT_AU_BOUT_CHOICES, a list of POIGNEE_KINDS, CHELEM_CHOICES (above the class).
    petit_au_bout = models.CharField(_("petit au bout"), max_length=8, blank=True)
    poignees = models.JSONField(_("poignées"), default=list, blank=True)
    chelem = models.CharField(_("chelem"), max_length=20, blank=True)
    stakes = models.JSONField(_("stakes"), default=dict, blank=True)  # L'escopette
    # The players (ids) who announced a misère, when the evening's rules score misères.
    miseres = models.JSONField(_("misères announced"), default=list, blank=True)
    # Known only by its scores (paper history, or a deal the rules here do not cover): counts in
    # totals and standings, not in contract statistics.
    paper = models.BooleanField(_("scores only"), default=False)
    # The case (étui) a duplicate tournament's deal was dealt from, numbered from 1.
    case_number = models.PositiveSmallIntegerField(_("case"), null=True, blank=True)
    # Once per game (deal_key_once_per_game); NULL, not "", for the deals without one.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_once_per_game"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"], name="deal_key_once_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number}"


class DealScore(models.Model):
    """What one player scored in one deal (0 when sitting out)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="deal_scores")
    seated = models.BooleanField(_("seated"), default=True)
    score = models.IntegerField(_("score"))
    # The player's running total in the game after this deal: kept by the services that
    # change the game's deals or their order, in the same transaction (services.deal_totals).
    total = models.IntegerField(_("total"), default=0)

    class Meta:
        verbose_name = _("deal score")
        verbose_name_plural = _("deal scores")
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="deal_score_once"),
        ]
        indexes = [models.Index(fields=["player", "deal"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.score}"


class DeletedDeal(models.Model):
    """A deleted deal kept for its undo: the inputs, enough to record it again."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deleted_deals")
    number = models.PositiveIntegerField()
    snapshot = models.JSONField()
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deleted_at = models.DateTimeField(default=timezone.now)
    # Set by the restore: a second restore (a double tap) finds the deal already back.
    restored_at = models.DateTimeField(null=True, blank=True)
    restored_as = models.ForeignKey(
        "Deal", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("deleted deal")
        verbose_name_plural = _("deleted deals")

    def __str__(self) -> str:
        return f"{self.game} deleted deal {self.number}"


class DealChange(models.Model):
    """One line of a deal's history: who recorded, changed, deleted or restored it, and how.

    ``before`` and ``after`` hold the deal's inputs (the snapshot a deletion keeps). A deleted
    deal's lines point to its ``DeletedDeal``; its restore points them at the deal again.
    """

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        CHANGED = "changed", _("changed")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_changes")
    deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    deleted = models.ForeignKey(
        DeletedDeal, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    number = models.IntegerField(_("deal"))
    action = models.CharField(max_length=10, choices=Action)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("deal change")
        verbose_name_plural = _("deal changes")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number} {self.action}"


#: A deal's stored score as a read without model instances gives it: player id, seated, score.
ScoreLine = tuple[int, bool, int]


def stored_inputs(
    deal: Deal,
    kind: str,
    key: Callable[[int], Hashable] | None = None,
    *,
    lines: Iterable[ScoreLine] | None = None,
) -> TarotDeal[Any] | PassedDeal[Any] | EscopetteDeal[Any] | PaperDeal[Any]:
    """A stored deal as the scoring package takes it, players by id (or by ``key(id)``).

    The one way back from the tables to the rules, for the reads, the services and the
    exchange alike.

    Reads ``deal.scores`` through ``.all()``, so a prefetch serves it; or ``lines``, the same
    scores read as plain tuples (the score sheet's cheaper way).
    """
    if kind == Game.Kind.ESCOPETTE:
        inputs: Any = EscopetteDeal(stakes={int(k): v for k, v in deal.stakes.items()})
    else:
        if lines is None:
            lines = ((s.player_id, s.seated, s.score) for s in deal.scores.all())
        at_table = [(player, score) for player, seated, score in lines if seated]
        seated = tuple(player for player, _score in at_table)
        if deal.paper:
            inputs = PaperDeal(seated=seated, scores=dict(at_table))
        elif deal.passed:
            inputs = PassedDeal(seated=seated)
        else:
            inputs = TarotDeal(
                seated=seated,
                taker=deal.taker_id,
                contract=deal.contract,
                bouts=deal.bouts or 0,
                points=deal.points if deal.points is not None else Decimal(0),
                partner=deal.partner_id,
                petit_au_bout=deal.petit_au_bout or None,
                poignees=tuple(deal.poignees),
                chelem=deal.chelem or None,
                miseres=tuple(deal.miseres or ()),
            )
    return map_players(inputs, key) if key is not None else inputs
