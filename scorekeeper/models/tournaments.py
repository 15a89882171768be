"""Tournaments: registered players, rounds, and each round's tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.clubs import Club, Player, new_share_token
from scorekeeper.models.evenings import Evening, Game


class Tournament(models.Model):
    """A club's tournament night: rounds of a fixed number of deals, players moved between
    rounds so that they meet as few times as possible, ranked by the sum of their scores.

    ``schedule`` is the plan drawn when the first round starts: ``{"players": [ids],
    "rounds": [[[ids of a table]...]...]}``; later rounds follow it while nobody came or went.
    A duplicate tournament's is ``{"movement": Movement.to_json(), "players": [TournamentPlayer
    ids in the movement's order]}`` (scoring.duplicate); it is ranked by ``method``.
    """

    class Kind(models.TextChoices):
        FREE = "free", _("free deals")
        DUPLICATE = "duplicate", _("duplicate")

    class Method(models.TextChoices):
        MATCH_POINTS = "match_points", _("match points")
        MEAN = "mean", _("score against the mean")

    class State(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=80, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"))
    allow_three = models.BooleanField(_("tables of 3 allowed"), default=False)
    state = models.CharField(_("state"), max_length=12, choices=State, default=State.REGISTRATION)
    schedule = models.JSONField(default=dict, blank=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind, default=Kind.FREE)
    method = models.CharField(
        _("ranking method"), max_length=12, choices=Method, default=Method.MATCH_POINTS
    )
    # The public ranking's link; None once the organiser revoked it (a new one can be made).
    public_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_share_token
    )
    # Bumped by every change of players, rounds or tables; the ranking's cache keys on it.
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "-pk"]

    def __str__(self) -> str:
        return self.name


class TournamentPlayer(models.Model):
    """A player registered for a tournament: a club player, or a guest added on the night
    (a player of the club too, so that the sheets and exports name them)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    guest = models.BooleanField(_("guest"), default=False)
    present = models.BooleanField(_("present"), default=True)
    registered_at = models.DateTimeField(_("registered"), default=timezone.now)

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        ordering = ["tournament", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="tournament_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tournament_rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class TournamentTable(models.Model):
    """One table of a round. It scores into its own evening and game, so the deal form and
    the phone flow serve it; ``token`` is its link, which works while the round is open."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    # RESTRICT: a table's evening goes only with its club (or its tournament), never alone.
    evening = models.OneToOneField(
        Evening, on_delete=models.RESTRICT, related_name="tournament_table"
    )
    game = models.OneToOneField(Game, on_delete=models.RESTRICT, related_name="tournament_table")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    # Deals the organiser allowed past the round's planned ``deals_per_round``.
    extra_deals = models.PositiveSmallIntegerField(_("deals allowed past the plan"), default=0)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    def deals_due(self, deals_per_round: int) -> int:
        """The deals this table may enter: the round's plan and what the organiser allowed."""
        return deals_per_round + self.extra_deals
