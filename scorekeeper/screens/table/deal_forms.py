"""The deal form: what the table types after each deal of French Tarot."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.exchange.error_text import message_text
from scorekeeper.models import (
    CHELEM_CHOICES,
    PETIT_AU_BOUT_CHOICES,
    POIGNEE_KINDS,
    Deal,
    Game,
    Player,
)
from scorekeeper.scoring.cards import DECK_TOTAL
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal, score_escopette_deal
from scorekeeper.scoring.tarot import (
    POIGNEE_TRUMPS,
    DealOutcome,
    PassedDeal,
    TarotDeal,
    deal_outcome,
)
from scorekeeper.screens.table import bid_grid
from scorekeeper.screens.table.house_rules_fields import HouseRulesFields
from scorekeeper.server.parsing import parse_id
from scorekeeper.services.duplicate import TableCases

SIDES = [("attack", _("Attack")), ("defense", _("Defence"))]
POIGNEES = POIGNEE_KINDS

# What a refused deal says, in the reader's language (the scoring service speaks English).
_MESSAGE_FOR = {
    "seated": _("3 to 5 players must be seated."),
    "taker": _("The taker must be one of the players seated."),
    "partner": _("Choose the called partner among those seated (the taker if alone)."),
    "points": _(
        "These points do not fit the bouts: each bout is worth 4.5 points, "
        "in the attack's pile or in the defence's."
    ),
    "poignees": _("At most one poignée per seated player."),
    "petit_au_bout": _(
        "The petit au bout goes with the Petit, a bout: check the bouts and who took it."
    ),
}

# Where a scoring check lands in the form.
_FIELD_FOR = {
    "seated": "sitting_out",
    "taker": "taker",
    "contract": "contract",
    "bouts": "bouts",
    "points": "points",
    "partner": "partner",
    "petit_au_bout": "petit_au_bout",
    "poignees": "poignee_simple",
    "chelem": "chelem",
    "miseres": "miseres",
}


def parse_points(text: str) -> Decimal:
    """Read card points as typed on a phone: "45.5", "45,5", "45½"."""
    cleaned = text.strip().replace(",", ".").replace("½", ".5").replace(" ", "")
    if cleaned.startswith("."):
        cleaned = "0" + cleaned
    try:
        points = Decimal(cleaned)
    except InvalidOperation:
        raise forms.ValidationError(_("Type a number such as 45 or 45.5.")) from None
    if not points.is_finite():
        raise forms.ValidationError(_("Type a number such as 45 or 45.5."))
    if points < 0 or points > DECK_TOTAL:
        raise forms.ValidationError(_("Points go from 0 to 91."))
    if (points * 2) % 1:
        raise forms.ValidationError(_("Points go by half points (45 or 45.5)."))
    return points


class DealFormBase(forms.Form):
    """What every deal form has: the players at the table, the dealer, a one-time key."""

    prefix = "deal"
    include_template = ""
    player_fields: tuple[str, ...] = ("dealer",)

    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # A new deal's form knows which deal it is for: a second phone that saved this number
    # first makes the save ask instead of adding a copy (services.DealNumberTaken).
    number = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=100_000
    )
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        game: Game,
        present: Sequence[Player],
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        self.game = game
        self.present = list(present)
        names = [(player.pk, player.name) for player in self.present]
        for name in self.player_fields:
            self.fields[name].choices = names  # type: ignore[attr-defined]
        if not self.is_bound and not self.initial.get("idempotency_key"):
            # A double tap sends the same key twice: the deal is stored once.
            self.initial["idempotency_key"] = uuid.uuid4().hex
        self.fresh = False  # an untouched form of the next deal (set by the evening page)
        self.returned = False  # filled from the counter's count (set by the evening page)

    def dealer_player(self) -> Player:
        dealer_id = self.cleaned_data["dealer"]
        return next(p for p in self.present if p.pk == dealer_id)


class TarotDealForm(HouseRulesFields, DealFormBase):
    include_template = "scorekeeper/table/_deal_form.html"
    player_fields = ("dealer", "sitting_out", "taker", "partner")

    sitting_out = forms.TypedMultipleChoiceField(
        label=_("Sitting out"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    passed = forms.BooleanField(label=_("Everyone passed"), required=False)
    taker = forms.TypedChoiceField(
        label=_("Taker"), coerce=int, required=False, widget=forms.RadioSelect, empty_value=None
    )
    contract = forms.ChoiceField(
        label=_("Contract"), choices=Deal.Contract.choices, required=False, widget=forms.RadioSelect
    )
    # The taker and the contract in one tap (bid_grid): "<player id>:<contract>".
    bid = forms.ChoiceField(label=_("Taker and contract"), required=False, widget=forms.RadioSelect)
    partner = forms.TypedChoiceField(
        label=_("Called partner"),
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
        empty_value=None,
        help_text=_("With 5 players: who had the called king (the taker if alone)."),
    )
    bouts = forms.TypedChoiceField(
        label=_("Bouts in the attack's tricks"),
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
        empty_value=None,
    )
    points = forms.CharField(
        label=_("Points"),
        required=False,
        max_length=8,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    points_for = forms.ChoiceField(
        label=_("Points counted for"), choices=SIDES, initial="attack", widget=forms.RadioSelect
    )
    petit_au_bout = forms.ChoiceField(
        label=_("Petit au bout"),
        choices=PETIT_AU_BOUT_CHOICES,
        required=False,
        widget=forms.RadioSelect,
    )
    poignee_simple = forms.IntegerField(label=_("Simple"), min_value=0, max_value=5, required=False)
    poignee_double = forms.IntegerField(label=_("Double"), min_value=0, max_value=5, required=False)
    poignee_triple = forms.IntegerField(label=_("Triple"), min_value=0, max_value=5, required=False)
    chelem = forms.ChoiceField(
        label=_("Chelem"), choices=CHELEM_CHOICES, required=False, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, cases: TableCases | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inputs: TarotDeal[int] | PassedDeal[int] | None = None
        self.outcome: DealOutcome[int] | None = None
        self.add_house_rules(self.game)  # the misère field when the evening's rules have it
        self.fields["bid"].choices = bid_grid.bid_choices(self.present)
        self.cases = cases  # a new deal at a duplicate table: its case, typed by number
        if cases is not None:
            self.fields["case_number"] = forms.IntegerField(
                label=_("Case"), required=False, min_value=1, max_value=999
            )
            self.initial.setdefault("case_number", cases.next_case)

    # The grid of the taker and the contract (bid_grid).
    def bid_rows(self) -> list[bid_grid.BidRow]:
        return bid_grid.bid_rows(self)

    def bid_headings(self) -> list[str]:
        return bid_grid.headings()

    # What the page shows beside the fields.
    def seated_count(self) -> int:
        out = self._value_list("sitting_out")
        return len([p for p in self.present if str(p.pk) not in out])

    def poignee_trumps(self) -> dict[str, int]:
        return POIGNEE_TRUMPS.get(self.seated_count(), {})

    def poignee_fields(self) -> list[tuple[forms.BoundField, int | None]]:
        trumps = self.poignee_trumps()
        return [(self[f"poignee_{kind}"], trumps.get(kind)) for kind in POIGNEES]

    def seating_summary(self) -> tuple[str, list[str]]:
        """The dealer's name and who sits out, as the form stands (shown when folded)."""
        dealer = self["dealer"].value()
        out = self._value_list("sitting_out")
        names = {str(p.pk): p.name for p in self.present}
        return names.get(str(dealer), ""), [names[v] for v in out if v in names]

    def needs_partner(self) -> bool:
        return self.seated_count() == 5

    def _value_list(self, name: str) -> list[str]:
        if self.is_bound:
            return (
                [str(v) for v in self.data.getlist(self.add_prefix(name))]
                if hasattr(self.data, "getlist")
                else [str(v) for v in self.data.get(self.add_prefix(name), [])]
            )
        return [str(v) for v in self.initial.get(name) or []]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        refusal = self.cases.refusal(data.get("case_number")) if self.cases else None
        if refusal and not self.has_error("case_number"):
            self.add_error("case_number", refusal)
        if self.errors:
            return data
        bid = bid_grid.parse_bid(data.get("bid"))
        if bid is not None:  # one tap named both: it counts over any taker or contract sent
            data["taker"], data["contract"] = bid
        out = set(data.get("sitting_out") or [])
        seated = tuple(p.pk for p in self.present if p.pk not in out)
        if data.get("passed"):
            self.inputs = PassedDeal(seated=seated)
            if not 3 <= len(seated) <= 5:
                self.add_error("sitting_out", _("3 to 5 players must be seated."))
            return data
        for name in ("taker", "contract", "bouts", "points"):
            if data.get(name) in (None, ""):
                self.add_error(name, _("Required unless everyone passed."))
        if self.errors:
            return data
        try:
            points = parse_points(data["points"])
        except forms.ValidationError as error:
            self.add_error("points", error)
            return data
        if data.get("points_for") == "defense":
            points = DECK_TOTAL - points
        partner = data.get("partner") if len(seated) == 5 else None
        poignees = tuple(
            kind for kind in POIGNEES for _n in range(data.get(f"poignee_{kind}") or 0)
        )
        self.inputs = TarotDeal(
            seated=seated,
            taker=data["taker"],
            contract=data["contract"],
            bouts=data["bouts"],
            points=points,
            partner=partner,
            petit_au_bout=data.get("petit_au_bout") or None,
            poignees=poignees,
            chelem=data.get("chelem") or None,
            miseres=self.announced_miseres(data),
        )
        try:
            self.outcome = deal_outcome(self.inputs, self.rules)
        except ScoringError as error:
            message = _MESSAGE_FOR.get(error.field, message_text(error))
            self.add_error(_FIELD_FOR.get(error.field), message)
            self.inputs = None
        return data

    def outcome_scores(self) -> list[tuple[Player, int]]:
        """Each seated player's score in this deal, in seat order, for the preview."""
        if self.outcome is None:
            return []
        scores = self.outcome.scores
        return [(p, scores[p.pk]) for p in self.present if p.pk in scores]


def initial_for_deal(deal: Deal, present: Sequence[Player]) -> dict[str, Any]:
    """The form's initial values for editing a stored deal."""
    seated = {score.player_id for score in deal.scores.all() if score.seated}
    counts = {kind: deal.poignees.count(kind) for kind in POIGNEES}
    return {
        "dealer": deal.dealer_id,
        "sitting_out": [p.pk for p in present if p.pk not in seated],
        "passed": deal.passed,
        "taker": deal.taker_id,
        "contract": deal.contract,
        "bid": f"{deal.taker_id}:{deal.contract}" if deal.taker_id else "",
        "partner": deal.partner_id,
        "bouts": deal.bouts,
        "points": "" if deal.points is None else f"{deal.points.normalize():f}",
        "points_for": "attack",
        "petit_au_bout": deal.petit_au_bout,
        **{f"poignee_{kind}": counts[kind] or None for kind in POIGNEES},
        "chelem": deal.chelem,
        "miseres": list(deal.miseres),
    }


def initial_from_query(query: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Initial values carried back in the URL (from the counter page): deal-<field>=..."""
    initial: dict[str, Any] = {}
    lists = ("sitting_out", "miseres")  # the misère field exists only under some rules
    for name in [*names, *(name for name in lists if name not in names)]:
        key = f"deal-{name}"
        if hasattr(query, "getlist") and name in lists:
            values = query.getlist(key)
            if values:
                initial[name] = values
        elif key in query:
            initial[name] = query[key]
    return initial


class EscopetteDealForm(DealFormBase):
    """A deal of L'escopette: who won each of the nine stake trumps."""

    include_template = "scorekeeper/table/_escopette_deal_form.html"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [(player.pk, player.name) for player in self.present]
        for stake in STAKE_TRUMPS:
            self.fields[f"stake_{stake}"] = forms.TypedChoiceField(
                label=str(stake),
                choices=names,
                coerce=int,
                required=False,
                empty_value=None,
                widget=forms.RadioSelect,
            )
        self.inputs: EscopetteDeal[int] | None = None
        self.scores: dict[int, int] = {}

    def stake_fields(self) -> list[tuple[int, forms.BoundField]]:
        return [(stake, self[f"stake_{stake}"]) for stake in STAKE_TRUMPS]

    def given_so_far(self) -> list[tuple[Player, int]]:
        """Each player's stakes as the form stands, before it is complete."""
        won = {player.pk: 0 for player in self.present}
        for stake in STAKE_TRUMPS:
            player_id = parse_id(str(self[f"stake_{stake}"].value()))
            if player_id in won:
                won[player_id] += stake
        return [(player, won[player.pk]) for player in self.present]

    def total_so_far(self) -> int:
        return sum(points for _player, points in self.given_so_far())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        missing = [stake for stake in STAKE_TRUMPS if data.get(f"stake_{stake}") is None]
        for stake in missing:
            self.add_error(f"stake_{stake}", _("Who won the %(stake)s?") % {"stake": stake})
        if missing:
            return data
        self.inputs = EscopetteDeal(
            stakes={stake: data[f"stake_{stake}"] for stake in STAKE_TRUMPS}
        )
        try:
            self.scores = score_escopette_deal([p.pk for p in self.present], self.inputs)
        except ScoringError as error:
            self.add_error(None, message_text(error))
            self.inputs = None
        return data

    def outcome_scores(self) -> list[tuple[Player, int]]:
        return [(p, self.scores[p.pk]) for p in self.present if p.pk in self.scores]


def escopette_initial_for_deal(deal: Deal) -> dict[str, Any]:
    initial: dict[str, Any] = {"dealer": deal.dealer_id}
    for stake, winner in deal.stakes.items():
        initial[f"stake_{stake}"] = winner
    return initial


def deal_form_class(game: Game) -> type[TarotDealForm] | type[EscopetteDealForm]:
    return EscopetteDealForm if game.kind == Game.Kind.ESCOPETTE else TarotDealForm
