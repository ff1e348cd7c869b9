"""The command line ends without the interpreter's teardown (analysis/common.py ``exit_now``, cli.main): the exit
code is the command's, every line it wrote reaches its reader (a pipe: block-buffered), the exit handlers run, and
a running non-daemon thread is waited for (the normal exit).  Each case is a fresh interpreter running the CLI as the
``tricksim`` command does (``main()`` on ``sys.argv``), with an exit handler of its own that prints a line last."""
import os
import subprocess
import sys

import pytest

from tricksim import cli

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

_RUN = """
import atexit, sys, threading, time
atexit.register(lambda: print("exit handler ran", flush=True))
from tricksim.cli import main
if {thread!r}:
    def late():
        time.sleep(1.0)
        print("thread done", flush=True)
    threading.Thread(target=late).start()
sys.argv = ["tricksim", *{argv!r}]
main()
print("not reached", flush=True)
"""


# stdout to a pipe is block-buffered unless PYTHONUNBUFFERED is set (as it may be where the tests run)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _run(argv, thread=False):
    return subprocess.run([sys.executable, "-c", _RUN.format(argv=list(argv), thread=thread)], capture_output=True,
                          text=True, timeout=300, env=ENV)


def test_the_whole_output_then_the_exit_handlers_and_exit_code_0(capsys):
    """``rules boulmous --full``: the same text as the command run in this process (all of it: about 30 KB through
    a pipe), then the exit handler's line; nothing after main() runs."""
    cli.main(["rules", "boulmous", "--full"])
    want = capsys.readouterr().out
    out = _run(["rules", "boulmous", "--full"])
    assert out.returncode == 0, out.stderr[-2000:]
    assert len(want) > 10_000
    assert out.stdout == want + "exit handler ran\n"


def test_a_user_error_keeps_exit_code_2_and_its_one_line():
    out = _run(["odds", "boulmous", "--hand", "JH JH AH KH 9S TC", "--hands", "100"])
    assert out.returncode == 2
    assert out.stderr == "tricksim: error: duplicate card 'JH' in Boulmous hand\n"
    assert out.stdout == "exit handler ran\n"


def test_help_exits_0():
    out = _run(["--help"])
    assert out.returncode == 0 and "Usage" in out.stdout and out.stdout.endswith("exit handler ran\n")


def test_a_running_thread_is_waited_for():
    """A non-daemon thread still running when the command ends: the normal exit, which waits for it (its line),
    then the exit handlers."""
    out = _run(["rules", "bourre"], thread=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.endswith("thread done\nexit handler ran\n") and "not reached" not in out.stdout


def test_main_with_arguments_returns_or_raises_as_before():
    """A caller's ``main([...])`` (the tests, the report's and the warm-up's children) keeps its process: success
    returns, an error raises ``SystemExit(2)``."""
    assert cli.main(["rules", "bourre"]) is None
    with pytest.raises(SystemExit) as e:
        cli.main(["odds", "boulmous", "--hand", "JH JH AH KH 9S TC", "--hands", "100"])
    assert e.value.code == 2


@pytest.mark.parametrize("code, rc, err", [(None, 0, ""), (0, 0, ""), (3, 3, ""), ("a message", 1, "a message\n")])
def test_exit_now_codes(code, rc, err):
    run = ("import atexit; atexit.register(lambda: print('exit handler ran'))\n"
           "from tricksim.analysis.common import exit_now\n"
           f"print('before', end='')\nexit_now({code!r})\nprint('not reached')\n")
    out = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, timeout=120, env=ENV)
    assert (out.returncode, out.stdout, out.stderr) == (rc, "beforeexit handler ran\n", err)
