"""A live game's answers, kept in memory as compact bytes.

With its set-up and seed, the answer log is the whole game: any viewer's events can be
re-derived from it without reading the database. A live `Game` keeps no history
(memory), so the room keeps this instead: about 4 bytes per answer (a 2-player game of
~80 answers in ~400 bytes), against ~170 bytes per event for a game with its history.

Each entry is a few unsigned LEB128 varints: `player * 2 + resigned`, then for an
answer the decision id's zigzag difference from the previous answer's, the number of
choices and each choice; for a resignation its reason (0: none, else its place in
`ResignReason` plus one).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine import Answer, Resignation, ResignReason

Entry = Answer | Resignation
_REASONS: tuple[ResignReason | None, ...] = (None, *ResignReason)


class AnswerLog:
    __slots__ = ("_bytes", "_count", "_last_decision")

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._bytes = bytearray()
        self._count = 0
        self._last_decision = 0
        self.extend(entries)

    def __len__(self) -> int:
        return self._count

    def append(self, entry: Entry) -> None:
        self.extend((entry,))

    def extend(self, entries: Iterable[Entry]) -> None:
        """Append entries in order. Their varints are gathered first and written at once:
        when every value is below 0x80 (nearly always) each is its own byte, and a
        restart encodes every game's log, millions of values."""
        values: list[int] = []
        last = self._last_decision
        count = 0
        for entry in entries:
            if isinstance(entry, Resignation):
                values += (entry.player * 2 + 1, _REASONS.index(entry.reason))
            else:
                step = entry.decision - last
                last = entry.decision
                values += (entry.player * 2, step * 2 if step >= 0 else -step * 2 - 1,
                           len(entry.choices), *entry.choices)
            count += 1
        out = self._bytes
        if values and max(values) >= 0x80:
            for value in values:
                _varint(out, value)
        else:
            out += bytes(values)
        self._last_decision = last
        self._count += count

    def __iter__(self) -> Iterator[Entry]:
        return self.entries()

    def entries(self, start: int = 0, stop: int | None = None) -> Iterator[Entry]:
        """The entries from `start` (an index) up to `stop` (or the end), in order."""
        stop = self._count if stop is None else min(stop, self._count)
        data = self._bytes
        position = decision = 0

        def read() -> int:
            nonlocal position
            value = shift = 0
            while True:
                byte = data[position]
                position += 1
                value |= (byte & 0x7F) << shift
                if byte < 0x80:
                    return value
                shift += 7

        for index in range(stop):
            head = read()
            if head & 1:
                entry: Entry = Resignation(head >> 1, _REASONS[read()])
            else:
                step = read()
                decision += step >> 1 if not step & 1 else -((step + 1) >> 1)
                entry = Answer(head >> 1, decision, tuple(read() for _ in range(read())))
            if index >= start:
                yield entry

    @property
    def nbytes(self) -> int:
        return len(self._bytes)


def _varint(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
