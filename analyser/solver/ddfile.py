"""The CSV format of `rikken dd`: one position per row, validated before anything is solved.

Columns (header required, any order, extra columns are kept and passed through):

* ``deal``     PBN ``N:hand hand hand hand`` (Dutch seat letters N O Z W too); a full deal or
               an ending with equally many cards per hand.
* ``trump``    S H D C or NT (Dutch S H R K, SA/ZT; symbols); required. With a turned card
               (wiezen, ``--turned``) also ``turned``: the turned card's suit (W-01).
* ``leader``   the seat on lead: N E S W (Dutch N O Z W); required.
* ``declarer`` the declarer's seat; required.
* ``partner``  the declarer's partner's seat, or empty (declarer alone). At rik the partner is
               whoever holds the called card: left empty with a called card, it is derived.
* ``goal``     ``tricks`` (default when empty), ``>=K``, ``misere`` or ``piek``.
* ``called``   optional called card (suit then rank, e.g. ``DA``, ``♦A``, Dutch ``RA``).

With a turned card (wiezen W-01) the dealer is West, as in the analysis (N is the forehand):
the turned card must lie in West's hand, or (in an ending) have been played already.

Output: the same rows and columns plus ``result`` (tricks of the declarer side, or 1/0 for a
yes/no goal) and ``ms`` (solve time of that row in milliseconds).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from analyser.cards import SEAT_LETTERS
from analyser.errors import ParseError, RikkenError
from analyser.notation import (
    deal_masks,
    format_card,
    parse_card,
    parse_deal,
    parse_seat,
    parse_strain,
)
from analyser.seats import DEALER
from analyser.solver.api import PositionError, parse_goal
from analyser.solver.layout import GOAL_MISERE, GOAL_PIEK

REQUIRED = ("deal", "trump", "leader", "declarer")
OPTIONAL = ("partner", "goal", "called")


class DDFileError(RikkenError, ValueError):
    """A problem in the input file, naming the row (1 = the first row after the header)."""


@dataclass(frozen=True)
class DDRow:
    """One validated position of a `rikken dd` file."""

    masks: tuple[int, int, int, int]
    trump: int
    leader: int
    declarer_mask: int
    goal: int
    target: int
    called: int


def _cell(row: dict, name: str) -> str:
    value = row.get(name)
    return "" if value is None else str(value).strip()


TURNED_WORDS = ("turned", "troef")  # the trump cell naming the turned suit (wiezen)


def parse_row(row: dict, turned: int | None = None) -> DDRow:
    """Validate one CSV row (a dict of column -> text). Raises ParseError/PositionError.

    ``turned`` is the turned card (wiezen W-01), or None: with it the trump may be written
    ``turned``, and the card must be in the dealer's (West's) hand unless already played."""
    for name in REQUIRED:
        if not _cell(row, name):
            raise ParseError(f"column {name!r} is empty")
    deal = parse_deal(_cell(row, "deal"), n_cards=None)
    masks = tuple(int(m) for m in deal_masks(deal))
    if _cell(row, "trump").lower() in TURNED_WORDS:
        if turned is None:
            raise ParseError(
                "trump 'turned' names the suit of the turned card: give --turned (rule set wiezen)"
            )
        trump = turned // 13
    else:
        trump = parse_strain(_cell(row, "trump"))
    if turned is not None:
        where = next((s for s in range(4) if turned in deal[s]), None)
        if where is not None and where != DEALER:
            raise PositionError(
                f"the turned card {format_card(turned, 'en')} is in {SEAT_LETTERS[where]}'s "
                f"hand, but the dealer ({SEAT_LETTERS[DEALER]}) keeps it (W-01)"
            )
        if where is None and len(deal[0]) == 13:
            raise PositionError(f"the turned card {format_card(turned, 'en')} is in no hand")
    leader = parse_seat(_cell(row, "leader"))
    declarer = parse_seat(_cell(row, "declarer"))
    goal, target = parse_goal(_cell(row, "goal") or "tricks")
    if goal == 1 and target > len(deal[0]):
        raise PositionError(f"goal >={target} asks for more tricks than the {len(deal[0])} left")
    called = -1
    holder = None
    if _cell(row, "called"):
        called = parse_card(_cell(row, "called"))
        holder = next((s for s in range(4) if called in deal[s]), None)
        if holder is None:
            raise PositionError(f"the called card {format_card(called, 'en')} is in no hand")
    partner = parse_seat(_cell(row, "partner")) if _cell(row, "partner") else None
    if partner is None and holder is not None and holder != declarer:
        partner = holder  # at rik the partner is the holder of the called card
    if partner is not None and holder is not None and holder not in (partner, declarer):
        raise PositionError(
            f"the called card {format_card(called, 'en')} is held by {SEAT_LETTERS[holder]}, "
            f"not by the partner {SEAT_LETTERS[partner]}"
        )
    if partner == declarer:
        raise PositionError("partner and declarer are the same seat")
    mask = 1 << declarer
    if partner is not None:
        mask |= 1 << partner
    if goal in (GOAL_MISERE, GOAL_PIEK) and partner is not None:
        raise PositionError("misere and piek are played alone: leave 'partner' empty")
    return DDRow(masks, trump, leader, mask, goal, target, called)


def read_dd_csv(text: str, turned: int | None = None) -> tuple[list[str], list[dict], list[DDRow]]:
    """Parse and validate a whole file. Returns (columns, raw rows, positions). ``turned``:
    the turned card (wiezen, see :func:`parse_row`).

    Every row is checked before any is solved; the first bad row raises DDFileError naming it.
    """
    try:
        return _read_rows(text, turned)
    except csv.Error as exc:
        # e.g. a field over the csv module's limit (131,072 characters) or a stray quote
        raise DDFileError(f"not a readable CSV file: {exc}") from None


def _read_rows(text: str, turned: int | None) -> tuple[list[str], list[dict], list[DDRow]]:
    reader = csv.DictReader(io.StringIO(text))
    columns = [c.strip() for c in (reader.fieldnames or [])]
    if not columns:
        raise DDFileError(
            "the file is empty: it needs a header row with at least " + ", ".join(REQUIRED)
        )
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        # csv.DictReader would keep the last of the two cells and drop the other unseen
        raise DDFileError(f"column {twice[0]!r} appears twice in the header")
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise DDFileError(
            f"missing column(s) {', '.join(missing)}; the header has {', '.join(columns)} "
            f"(required: {', '.join(REQUIRED)}; optional: {', '.join(OPTIONAL)})"
        )
    raw: list[dict] = []
    rows: list[DDRow] = []
    for number, record in enumerate(reader, start=1):
        record = {(k or "").strip(): v for k, v in record.items()}
        if None in record.values() and "" in record:
            raise DDFileError(f"row {number}: more fields than header columns")
        try:
            rows.append(parse_row(record, turned))
        except RikkenError as exc:
            raise DDFileError(f"row {number}: {exc}") from None
        raw.append(record)
    if not rows:
        raise DDFileError("the file has a header but no rows")
    return columns, raw, rows
