"""The kernels' Numba cache is keyed on all kernel sources (kernels/__init__.py): an edit of any
kernel file drops every cached kernel, so code inlined across files is never stale."""
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
