"""The tables shipped with tricksim (analysis/data/, ``tricksim tables``, issue 25 item 4): every shipped file
is sound (its arrays match the checksum of its manifest, its configuration is the one the code asks for), the
main job's lookups find them with an empty cache, a configuration that is not shipped is not served from them,
and the canaries regenerated with the code of today give the shipped checksums (else: run
``tricksim tables --regenerate``)."""
import json
import shutil

import numpy as np
import pytest

from tricksim.analysis import cache
from tricksim.analysis import tables as T
from tricksim.analysis.boomke_wies import equity as BQ
from tricksim.analysis.boomke_wies.spec import SPEC as BW
from tricksim.analysis.boulmous.equity import outcomes as O
from tricksim.analysis.boulmous.equity import saware as SA
from tricksim.analysis.boulmous.equity import shipped as BS
from tricksim.analysis.boulmous.equity import studies as S
from tricksim.analysis.boulmous.spec import SPEC as BM
from tricksim.analysis.bourre import ev
from tricksim.analysis.bourre.config import BourreRules
from tricksim.analysis.bourre.shipped import LADDER_PLAYERS
from tricksim.analysis.bourre.spec import SPEC as BO

SHIPPED = T.shipped_tables()
IDS = [t.name for _, t in SHIPPED]
REGENERATE = "run `tricksim tables --regenerate` (and commit analysis/data/)"


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path / "cache"))
    ev._MEMORY.clear()
    S._MEMORY.clear()
    SA._MEMO.clear()
    BS._MEMO.clear()
    yield tmp_path / "cache"
    ev._MEMORY.clear()
    S._MEMORY.clear()
    SA._MEMO.clear()
    BS._MEMO.clear()


def _manifest(t):
    return json.loads(t.path.with_suffix(".json").read_text())


@pytest.mark.parametrize("t", [t for _, t in SHIPPED], ids=IDS)
def test_every_shipped_file_is_sound_and_small(t):
    """The manifest records the configuration the code asks for today, the code hash and date it was made
    with, and the sha256 of the arrays the file holds."""
    assert t.path.exists(), f"{t.name}: {t.path.name} is missing: {REGENERATE}"
    m = _manifest(t)
    assert m["config"] == cache.as_json(t.config), f"{t.name}: the code asks for another configuration: {REGENERATE}"
    with np.load(t.path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    assert m["sha256"] == cache.array_sha(arrays), f"{t.name}: its arrays do not match its checksum: {REGENERATE}"
    assert set(m["arrays"]) == set(arrays) and len(m["code"]) == 16 and m["date"][:2] == "20"
    assert t.path.stat().st_size < 4 * 2 ** 20
    assert cache.load_shipped(t.folder, t.config)[1]["sha256"] == m["sha256"]


def test_no_file_in_the_data_folder_is_left_over():
    assert T.orphans() == [], "files no shipped table names: " + REGENERATE
    kinds = {t.folder for _, t in SHIPPED}
    assert {"bourre-ev", "equity"} <= kinds and sum(t.canary for _, t in SHIPPED) >= 4


@pytest.mark.parametrize("t", [t for _, t in SHIPPED if t.canary], ids=[t.name for _, t in SHIPPED if t.canary])
def test_each_canary_regenerates_to_its_shipped_checksum(t, empty_cache):
    """A canary made now, with the code of today (nothing cached), has the shipped checksum: a change of the code
    that changes the results fails here."""
    arrays, _ = T.make(t)
    assert cache.array_sha(arrays) == _manifest(t)["sha256"], (
        f"{t.name}: the code of today makes other results than the shipped tables: {REGENERATE}")
    assert not list(empty_cache.rglob("*.npz")) or t.folder == "bourre-ev"    # equity canaries cache nothing


@pytest.mark.parametrize("players", [7, LADDER_PLAYERS])
def test_the_main_job_finds_the_ev_table_shipped(empty_cache, players):
    """The main job's table of 7, and the strength ladder's (its Bourre tournament, ev an entrant, at a table of
    ``LADDER_PLAYERS``): shipped, so the pages neither compile the training kernel nor train."""
    from tricksim.analysis.registry import get
    lad = get("bourre").ladder
    assert lad.extra["players"] == LADDER_PLAYERS and "ev" in lad.entrants
    spec = BO.parse_seats(["ev"], players)[0]
    lines = list(ev.prepare_lines([spec], BourreRules(), players))
    assert len(lines) == 1 and "shipped with tricksim" in lines[0] and "converged" in lines[0], lines
    ev._MEMORY.clear()
    t = ev.cached(BourreRules(), players, spec)
    assert t is not None and t.source == "shipped" and t.table.shape == (ev.K.EV_LEN,)
    assert t.converged and (t.table.reshape(-1, ev.K.EV_W)[:, 0] >= 0).sum() > 100
    assert ev.ev_table(BourreRules(), players, spec).source == "memory"
    assert not list(empty_cache.rglob("*.npz"))                  # nothing trained, nothing written


def test_another_configuration_is_not_served_from_the_shipped_files(empty_cache):
    """Other ev parameters, rules or table size: not shipped, so computed (here: found missing)."""
    spec = BO.parse_seats(["ev:train_seed=1"], 7)[0]
    assert ev.cached(BourreRules(), 7, spec) is None
    assert ev.cached(BourreRules(pot_limit=50), 7, BO.parse_seats(["ev"], 7)[0]) is None
    assert ev.cached(BourreRules(), 6, BO.parse_seats(["ev"], 6)[0]) is None
    # the shipped lookup itself: the same configuration but the deals
    cfg = O.config("boulmous-outcomes", BM.rules(), BM.parse_seats(None), seed=0, deals=123)
    assert cache.load_shipped(O.FOLDER, cfg) is None
    # a shipped lookup with the regeneration's flag never reads them
    assert ev.cached(BourreRules(), 7, BO.parse_seats(["ev"], 7)[0], shipped=False) is None


def test_a_damaged_shipped_file_is_not_used(tmp_path, monkeypatch):
    t = next(t for _, t in SHIPPED if t.canary and t.folder == "equity")
    monkeypatch.setattr(cache, "DATA", tmp_path)
    shutil.copy(T.DATA / t.path.name, tmp_path / t.path.name)
    shutil.copy(T.DATA / t.path.with_suffix(".json").name, tmp_path / t.path.with_suffix(".json").name)
    assert cache.load_shipped(t.folder, t.config) is not None
    with np.load(tmp_path / t.path.name) as z:
        arrays = {k: z[k].copy() for k in z.files}
    arrays["counts"][0] += 1
    np.savez_compressed(tmp_path / t.path.name, **arrays)
    assert cache.load_shipped(t.folder, t.config) is None


def test_the_main_job_finds_the_equity_counts_shipped(empty_cache):
    """Boomke Wies's counts and the quick run's Boulmous table and calibration: no deal measured."""
    c, src = BQ.counts()
    assert src == "shipped with tricksim" and int(np.asarray(c).sum()) == BQ.DEALS
    rules = BM.rules_from(["target=11"])
    t = S.boulmous_table(0, rules=rules)
    assert t.source == "shipped" and t.dist["n"] == 8_000_000
    aware = BM.parse_heuristic("cautious:score_aware=1")
    assert SA.table_for([aware] * 4, rules).source == "shipped"
    cal = SA.calibration(aware, rules)
    assert cal.shape[1] == 4 and (np.diff(cal, axis=0) >= 0).all() and cal.max() > 0.5
    written = sorted((empty_cache / "equity").glob("*.npz"))       # the two tables built, no counts measured
    assert len(written) == 2 and all("V" in np.load(p).files for p in written)


def test_the_command_lists_them_all_current():
    df = T.status()
    assert list(df.table) == IDS
    assert (df.current == "yes").all(), df[df.current != "yes"].to_string()
    assert (df.sha256.str.len() == 12).all() and (df.KB > 0).all()


def test_the_listing_says_what_is_wrong(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.setattr(T, "DATA", tmp_path)
    assert set(T.status().current) == {"missing"}
