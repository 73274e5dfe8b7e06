"""Errors of the store and of the host itself."""


class StoreError(Exception):
    """A store failure, as the WIT's `store-error`: `kind` is its case
    (`busy`, `constraint`, `invalid-state`, `io`, `corrupt`, `sql`,
    `other`), the message the engine's."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


class CommitUnknown(StoreError):
    """A commit whose outcome is unknown (the connection was lost during
    it): the call's writes may stand."""


class HostError(Exception):
    """The host could not do what was asked (no component, a bad option,
    a component that cannot run at all). `code` names the kind."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def finished() -> StoreError:
    """The error every late use of a transaction handle gets."""
    return StoreError(
        "invalid-state",
        "this transaction is finished (committed, rolled back, ended with its call, or ended "
        "by the store after an error or a lost connection)",
    )
