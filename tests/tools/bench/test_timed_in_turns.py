"""The benchmark times each row in turns with the minimal page, so that both see the machine
in the same spell."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.http import HttpResponse

from tools.bench import pages
from tools.bench.pages import in_turns


class FakeClock:
    """time.perf_counter for the benchmark: moved only by the fake requests."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_turn_of_the_row_comes_after_a_warmed_up_turn_of_the_minimal_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(pages.time, "perf_counter", clock)
    order: list[str] = []
    spell = {"ms": 2.0}  # the machine's speed: the third turn is twice as slow

    def minimal() -> HttpResponse:
        order.append("m")
        clock.now += spell["ms"] / 1000
        return HttpResponse()

    def sample() -> float:
        order.append("p")
        if order.count("p") == 20:
            spell["ms"] = 4.0
        return spell["ms"] * 5

    median, minimal_ms = in_turns(sample, minimal, 30)
    # Three turns: two requests to warm up, ten timed minimal pages, ten samples of the row.
    assert "".join(order) == ("mm" + "m" * 10 + "p" * 10) * 3
    assert median == pytest.approx(10.0)  # 19 samples at 10 ms, 11 at 20 ms
    # The minimal page timed in the same spells: 20 at 2 ms, 10 at 4 ms.
    assert minimal_ms == pytest.approx(2.0)


def test_a_repeat_that_does_not_divide_in_three_is_sampled_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pages.time, "perf_counter", FakeClock())
    samples: list[int] = []

    def sample() -> float:
        samples.append(1)
        return 1.0

    in_turns(sample, HttpResponse, 4)
    assert len(samples) == 4


def test_a_minimal_page_that_fails_stops_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages.time, "perf_counter", FakeClock())
    with pytest.raises(CommandError, match="status 500"):
        in_turns(lambda: 1.0, lambda: HttpResponse(status=500), 3)
