"""The local web page (``tricksim serve``, issue 29): with Starlette's test client (no browser), then in a real
headless Chromium driven by Selenium (skipped, with the reason, when the system's chromium and chromedriver are
absent).

The page runs each game's ``odds GAME --hand`` command: its numbers are the CLI's for the same seed; the known hand
``JH JD AH KH QH TH`` (trump hearts: the six best trumps) makes every bid in hearts, P(make) = 100.0%.
"""
from __future__ import annotations

import html
import re
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
from tricksim.analysis.output import pct  # noqa: E402
from tricksim.analysis.web.app import make_app  # noqa: E402

KNOWN = "JH JD AH KH QH TH"
SHOTS = Path("/tmp/web-shots")
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(make_app(tmp_path_factory.mktemp("web-runs")))


def _result(page: str) -> str:
    m = re.search(r'<pre class="odds" id="result">(.*?)</pre>', page, re.S)
    assert m, "no result in the page"
    return html.unescape(m.group(1))


def _error(page: str) -> str | None:
    m = re.search(r'id="error">([^<]*)<', page)
    return html.unescape(m.group(1)) if m else None


def _words(text: str) -> str:
    """The text with its lines' wrapping undone (the CLI wraps prose lines at 120 columns; the page does not)."""
    return " ".join(x for x in text.split() if x)


def _cli(capsys, args) -> str:
    capsys.readouterr()
    cli.main(args)
    out = capsys.readouterr().out
    return "\n".join(x for x in out.splitlines() if not x.startswith("results in "))


def _hearts_rows(text: str) -> list[str]:
    return [x for x in text.splitlines() if re.match(r"\s*H\s+[3-6]\s", x)]


def test_known_hand_makes_every_bid_in_hearts(client):
    r = client.get("/odds", params={"game": "boulmous", "hand": KNOWN, "hands": "3000", "seed": "5"})
    assert r.status_code == 200, _error(r.text)
    rows = _hearts_rows(_result(r.text))
    assert [x.split()[1] for x in rows] == ["3", "4", "5", "6"], rows
    assert all("100.0%" in x and "3,000" in x for x in rows), rows
    assert 'id="best"' in r.text and "best call: 6 H" in r.text


def test_page_numbers_are_the_clis_and_odds_hands(client, capsys, tmp_path):
    hand, hands, seed = "JH JD AH KH 9S TC", 4000, 11
    r = client.get("/odds", params={"game": "boulmous", "hand": hand, "hands": str(hands), "seed": str(seed),
                                    "seat": "2"})
    assert r.status_code == 200, _error(r.text)
    page = _result(r.text)
    out = _cli(capsys, ["odds", "boulmous", "--hand", hand, "--hands", str(hands), "--seed", str(seed),
                        "--seat", "2", "--out", str(tmp_path / "cli"), "-q"])
    assert _words(page) == _words(out)
    assert f"tricksim odds boulmous --hand '{hand}' --seat 2 --hands {hands} --seed {seed}" in html.unescape(r.text)
    # and the study function itself, formatted as the CLI formats it
    g = boulmous.GAME
    res = boulmous.odds_hand(boulmous.parse_hand(hand), 2, seed, hands, g.rules_from(), g.parse_seats(None))
    for c in res["calls"].itertuples():
        assert re.search(rf"^\s*{c.trump}\s+{c.bid}\s+{re.escape(pct(c.p_make, c.ci_low, c.ci_high))}\s+{c.n:,}\s",
                         page, re.M), (c.trump, c.bid)
    # a different seed gives other deals (the page does not show a cached answer of another seed)
    other = _result(client.get("/odds", params={"game": "boulmous", "hand": hand, "hands": str(hands),
                                                "seed": str(seed + 1), "seat": "2"}).text)
    assert other != page


def test_bourre_odds_and_explain_are_the_clis(client, capsys, tmp_path):
    base = {"game": "bourre", "hand": "AH KH 7C 4D 2S", "up_card": "9H", "players": "5", "seat": "1",
            "hands": "2000", "seed": "3"}
    args = ["odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--players", "5", "--seat", "1",
            "--hands", "2000", "--seed", "3", "-q"]
    for explain in (False, True):
        r = client.get("/odds", params={**base, **({"explain": "1"} if explain else {})})
        assert r.status_code == 200, _error(r.text)
        out = _cli(capsys, args + ["--out", str(tmp_path / f"cli{explain}")] + (["--explain"] if explain else []))
        assert _words(_result(r.text)) == _words(out)
        assert ("best: " if explain else "best decision: ") in r.text


def test_boomke_wies_odds_are_the_clis(client, capsys, tmp_path):
    hand = "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"
    r = client.get("/odds", params={"game": "boomke-wies", "hand": hand, "hands": "2000", "seed": "4"})
    assert r.status_code == 200, _error(r.text)
    out = _cli(capsys, ["odds", "boomke-wies", "--hand", hand, "--hands", "2000", "--seed", "4", "-q",
                        "--out", str(tmp_path / "cli")])
    assert _words(_result(r.text)) == _words(out)
    best = re.search(r'id="best">([^<]*)<', r.text).group(1)
    assert best.startswith("Best call per position") and best.count("\n") == 4   # the heading and four positions


@pytest.mark.parametrize("params, message", [
    ({"game": "boulmous", "hand": "JH JH AH KH QH TH"}, "duplicate card 'JH'"),
    ({"game": "boulmous", "hand": "JH JD AH"}, "must have 6 cards, got 3"),
    ({"game": "boulmous", "hand": "JH JD AH KH QH 2H"}, "card '2H' is not in this game's deck"),
    ({"game": "bourre", "hand": "AH KH 7C 4D 2S", "up_card": "9H", "players": "9"}, "2 to 8 players, got 9"),
    ({"game": "bourre", "hand": "AH KH 7C 4D 2S"}, "give the up-card"),
    ({"game": "boulmous", "hand": KNOWN, "hands": "200001"}, "must be 1 to 200,000"),
    ({"game": "boulmous", "hand": KNOWN, "hands": "0"}, "must be 1 to 200,000"),
    ({"game": "boulmous", "hand": KNOWN, "seed": "-1"}, "--seed must be an integer"),
    ({"game": "boulmous", "hand": KNOWN, "seat": "x"}, "the seat must be a whole number"),
    ({"game": "skat"}, "unknown game 'skat'"),
])
def test_bad_input_is_one_line_beside_the_form(client, params, message):
    r = client.get("/odds", params=params)
    assert r.status_code == 400
    err = _error(r.text)
    assert err is not None and message in err and "\n" not in err and "Traceback" not in r.text
    assert client.get("/").status_code == 200      # the server keeps serving


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
    """A request's run goes into a folder under the server's ``runs`` (named by its fields: the same URL resumes
    it); nothing is written in the current folder (where the CLI's default run folders would go)."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    runs = tmp_path / "runs"
    c = TestClient(make_app(runs))
    params = {"game": "boulmous", "hand": KNOWN, "hands": "1000", "seed": "2"}
    first = c.get("/odds", params=params)
    assert first.status_code == 200
    folders = [p for p in runs.iterdir()]
    assert len(folders) == 1 and folders[0].name.startswith("boulmous-") and any(folders[0].iterdir())
    assert _result(c.get("/odds", params=params).text) == _result(first.text)
    assert [p for p in runs.iterdir()] == folders and not any(work.iterdir())


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
    srv = uvicorn.Server(uvicorn.Config(make_app(tmp_path_factory.mktemp("browser-runs")), host="127.0.0.1",
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
    browser.find_element(By.ID, "go").click()
    text = browser.find_element(By.ID, "result").text
    rows = _hearts_rows(text)
    assert len(rows) == 4 and all("100.0%" in x for x in rows), rows
    assert "hand=JH+JD+AH+KH+QH+TH" in browser.current_url        # the URL holds the state
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.card.picked")) == 6
    _shot(browser, tmp_path, "boulmous-known-hand")

    field = browser.find_element(By.ID, "hand")
    field.clear()
    field.send_keys("JH JH AH KH QH TH")
    browser.find_element(By.ID, "go").click()
    assert "duplicate card 'JH'" in browser.find_element(By.ID, "error").text
    assert not browser.find_elements(By.ID, "result")
    _shot(browser, tmp_path, "boulmous-bad-hand")

    browser.get(server + "/odds?game=bourre&hand=AH+KH+7C+4D+2S&up_card=9H&players=5&hands=2000&seed=3&explain=1")
    assert "best: " in browser.find_element(By.ID, "result").text
    _shot(browser, tmp_path, "bourre-explain")
    browser.get(server + "/charts?game=bourre")
    imgs = browser.find_elements(By.CSS_SELECTOR, "img.report")
    assert all(browser.execute_script("return arguments[0].naturalWidth", i) > 0 for i in imgs)
    _shot(browser, tmp_path, "bourre-charts")
