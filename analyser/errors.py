"""Exceptions that mean "the user gave us something wrong" (the CLI prints them and exits 2)."""


class RikkenError(Exception):
    """Base class of every error caused by user input; never a programming error."""


class ParseError(RikkenError, ValueError):
    """A hand, deal, card, seat or suit could not be read.

    ``where`` names the offending fragment or position so the message can point at it.
    """

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{message} (at {where!r})" if where else message)


class RulesError(RikkenError, ValueError):
    """An unknown rule set, contract or variant switch, or an illegal bid."""
