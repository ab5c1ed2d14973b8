"""Loading a scenario: the one pipeline every command reads a scenario file through.

Safe YAML (``models.yamlsafe``), the library cards its objects name placed (``models.card_use``), pydantic validation
with every error located (``models.loader.validate_data``), the closed-world check of its words and of its card
library's (``solver.vocabulary.check``), then every error of the file and of its library merged, sorted by line and
capped at ``MAX_ERRORS``. ``load_checked`` reads a file, ``load_checked_text`` YAML text and ``load_checked_data``
parsed YAML; each returns the loaded scenario or raises LoadError / LoadErrors. (``models.loader.load_scenario`` is
the validation step alone, without the closed-world check.)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from models.card_use import Placement, library_for, place_cards
from models.cards import CardLibrary, CardSource, uses_cards
from models.loader import LoadedScenario, validate_data
from models.yamlsafe import LineMap, LoadError, LoadErrors, display_name, load_yaml_file, load_yaml_text
from solver.vocabulary.check import card_problems, library_errors, located, problems

#: the most errors reported for one file (the rest are counted in one last line)
MAX_ERRORS = 50


def capped(errors: list[LoadError]) -> LoadErrors:
    """All the errors of a file, sorted by line, at most ``MAX_ERRORS`` and a last line counting the rest."""
    ordered = LoadErrors(errors).errors
    if len(ordered) <= MAX_ERRORS:
        return LoadErrors(ordered)
    rest = ordered[MAX_ERRORS]
    more = LoadError(rest.file, rest.line, rest.col, f"{len(ordered) - MAX_ERRORS} more errors from here on (only the "
                                                     f"first {MAX_ERRORS} are shown)")
    return LoadErrors(ordered[:MAX_ERRORS] + [more])


def check_library(library: CardLibrary) -> CardLibrary:
    """A card library, or raises every error of its files (reading and closed world) capped."""
    found = library.errors + library_errors(library)
    if found:
        raise capped(list(found))
    return library


def _placed(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None, path: Path | None,
            card_errors: list[LoadError] = ()) -> tuple[Placement, list[LoadError]]:
    """The scenario with every library card that can be placed placed, and the located errors of the rest: finding
    the library (its ``cards:`` entries, its folders' entries; ``card_errors`` when shipped with ``cards``), its files
    read and checked like a scenario (one bad file hides no other), and the references that cannot be placed."""
    if not uses_cards(data):
        return Placement(data, linemap), []
    library, errors = library_for(data, linemap, file, cards, path, card_errors)
    broken = bool(errors)
    if library is not None:
        loaded = {f.name for f in library.files}
        errors = _with_card_words(errors, [s for s in library.sources if s[0] not in loaded])
        errors += library_errors(library)
    placement = place_cards(data, linemap, file, library, collect=True, broken=broken)
    return placement, errors + placement.errors


def _with_card_words(errors: list[LoadError], sources: list[CardSource]) -> list[LoadError]:
    """A library's errors, where the closed-world check of a card file that did not load speaks at the same place as
    the validation (an ability pydantic refuses by its pattern), its message (naming the nearest word) instead."""
    words: list[LoadError] = []
    for name, raw in sources:
        try:
            card_data, card_map = load_yaml_text(raw, name)
        except (LoadError, LoadErrors):
            continue
        words += located(card_problems(card_data), card_map, name)
    taken = {(e.file, e.line, e.col) for e in words}
    return [e for e in errors if (e.file, e.line, e.col) not in taken] + words


def _checked(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None,
             path: Path | None = None, card_errors: list[LoadError] = ()) -> LoadedScenario:
    """Validate parsed data and check its words: every error of the file and of its card library together, or the
    loaded scenario. Cards it names are placed first, from ``cards`` (card files shipped with it, with ``card_errors``
    met finding them) or its library; when some cannot be (a library missing or in error, an unknown card), the rest
    of the file is still checked, without them."""
    placement, found = _placed(data, linemap, file, cards, path, card_errors)
    data, linemap = placement.data, placement.linemap
    errors: list[LoadError] = []
    loaded = None
    try:
        loaded = validate_data(data, linemap, file)
    except LoadErrors as exc:
        errors += exc.errors
    words = located(problems(data), linemap, file)
    taken = {(e.line, e.col) for e in words}  # where both speak, the closed-world message names the nearest words
    errors = [e for e in errors if (e.line, e.col) not in taken] + words
    if found:  # what a placed card brings is its card file's business (reported there), not the scenario's
        errors = found + [e for e in errors if (e.line, e.col) not in placement.notes]
    if errors:
        raise capped(placement.annotate(errors))
    return loaded  # type: ignore[return-value]


def load_checked(path: str | Path, cards: list[CardSource] | None = None) -> LoadedScenario:
    """Load a scenario file: safe YAML, its library cards placed, pydantic, references and the closed-world check;
    raises LoadError or LoadErrors (every error of the file, located)."""
    data, linemap = load_yaml_file(path)
    return _checked(data, linemap, display_name(path), cards, Path(path))


def load_checked_text(text: str | bytes, file: str = "<string>", cards: list[CardSource] | None = None,
                      card_errors: list[LoadError] = ()) -> LoadedScenario:
    """``load_checked`` for YAML text (``file`` names where it lives, for its card library; ``card_errors``: the
    problems met finding the ``cards`` shipped with it)."""
    data, linemap = load_yaml_text(text, file)
    return _checked(data, linemap, file, cards, card_errors=card_errors)


def load_checked_data(data: Any, linemap: LineMap, file: str, cards: list[CardSource] | None = None) -> LoadedScenario:
    """``load_checked`` for parsed YAML with its line map (a sweep's template with its slots filled)."""
    return _checked(data, linemap, file, cards)


def loaded_errors(loaded: LoadedScenario) -> LoadErrors | None:
    """The closed-world errors of an already validated scenario (from its YAML data, else from the model)."""
    data = loaded.data if loaded.data is not None else loaded.scenario.model_dump(mode="json", exclude_unset=True)
    found = located(problems(data), loaded.linemap, loaded.path)
    return capped(found) if found else None
