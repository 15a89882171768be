"""No stale page: after any sequence of writes, every season and figures read equals the one
built from nothing (the cache emptied, the read model computed again from the scores).

Random sequences of service calls: deals saved at two tables tonight and at an older evening,
corrections, deletions and undos, renames, seat changes, a rescore by other rules, closing,
a member removed, a tournament table's deals and its next round (the night counts once).
After each call the standings (both games), a player's page, the ratings, head to head,
records and contracts (all time and the season) and the tournament ranking are read, then
read again from an empty cache and a read model rebuilt from the stored scores: both must be
equal.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import (
    DealScore,
    DeletedDeal,
    Evening,
    EveningFigures,
    FiguresCheckpoint,
    Membership,
    PlayerEvening,
    Season,
)
from scorekeeper.reads.charts import season_chart
from scorekeeper.reads.club_figures import club_figures
from scorekeeper.reads.player_figures import player_sections
from scorekeeper.reads.tournaments import ranking
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.services.figures import refresh_figures
from tests.scorekeeper.season_factories import season_stats_by_kind

TODAY = dt.date(2025, 3, 14)
OLD = dt.date(2025, 1, 10)
HOUSE = HouseRules(multipliers="classic", misere=20)
CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "save",
                "save",
                "save",
                "correct",
                "delete",
                "undo",
                "rename",
                "seat",
                "rescore",
                "close",
                "remove_member",
                "tournament",
                "next_round",
            ]
        ),
        st.integers(min_value=0, max_value=10_000),
    ),
    min_size=1,
    max_size=8,
)


class Scene:
    """A club of eight players: two tables tonight, an older evening, a tournament table."""

    def __init__(self) -> None:
        self.owner = User.objects.create_user("owner@example.com")
        self.club = services.club_create(name="Les Bouts", owner=self.owner)
        self.member = User.objects.create_user("member@example.com")
        Membership.objects.create(club=self.club, user=self.member)
        self.players = [
            services.player_add(club=self.club, name=name)
            for name in ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gaby", "Hugo")
        ]
        self.evenings = []
        for date, four in ((OLD, self.players[:4]), (TODAY, self.players[:4])):
            self.evenings.append(self._evening(date, four))
        self.evenings.append(self._evening(TODAY, self.players[4:]))
        self.tournament = services.tournament_create(
            club=self.club, created_by=self.owner, name="Cup", rounds=2, deals_per_round=4
        )
        for player in self.players[:4]:
            services.tournament_register(tournament=self.tournament, player=player)
        services.round_start(tournament=self.tournament, created_by=self.owner)
        self.renames = 0

    def _evening(self, date: dt.date, four: list[Any]) -> Evening:
        evening = services.evening_start(
            club=self.club, players=four, first_dealer=four[0], created_by=self.owner, date=date
        )
        for number in range(2):
            self._save(evening.games.get(), number)
        return evening

    def _save(self, game: Any, n: int) -> None:
        present = services.present_players(game)[:4]
        inputs = TarotDeal(
            seated=tuple(p.pk for p in present),
            taker=present[n % 4].pk,
            contract=CONTRACTS[n % 4],
            bouts=n % 4,
            points=25 + n % 45,
        )
        services.deal_record(game=game, inputs=inputs, created_by=None)

    def act(self, action: str, n: int) -> None:
        evenings = list(Evening.objects.filter(club=self.club, closed_at__isnull=True))
        deals = list(DealScore.objects.values_list("deal", flat=True).distinct().order_by("deal"))
        nights = [e for e in evenings if not hasattr(e, "tournament_table")]  # tables: "tournament"
        if action == "save" and nights:
            self._save(nights[n % len(nights)].games.order_by("number").first(), n)
        elif action in ("correct", "delete") and deals:
            from scorekeeper.models import Deal

            deal = Deal.objects.select_related("game__evening").get(pk=deals[n % len(deals)])
            if deal.game.evening.is_closed or deal.game.kind != "tarot":
                return
            if action == "delete":
                services.deal_delete(deal=deal, deleted_by=self.owner)
                return
            seated = tuple(
                DealScore.objects.filter(deal=deal, seated=True).values_list("player_id", flat=True)
            )
            inputs = TarotDeal(
                seated=seated, taker=seated[n % len(seated)], contract="garde", bouts=n % 4,
                points=25 + n % 45,
            )  # fmt: skip
            services.deal_update(deal=deal, inputs=inputs, changed_by=self.owner)
        elif action == "undo":
            deleted = DeletedDeal.objects.filter(restored_at__isnull=True).first()
            if deleted is not None and not deleted.game.evening.is_closed:
                services.deal_restore(deleted=deleted, restored_by=self.owner)
        elif action == "rename":
            self.renames += 1
            player = self.players[n % len(self.players)]
            services.player_rename(player=player, name=f"{player.name[:20]} {self.renames}")
        elif action == "seat" and evenings:
            game = evenings[n % len(evenings)].games.order_by("number").first()
            present = services.present_players(game)
            out = [p for p in self.players if p not in present]
            if out and len(present) == 4:
                services.seat_join(game=game, player=out[n % len(out)])
                services.seat_leave(game=game, player=present[n % 4])
        elif action == "rescore" and evenings:
            rules = HOUSE if n % 2 else FFT_RULES
            services.evening_rescore(evening=evenings[n % len(evenings)], rules=rules)
        elif action == "close" and evenings:
            services.evening_close(evening=evenings[n % len(evenings)])
        elif action == "remove_member":
            membership = Membership.objects.filter(club=self.club, user=self.member).first()
            if membership is not None:
                services.member_remove(membership=membership)
        elif action == "tournament":
            table = self.tournament.tournament_rounds.order_by("number").last().tables.get()
            if not table.evening.is_closed and table.game.deals.count() < 4:
                self._save(table.game, n)
        elif action == "next_round":
            current = self.tournament.tournament_rounds.order_by("number").last()
            services.round_close(tournament_round=current, even_short=True)
            if current.number < self.tournament.rounds:
                services.round_start(tournament=self.tournament, created_by=self.owner)

    def pages(self) -> dict[str, Any]:
        """What the season and figures pages read, as plain data."""
        found: dict[str, Any] = {}
        season = Season.objects.filter(club=self.club).first()
        for label, start, end in (("all", None, None), ("season", season.start, season.end)):
            stats = season_stats_by_kind(self.club, start=start, end=end)
            found[f"standings {label}"] = {kind: vars(s) for kind, s in stats.items()}
            found[f"chart {label}"] = season_chart(stats["tarot"]).figure_html  # its kept part too
            figures = club_figures(self.club.pk, start=start, end=end)
            state = figures.state
            found[f"figures {label}"] = (
                figures.key,
                state.ratings.table(),
                state.ratings.quality,
                state.point_flow(),
                state.partnerships(),
                state.contracts,
                state.records(),
            )
        ana = self.players[0]
        ana.refresh_from_db()
        tarot, escopette = player_sections(ana)
        found["player"] = (vars(tarot), escopette)
        found["ranking"] = ranking(self.tournament).rows
        return found


def rebuilt_from_nothing() -> None:
    """An empty cache and the read model computed again from the stored scores."""
    cache.clear()
    PlayerEvening.objects.all().delete()
    EveningFigures.objects.all().delete()
    FiguresCheckpoint.objects.all().delete()
    refresh_figures(Evening.objects.values_list("pk", flat=True))


class NoStalePage(TestCase):
    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(actions=ACTIONS)
    def test_every_page_reads_as_built_from_nothing_after_each_write(self, actions) -> None:
        cache.clear()
        scene = Scene()
        scene.pages()  # the checkpoints stored before the writes
        for action, n in actions:
            scene.act(action, n)
            kept = scene.pages()
            rebuilt_from_nothing()
            assert scene.pages() == kept, (action, n)
