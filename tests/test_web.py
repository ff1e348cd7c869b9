"""The local web page (``tricksim serve``, issue 29): with Starlette's test client (no browser), then in a real
headless Chromium driven by Selenium (skipped, with the reason, when the system's chromium and chromedriver are
absent).

The page runs the CLI's own commands (``odds GAME --hand ...``, ``pot``) and shows their tables as HTML tables: every
row of a page's table is a row of the command's printed table for the same seed; the known hand ``JH JD AH KH QH TH``
(trump hearts: the six best trumps) makes every bid in hearts, P(make) = 100.0%.  Long runs show their progress and
can be cancelled.
"""
from __future__ import annotations

import dataclasses
import html
import json
import re
import shlex
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install '.[web]') is not installed")

from starlette.testclient import TestClient  # noqa: E402

from tricksim import cli  # noqa: E402
from tricksim.analysis import boulmous, web  # noqa: E402
from tricksim.analysis.output import capture_tables, pct, plain_table, show  # noqa: E402
from tricksim.analysis.registry import get as get_game  # noqa: E402
from tricksim.analysis.web import render  # noqa: E402
from tricksim.analysis.web.app import make_app  # noqa: E402

KNOWN = "JH JD AH KH QH TH"
SHOTS = Path("/tmp/web-shots")
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
BOURRE = {"game": "bourre", "hand": "AH KH 7C 4D 2S", "up_card": "9H"}


def _app(runs, wait=120):
    return make_app(cli.page_command, runs, wait=wait)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(_app(tmp_path_factory.mktemp("web-runs")))


def _tables(page: str) -> list[dict]:
    """The page's result tables: {"columns": [...], "rows": [[cell, ...]], "numeric": [bool per column]}."""
    out = []
    m = re.search(r'<div id="result">(.*?)<p class="muted">The same numbers', page, re.S)
    assert m, "no result in the page"
    for t in re.findall(r'<table class="result">(.*?)</table>', m.group(1), re.S):
        heads = re.findall(r"<th( class=\"num\")?>(.*?)</th>", t, re.S)
        rows = [[html.unescape(c) for _, c in re.findall(r"<td( class=\"num\")?>(.*?)</td>", r, re.S)]
                for r in re.findall(r"<tr>(.*?)</tr>", t.split("</thead>")[1], re.S)]
        out.append({"columns": [html.unescape(h) for _, h in heads], "rows": rows,
                    "numeric": [bool(n) for n, _ in heads]})
    return out


def _prose(page: str) -> str:
    m = re.search(r'<div id="result">(.*?)<p class="muted">The same numbers', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", m.group(1)))


def _error(page: str) -> str | None:
    m = re.search(r'id="error">([^<]*)<', page)
    return html.unescape(m.group(1)) if m else None


def _command(page: str) -> str:
    return html.unescape(re.search(r'id="command">([^<]*)<', page).group(1))


def _cli(capsys, args) -> str:
    capsys.readouterr()
    cli.main(args)
    return capsys.readouterr().out


def _cli_error(capsys, args) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        cli.main(args)
    assert e.value.code == 2
    return capsys.readouterr().err.strip().removeprefix("tricksim: error: ")


def _line_of(cells, lines) -> bool:
    pat = re.compile(r"^\s*" + r"\s+".join(re.escape(c) for c in cells if c) + r"\s*$")
    return any(pat.match(x) for x in lines)


def _same_as_cli(tables, out: str, least: int = 1):
    """Every table of the page is a table the command printed: its header and each row, cell by cell, are one
    line of the command's output (cells apart by spaces: the CLI's columns), or, for a table the terminal folds
    into parts that repeat its first columns, one line of each part."""
    assert len(tables) >= least, tables
    lines = out.splitlines()
    for t in tables:
        for cells in [t["columns"]] + t["rows"]:
            if _line_of(cells, lines):
                continue
            folded = False
            for key in (1, 2):
                rest, ok = cells[key:], True
                while rest and ok:
                    m = next((m for m in range(len(rest), 0, -1) if _line_of(cells[:key] + rest[:m], lines)), 0)
                    ok, rest = m > 0, rest[m:]
                folded = folded or ok
            assert folded, (cells, out[:2000])


def test_known_hand_makes_every_bid_in_hearts(client):
    r = client.get("/odds", params={"game": "boulmous", "hand": KNOWN, "hands": "3000", "seed": "5"})
    assert r.status_code == 200, _error(r.text)
    t = _tables(r.text)[0]
    assert t["columns"][:4] == ["trump", "bid", "P(make) [95% CI]", "n"]
    assert t["numeric"][1:4] == [True, True, True] and not t["numeric"][0]     # numbers right-aligned
    hearts = [row for row in t["rows"] if row[0] == "H"]
    assert [row[1] for row in hearts] == ["3", "4", "5", "6"]
    assert all(row[2].startswith("100.0% [") and row[3] == "3,000" for row in hearts), hearts
    assert 'id="best"' in r.text and "best call: 6 H" in r.text
    assert "<pre" not in r.text                                   # tables, not preformatted text


def test_page_numbers_are_the_clis_and_odds_hands(client, capsys, tmp_path):
    hand, hands, seed = "JH JD AH KH 9S TC", 4000, 11
    r = client.get("/odds", params={"game": "boulmous", "hand": hand, "hands": str(hands), "seed": str(seed),
                                    "seat": "2"})
    assert r.status_code == 200, _error(r.text)
    tables = _tables(r.text)
    out = _cli(capsys, ["odds", "boulmous", "--hand", hand, "--hands", str(hands), "--seed", str(seed),
                        "--seat", "2", "--out", str(tmp_path / "cli"), "-q"])
    _same_as_cli(tables, out)
    assert _command(r.text) == f"tricksim odds boulmous --hand '{hand}' --seat 2 --hands {hands} --seed {seed}"
    # and the study function itself, formatted as the CLI formats it
    g = boulmous.GAME
    res = boulmous.odds_hand(boulmous.parse_hand(hand), 2, seed, hands, g.rules_from(), g.parse_seats(None))
    rows = {(row[0], row[1]): row for row in tables[0]["rows"]}
    for c in res["calls"].itertuples():
        assert rows[(c.trump, str(c.bid))][2:4] == [pct(c.p_make, c.ci_low, c.ci_high), f"{c.n:,}"], (c.trump, c.bid)
    # a different seed gives other deals (the page does not show a cached answer of another seed)
    other = _tables(client.get("/odds", params={"game": "boulmous", "hand": hand, "hands": str(hands),
                                                "seed": str(seed + 1), "seat": "2"}).text)
    assert other != tables


def test_bourre_odds_and_explain_are_the_clis(client, capsys, tmp_path):
    base = {**BOURRE, "players": "5", "seat": "1", "hands": "2000", "seed": "3"}
    args = ["odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--players", "5", "--seat", "1",
            "--hands", "2000", "--seed", "3", "-q"]
    for explain in (False, True):
        r = client.get("/odds", params={**base, **({"explain": "1"} if explain else {})})
        assert r.status_code == 200, _error(r.text)
        out = _cli(capsys, args + ["--out", str(tmp_path / f"cli{explain}")] + (["--explain"] if explain else []))
        _same_as_cli(_tables(r.text), out)
        assert ("best: " if explain else "best decision: ") in _prose(r.text)


def test_boomke_wies_odds_are_the_clis(client, capsys, tmp_path):
    hand = "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"
    r = client.get("/odds", params={"game": "boomke-wies", "hand": hand, "hands": "2000", "seed": "4"})
    assert r.status_code == 200, _error(r.text)
    out = _cli(capsys, ["odds", "boomke-wies", "--hand", hand, "--hands", "2000", "--seed", "4", "-q",
                        "--out", str(tmp_path / "cli")])
    _same_as_cli(_tables(r.text), out, least=3)
    assert re.search(r'id="best">Best call per position', r.text)


def test_the_clis_options_on_the_page_are_the_clis(client, capsys, tmp_path):
    """Kinds of play, a heuristic per seat and a rule variant: the page makes the command line and shows its
    tables; the same line at the CLI prints the same rows."""
    params = {**BOURRE, "players": "4", "hands": "400", "seed": "9", "play": ["heuristic", "open"], "h0": "tight",
              "h2": "random", "r.max_discard": "3", "r.must_overtrump": "true"}
    r = client.get("/odds", params=params)
    assert r.status_code == 200, _error(r.text)
    cmd = _command(r.text)
    assert cmd == ("tricksim odds bourre --hand 'AH KH 7C 4D 2S' --up-card 9H --players 4 --hands 400 --seed 9 "
                   "--play heuristic,open -H tight -H default -H random -H default --rule max_discard=3")
    tables = _tables(r.text)
    assert {row[1] for row in tables[0]["rows"]} == {"heuristics", "open-hand (paranoid)"}
    out = _cli(capsys, shlex.split(cmd)[1:] + ["--out", str(tmp_path / "o"), "-q"])
    _same_as_cli(tables, out, least=2)
    # Boulmous' --scores: the calls ranked by the chance to win the game
    r = client.get("/odds", params={"game": "boulmous", "hand": "JH JD AH KH 9S TC", "hands": "1000",
                                    "scores": "18,17,9,3"})
    assert r.status_code == 200, _error(r.text)
    t = _tables(r.text)[0]
    assert "P(win the game) [95% CI]" in t["columns"]
    out = _cli(capsys, ["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "1000", "--scores", "18,17,9,3",
                        "--out", str(tmp_path / "s"), "-q"])
    _same_as_cli([t], out)


def test_the_page_offers_the_games_heuristics_and_rules(client):
    for game in ("boulmous", "boomke-wies", "bourre"):
        g = get_game(game)
        page = html.unescape(client.get("/odds", params={"game": game}).text)
        for name in g.heuristics:
            assert f'<option value="{name}">' in page and f"<td>{name}" in page, (game, name)
        for f in dataclasses.fields(g.rules):
            assert f'name="r.{f.name}"' in page, (game, f.name)
            default = str(f.default).lower() if isinstance(f.default, bool) else str(f.default)
            assert re.search(rf'name="r.{f.name}"[^>]*data-default="{re.escape(default if f.default is not None else "none")}"',
                             page), (game, f.name)
        want = {"boulmous": 3, "boomke-wies": 2, "bourre": 3}[game]
        assert page.count('name="play"') == want
        assert ('name="scores"' in page) == (game == "boulmous")


@pytest.mark.parametrize("params, message", [
    ({"game": "boulmous", "hand": "JH JH AH KH QH TH"}, "duplicate card 'JH'"),
    ({"game": "boulmous", "hand": "JH JD AH"}, "must have 6 cards, got 3"),
    ({"game": "boulmous", "hand": "JH JD AH KH QH 2H"}, "card '2H' is not in this game's deck"),
    ({**BOURRE, "players": "9"}, "--players"),
    ({"game": "bourre", "hand": "AH KH 7C 4D 2S"}, "--up-card"),
    ({"game": "boulmous", "hand": KNOWN, "hands": "200001"}, "must be 1 to 200,000"),
    ({"game": "boulmous", "hand": KNOWN, "hands": "0"}, "must be 1 to 200,000"),
    ({"game": "boulmous", "hand": KNOWN, "seed": "-1"}, "--seed must be an integer"),
    ({"game": "boulmous", "hand": KNOWN, "seat": "x"}, "the seat must be a whole number"),
    ({"game": "boulmous", "hand": KNOWN, "h1": "reckless"}, "reckless"),
    ({"game": "boulmous", "hand": KNOWN, "r.target": "0"}, "target"),
    ({"game": "boulmous", "hand": KNOWN, "scores": "18,17"}, "scores"),
    ({"game": "boulmous", "hand": KNOWN, "explain": "1", "play": ["heuristic", "open"]}, "leave out --play"),
    ({"game": "skat"}, "unknown game 'skat'"),
])
def test_bad_input_is_one_line_beside_the_form(client, params, message):
    r = client.get("/odds", params=params)
    assert r.status_code == 400
    err = _error(r.text)
    assert err is not None and message in err and "\n" not in err and "Traceback" not in r.text
    assert client.get("/").status_code == 200      # the server keeps serving


def test_a_bad_option_gets_the_clis_own_line(client, capsys):
    """The page's message for an option the command refuses is the line the command prints."""
    r = client.get("/odds", params={"game": "boulmous", "hand": KNOWN, "h0": "cautious:margin=7"})
    assert r.status_code == 400
    assert _error(r.text) == _cli_error(capsys, ["odds", "boulmous", "--hand", KNOWN, "--seed", "0", "-H",
                                                 "cautious:margin=7", "-H", "default", "-H", "default", "-H",
                                                 "default"])


def test_pot_page_is_the_clis_pot(client, capsys, tmp_path):
    params = {"run": "1", "players": "4", "sessions": "300", "deals": "20", "seed": "2", "heuristic": "tight"}
    r = client.get("/pot", params=params)
    assert r.status_code == 200, _error(r.text)
    cmd = _command(r.text)
    assert cmd == "tricksim pot --players 4 --deals 20 --sessions 300 --seed 2 -H tight"
    out = _cli(capsys, ["pot", "--players", "4", "--deals", "20", "--sessions", "300", "--seed", "2", "-H", "tight",
                        "--out", str(tmp_path / "pot"), "-q"])
    tables = _tables(r.text)
    _same_as_cli(tables, out, least=5)
    assert any(t["columns"][:2] == ["deal", "median"] for t in tables)            # the fan of the pot
    imgs = re.findall(r'src="(/job/[^"]+)"', r.text)
    assert [i.rsplit("/", 1)[1] for i in imgs] == ["pot_growth.png"]
    png = client.get(imgs[0])
    assert png.status_code == 200 and png.content == (tmp_path / "pot" / "pot_growth.png").read_bytes()
    key = imgs[0].split("/")[2]
    for bad in ("manifest.json", "..%2f..%2fpyproject.toml", "../pot_growth.png"):
        assert client.get(f"/job/{key}/image/{bad}").status_code == 404
    # the tail law: its tables and its plot beside the pot's
    tail = {**params, "tail": "1", "sessions": "200", "deals": "10"}
    r = client.get("/pot", params=tail)
    assert r.status_code == 200, _error(r.text)
    assert _command(r.text).endswith(" --tail") and "THE TAIL LAW" in _prose(r.text)
    out = _cli(capsys, shlex.split(_command(r.text))[1:] + ["--out", str(tmp_path / "tail"), "-q"])
    _same_as_cli(_tables(r.text), out, least=8)
    assert [i.rsplit("/", 1)[1] for i in re.findall(r'src="(/job/[^"]+)"', r.text)] == ["pot_growth.png",
                                                                                      "tail_law.png"]
    r = client.get("/pot", params={**params, "sessions": "1000000", "deals": "200"})
    assert r.status_code == 400 and "at most 20,000,000 deals" in _error(r.text)
    assert client.get("/pot").status_code == 200 and "Play the sessions" in client.get("/pot").text


def test_pot_page_takes_a_heuristic_per_seat(client, capsys, tmp_path):
    """A seat's own field overrides the every-seat heuristic; the page runs ``-H`` once per seat, as the CLI."""
    params = {"run": "1", "players": "4", "sessions": "200", "deals": "20", "seed": "3", "heuristic": "tight",
              "h2": "loose", "h6": "random"}                     # h6: no seat 6 at a 4-player table, not passed
    r = client.get("/pot", params=params)
    assert r.status_code == 200, _error(r.text)
    argv = ["pot", "--players", "4", "--deals", "20", "--sessions", "200", "--seed", "3", "-H", "tight", "-H", "tight",
            "-H", "loose", "-H", "tight"]
    assert _command(r.text) == shlex.join(["tricksim", *argv])
    out = _cli(capsys, argv + ["--out", str(tmp_path / "pot"), "-q"])
    _same_as_cli(_tables(r.text), out, least=5)
    r = client.get("/pot", params={**params, "h1": "nosuch"})
    assert r.status_code == 400 and "nosuch" in _error(r.text)


def test_a_long_run_shows_progress_and_cancels(tmp_path):
    """A run longer than the page's wait: the page shows the progress box, the job's progress grows, other pages
    answer meanwhile; Cancel stops it after the block in progress, the run folder keeps the finished blocks
    (manifest: interrupted) and the page says so; Run again resumes from them."""
    runs = tmp_path / "runs"
    c = TestClient(_app(runs, wait=0.3))
    params = {"run": "1", "players": "7", "sessions": "100000", "deals": "200", "seed": "1"}
    r = c.get("/pot", params=params)
    assert r.status_code == 200 and 'id="progress"' in r.text and 'id="cancel"' in r.text
    key = re.search(r'data-key="([0-9a-f]+)"', r.text).group(1)
    t0 = time.perf_counter()
    while True:
        s = c.get(f"/job/{key}").json()
        if s["done"] > 0 or time.perf_counter() - t0 > 120:
            break
        time.sleep(0.2)
    assert s["status"] == "running" and 0 < s["done"] < s["total"] == 100_000 and s["unit"] == "sessions", s
    t1 = time.perf_counter()
    assert c.get("/").status_code == 200 and c.get("/odds", params={"game": "bourre"}).status_code == 200
    assert time.perf_counter() - t1 < 5                        # other pages are not held by the run
    t2 = time.perf_counter()
    s = c.post(f"/job/{key}/cancel").json()
    while s["status"] != "cancelled" and time.perf_counter() - t2 < 30:
        time.sleep(0.1)
        s = c.get(f"/job/{key}").json()
    assert s["status"] == "cancelled" and s["done"] < s["total"], s
    stopped = time.perf_counter() - t2
    assert stopped < 15, stopped                               # a block or two, not the whole run
    folder = next(runs.iterdir())
    man = json.loads((folder / "manifest.json").read_text())
    assert man["status"] == "interrupted" and 0 < man["blocks_done"] < man["blocks_total"]
    page = c.get("/pot", params=params).text
    assert 'id="cancelled"' in page and "Cancelled after" in page and "finished blocks are kept" in page
    assert 'id="progress"' not in page                          # a reload does not start the run again
    assert c.get(f"/job/{key}").json()["done"] == s["done"]
    # Run again: a new run of the same command, which reuses the finished blocks
    r = c.get("/pot", params={**params, "again": "1"})
    assert 'id="progress"' in r.text or 'id="result"' in r.text
    s2 = c.get(f"/job/{key}").json()
    assert s2["status"] in ("waiting", "running", "done")
    c.post(f"/job/{key}/cancel")
    t3 = time.perf_counter()
    while c.get(f"/job/{key}").json()["status"] not in ("cancelled", "done") and time.perf_counter() - t3 < 30:
        time.sleep(0.1)
    assert c.get(f"/job/{key}").json()["status"] in ("cancelled", "done")
    assert c.get("/job/0000/cancel").status_code == 405 and c.post("/job/0000/cancel").status_code == 404


def test_the_pages_answer(client):
    assert all(g.name in client.get("/").text for g in (boulmous.GAME,))
    for game in ("boulmous", "boomke-wies", "bourre"):
        r = client.get("/odds", params={"game": game})
        assert r.status_code == 200 and r.text.count('class="card') == (24 if game == "boulmous" else 52)
        assert client.get("/charts", params={"game": game}).status_code == 200


def test_only_the_reports_images_are_served(client):
    page = client.get("/charts", params={"game": "bourre"}).text
    names = re.findall(r'src="/reports/([^"]+)"', page)
    for name in names:
        r = client.get(f"/reports/{name}")
        assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    for bad in ("..%2f..%2fpyproject.toml", "%2e%2e/%2e%2e/pyproject.toml", "charts/..%2f..%2fcli.py",
                "%2fetc%2fpasswd", "/etc/passwd", "bourre.md", "charts/../../pyproject.toml"):
        r = client.get(f"/reports/{bad}")
        assert r.status_code == 404 and b"[project]" not in r.content and b"root:" not in r.content, bad


def test_serve_without_the_web_extra_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(web, "missing", lambda: ["starlette", "uvicorn"])
    with pytest.raises(SystemExit) as e:
        cli.main(["serve"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pip install '.[web]'" in err


def test_runs_write_only_into_the_servers_run_folder(tmp_path, monkeypatch):
    """A request's run goes into a folder under the server's ``runs`` (named by its command line: the same URL
    finds it); nothing is written in the current folder (where the CLI's default run folders would go)."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    runs = tmp_path / "runs"
    c = TestClient(_app(runs))
    params = {"game": "boulmous", "hand": KNOWN, "hands": "1000", "seed": "2"}
    first = c.get("/odds", params=params)
    assert first.status_code == 200
    folders = [p for p in runs.iterdir()]
    assert len(folders) == 1 and folders[0].name.startswith("boulmous-") and any(folders[0].iterdir())
    assert _tables(c.get("/odds", params=params).text) == _tables(first.text)
    assert [p for p in runs.iterdir()] == folders and not any(work.iterdir())
    # a field cannot smuggle an option in: each is the value of its own option
    evil = tmp_path / "evil"
    for field in ("h0", "scores", "r.target", "seed"):
        r = c.get("/odds", params={**params, field: f"--out={evil}"})
        assert r.status_code == 400 and _error(r.text), field
    assert not evil.exists() and not any(work.iterdir())


def test_tables_are_cut_from_the_text_only_when_exact():
    """A ``plain_table`` table is cut into cells at its header's edges only if the cells give the text back."""
    import pandas as pd

    df = pd.DataFrame({"choice": ["play, keep all", "pass"], "P(win)": ["61.2% [60.9, 61.5]", "0.0%"],
                       "n": ["1,000", "20"]})
    assert render.split_plain(list(df.columns), df.to_string(index=False)) == [
        ["play, keep all", "61.2% [60.9, 61.5]", "1,000"], ["pass", "0.0%", "20"]]
    assert render.split_plain(["choice", "P(win)", "n"], "choice P(win) n\nab  x  1") is None
    with capture_tables() as found:
        text = plain_table(df) + "\n" + show(df)
    assert [f["rows"] is None for f in found] == [True, False] and found[1]["rows"][0][0] == "play, keep all"
    b = render.blocks(["Title", text, "best decision: pass", "results in /tmp/x"], found)
    assert [x["kind"] for x in b] == ["text", "table", "table", "text"]
    assert b[1]["numeric"] == [False, True, True] and b[-1]["lines"][0]["first_best"]
    assert all("results in" not in x["text"] for blk in b if blk["kind"] == "text" for x in blk["lines"])


def test_every_plain_table_goes_through_output():
    """The page sees a command's tables only when they are formatted by ``output.show`` or ``output.plain_table``:
    no module of analysis/ formats a table with pandas' ``to_string`` itself (it would reach the page as text)."""
    root = Path(web.__file__).resolve().parent.parent
    found = [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py")) if p.name != "output.py"
             for i, line in enumerate(p.read_text().splitlines(), 1) if ".to_string(" in line and "``" not in line]
    assert not found, found


def test_only_loopback_is_quiet():
    assert all(web.check_host(h) is None for h in ("127.0.0.1", "localhost", "::1"))
    assert "warning" in web.check_host("0.0.0.0")


# ---- in a real browser: headless Debian Chromium through Selenium ----------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn

    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(_app(tmp_path_factory.mktemp("browser-runs"), wait=1.5), host="127.0.0.1",
                                        port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        pytest.skip(f"the browser tests need Debian's chromium and chromium-driver ({', '.join(missing)} absent: "
                    f"apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
              "--window-size=1280,1400", f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(a)
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(600)
    yield driver
    driver.quit()


def _shot(driver, tmp_path, name):
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 1000
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def _wait_for(browser, *ids):
    """Poll (up to 2 minutes) until the page holds an element with one of ``ids``."""
    from selenium.webdriver.common.by import By

    for _ in range(600):
        if any(browser.find_elements(By.ID, i) for i in ids):
            return
        time.sleep(0.2)


def _wait_for_new_page(browser, element):
    """Poll (up to 2 minutes) until ``element`` of the page shown before a click is gone (a new page loaded)."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 120, poll_frequency=0.2).until(expected_conditions.staleness_of(element))


def _hearts(browser):
    from selenium.webdriver.common.by import By

    table = browser.find_elements(By.CSS_SELECTOR, "#result table.result")[0]
    head = [th.text for th in table.find_elements(By.TAG_NAME, "th")]
    assert head[:2] == ["trump", "bid"], head
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    cells = [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in rows]
    return [c for c in cells if c and c[0] == "H"]


def test_browser_picks_the_known_hand_and_a_bad_one(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    assert "Boulmous" in browser.page_source
    _shot(browser, tmp_path, "index")
    browser.get(server + "/odds?game=boulmous")
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card")) == 24
    for card in KNOWN.split():
        browser.find_element(By.ID, f"card-{card}").click()
    assert browser.find_element(By.ID, "hand").get_attribute("value") == KNOWN
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card.picked")) == 6
    hands = browser.find_element(By.ID, "hands")
    hands.clear()
    hands.send_keys("3000")
    browser.find_element(By.ID, "play-open").click()
    browser.find_element(By.ID, "go").click()
    _wait_for(browser, "result", "error")      # a run longer than the page's wait: the page reloads itself at the end
    rows = _hearts(browser)
    assert [r[1] for r in rows] == ["3", "4", "5", "6"], rows       # heuristics and open hand: 100.0% both
    assert all(r[2].startswith("100.0%") and r[3].startswith("100.0%") for r in rows), rows
    url = browser.current_url
    assert "hand=JH+JD+AH+KH+QH+TH" in url and "play=open" in url and "r.target" not in url   # the URL holds the state
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card.picked")) == 6
    _shot(browser, tmp_path, "boulmous-known-hand")

    field = browser.find_element(By.ID, "hand")
    field.clear()
    field.send_keys("JH JH AH KH QH TH")
    browser.find_element(By.ID, "play-open").click()
    shown = browser.find_element(By.ID, "result")       # the known hand's answer, on the page until the next loads
    browser.find_element(By.ID, "go").click()
    # the click can return before the answer's page has loaded: the old page's result would pass for its answer
    _wait_for_new_page(browser, shown)
    _wait_for(browser, "error", "result")
    assert "duplicate card 'JH'" in browser.find_element(By.ID, "error").text
    assert not browser.find_elements(By.ID, "result")
    _shot(browser, tmp_path, "boulmous-bad-hand")

    browser.get(server + "/odds?game=bourre&hand=AH+KH+7C+4D+2S&up_card=9H&players=5&hands=2000&seed=3&explain=1")
    _wait_for(browser, "result")
    assert "best: " in browser.find_element(By.ID, "result").text
    _shot(browser, tmp_path, "bourre-explain")
    # the heuristics and rule variants, opened: each rule at its default, each heuristic with its help
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true);"
                           "document.getElementById('r-max_discard').scrollIntoView();")
    assert browser.find_element(By.ID, "r-max_discard").get_attribute("value") == "5"
    assert "strength estimate" in browser.find_element(By.ID, "heuristics-table").text
    _shot(browser, tmp_path, "bourre-options")
    browser.get(server + "/charts?game=bourre")
    imgs = browser.find_elements(By.CSS_SELECTOR, "img.report")
    assert all(browser.execute_script("return arguments[0].naturalWidth", i) > 0 for i in imgs)
    _shot(browser, tmp_path, "bourre-charts")


def test_browser_pot_progress_cancel_and_result(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(server + "/pot")
    for name, value in (("players", "7"), ("sessions", "100000"), ("deals", "200"), ("seed", "4")):
        e = browser.find_element(By.ID, name)
        e.clear()
        e.send_keys(value)
    browser.find_element(By.ID, "go").click()
    text = ""
    for _ in range(600):
        bars = browser.find_elements(By.ID, "progress-text")
        text = bars[0].text if bars else ""
        if " of 100,000 sessions done" in text and not text.startswith("bourre.pot: 0 "):
            break
        time.sleep(0.2)
    assert " of 100,000 sessions done" in text, text
    _shot(browser, tmp_path, "bourre-pot-progress")
    browser.find_element(By.ID, "cancel").click()
    for _ in range(300):
        if browser.find_elements(By.ID, "cancelled"):
            break
        time.sleep(0.2)
    assert "Cancelled after" in browser.find_element(By.ID, "cancelled").text
    _shot(browser, tmp_path, "bourre-pot-cancelled")

    browser.get(server + "/pot?run=1&players=7&sessions=2000&deals=200&seed=4")
    _wait_for(browser, "result")
    img = browser.find_element(By.CSS_SELECTOR, "#result img")
    assert browser.execute_script("return arguments[0].naturalWidth", img) > 0
    assert browser.find_elements(By.CSS_SELECTOR, "#result table.result td.num")
    _shot(browser, tmp_path, "bourre-pot")
