"""Clubs, players, evenings, games and deals.

Models hold data and read-only helpers; every write goes through ``scorekeeper.services``.
Scores come only from ``scorekeeper.scoring``; a deal stores its inputs and each player's
score (``DealScore``) so that totals are plain sums in the database.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Hashable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import HouseRules, rules_from_data
from scorekeeper.scoring.sheet import map_players
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal


def default_points_scale() -> list[int]:
    """Evening ranking points by place, 1st first: the usual 10, 6, 4, 2, 1."""
    return [10, 6, 4, 2, 1]


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # Evening ranking points: off unless the owner turns them on; points by place that night.
    evening_points = models.BooleanField(_("evening ranking points"), default=False)
    evening_points_scale = models.JSONField(
        _("points by place"), default=default_points_scale, blank=True
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )
    # The house rules new evenings start with: HouseRules.to_data() ({} = the FFT rules).
    rules = models.JSONField(_("rules of the club"), default=dict, blank=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def house_rules(self) -> HouseRules:
        return rules_from_data(self.rules)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.UniqueConstraint(
                fields=["club"], condition=models.Q(role="owner"), name="membership_one_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    @property
    def is_owner(self) -> bool:
        return self.role == self.Role.OWNER


class Invitation(models.Model):
    """An e-mail address invited to a club; it becomes a membership when that address signs in."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail address"))
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["club", "email"], name="invitation_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.club}"


class Player(models.Model):
    """A name in a club's score sheets; linked to an account only if its owner has one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )
    retired = models.BooleanField(_("retired"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["retired", Lower("name"), "pk"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="player_name_once_per_club"),
        ]

    def __str__(self) -> str:
        return self.name


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


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
    # Bumped by every change a watcher should see; the live view polls against it.
    version = models.PositiveIntegerField(default=1)
    share_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The house rules every tarot deal of the evening is scored by (HouseRules.to_data(),
    # {} = the FFT rules): the club's when the evening started; only a rescore changes them.
    rules = models.JSONField(_("rules of the evening"), default=dict, blank=True)

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


class Season(models.Model):
    """A club's named date range. An evening belongs to every season its date falls in.

    The calendar year is created by itself when its first evening starts; an owner may add
    others (a spring league, say). No foreign key: a season's evenings are the club's
    evenings with ``start <= date <= end``.
    """

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


class JoinLink(models.Model):
    """A club's link that makes whoever opens it and signs in a member, until it expires.

    One usable link per club at a time: making a new one revokes the old.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_links")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("join link")
        verbose_name_plural = _("join links")

    def __str__(self) -> str:
        return f"{self.club} join link"

    @classmethod
    def usable(cls) -> models.QuerySet[JoinLink]:
        return cls.objects.filter(revoked_at=None, expires_at__gt=timezone.now())


class InvitationMail(models.Model):
    """An invitation mail sent: counted for the hourly limits, like the sign-in mails."""

    email = models.EmailField(_("e-mail address"))
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    sent_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        verbose_name = _("invitation mail")
        verbose_name_plural = _("invitation mails")
        indexes = [
            models.Index(fields=["email", "sent_at"]),
            models.Index(fields=["sent_by", "sent_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.email} {self.sent_at:%Y-%m-%d %H:%M}"


class EveningTally(models.Model):
    """One evening's figures for one game kind, as the season pages add them up.

    Rebuilt from ``DealScore`` by ``scorekeeper.reads.evening_tallies`` whenever its
    ``version`` is not the evening's (every change bumps that), so nothing else writes here; it
    lets any worker on any machine add up a season without going through all its deals again.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10)
    version = models.PositiveIntegerField()
    played = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    tallies = models.JSONField(default=dict)  # player id -> the Tally's fields, in order

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "kind"], name="evening_tally_once"),
        ]

    def __str__(self) -> str:
        return f"{self.evening_id} {self.kind} v{self.version}"


class Tournament(models.Model):
    """A club's tournament night: rounds of a fixed number of deals, players moved between
    rounds so that they meet as few times as possible, ranked by the sum of their scores.

    ``schedule`` is the plan drawn when the first round starts: ``{"players": [ids],
    "rounds": [[[ids of a table]...]...]}``; later rounds follow it while nobody came or went.
    """

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
    public_token = models.CharField(max_length=64, unique=True, default=new_share_token)
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

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


def stored_inputs(
    deal: Deal, kind: str, key: Callable[[int], Hashable] | None = None
) -> TarotDeal[Any] | PassedDeal[Any] | EscopetteDeal[Any] | PaperDeal[Any]:
    """A stored deal as the scoring package takes it, players by id (or by ``key(id)``).

    The one way back from the tables to the rules, for the reads, the services and the
    exchange alike.

    Reads ``deal.scores`` through ``.all()``, so a prefetch serves it.
    """
    if kind == Game.Kind.ESCOPETTE:
        inputs: Any = EscopetteDeal(stakes={int(k): v for k, v in deal.stakes.items()})
    else:
        seated = tuple(score.player_id for score in deal.scores.all() if score.seated)
        if deal.paper:
            scores = {score.player_id: score.score for score in deal.scores.all() if score.seated}
            inputs = PaperDeal(seated=seated, scores=scores)
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


class WaitingArchive(models.Model):
    """An uploaded club archive waiting for its preview to be confirmed (an hour at most).

    Kept compact (the archive's JSON without spaces, compressed), a few per account and a
    bounded total for the site (``services.archive_waiting``). Its restore takes the row once:
    ``club`` then names the club it made, and the content is dropped.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    content = models.BinaryField(_("archive (compressed)"), blank=True)
    size = models.PositiveIntegerField(_("bytes kept"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("waiting archive")
        verbose_name_plural = _("waiting archives")
        indexes = [models.Index(fields=["user", "created_at"], name="scorekeeper_waiting_user")]

    def __str__(self) -> str:
        return f"{self.user} archive ({self.size} bytes)"


class RemovedMember(models.Model):
    """An account the owner removed from the club: the club's join link no longer lets it in.

    An invitation from the owner to its address lets it back (and forgets this row).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removed_members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(_("removed"), default=timezone.now)

    class Meta:
        verbose_name = _("removed member")
        verbose_name_plural = _("removed members")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="scorekeeper_removed_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.club}"
