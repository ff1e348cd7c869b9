"""The kernels' Numba cache is keyed on all kernel sources (kernels/__init__.py), sub-packages included: an
edit of any kernel file drops every cached kernel of every kernel folder, so code inlined across files (and
across folders) is never stale."""
from tricksim.kernels import _key_cache_on_sources


def test_cache_dropped_when_any_kernel_source_changes(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    src = tmp_path / "kernels"
    cache = src / "__pycache__"
    cache.mkdir(parents=True)
    (src / "a.py").write_text("A = 1\n")
    (src / "b.py").write_text("B = 1\n")
    (cache / "a.f-1.py311.nbi").write_text("old")
    _key_cache_on_sources(src)                      # no stamp yet: whatever is cached is dropped
    assert not (cache / "a.f-1.py311.nbi").exists()
    (cache / "a.f-1.py311.nbi").write_text("new")
    (cache / "a.f-1.py311.1.nbc").write_text("new")
    _key_cache_on_sources(src)                      # sources unchanged: the cache stays
    assert (cache / "a.f-1.py311.nbi").exists() and (cache / "a.f-1.py311.1.nbc").exists()
    (src / "b.py").write_text("B = 2\n")           # another file changes (a.f may inline b)
    _key_cache_on_sources(src)
    assert not (cache / "a.f-1.py311.nbi").exists() and not (cache / "a.f-1.py311.1.nbc").exists()
    assert (cache / "tricksim-kernels.sha256").exists()


def test_user_cache_dir_is_keyed_too(tmp_path, monkeypatch):
    src = tmp_path / "kernels"
    src.mkdir()
    (src / "a.py").write_text("A = 1\n")
    root = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root))
    mirror = root.joinpath(*src.resolve().parts[1:])
    mirror.mkdir(parents=True)
    (mirror / "a.f-1.py311.nbi").write_text("old")
    _key_cache_on_sources(src)
    assert not (mirror / "a.f-1.py311.nbi").exists()
    assert (mirror / "tricksim-kernels.sha256").exists()


def test_sub_packages_are_keyed_and_dropped_too(tmp_path, monkeypatch):
    """A game package's cache (kernels/<game>/__pycache__) is dropped when a shared file changes, and the
    top-level cache when a file of a game package changes."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    src = tmp_path / "kernels"
    game = src / "game"
    (game / "__pycache__").mkdir(parents=True)
    (src / "__pycache__").mkdir()
    (src / "cards.py").write_text("C = 1\n")
    (game / "__init__.py").write_text("")
    (game / "rules.py").write_text("R = 1\n")
    top, sub = src / "__pycache__" / "cards.f-1.py311.nbi", game / "__pycache__" / "rules.f-1.py311.nbi"
    _key_cache_on_sources(src)
    top.write_text("new")
    sub.write_text("new")
    _key_cache_on_sources(src)                      # unchanged: both caches stay
    assert top.exists() and sub.exists()
    (src / "cards.py").write_text("C = 2\n")       # a shared file changes: the game's cache goes too
    _key_cache_on_sources(src)
    assert not top.exists() and not sub.exists()
    top.write_text("new")
    sub.write_text("new")
    (game / "rules.py").write_text("R = 2\n")      # a game file changes: the top-level cache goes too
    _key_cache_on_sources(src)
    assert not top.exists() and not sub.exists()
    assert (game / "__pycache__" / "tricksim-kernels.sha256").read_text() == \
        (src / "__pycache__" / "tricksim-kernels.sha256").read_text()


def test_sub_package_mirror_under_numba_cache_dir(tmp_path, monkeypatch):
    src = tmp_path / "kernels"
    game = src / "game"
    game.mkdir(parents=True)
    (src / "a.py").write_text("A = 1\n")
    (game / "b.py").write_text("B = 1\n")
    root = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root))
    mirror = root.joinpath(*game.resolve().parts[1:])
    mirror.mkdir(parents=True)
    (mirror / "b.f-1.py311.nbi").write_text("old")
    _key_cache_on_sources(src)
    assert not (mirror / "b.f-1.py311.nbi").exists()
    assert (mirror / "tricksim-kernels.sha256").exists()
