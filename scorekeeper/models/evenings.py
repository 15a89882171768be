"""Evenings, their games and seats, and seasons."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.clubs import Club, Player
from scorekeeper.scoring.rules import HouseRules, rules_from_data


class EveningQuerySet(models.QuerySet["Evening"]):
    def touch(self) -> int:
        """A new version of each of these evenings (see ``Evening.touch``)."""
        return self.update(version=models.F("version") + 1)


class Evening(models.Model):
    """A séance: one club at one table on one date, holding one or more games."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=80, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Raised by every change a watcher should see (``touch``); the live view polls against it.
    version = models.PositiveIntegerField(default=1)
    share_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The house rules every tarot deal of the evening is scored by (HouseRules.to_data(),
    # {} = the FFT rules): the club's when the evening started; only a rescore changes them.
    rules = models.JSONField(_("rules of the evening"), default=dict, blank=True)

    objects = EveningQuerySet.as_manager()

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-date", "-pk"]
        indexes = [models.Index(fields=["club", "date"])]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def house_rules(self) -> HouseRules:
        return rules_from_data(self.rules)

    def touch(self) -> None:
        """A new version of the evening: the one place it is raised (``EveningQuerySet.touch``
        for many at once). Every service that changes what its pages show calls it in its
        transaction; the evening in hand follows (its caller holds the evening's or a game's
        lock, or reads the evening again before trusting the number)."""
        Evening.objects.filter(pk=self.pk).touch()
        self.version += 1


class Game(models.Model):
    """One game within an evening: French Tarot, or a game of L'escopette to a target."""

    class Kind(models.TextChoices):
        TAROT = "tarot", _("French Tarot")
        ESCOPETTE = "escopette", _("L'escopette")

    class FiveMode(models.TextChoices):
        FIVE = "five", _("5-player tarot (a called king)")
        FOUR = "four", _("4-player tarot, the dealer sits out")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"), default=1)
    kind = models.CharField(_("game"), max_length=10, choices=Kind, default=Kind.TAROT)
    target = models.PositiveSmallIntegerField(_("target"), null=True, blank=True)
    five_mode = models.CharField(
        _("with five players"), max_length=4, choices=FiveMode, default=FiveMode.FIVE
    )
    first_dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first dealer")
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # A digest of an imported game's content, to notice the same game imported twice.
    import_digest = models.CharField(max_length=64, blank=True, default="", db_index=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="game_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.number} {self.kind}"


class Seat(models.Model):
    """A player at a game's table, in seat order. Leaving keeps the seat for the sheet."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    present = models.BooleanField(_("present"), default=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="seat_once_per_game"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.position}"


class Season(models.Model):
    """A club's named date range (no foreign key: its evenings are those with ``start <= date
    <= end``). The calendar year is created with its first evening."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start", "end", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_end_after_start"
            ),
            models.UniqueConstraint(fields=["club", "start", "end"], name="season_dates_once"),
        ]

    def __str__(self) -> str:
        return self.name
