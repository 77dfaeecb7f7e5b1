"""One place per game (issue 38): the registry of R9's games (rams_sim/games.py) is complete, agrees
with the presets, and at most three files outside a game's own modules name a game.

A game is its kernel module (``rams_sim/kernels/games/``), its reference module
(``rams_sim/reference/games/``), its advice module (``rams_sim/advice/``) and its registry
entry; everywhere else the package asks the entry (``GAMES[rules.game].counts_up`` ...).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

from rams_sim.advice.search import read_question
from rams_sim.games import GAMES, Game, GameInfo, game_info
from rams_sim.kernels import args as kernel_args
from rams_sim.reference.games import game_of
from rams_sim.rules import OPTION_HELP, PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rams_sim"
MAX_BRANCHING_FILES = 3  # issue 38: "at most three files outside them branch on a game"
# a game's own places, relative to rams_sim/: the registry and each game's kernel, reference and advice modules
OWN_PLACES = ("games.py", "kernels/games/", "reference/games/", "advice/duel.py", "advice/modern.py", "advice/zone.py")
GAME_VALUES = frozenset(g.value for g in Game)
MEMBERS = frozenset(g.name for g in Game)


# ---- who names a game ----------------------------------------------------------------------------------
def _names_a_game(node: ast.AST) -> bool:
    """A string naming a game's value, alone or inside a tuple, list or set."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in GAME_VALUES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def game_branches(source: str) -> list[int]:
    """The lines of ``source`` that single out a game: a ``Game.<MEMBER>`` attribute, or a comparison
    (``==``, ``in``, a ``match`` case) with a game's value string (``rules.game.value == "duel"``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in MEMBERS:
            base = node.value
            if (isinstance(base, ast.Name) and base.id == "Game") or (isinstance(base, ast.Attribute) and base.attr == "Game"):
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare) and any(_names_a_game(x) for x in (node.left, *node.comparators)):
            lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            lines.append(node.value.lineno)
    return sorted(set(lines))


def branching_files(sources: dict[str, str]) -> dict[str, list[int]]:
    """Of ``sources`` (path relative to rams_sim/ -> text), the files outside a game's own places that
    single out a game, with the lines."""
    out = {}
    for path, text in sources.items():
        if path.startswith(OWN_PLACES):
            continue
        lines = game_branches(text)
        if lines:
            out[path] = lines
    return out


def check_branching(sources: dict[str, str]) -> None:
    found = branching_files(sources)
    assert len(found) <= MAX_BRANCHING_FILES, (
        f"{len(found)} files outside the games' own modules name a game (at most {MAX_BRANCHING_FILES}); "
        f"ask the registry (rams_sim.games.GAMES) instead: {found}"
    )


def _package_sources() -> dict[str, str]:
    return {p.relative_to(PACKAGE).as_posix(): p.read_text() for p in sorted(PACKAGE.rglob("*.py"))}


def test_at_most_three_files_outside_the_games_name_a_game():
    check_branching(_package_sources())


def test_the_files_that_name_a_game_are_the_narrator_and_the_presets():
    """Today: replay.py tells each game's deal in its words; rules.py's presets say which game they play."""
    assert sorted(branching_files(_package_sources())) == ["replay.py", "rules.py"]


def test_the_detector_finds_every_kind_of_branch():
    assert game_branches("if rules.game == Game.ZONE:\n    pass\n") == [1]
    assert game_branches("x = {rams_sim.games.Game.DUEL: 1}\n") == [1]
    assert game_branches("ok = rules.game.value == 'duel'\n") == [1]
    assert game_branches("ok = 'modern' != rules.game\n") == [1]
    assert game_branches("ok = rules.game not in ('rams', 'duel')\n") == [1]
    assert game_branches("match g:\n    case 'zone':\n        pass\n") == [2]
    # not a branch: a preset's name given as an argument, a registry lookup, another enum's member
    assert game_branches("advise(hand, rules='zone')\nGAMES[rules.game].counts_up\nRuff.ANY_TRUMP\n") == []


def test_the_count_fails_on_a_fourth_file_and_spares_the_games_own_modules():
    branch = "if rules.game == Game.MODERN:\n    pass\n"
    own = {"games.py": branch, "kernels/games/zone.py": branch, "reference/games/duel.py": branch,
           "advice/zone.py": branch, "advice/modern.py": branch}  # fmt: skip
    check_branching({**own, "a.py": branch, "b.py": branch, "c.py": branch})
    with pytest.raises(AssertionError, match="4 files outside"):
        check_branching({**own, "a.py": branch, "b.py": branch, "c.py": branch, "cli/d.py": branch})


# ---- the registry --------------------------------------------------------------------------------------
MODULE_FIELDS = ("kernel", "kernel_search", "reference", "reference_search", "advice")


def test_every_game_has_one_entry_in_the_enum_order():
    assert list(GAMES) == list(Game)
    assert all(info.game is game and game_info(game.value) is info for game, info in GAMES.items())


@pytest.mark.parametrize("game", list(Game), ids=str)
def test_an_entry_is_complete_and_its_modules_import(game):
    info = GAMES[game]
    for name in MODULE_FIELDS:
        assert getattr(info, name).startswith("rams_sim."), (game, name)
        importlib.import_module(getattr(info, name))
    assert info.kernel.startswith("rams_sim.kernels.games.") and info.reference.startswith("rams_sim.reference.games.")
    advice = importlib.import_module(info.advice)
    assert callable(advice.position_builder) and callable(advice.evaluation)
    assert isinstance(advice.RACE_BEFORE_PLAY, bool) and advice.WARM_QUESTIONS
    kernel = importlib.import_module(info.kernel)
    assert callable(kernel.play_deal) and callable(kernel.settle_party)  # dispatch's entry points
    reference = importlib.import_module(info.reference)
    assert callable(reference.play_deal) and callable(reference.settlement)
    assert info.warm_preset in PRESETS and info.p_column


@pytest.mark.parametrize("game", list(Game), ids=str)
def test_the_kernel_argument_class_is_named_by_the_entry_and_picklable_by_reference(game):
    cls = kernel_args.ARGS_TYPES[game]
    assert cls.__name__ == GAMES[game].args_class
    assert cls.__module__ == "rams_sim.kernels.args" and getattr(kernel_args, cls.__name__) is cls
    assert kernel_args.game_of_args(cls) is game


def test_the_argument_classes_keep_their_names():
    """numba's on-disk cache pickles these by reference: renaming one misses every cached kernel."""
    assert [kernel_args.ARGS_TYPES[g].__name__ for g in Game] == ["ClassicArgs", "DuelArgs", "ModernArgs", "ZoneArgs"]


def test_the_options_of_the_games_are_rules_fields_and_disjoint():
    fields = {f.name for f in dataclasses.fields(Rules)}
    seen: set[str] = set()
    for info in GAMES.values():
        assert set(info.options) <= fields & set(OPTION_HELP), info.game
        assert not seen & set(info.options), info.game
        seen |= set(info.options)
        assert set(info.no_effect) <= fields - seen.union(*(g.options for g in GAMES.values())), info.game


def test_the_registry_agrees_with_the_presets():
    """Each preset's game has an entry; each game is played by a preset; a game's warm preset plays it; the
    reference module of a preset's rules is its game's."""
    for name, preset in PRESETS.items():
        assert preset.game in GAMES, name
        if preset.implemented:
            assert game_of(Rules.named(name)).__name__ == GAMES[preset.game].reference, name
    for game, info in GAMES.items():
        assert PRESETS[info.warm_preset].game is game and PRESETS[info.warm_preset].implemented
        assert type(kernel_args.rules_args(Rules.named(info.warm_preset))) is kernel_args.ARGS_TYPES[game]


@pytest.mark.parametrize("game", list(Game), ids=str)
def test_the_positions_warm_compiles_are_the_games_and_valid(game):
    """warm.py compiles advise's evaluations of the positions the game's advice module lists (read here
    as advise reads them: every refusal is raised before a search kernel is compiled)."""
    from rams_sim.warm import COST, SEARCH_TASKS

    assert GAMES[game].search_task in SEARCH_TASKS and GAMES[game].search_task in COST
    for question in importlib.import_module(GAMES[game].advice).WARM_QUESTIONS:
        assert read_question(**question).rules.game is game, question


def test_every_field_of_an_entry_has_a_docstring():
    """STYLE: each field says which rule it reflects (a string right below it in rams_sim/games.py)."""
    tree = ast.parse((PACKAGE / "games.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameInfo")
    documented = {a.target.id for a, b in zip(cls.body, cls.body[1:], strict=False)
                  if isinstance(a, ast.AnnAssign) and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)}  # fmt: skip
    assert {f.name for f in dataclasses.fields(GameInfo)} - {"game"} <= documented
