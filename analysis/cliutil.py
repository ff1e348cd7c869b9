"""Helpers shared by the games' CLI adapters (``cli_*`` functions)."""
from __future__ import annotations

from pathlib import Path

from tricksim.analysis.common import TricksimError, apply_rule_overrides, check_out_path, load_heuristic_file
from tricksim.analysis.output import default_out


def rules_from(opts, cls):
    return apply_rule_overrides(cls(), getattr(opts, "rule", None))


def user_defs(opts):
    path = getattr(opts, "heuristics", None)
    return load_heuristic_file(path) if path else None


def positive(value, name):
    if value is not None and value < 1:
        raise TricksimError(f"{name} must be at least 1, got {value}")
    return value


def out_dir(opts, game, study, run_id) -> Path:
    """The run folder (--out or the default one), refused at once if it cannot be written."""
    given = getattr(opts, "out", None)
    out = Path(given) if given else default_out(game, study, run_id)
    check_out_path(out, "--out" if given else "run folder")
    return out


def engine_kw(opts):
    return dict(threads=positive(getattr(opts, "threads", None), "--threads"), scheduler=getattr(opts, "scheduler", None),
                progress=getattr(opts, "progress", False), force=getattr(opts, "force", False),
                resume=getattr(opts, "resume", True))
