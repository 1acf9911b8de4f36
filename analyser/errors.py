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


# a name that becomes part of a file name: at most this many characters (file systems allow
# 255 bytes, and the name gets a key and a suffix added)
MAX_NAME_CHARS = 100


def file_name_error(name: object) -> str | None:
    """Why ``name`` cannot be used as (part of) a file name, or None when it can: it must be
    a non-empty text of at most :data:`MAX_NAME_CHARS` printable characters, without a path
    separator and not starting with '.' (so neither '.' nor '..'). A name is only a name: it
    must never lead a write outside its folder."""
    if not isinstance(name, str) or not name:
        return f"must be a non-empty name, got {name!r}"
    if len(name) > MAX_NAME_CHARS:
        return f"must be a name of at most {MAX_NAME_CHARS} characters, got {len(name)}"
    if "/" in name or "\\" in name:
        return f"must be a name, not a path (no '/' or '\\'), got {name!r}"
    if name.startswith("."):
        return f"must not start with '.' (it names a file), got {name!r}"
    if not all(ch.isprintable() for ch in name) or name != name.strip():
        return f"must be printable characters without spaces around them, got {name!r}"
    return None
