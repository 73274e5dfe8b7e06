"""The deadline of the call in progress, which the store's waits for a
lock and its long statements obey (as the store crate's `Deadline`)."""

import time


class Deadline:
    """Passed once the call's SQL budget is spent; never while no call runs."""

    def __init__(self) -> None:
        self._until: float | None = None

    def start(self, budget_ms: float) -> None:
        """Starts the budget of a call."""
        self._until = time.monotonic() + budget_ms / 1000.0

    def clear(self) -> None:
        """The call is over: nothing passes any more."""
        self._until = None

    def remaining_ms(self) -> float | None:
        """What is left of the budget, in ms; None while no call runs."""
        if self._until is None:
            return None
        return max(0.0, (self._until - time.monotonic()) * 1000.0)

    def passed(self) -> bool:
        """Whether the call's SQL budget is spent."""
        return self._until is not None and time.monotonic() >= self._until
