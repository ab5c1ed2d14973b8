"""A sweep's template and pool: slots to fill, the cards to fill them with, and one scenario per combination.

A template is a scenario whose objects may say ``card: $1``, ``card: $2``, ``card: $3``: a slot
that each combination fills with one card of the pool (several objects may share a slot). The
pool is a card library (files or folders; ``--only`` picks and orders cards). Filling works on the
parsed YAML, so a combination is validated, checked against the vocabulary and solved like any
scenario, its errors located in the template (and the card files).
"""
from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, perm
from pathlib import Path

from models.card_paths import Roots, walk
from models.cards import CardLibrary, CardSource, library_paths, load_library, read_found
from models.yamlsafe import LineMap, LoadError, LoadErrors, display_name, load_yaml_text, read_bytes
from solver.load import capped, check_library

#: a slot: ``$1`` .. ``$3`` (a larger number is refused: k is 1 to 3)
SLOT = re.compile(r"^\$([1-9][0-9]*)$")
#: the sizes of the combinations a sweep places
SIZES = (1, 2, 3)


@dataclass(frozen=True)
class Template:
    """A parsed template: its name, bytes, data and line map, and the objects of each slot."""

    name: str
    raw: bytes
    data: dict
    linemap: LineMap
    slots: dict[int, list[int]]
    #: the file it was read from (its project: where its own library may lie)
    path: Path | None = None

    @property
    def k(self) -> int:
        """How many cards one combination places."""
        return len(self.slots)

    @property
    def game(self) -> str:
        """The template's game."""
        return str(self.data.get("game"))

    def asks_for_one_outcome(self) -> bool:
        """Whether it expects the rules to decide one outcome (``unique: true`` or ``outcomes: 1``)."""
        return any(isinstance(ex, dict) and (ex.get("unique") is True or ex.get("outcomes") == 1)
                   for ex in self.data.get("expect") or [])


def parse_template(name: str, raw: bytes) -> tuple[dict, LineMap, dict[int, list[int]]]:
    """The data, line map and slots (slot -> object indices) of a template; LoadErrors located in it."""
    data, linemap = load_yaml_text(raw, name)
    slots: dict[int, list[int]] = {}
    errors = []
    for i, o in enumerate((data.get("objects") or []) if isinstance(data, dict) else []):
        ref = o.get("card") if isinstance(o, dict) else None
        if isinstance(ref, str) and ref.startswith("$"):
            m = SLOT.match(ref)
            if m is None or int(m.group(1)) > max(SIZES):
                errors.append(LoadError(name, *linemap.locate(("objects", i, "card")),
                                        f"objects[{i}].card: a slot is $1, $2 or $3, not '{ref}' (a sweep places 1 to 3 "
                                        f"cards per combination)"))
                continue
            slots.setdefault(int(m.group(1)), []).append(i)
    if not slots and not errors:
        errors.append(LoadError(name, *linemap.locate(("objects",)), "a sweep template needs a slot: an object "
                                                                     "with `card: $1` (and $2, $3 for pairs, triples)"))
    numbers = sorted(slots)
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        errors.append(LoadError(name, *linemap.locate(("objects", slots[numbers[-1]][0], "card")),
                                f"slots are numbered $1 .. ${len(numbers)} with none left out (found "
                                f"{', '.join(f'${n}' for n in numbers)})"))
    if errors:
        raise LoadErrors(errors)
    return data, linemap, slots


def load_template(path: Path) -> Template:
    """Read and parse a template file; LoadError / LoadErrors located in it."""
    name = display_name(path)
    raw = read_bytes(path, name)
    data, linemap, slots = parse_template(name, raw)
    return Template(name, raw, data, linemap, slots, path)


@lru_cache(maxsize=8)
def parsed(name: str, raw: bytes) -> tuple[dict, LineMap, dict[int, list[int]]]:
    """A template parsed once per process (workers check many combinations of one template)."""
    return parse_template(name, raw)


def fill(name: str, raw: bytes, cards: list[str], library: CardLibrary | None) -> tuple[dict, LineMap]:
    """The template with slot n filled by ``cards[n-1]``: parsed data and its line map (the template's positions).

    A slot object's ``timestamp`` orders the effects its card grants: it is dropped for a card that grants none.
    """
    data, linemap, slots = parsed(name, raw)
    out = copy.deepcopy(data)
    for n, indices in slots.items():
        card_id = cards[n - 1]
        card = library.get(card_id) if library else None
        for i in indices:
            obj = out["objects"][i]
            obj["card"] = card_id
            if card is not None and not card.definition.effects:
                obj.pop("timestamp", None)
    return out, linemap


@dataclass(frozen=True)
class Pool:
    """The cards a sweep places: their ids in order, and the card files (with the template's own library)."""

    ids: tuple[str, ...]
    sources: tuple[CardSource, ...]
    library: CardLibrary

    def combinations(self, k: int, ordered: bool = False) -> "Combinations":
        """Every k-subset of the pool, each once with its cards in pool order (``ordered``: every order of it)."""
        return Combinations(self.ids, k, ordered)


class Combinations(Sequence):
    """Every k-subset of a pool (``ordered``: every order of each), in the order of ``itertools.combinations`` (or
    ``permutations``) of the pool: counted, read in order or by index, never all held at once."""

    def __init__(self, ids: Sequence[str], k: int, ordered: bool = False) -> None:
        self.ids, self.k, self.ordered = tuple(ids), k, ordered
        self.n = perm(len(self.ids), k) if ordered else comb(len(self.ids), k)

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        pick = itertools.permutations if self.ordered else itertools.combinations
        return iter(pick(self.ids, self.k))

    def __getitem__(self, i: int) -> tuple[str, ...]:
        if not -self.n <= i < self.n:
            raise IndexError(i)
        i %= self.n
        picked = unrank_permutation(len(self.ids), self.k, i) if self.ordered else \
            unrank_combination(len(self.ids), self.k, i)
        return tuple(self.ids[x] for x in picked)


def unrank_combination(n: int, k: int, i: int) -> list[int]:
    """The ``i``-th k-subset of range(n) in ``itertools.combinations`` order."""
    out, x = [], 0
    for slot in range(k):
        while True:
            block = comb(n - x - 1, k - slot - 1)
            if i < block:
                out.append(x)
                x += 1
                break
            i -= block
            x += 1
    return out


def unrank_permutation(n: int, k: int, i: int) -> list[int]:
    """The ``i``-th k-arrangement of range(n) in ``itertools.permutations`` order."""
    left, out = list(range(n)), []
    for slot in range(k):
        j, i = divmod(i, perm(n - slot - 1, k - slot - 1))
        out.append(left.pop(j))
    return out


def _fixed_cards(template: Template) -> bool:
    """Whether the template itself names library cards (outside its slots) or libraries (``cards:``)."""
    objects = template.data.get("objects") or []
    return template.data.get("cards") is not None or any(
        isinstance(o, dict) and isinstance(o.get("card"), str) and not o["card"].startswith("$") for o in objects)


def load_pool(paths: list[Path], template: Template, only: list[str] | None = None) -> Pool:
    """The pool: the cards of these files and folders (none given: the template's own library), ``only`` these (in
    this order); with the template's own library for the cards it names itself (a file of both is read once).
    LoadError / LoadErrors located in the card files (and the template)."""
    own, roots, errors = library_paths(template.data, template.linemap, template.name, template.path) \
        if _fixed_cards(template) or not paths else ([], Roots.of(template.path, paths), [])
    roots = Roots(roots.project, roots.given + Roots.of(None, paths).given)
    if errors:
        raise capped(errors)
    in_pool = {display_name(f) for f in walk(paths or own, roots, template.game).files}
    everything, errors = read_found(walk([*(paths or own), *own], roots, template.game))
    if errors:
        raise capped(errors)
    pool_sources = [s for s in everything if s[0] in in_pool]
    if not pool_sources:
        raise LoadError(template.name, None, None, "no card file in the pool: give --pool, or put the cards in a "
                                                   f"folder cards/{template.game}/ next to the template or above it, "
                                                   f"inside its project")
    ids = list(load_library(tuple(pool_sources), template.game).cards)
    library = check_library(load_library(tuple(everything), template.game))
    if only:
        unknown = [c for c in only if c not in ids]
        if unknown:
            raise LoadError("--only", None, None, f"not in the pool: {', '.join(unknown)} (the pool: "
                                                  f"{', '.join(ids[:12])}{' ...' if len(ids) > 12 else ''})")
        ids = list(dict.fromkeys(only))
    if len(ids) < template.k:
        raise LoadError(template.name, None, None, f"the template has {template.k} slot(s) but the pool only "
                                                   f"{len(ids)} card(s)")
    return Pool(tuple(ids), tuple(everything), library)


def combination_name(template: str, cards: tuple[str, ...]) -> str:
    """How reports name one combination: ``template.yaml[kornevik+ogre]``."""
    return f"{template}[{'+'.join(cards)}]"

