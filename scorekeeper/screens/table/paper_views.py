"""Paper deals on the evening: a deal entered by its scores alone.

For a deal the rules here do not cover (or history copied from paper): a score per player who
played, summing to zero. It counts in the totals and standings, not in contract statistics.
Reached from a link under the evening's table; the sheet marks such deals.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Deal, Game, Player
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.screens.access import deal_for, evening_for
from scorekeeper.screens.table.evening_page import evening_url

SCORE_LIMIT = 100_000


class PaperDealForm(forms.Form):
    """One score field per player at the table (empty: did not play) and the dealer."""

    prefix = "paper"

    dealer = forms.TypedChoiceField(label=gettext_lazy("Dealer"), coerce=int)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["dealer"].choices = [(p.pk, p.name) for p in players]
        for player in players:
            self.fields[f"score_{player.pk}"] = forms.IntegerField(
                label=player.name,
                required=False,
                min_value=-SCORE_LIMIT,
                max_value=SCORE_LIMIT,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
            )
        self.inputs: PaperDeal[int] | None = None

    def score_fields(self) -> list[forms.BoundField]:
        return [self[f"score_{player.pk}"] for player in self.players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        scores = {
            player.pk: data[f"score_{player.pk}"]
            for player in self.players
            if data.get(f"score_{player.pk}") is not None
        }
        deal = PaperDeal(seated=tuple(scores), scores=scores)
        try:
            score_paper_deal(deal)
        except ScoringError as error:
            raise forms.ValidationError(error_text(error)) from None
        self.inputs = deal
        return data

    def dealer_player(self) -> Player:
        return next(p for p in self.players if p.pk == self.cleaned_data["dealer"])


def _paper_page(
    request: HttpRequest,
    game: Game,
    players: list[Player],
    initial: dict[str, Any],
    deal: Deal | None,
) -> HttpResponse:
    """The paper deal's form: a new deal of ``game`` (``deal`` None), or ``deal`` corrected."""
    form = PaperDealForm(
        request.POST if request.method == "POST" else None, players=players, initial=initial
    )
    if request.method == "POST" and form.is_valid() and form.inputs is not None:
        inputs, dealer = form.inputs, form.dealer_player()
        try:
            if deal is None:
                deal = services.deal_record(
                    game=game, inputs=inputs, dealer=dealer, created_by=request.user
                )
                done = _("Deal %(number)s saved.")
            else:
                services.deal_update(
                    deal=deal, inputs=inputs, dealer=dealer, changed_by=request.user
                )
                done = _("Deal %(number)s changed.")
        except services.ServiceError as error:
            form.add_error(None, error.message)
        except ScoringError as error:
            form.add_error(None, error_text(error))
        else:
            messages.success(request, done % {"number": deal.number})
            return redirect(evening_url(game.evening, game))
    context = {"evening": game.evening, "game": game, "form": form, "deal": deal}
    status = 422 if request.method == "POST" else 200
    return render(request, "scorekeeper/table/paper_deal.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def paper_deal_new(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    game = get_object_or_404(Game, pk=game_id, evening=evening, kind=Game.Kind.TAROT)
    players = services.present_players(game)
    initial = {"dealer": services.next_dealer(game, players).pk} if players else {}
    return _paper_page(request, game, players, initial, None)


@require_http_methods(["GET", "HEAD", "POST"])
def paper_deal_edit(request: HttpRequest, evening_id: int, deal_id: int) -> HttpResponse:
    deal, _membership = deal_for(request, evening_id, deal_id)
    if not deal.paper:
        raise Http404
    game = deal.game
    scores = {s.player_id: s for s in deal.scores.select_related("player")}
    positions = dict(game.seats.values_list("player_id", "position"))
    players = sorted((s.player for s in scores.values()), key=lambda p: positions.get(p.pk, 99))
    initial: dict[str, Any] = {"dealer": deal.dealer_id}
    for player_id, score in scores.items():
        initial[f"score_{player_id}"] = score.score if score.seated else None
    return _paper_page(request, game, players, initial, deal)
