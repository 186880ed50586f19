"""``miniwob-oracle`` plans for the small "apps": tic-tac-toe, a social feed, an email inbox
and a flight booking form. Same rules as :mod:`.policies`: read the page to plan, answer
one move in viewport CSS pixels, recover by seeing the same state again."""

from __future__ import annotations

import re
from functools import cache

from .policies import El, Memory, Move, Stuck, View, calendar, click, fill, policy, reveal

# --- tic-tac-toe: expectimax against the page's own opponent -----------------------------------

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_RANDOM_SHARE = 0.55  # the page's computer plays a random free cell 55 % of the time


def _wins(board: tuple[int, ...], mark: int) -> bool:
    return any(all(board[i] == mark for i in line) for line in _LINES)


def _completing(board: tuple[int, ...], mark: int) -> list[int]:
    """Free cells that complete a line of ``mark``."""
    out = []
    for line in _LINES:
        marks = [board[i] for i in line]
        if marks.count(mark) == 2 and marks.count(0) == 1:
            out.append(line[marks.index(0)])
    return out


def _put(board: tuple[int, ...], cell: int, mark: int) -> tuple[int, ...]:
    return (*board[:cell], mark, *board[cell + 1:])


@cache
def _value(board: tuple[int, ...], x_to_move: bool) -> float:
    """Probability that X (us, 1) wins from here; O (-1) is the page's computer: a random
    cell, or else its winning cell, or else the cell blocking ours."""
    if _wins(board, 1):
        return 1.0
    free = [i for i, c in enumerate(board) if c == 0]
    if _wins(board, -1) or not free:
        return 0.0
    after = [(i, _put(board, i, 1 if x_to_move else -1)) for i in free]
    if x_to_move:
        return max(_value(b, False) for _, b in after)
    uniform = sum(_value(b, True) for _, b in after) / len(after)
    smart = (_completing(board, -1) or _completing(board, 1))[:1]
    if not smart:
        return uniform
    cell = smart[0]
    return _RANDOM_SHARE * uniform + (1 - _RANDOM_SHARE) * _value(
        _put(board, cell, -1), True)


def best_cell(board: tuple[int, ...]) -> int:
    free = [i for i, c in enumerate(board) if c == 0]
    if not free:
        raise Stuck("the board is full")
    return max(free, key=lambda i: _value(_put(board, i, 1), False))


@policy("tic-tac-toe")
def _tic_tac_toe(v: View, m: Memory) -> Move:
    cells = {int(e.id.removeprefix("ttt-")): e for e in v.all("span") if e.id.startswith("ttt-")}
    if len(cells) != 9:
        raise Stuck("the board does not have nine cells")
    board = tuple(1 if cells[i].has_class("mark-x") else -1 if cells[i].has_class("mark-o") else 0
                  for i in range(9))
    cell = best_cell(board)
    return click(cells[cell], f"cell {cell + 1} (the best chance to win)")


# --- scrolled lists: reveal an element inside a scroll box -------------------------------------


def _inside(inner: El, outer: El) -> bool:
    cx, cy = inner.centre
    return bool(outer.x <= cx <= outer.x + outer.w and outer.y <= cy <= outer.y + outer.h)


# --- social-media ------------------------------------------------------------------------------

_MENU = {"Share via DM": "share", "Copy link to Tweet": "copy", "Embed Tweet": "embed",
         "Mute": "menu-user", "Block": "block-user", "Report": "report"}
_BUTTONS = {"Reply": "reply", "Retweet": "retweet", "Like": "like"}


@policy("social-media")
def _social_media(v: View, m: Memory) -> Move:
    if len(v.bold) < 2:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    user, label = v.bold[0], v.bold[1]
    post = next((p for p in v.all("div", cls="media")
                 if any(u.own == user and _inside(u, p) for u in v.all("span", cls="username"))), None)
    if post is None:
        raise Stuck(f"no post by {user}")
    if label in _BUTTONS:
        target = next((e for e in v.all(cls=_BUTTONS[label]) if _inside(e, post)), None)
        if target is None:
            raise Stuck(f"{post.text!r} has no {label} button")
        return click(target, f"{label} under {user}'s post") if target.shown else reveal(v, m, user)
    if label not in _MENU:
        raise Stuck(f"no button or menu item {label!r}")
    item = v.first("li", cls=_MENU[label]) if m.get("opened") == user else None
    if item is not None:  # only the menu we opened is shown
        return click(item, f"'{item.own}'") if item.shown else reveal(v, m, item.own)
    more = next((e for e in v.all("span", cls="more") if _inside(e, post)), None)
    if more is None:
        raise Stuck(f"{user}'s post has no menu")
    if not more.shown:
        return reveal(v, m, user)
    m["opened"] = user
    return click(more, f"the '...' menu of {user}'s post")


# --- email-inbox -------------------------------------------------------------------------------


def _email_task(v: View) -> tuple[str, str, str]:
    """(sender, action, argument): action is reply, forward, delete or important."""
    if not v.bold:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    sender, text = v.bold[0], v.utterance
    if "reply to them" in text:
        return sender, "reply", v.bold[1] if len(v.bold) > 1 else v.quoted()
    if "forward that email to" in text:
        return sender, "forward", v.bold[1]
    if "trash icon" in text:
        return sender, "delete", ""
    if "star icon" in text:
        return sender, "important", ""
    raise Stuck(f"unexpected utterance {v.utterance!r}")


@policy("email-inbox", "email-inbox-delete", "email-inbox-forward", "email-inbox-important",
        "email-inbox-reply", "email-inbox-noscroll")
def _email_inbox(v: View, m: Memory) -> Move:
    sender, action, argument = _email_task(v)
    reply = v.first("textarea", id="reply-text")
    if reply is not None:
        if reply.value != argument:
            return fill(reply, argument, "the reply")
        return click(v.need("span", id="send-reply"), "send")
    to = v.first("input", cls="forward-sender")
    if to is not None:
        if to.value != argument:
            return fill(to, argument, "the forward address")
        return click(v.need("span", id="send-forward"), "send")
    if v.first("div", id="email") is not None:
        button = v.need("span", cls="email-reply" if action == "reply" else "email-forward")
        return click(button, f"{action.capitalize()}")
    row = next((r for r in v.all("div", cls="email-thread")
                if any(s.own == sender and _inside(s, r) for s in v.all("div", cls="email-sender"))),
               None)
    if row is None:
        raise Stuck(f"no email from {sender}")
    if not row.shown:
        return reveal(v, m, sender)
    if action in ("delete", "important"):
        icon = next((e for e in v.all("span", cls="trash" if action == "delete" else "star")
                     if _inside(e, row)), None)
        if icon is None:
            raise Stuck(f"the email from {sender} shows no {action} icon")
        return click(icon, f"the {'trash' if action == 'delete' else 'star'} icon of {sender}'s email")
    return click(row, f"the email from {sender}", row.at(0.3, 0.3))


# --- book-flight -------------------------------------------------------------------------------


def _minutes(text: str) -> int:
    hours = re.search(r"(\d+)h", text)
    minutes = re.search(r"(\d+)m", text)
    return (int(hours.group(1)) if hours else 0) * 60 + (int(minutes.group(1)) if minutes else 0)


def _airport(v: View, field_: El, wanted: str, what: str) -> Move | None:
    """The next move to put an airport matching ``wanted`` into ``field_`` (None: done)."""
    value = str(field_.value)
    if "(" in value and wanted in value:
        return None
    if value == wanted and field_.focused:
        pick = next((e for e in v.all("li", cls="ui-menu-item")
                     if wanted in e.text and v.in_view(e)), None)
        if pick is not None:
            return click(pick, f"the suggestion '{pick.text}'")
    return fill(field_, wanted, f"the {what} field to see the airports")


@policy("book-flight", "book-flight-nodelay")
def _book_flight(v: View, m: Memory) -> Move:
    if len(v.bold) < 4:
        raise Stuck(f"unexpected utterance {v.utterance!r}")
    goal, origin, destination, date = v.bold[:4]
    flights = list(v.all("div", cls="flight"))
    if flights:
        def cost(f: El) -> int:
            if goal == "cheapest":
                price = next(e for e in v.all("button", cls="flight-price") if _inside(e, f))
                return int(re.sub(r"\D", "", price.text))
            duration = next(e for e in v.all("div", cls="time-duration") if _inside(e, f))
            return _minutes(duration.text)

        best = min(flights, key=cost)
        book = next(e for e in v.all("button", cls="flight-price") if _inside(e, best))
        return click(book, f"'{book.text}' (the {goal})") if book.shown else reveal(v, m, book.text)
    for field_id, wanted, what in (("flight-from", origin, "From"), ("flight-to", destination, "To")):
        move = _airport(v, v.need("input", id=field_id), wanted, what)
        if move is not None:
            return move
    picker = v.need("input", id="datepicker")
    if picker.value != date:
        month, day, year = (int(p) for p in date.split("/"))
        return calendar(v, picker, month, day, year)
    return click(v.need("button", id="search"), "Search")
