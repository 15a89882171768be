"""The taker and the contract in one tap, and the called partner: the deal form's grid, tapped
as a scorer taps it (each cell is labelled "Ana, Garde" or "Ana, called partner")."""

from __future__ import annotations

from playwright.sync_api import Locator, expect


def bid_cell(form: Locator, taker: str, contract: str) -> Locator:
    return form.get_by_label(f"{taker}, {contract}", exact=True)


def partner_cell(form: Locator, name: str) -> Locator:
    return form.get_by_label(f"{name}, called partner", exact=True)


def tap_bid(form: Locator, taker: str, contract: str) -> None:
    cell = bid_cell(form, taker, contract)
    cell.tap()
    expect(cell).to_be_checked()


def tap_partner(form: Locator, name: str) -> None:
    cell = partner_cell(form, name)
    cell.tap()
    expect(cell).to_be_checked()
