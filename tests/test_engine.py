"""The run engine: blocks, reduction, persistence, resume, tampering, Dask."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from tricksim.analysis import boulmous as B
from tricksim.analysis import engine
from tricksim.analysis.common import TricksimError

ROOT = Path(__file__).resolve().parent.parent


def params(seed=5, heur="cautious"):
    return B.make_params(seed, B.BoulmousRules(), B.parse_seats(heur))


def test_block_size_and_order_do_not_change_counts(tmp_path):
    p = params()
    a = engine.execute(engine.Run("boulmous.deals", p, 50_000, 7_000), None, progress=False)
    b = engine.execute(engine.Run("boulmous.deals", p, 50_000, 16_384), None, progress=False)
    c = B.block_deals(p, 0, 50_000)
    assert a.n == b.n == 50_000
    assert np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.counts, c)


def test_thread_count_does_not_change_counts():
    import numba
    p = params(heur="random")
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = B.block_deals(p, 1000, 30_000)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = B.block_deals(p, 1000, 30_000)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, many)


def test_blocks_persist_and_resume(tmp_path):
    p = params()
    run = engine.Run("boulmous.deals", p, 40_000, 10_000)
    first = engine.execute(run, tmp_path, progress=False)
    files = sorted((tmp_path / "blocks").glob("*.parquet"))
    assert len(files) == 4
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["status"] == "complete" and man["blocks_done"] == 4 and man["params"]["seed"] == 5
    assert "numba" in man["versions"] and man["started"] and man["ended"]
    again = engine.execute(run, tmp_path, progress=False)
    assert again.reused == 4
    assert np.array_equal(first.counts, again.counts)


def test_tampered_block_is_redone(tmp_path):
    p = params()
    run = engine.Run("boulmous.deals", p, 30_000, 10_000)
    ref = engine.execute(run, tmp_path, progress=False)
    blk = tmp_path / "blocks" / "b00000001.parquet"
    # rewrite block 1 with altered values but the same metadata: the checksum catches it
    import pyarrow.parquet as pq
    import pyarrow as pa
    t = pq.read_table(blk)
    vals = t.column("value").to_numpy().copy()
    vals[0] += 1
    pq.write_table(pa.table({"value": vals}).replace_schema_metadata(t.schema.metadata), blk)
    # and garble block 2 entirely
    (tmp_path / "blocks" / "b00000002.parquet").write_bytes(b"not parquet")
    res = engine.execute(run, tmp_path, progress=False)
    assert res.reused == 1
    assert np.array_equal(res.counts, ref.counts)


def test_foreign_block_is_not_used(tmp_path):
    pa_ = params(seed=1)
    pb = params(seed=2)
    ra = engine.Run("boulmous.deals", pa_, 20_000, 10_000)
    rb = engine.Run("boulmous.deals", pb, 20_000, 10_000)
    engine.execute(ra, tmp_path / "a", progress=False)
    ref_b = engine.execute(rb, tmp_path / "b", progress=False)
    # copy a block of run a into run b's folder: its run id does not match, so it is redone
    (tmp_path / "b" / "blocks" / "b00000000.parquet").write_bytes(
        (tmp_path / "a" / "blocks" / "b00000000.parquet").read_bytes())
    res = engine.execute(rb, tmp_path / "b", progress=False)
    assert res.reused == 1
    assert np.array_equal(res.counts, ref_b.counts)


def test_different_run_in_same_folder_is_refused(tmp_path):
    engine.execute(engine.Run("boulmous.deals", params(seed=1), 10_000, 10_000), tmp_path, progress=False)
    with pytest.raises(TricksimError, match="different run"):
        engine.execute(engine.Run("boulmous.deals", params(seed=2), 10_000, 10_000), tmp_path, progress=False)
    res = engine.execute(engine.Run("boulmous.deals", params(seed=2), 10_000, 10_000), tmp_path, progress=False,
                         force=True)
    assert res.n == 10_000 and res.reused == 0


def test_more_hands_extend_a_run(tmp_path):
    p = params()
    engine.execute(engine.Run("boulmous.deals", p, 20_000, 10_000), tmp_path, progress=False)
    res = engine.execute(engine.Run("boulmous.deals", p, 40_000, 10_000), tmp_path, progress=False)
    assert res.reused == 2
    assert np.array_equal(res.counts, B.block_deals(p, 0, 40_000))


def test_until_precision_stops_reproducibly():
    p = params()
    calls = []

    def stop(acc, n):
        calls.append(n)
        return n >= 30_000

    res = engine.execute(engine.Run("boulmous.deals", p, 100_000, 10_000), None, progress=False, stop=stop)
    assert res.stopped_early and res.n == 30_000
    assert calls == [10_000, 20_000, 30_000]
    assert np.array_equal(res.counts, B.block_deals(p, 0, 30_000))


def test_precision_reached_on_the_last_block_is_a_complete_run(tmp_path):
    """Every hand asked for was played: the run is complete, not stopped at the precision."""
    import json
    res = engine.execute(engine.Run("boulmous.deals", params(), 20_000, 10_000), tmp_path, progress=False,
                         stop=lambda acc, n: n >= 20_000)
    assert not res.stopped_early and res.n == 20_000
    assert json.loads((tmp_path / "manifest.json").read_text())["status"] == "complete"


def test_zero_hands_is_an_error():
    with pytest.raises(TricksimError, match="at least 1"):
        engine.execute(engine.Run("boulmous.deals", params(), 0, 10_000), None, progress=False)


def test_killed_run_resumes_bit_for_bit(tmp_path):
    """Kill a run after some blocks, resume it, compare with an uninterrupted run."""
    out = tmp_path / "killed"
    script = textwrap.dedent(f"""
        import time
        from tricksim.analysis import boulmous as B, engine
        real = engine.find_block("boulmous.deals")
        def slow(params, first, n):
            time.sleep(0.4)
            return real(params, first, n)
        engine.BLOCK_FUNCS["boulmous.deals"] = slow
        from tricksim.analysis import runfolder
        engine.CODE_HASH = runfolder.CODE_HASH = {engine.CODE_HASH!r}   # this process's code, even if a file changes
        p = B.make_params(9, B.BoulmousRules(), B.parse_seats("cautious"))
        engine.execute(engine.Run("boulmous.deals", p, 200_000, 10_000), {str(out)!r}, progress=False)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    deadline = time.time() + 120
    while time.time() < deadline:
        done = list((out / "blocks").glob("*.parquet")) if (out / "blocks").exists() else []
        if len(done) >= 3:
            break
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(list((out / "blocks").glob("*.parquet")))
    assert 3 <= done < 20, "the run should have been killed part way"
    p = B.make_params(9, B.BoulmousRules(), B.parse_seats("cautious"))
    run = engine.Run("boulmous.deals", p, 200_000, 10_000)
    resumed = engine.execute(run, out, progress=False)
    assert resumed.reused == done
    whole = engine.execute(run, tmp_path / "whole", progress=False)
    assert np.array_equal(resumed.counts, whole.counts)


def test_cli_rerun_resumes(tmp_path):
    from tricksim.cli import main
    args = ["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "30000", "--seed", "3", "-q",
            "--out", str(tmp_path)]
    main(args)
    first = (tmp_path / "odds_calls.csv").read_text()
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["status"] == "complete"
    assert man["command"].startswith("tricksim odds boulmous --hand") and "--seed 3" in man["command"]
    main(args)
    assert (tmp_path / "odds_calls.csv").read_text() == first


def test_dask_local_cluster_matches_local_backend(monkeypatch):
    distributed = pytest.importorskip("distributed")
    # a LocalCluster writes its workers' settings (OMP_NUM_THREADS=1, ...) into this process's environment:
    # monkeypatch puts them back, so no later test in this worker sees them
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MALLOC_TRIM_THRESHOLD_"):
        if k in os.environ:
            monkeypatch.setenv(k, os.environ[k])
        else:
            monkeypatch.delenv(k, raising=False)
    from dask.distributed import Client, LocalCluster
    p = params(heur="aggressive")
    run = engine.Run("boulmous.deals", p, 60_000, 10_000)
    local = engine.execute(run, None, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        res = engine.execute(run, None, progress=False, scheduler=cluster.scheduler_address)
    assert np.array_equal(local.counts, res.counts)
    assert res.n == 60_000


def test_keep_hands_writes_one_row_per_hand_matching_the_counts(tmp_path):
    import pandas as pd
    p = params()
    run = engine.Run("boulmous.deals", p, 25_000, 10_000, keep_hands=True)
    res = engine.execute(run, tmp_path, progress=False)
    rows = pd.read_parquet(tmp_path / "hands")
    assert len(rows) == 25_000
    assert sorted(rows.hand_index) == list(range(25_000))
    # the rows are the same hands the counts came from: all-pass count agrees
    assert int((rows.taker < 0).sum()) == int(res.counts[560])


def test_ctrl_c_prints_one_line_and_keeps_blocks(tmp_path, capsys):
    import threading
    from tricksim.cli import main
    out = tmp_path / "intr"
    stop = threading.Event()

    def running():
        try:
            return json.loads((out / "manifest.json").read_text())["status"] == "running"
        except (OSError, ValueError, KeyError):
            return True

    def interrupt_after_the_first_block():
        # Ctrl-C once a block is finished (not after a fixed time: on a loaded machine the kernels may still be
        # loading from the cache then, and the interrupt would come before the run has anything to keep); again
        # every 2 s while the manifest still says running (one full-tier run, at load 4-8, played all 200 million
        # hands after a single Ctrl-C, for a reason not found)
        while not stop.wait(0.05):
            if any((out / "blocks").glob("*.parquet")):
                while running() and not stop.is_set():
                    os.kill(os.getpid(), signal.SIGINT)
                    stop.wait(2.0)
                return

    watcher = threading.Thread(target=interrupt_after_the_first_block, daemon=True)
    watcher.start()
    try:
        with pytest.raises(SystemExit) as e:
            main(["odds", "boulmous", "--hands", "200000000", "--seed", "4", "-q", "--out", str(out)])
    finally:
        stop.set()
    assert e.value.code == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("tricksim: interrupted") and "resume" in err[-1]
    man = json.loads((out / "manifest.json").read_text())
    # not finished, and the manifest says so: a rerun resumes from the kept blocks
    assert man["status"] == "interrupted" and man["ended"]
    assert man["blocks_done"] == len(list((out / "blocks").glob("*.parquet"))) < man["blocks_total"]


# ---------------------------------------------------------------------------
# finished work is never lost (issue 14)
# ---------------------------------------------------------------------------
def _block_bytes(out):
    return {f.name: f.read_bytes() for f in sorted((out / "blocks").glob("*.parquet"))}


def test_smaller_run_keeps_the_larger_finished_run(tmp_path, capsys):
    """200,000 then 400,000 then 100,000 hands into one folder: the third run is refused with one
    line, and the 400,000-deal tables and every finished block survive."""
    from tricksim.cli import main
    out = tmp_path / "run"
    args = ["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--seed", "1", "-q", "--out", str(out)]
    main(args + ["--hands", "200000"])
    main(args + ["--hands", "400000"])
    capsys.readouterr()
    tables = (out / "odds_calls.csv").read_text()
    blocks = _block_bytes(out)
    # the 200,000-hand run's short block was not overwritten by the 400,000-hand run's full block 0
    assert set(blocks) == {"b00000000-n200000.parquet", "b00000000.parquet", "b00000001-n137856.parquet"}
    with pytest.raises(SystemExit) as e:
        main(args + ["--hands", "100000"])
    assert e.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "400,000 hands" in err[0] and "--force" in err[0], err
    assert (out / "odds_calls.csv").read_text() == tables
    assert "400000" in tables.splitlines()[1]
    assert _block_bytes(out) == blocks
    man = json.loads((out / "manifest.json").read_text())
    assert man["status"] == "complete" and man["requested"] == 400_000 and man["tables_units"] == 400_000
    # --force answers the smaller question without touching a finished block ...
    main(args + ["--hands", "100000", "--force"])
    assert "100000" in (out / "odds_calls.csv").read_text().splitlines()[1]
    after = _block_bytes(out)
    assert {k: v for k, v in after.items() if k in blocks} == blocks and "b00000000-n100000.parquet" in after
    # ... so the larger run comes back from its blocks, bit for bit
    main(args + ["--hands", "400000"])
    assert (out / "odds_calls.csv").read_text() == tables


def test_a_short_last_block_is_never_overwritten(tmp_path):
    p = params()
    short = engine.execute(engine.Run("boulmous.deals", p, 15_000, 10_000), tmp_path, progress=False)
    files = _block_bytes(tmp_path)
    assert set(files) == {"b00000000.parquet", "b00000001-n5000.parquet"}
    longer = engine.execute(engine.Run("boulmous.deals", p, 20_000, 10_000), tmp_path, progress=False)
    assert longer.reused == 1
    now = _block_bytes(tmp_path)
    assert {k: now[k] for k in files} == files and "b00000001.parquet" in now
    with pytest.raises(TricksimError, match="finished run of 20,000 hands.*ask for 20,000 hands to reuse it"):
        engine.execute(engine.Run("boulmous.deals", p, 15_000, 10_000), tmp_path, progress=False)
    again = engine.execute(engine.Run("boulmous.deals", p, 15_000, 10_000), tmp_path, progress=False, force=True)
    assert again.reused == 2 and np.array_equal(again.counts, short.counts)


def test_an_old_short_block_under_the_full_name_is_moved_not_overwritten(tmp_path):
    """Folders written before short blocks had their own names keep them under that name."""
    p = params()
    run = engine.Run("boulmous.deals", p, 15_000, 10_000)
    engine.execute(run, tmp_path, progress=False)
    (tmp_path / "blocks" / "b00000001-n5000.parquet").rename(tmp_path / "blocks" / "b00000001.parquet")
    old = (tmp_path / "blocks" / "b00000001.parquet").read_bytes()
    engine.execute(engine.Run("boulmous.deals", p, 20_000, 10_000), tmp_path, progress=False)
    assert (tmp_path / "blocks" / "b00000001-n5000.parquet").read_bytes() == old
    res = engine.execute(engine.Run("boulmous.deals", p, 20_000, 10_000), tmp_path, progress=False)
    assert res.reused == 2


def test_manifest_counts_blocks_while_the_run_goes_on(tmp_path):
    p = params()
    seen = []

    def stop(acc, n):   # asked after each block: the manifest on disk already counts it
        seen.append(json.loads((tmp_path / "manifest.json").read_text())["blocks_done"])
        return False

    engine.execute(engine.Run("boulmous.deals", p, 40_000, 10_000), tmp_path, progress=False, stop=stop)
    assert seen == [1, 2, 3, 4]
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["status"] == "complete" and man["blocks_done"] == 4


def test_interrupted_run_says_so_in_its_manifest(tmp_path, monkeypatch):
    real = engine.find_block("boulmous.deals")

    def flaky(prm, first, n):
        if first >= 20_000:
            raise KeyboardInterrupt
        return real(prm, first, n)

    monkeypatch.setitem(engine.BLOCK_FUNCS, "boulmous.deals", flaky)
    run = engine.Run("boulmous.deals", params(), 40_000, 10_000)
    with pytest.raises(KeyboardInterrupt):
        engine.execute(run, tmp_path, progress=False)
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["status"] == "interrupted" and man["blocks_done"] == 2 and man["ended"]
    monkeypatch.setitem(engine.BLOCK_FUNCS, "boulmous.deals", real)
    res = engine.execute(run, tmp_path, progress=False)
    assert res.reused == 2 and np.array_equal(res.counts, B.block_deals(params(), 0, 40_000))


def test_unusable_run_folders_are_refused_before_running(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setitem(engine.BLOCK_FUNCS, "boulmous.deals", lambda *a: calls.append(a))
    run = engine.Run("boulmous.deals", params(), 10_000, 10_000)
    (tmp_path / "file").write_text("x")
    with pytest.raises(TricksimError, match="is a file, not a folder"):
        engine.execute(run, tmp_path / "file", progress=False)
    with pytest.raises(TricksimError, match="cannot be created"):
        engine.execute(run, tmp_path / "file" / "sub", progress=False)
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    with pytest.raises(TricksimError, match="cannot be written"):
        engine.execute(run, tmp_path / "new", progress=False)
    assert calls == []
