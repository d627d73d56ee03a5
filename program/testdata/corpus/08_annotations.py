from typing import Dict, List, Optional, TypeVar

T = TypeVar("T")


def lookup(table: Dict[str, int], key: str, default: Optional[int] = None) -> Optional[int]:
    value: Optional[int] = table.get(key)
    if value is None:
        return default
    return value


def head(xs: List[T]) -> T:
    assert xs, "empty list"
    return xs[0]


class Stack:
    items: List[int]

    def __init__(self) -> None:
        self.items = []

    def push(self, item: int) -> "Stack":
        self.items.append(item)
        return self

    def pop(self) -> int:
        return self.items.pop()
