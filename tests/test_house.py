"""What a user of this ecosystem expects of the package (issue 38): ``rams-sim --version``, shell completion,
``py.typed``, pandas as a runtime dependency (``read_run(path).to_pandas()`` after ``make run``)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from typer.testing import CliRunner

import rams_sim
from rams_sim.cli.main import app

runner = CliRunner()


def test_version_prints_the_package_version_and_exits_0():
    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0
    assert out.output.strip() == f"rams-sim {rams_sim.__version__}"


def test_completion_is_on():
    out = runner.invoke(app, ["--help"])
    assert "--install-completion" in out.output and "--show-completion" in out.output


def test_the_package_is_typed():
    assert (Path(rams_sim.__file__).parent / "py.typed").is_file()


def test_pandas_is_a_runtime_dependency():
    requires = metadata.requires("rams-sim") or []
    runtime = [r for r in requires if "extra ==" not in r]
    assert any(re.match(r"pandas\b", r) for r in runtime), runtime
